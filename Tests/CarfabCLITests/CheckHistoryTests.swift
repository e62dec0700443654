import CarFactory
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

    /// `expect error ID COMMAND` whose COMMAND the check does not run (`set`) may be a step for
    /// `undo` when run (it does not fail, the expectation fails, and with --keep-going the
    /// script goes on): the check does not follow `undo` past it, so it never reports what
    /// running does not (it reported `unknown family 'roof'`; a reviewer's finding). A COMMAND
    /// it follows (`var`) it runs as running does: the expectation fails there, and `undo`
    /// takes back its step (trial 11, 5).
    @Test func an_undo_past_expect_error_is_not_followed_by_the_check() throws {
        let unknown = #"begin; family roof "R" default a "A"; commit; car sports; expect error zzz set drivetrain front; undo; parts roof"#
        let run = try carfab(["--keep-going", "-e", unknown])
        #expect(run.status == 1 && run.stderr.hasPrefix("<command-line>:1:"), "\(run.stderr)")
        #expect(!run.stderr.contains("unknown family"))
        #expect(try carfab(["--check", "--keep-going", "-e", unknown]) == RunResult(stdout: "", stderr: "", status: 0))
        let followed = #"begin; family roof "R" default a "A"; commit; expect error zzz var y 1; undo; parts roof"#
        let ran = try carfab(["--keep-going", "-e", followed])
        #expect(ran.status == 1 && ran.stderr.hasPrefix("<command-line>:1:60: error: expected error zzz, got no error"), "\(ran.stderr)")
        #expect(try carfab(["--check", "--keep-going", "-e", followed]) == RunResult(stdout: "", stderr: ran.stderr, status: 1))
    }

    /// The lines where `result`'s standard error reports an error (`FILE:LINE:COLUMN: error:`).
    static func errorLines(_ result: RunResult) -> Set<Int> {
        var lines = Set<Int>()
        for line in result.stderr.split(separator: "\n") where line.contains(": error: ") {
            let fields = line.split(separator: ":", maxSplits: 3)
            if fields.count > 2, let number = Int(fields[1]) { lines.insert(number) }
        }
        return lines
    }

    /// Once an `undo` reached a step the check did not run, it takes nothing back in the
    /// check; the run's next `undo` takes back a definition the check still has. Defined again,
    /// it is no error when run, so none in the check (it was "already defined"; trial 5, 2).
    @Test func a_definition_the_run_may_have_undone_is_no_error_when_defined_again() throws {
        let model = #"model m1 "M" price 30000 floorplan standard suspension road drivetrain front"#
        let script = "begin\ncommit\ncar sports\nundo\n\(model)\nundo\n\(model)\ncar m1\n"
        #expect(try carfab(["-e", script]) == RunResult(stdout: "", stderr: "", status: 0))
        #expect(try carfab(["--check", "-e", script]) == RunResult(stdout: "", stderr: "", status: 0))
        #expect(try carfab(["--check", "--keep-going", "-e", script]) == RunResult(stdout: "", stderr: "", status: 0))
    }

    /// Going on after errors, a command the check does not run may fail when run, which rolls
    /// the open transaction back: what it defined may be gone. Defining it again is then no
    /// error in the check, and a rollback takes back nothing the run may have kept (trial 5, 1).
    @Test(arguments: [
        // A refused `set` rolls back the transaction: line 5 defines paint anew when run.
        "begin\nfamily paint \"P\" default white \"W\"\ncar sports\nset drivetrain front\nfamily paint \"P\" default white \"W\"\noption paint red \"R\" price 1\n",
        // `show` with no car fails when run: paint is then defined outside any transaction,
        // the `rollback` is an error, and paint is still there for `parts`.
        "begin\nshow\nfamily paint \"P\" default white \"W\"\nrollback\nparts paint\n",
        // The same through an error the check cannot be sure of.
        "begin\nfamily paint \"P\" default white \"W\"\ncar sports\nundo\nfamily paint \"P\" default white \"W\"\n"
            + "family roof \"R\" default a \"A\"\nrollback\nparts roof\n",
        // After an `expect error` the check does not follow, the COMMAND of a later one that
        // defines may have run (the expectation failed, and the run went on): what it defines
        // is no unknown name after it (trial 12, L2), and defining it again is no error.
        "expect error refused forbid floorplan long with suspension road\n"
            + "expect error no-current-car model m9 \"T9\" price 30000 floorplan standard suspension road drivetrain 4wd\ncar m9 5\n",
        "expect error no-current-car try clear\nexpect error unknown-model family f19 \"F 19\" default d19 \"D\" price 2500\n"
            + "try option f19 tt23 \"T\" price 1\n",
        "expect error no-current-car try clear\nexpect error unknown-model family f19 \"F\" default d19 \"D\"\n"
            + "expect error unknown-model var v d19\nfamily f19 \"F\" default d19 \"D\"\necho $v\n"
    ])
    func the_check_reports_no_error_the_run_with_keep_going_does_not_have(script: String) throws {
        let run = try carfab(["--keep-going", "-e", script])
        let check = try carfab(["--check", "--keep-going", "-e", script])
        #expect(Self.errorLines(check).isSubset(of: Self.errorLines(run)), "run:\n\(run.stderr)check:\n\(check.stderr)")
        #expect(!check.stderr.contains("warning") || run.stderr.contains("warning"))
    }

    /// A `set` the check does not run may fail when run, rolling back the transaction and the
    /// `var` in it: `$v` is then the value from before the `begin`, which the check cannot
    /// know. It said `unknown drivetrain option 'long'` on line 6, where the run set `rear`
    /// (check12's fuzz, seed 47). A `var` from an uncertain one is uncertain too; set again,
    /// it is known, and checked.
    @Test func a_variable_the_run_may_have_rolled_back_is_not_checked_until_set_again() throws {
        let script =
            "car sports\nvar v rear\nbegin\nvar v long\nset drivetrain front\nset drivetrain $v\n"
            + "var w $v\nset drivetrain $w\nvar v long\nset drivetrain $v\n"
        let run = try carfab(["--keep-going", "-e", script])
        #expect(Self.errorLines(run) == [5, 10], "\(run.stderr)")
        let check = try carfab(["--check", "--keep-going", "-e", script])
        // The check's transaction is open there (the run's is, unless line 5 failed).
        let error =
            "<command-line>:10:16: error: unknown drivetrain option 'long'; valid drivetrain options: front, rear, 4wd\n"
            + "set drivetrain $v\n               ^~\nnote: the open transaction was rolled back\n"
        #expect(check == RunResult(stdout: "", stderr: error, status: 1))
    }

    /// After a command the check does not run in a transaction (`car`), a rollback takes
    /// nothing back in the check; when run, it takes back the `var` set after that command:
    /// `$v` is uncertain from there. The check said `unknown model 'nosuch'` on line 6, where
    /// the run's `$v` was `sports` again (chkfuzz, seed 5162).
    @Test func a_variable_a_rollback_may_have_taken_back_is_not_checked_until_set_again() throws {
        let script = "var v sports\nbegin\ncar compact\nvar v nosuch\nrollback\ncar $v\ncar nosuch\n"
        let error =
            "<command-line>:7:5: error: unknown model 'nosuch'; valid models: compact, sports, suv\ncar nosuch\n    ^~~~~~\n"
        #expect(try carfab(["--keep-going", "-e", script]) == RunResult(stdout: "", stderr: error, status: 1))
        #expect(try carfab(["--check", "--keep-going", "-e", script]) == RunResult(stdout: "", stderr: error, status: 1))
    }

    /// A `try` of a command the check does not run may fail when run, rolling back the
    /// transaction open outside it: the `var` after it is then no part of that transaction.
    /// The check took it back with the transaction on line 3's error, and said `nothing to
    /// undo` on line 4, where the run's undo took the `var` back (check12's fuzz, seed 5848).
    @Test func a_try_the_check_does_not_run_may_have_rolled_the_transaction_back() throws {
        let script = "begin\ntry set drivetrain rear\nexpect error x var z 1\nundo\ncar nosuch\n"
        let run = try carfab(["--keep-going", "-e", script])
        #expect(Self.errorLines(run) == [2, 3, 5], "\(run.stderr)")
        let error =
            "<command-line>:5:5: error: unknown model 'nosuch'; valid models: compact, sports, suv\ncar nosuch\n    ^~~~~~\n"
        // The check's transaction is open there (the run's is, unless line 2 failed).
        #expect(
            try carfab(["--check", "--keep-going", "-e", script])
                == RunResult(stdout: "", stderr: error + "note: the open transaction was rolled back\n", status: 1))
    }

    /// A command passed over for an uncertain variable may define, source a file or set a
    /// variable (as the COMMAND of an `expect error` the run went on after): what it made is not
    /// known to the check. It said `unknown model 'm9'` on line 9, where line 7 had failed in
    /// the run, rolling back line 5, and line 8 defined `m9`. A `var` of a name written out
    /// makes that variable uncertain, and the check goes on; the others stop it (`car nosuch`
    /// is not checked).
    @Test(arguments: [
        ("model $n \"T\" price 30000 floorplan short suspension sports drivetrain rear\ncar m9\n", false),
        ("family $n \"F\" default d \"D\"\nset m9 d\n", false),
        ("source $f\ncar m8\n", false),
        ("expect error x model $n \"T\" price 30000 floorplan short suspension sports drivetrain rear\ncar m9\n", false),
        ("var $n 1\necho $m9\n", false),
        ("expect error x var w $n\necho $w\n", true)
    ])
    func what_a_command_passed_over_for_an_uncertain_variable_made_is_not_checked(rest: String, goesOn: Bool) throws {
        let model = "model m8 \"T\" price 30000 floorplan short suspension sports drivetrain rear\n"
        let dir = try temporaryDirectory(with: ["s8.carfab": model])
        let script =
            "car sports\nvar n m9\nvar f \"\(dir.path)/s8.carfab\"\nbegin\nvar n m10\nvar f none.carfab\nset drivetrain front\n"
            + rest + "car nosuch\n"
        let run = try carfab(["--keep-going", "-e", script])
        #expect(Self.errorLines(run).subtracting([7, 8]) == [10], "\(run.stderr)")
        let check = try carfab(["--check", "--keep-going", "-e", script])
        let nosuch =
            "<command-line>:10:5: error: unknown model 'nosuch'; valid models: compact, sports, suv\n"
            + "car nosuch\n    ^~~~~~\nnote: the open transaction was rolled back\n"
        #expect(check == RunResult(stdout: "", stderr: goesOn ? nosuch : "", status: goesOn ? 1 : 0), "\(check)")
    }

    /// An `undo` the check does not follow (it reached `car`, a step the check does not run)
    /// may take back a `var` when run: `$v` is then uncertain until set again. The check said
    /// `unknown model 'x'` on line 6, where the run's `undo 2` had taken `var v x` back and
    /// `$v` was `sports` (trial 12's check fuzz, seed 1785).
    @Test func a_variable_an_unfollowed_undo_may_have_taken_back_is_not_checked_until_set_again() throws {
        let script = "var v sports\nbegin\nvar v x\ncar compact\nundo 2\ncar $v\ncommit\nvar v x\ncar $v\n"
        let error =
            "<command-line>:9:5: error: unknown model 'x'; valid models: compact, sports, suv\ncar $v\n    ^~\n"
        #expect(try carfab(["-e", script]) == RunResult(stdout: "", stderr: error, status: 1))
        #expect(try carfab(["--check", "-e", script]) == RunResult(stdout: "", stderr: error, status: 1))
        #expect(try carfab(["--check", "--keep-going", "-e", script]) == RunResult(stdout: "", stderr: error, status: 1))
        // Rolled back, `$v` is `sports` again when run; the check still passes over `car $v`,
        // which is then a step for `undo` all the same (it said `nothing to undo` on line 9).
        let rolledBack = "var v sports\nbegin\nvar v x\ncar compact\nundo 2\nrollback\nbegin\ncar $v\nundo\nundo\ncommit\n"
        #expect(Self.errorLines(try carfab(["-e", rolledBack])) == [10])
        #expect(try carfab(["--check", "-e", rolledBack]) == RunResult(stdout: "", stderr: "", status: 0))
    }

    /// Random scripts of definitions, variables, the history's commands, `try` and `car`
    /// (trial 5's generator, seeded): the check reports an error on no line where running
    /// with `--keep-going` has none. (Before: about one script in twenty did.)
    @Test func random_scripts_the_check_finds_no_error_the_run_does_not() throws {
        var random = SplitMix64(state: 1_059)
        for _ in 0..<120 {
            let script = Self.randomScript(&random, commands: 40)
            let run = try carfab(["--keep-going", "-e", script])
            let check = try carfab(["--check", "--keep-going", "-e", script])
            #expect(
                Self.errorLines(check).isSubset(of: Self.errorLines(run)), "script:\n\(script)\nrun:\n\(run.stderr)check:\n\(check.stderr)")
            if Self.errorLines(check).subtracting(Self.errorLines(run)).count > 0 { return }
        }
    }

    /// One of `words`, chosen by `random`.
    static func pick(_ random: inout SplitMix64, _ words: [String]) -> String { words[random.below(words.count)] }

    static func randomScript(_ random: inout SplitMix64, commands: Int) -> String {
        let families = ["pa", "tr"]
        let options = ["o1", "o2", "o3"]
        let models = ["m1", "m2"]
        var lines: [String] = []
        for _ in 0..<commands {
            let r = random.below(100)
            let line: String
            switch r {
            case 0..<12: line = "begin"
            case 12..<20: line = "commit"
            case 20..<28: line = "rollback"
            case 28..<38: line = random.below(3) == 0 ? "undo \(1 + random.below(3))" : "undo"
            case 38..<45: line = random.below(3) == 0 ? "redo \(1 + random.below(2))" : "redo"
            case 45..<53: line = "family \(pick(&random, families)) \"F\" default \(pick(&random, options)) \"X\""
            case 53..<63: line = "option \(pick(&random, families)) \(pick(&random, options)) \"O\" price \(random.below(10))"
            case 63..<68: line = "model \(pick(&random, models)) \"M\" price 30000 floorplan standard suspension road drivetrain front"
            case 68..<73: line = "var \(pick(&random, ["a", "b"])) x"
            case 73..<80: line = "echo $\(pick(&random, ["a", "b"]))"
            case 80..<87: line = "parts \(pick(&random, families))"
            case 87..<90: line = "currency \(pick(&random, ["QQQ", "RRR"])) \"q\" digits 2 rate 2"
            case 90..<93: line = "try option \(pick(&random, families)) \(pick(&random, options)) \"O\" price 1"
            case 93..<96: line = "car \(pick(&random, models + ["sports"]))"
            default:
                line =
                    "forbid \(pick(&random, families)) \(pick(&random, options)) with \(pick(&random, families)) \(pick(&random, options))"
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
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
