import Foundation
import Testing

/// `--check` follows `begin` ... `rollback`, `commit`, `undo` and `redo`, whose effect in a
/// script is known without running (trial 3, finding 9): what a rolled-back transaction or an
/// `undo` took back is gone in the check as in the run, and `undo` before any `begin` is the
/// same error. The language server's diagnostics are the check's, so they agree with its hover.
@Suite struct CheckHistoryTests {
    @Test(arguments: [
        #"begin; family paint "P" default w "W"; rollback; car sports; set paint w"#,
        "var x 1; begin; var y 2; rollback; echo $y",
        #"family paint "P" default w "W"; undo; car sports; set paint w"#,
        #"begin; family paint "P" default w "W"; undo; car sports; set paint w"#,
        #"begin; family paint "P" default w "W"; undo 2"#,
        "redo",
        "begin; var y 1; undo; redo 2",
        #"begin; begin; model m "M" price 1 floorplan short suspension road drivetrain front; rollback; commit; car m"#,
        #"begin; currency CHF "F" digits 2 rate 0.9; forbid drivetrain 4wd with suspension race; rollback; car sports; total CHF"#,
        #"begin; option drivetrain h "H" price 1; commit; undo; car sports; set drivetrain h"#,
        // An error in a transaction rolls it back: what it defined is gone after it.
        #"begin; family paint "P" default w "W"; car nosuch; set paint w"#
    ])
    func check_reports_what_running_reports(script: String) throws {
        let run = try carfab(["--keep-going", "-e", script])
        #expect(run.status == 1)
        #expect(try carfab(["--check", "--keep-going", "-e", script]) == RunResult(stdout: "", stderr: run.stderr, status: 1))
        // Stopping at the first error, the check stops at the same one.
        let first = try carfab(["-e", script])
        #expect(try carfab(["--check", "-e", script]) == RunResult(stdout: "", stderr: first.stderr, status: 1))
    }

    @Test(arguments: [
        #"begin; family paint "P" default w "W"; undo; redo; car sports; set paint w; commit"#,
        "begin; var y 1; undo; redo; echo $y; commit",
        #"begin; family paint "P" default w "W"; commit; begin; rollback; car sports; set paint w"#,
        // `set` to the option the car has is no step when run: the check cannot count it, so it
        // takes back nothing past it (and says nothing of a count it cannot know).
        #"begin; family paint "P" default w "W"; car sports; car sports; set drivetrain rear; undo; set paint w; commit"#,
        #"begin; car sports; family paint "P" default w "W"; undo; set drivetrain rear; redo; set paint w; commit"#
    ])
    func what_running_accepts_check_accepts(script: String) throws {
        #expect(try carfab(["-e", script]).status == 0)
        #expect(try carfab(["--check", "-e", script]) == RunResult(stdout: "", stderr: "", status: 0))
    }

    /// `expect error ID COMMAND` is not run by the check, but its COMMAND, when it does not fail,
    /// is a step for `undo` when run (the expectation fails, and with --keep-going the script
    /// goes on): the check does not follow `undo` past it, so it never reports what running
    /// does not (it reported `unknown family 'roof'`; a reviewer's finding).
    @Test func an_undo_past_expect_error_is_not_followed_by_the_check() throws {
        let script = #"begin; family roof "R" default a "A"; commit; expect error zzz var y 1; undo; parts roof"#
        let run = try carfab(["--keep-going", "-e", script])
        #expect(run.status == 1 && run.stderr.hasPrefix("<command-line>:1:"), "\(run.stderr)")
        #expect(!run.stderr.contains("unknown family"))
        #expect(try carfab(["--check", "--keep-going", "-e", script]) == RunResult(stdout: "", stderr: "", status: 0))
    }

    @Test func the_language_server_diagnostics_agree_with_its_hover() throws {
        let uri = "file:///check-history.carfab"
        let text = "var x 1\nbegin\nvar y 2\nfamily paint \"P\" default w \"W\"\nrollback\necho $y\ncar sports\nset paint w\n"
        let session = try serve(
            initializeRequest + didOpen(uri, text) + request(2, "textDocument/hover", at(uri, 5, 6)) + shutdownAndExit)
        let diagnostics = session.published.last?["diagnostics"] as? [[String: Any]] ?? []
        #expect(
            diagnostics.map { $0["message"] as? String } == [
                "unknown variable 'y'; did you mean '$x'?",
                "unknown family 'paint'; valid families: floorplan, suspension, drivetrain"
            ])
        let hover = (session.response(2)?["result"] as? [String: Any])?["contents"] as? [String: Any]
        #expect((hover?["value"] as? String)?.contains("`$y` is not set here") == true)
    }
}
