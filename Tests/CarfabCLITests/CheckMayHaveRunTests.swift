import Foundation
import Testing

/// `--check` of an `expect error` whose COMMAND it does not follow, where the run goes on
/// whether COMMAND ran or not (with `--keep-going`, or inside another `expect error`): an
/// `undo` or `redo`, a `begin`, a definition or a `var` there, at any depth, may have been
/// made, and the check claims no error that depends on its not being made. It took them as not
/// made: `nothing to redo` after an `undo` that ran, `unknown model 'nosuch'` through a
/// variable that undo had put back, `unknown family 'q'` two levels deep (trial 13, 4). The
/// lines after it are checked on: each script ends with `car nosuch`, which both report.
@Suite struct CheckMayHaveRunTests {
    /// The error every script below ends with, on line `line`.
    static func nosuch(line: Int) -> String {
        "<command-line>:\(line):5: error: unknown model 'nosuch'; valid models: compact, sports, suv\ncar nosuch\n    ^~~~~~\n"
    }

    @Test(arguments: [
        // An undo that ran: the car is there to redo.
        ("begin; commit\ncar sports\nexpect error nothing-to-undo undo\nredo\nlist\ncar nosuch\n", 3),
        // The undo put `$x` back to `suv`.
        ("begin; commit\nvar x suv\nvar x nosuch\nexpect error nothing-to-undo undo\ncar $x\ncar nosuch\n", 4),
        // A redo that ran: `$x` is `suv` again.
        ("begin; commit\nvar x suv\nundo\nexpect error x redo\ncar $x\ncar nosuch\n", 4),
        // A definition, a var and a begin two levels deep.
        ("expect error unknown-family expect error history family q \"F\" default w \"W\"\noption q r \"R\" price 1\ncar nosuch\n", 1),
        ("expect error x expect error y var w 1\necho $w\ncar nosuch\n", 1),
        ("expect error expectation-failed expect error unknown-model begin\nvar v 1\nundo\ncommit\nundo\ncar nosuch\n", 5)
    ])
    func going_on_the_check_claims_nothing_a_command_that_may_have_run_makes_untrue(script: String, runErrorLine: Int) throws {
        let lines = script.split(separator: "\n").count
        let run = try carfab(["--keep-going", "-e", script])
        #expect(CheckHistoryTests.errorLines(run) == [runErrorLine, lines], "\(run.stderr)")
        #expect(run.stderr.hasSuffix(Self.nosuch(line: lines)))
        let check = try carfab(["--check", "--keep-going", "-e", script])
        #expect(check == RunResult(stdout: "", stderr: Self.nosuch(line: lines), status: 1))
    }

    /// Stopping at the first error, the run goes on past `expect error expectation-failed
    /// expect error ...` only where the inner COMMAND ran: an `undo` there put `$x` back, a
    /// definition there is made.
    @Test(arguments: [
        "begin\nvar x suv\nvar x nosuch\nexpect error expectation-failed expect error nothing-to-undo undo\ncar $x\ncommit\n",
        "expect error expectation-failed expect error history family q \"F\" default w \"W\"\noption q r \"R\" price 1\n"
    ])
    func an_inner_command_that_ran_is_taken_as_made(script: String) throws {
        #expect(try carfab(["-e", script]) == RunResult(stdout: "", stderr: "", status: 0))
        #expect(try carfab(["--check", "-e", script]) == RunResult(stdout: "", stderr: "", status: 0))
        let nosuch = try carfab(["--check", "-e", script + "car nosuch\n"])
        let lines = script.split(separator: "\n").count + 1
        #expect(nosuch.stderr.hasPrefix(Self.nosuch(line: lines)), "\(nosuch.stderr)")
    }

    /// The language server publishes the check's diagnostics: none of those the check no
    /// longer claims.
    @Test func the_language_server_publishes_no_such_error() throws {
        let uri = "file:///may-have-run.carfab"
        let text =
            "begin; commit\ncar sports\nexpect error nothing-to-undo undo\nredo\n"
            + "expect error unknown-family expect error history family q \"F\" default w \"W\"\noption q r \"R\" price 1\n"
        let session = try serve(initializeRequest + didOpen(uri, text) + shutdownAndExit)
        let diagnostics = session.published.last?["diagnostics"] as? [[String: Any]]
        #expect(diagnostics?.count == 0, "\(String(describing: diagnostics))")
    }
}
