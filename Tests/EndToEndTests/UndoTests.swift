import Foundation
import Testing

/// `undo`, `redo` and transactions through the built binary: scripts compared whole, and
/// the prompt, where the history is always kept, through a pseudo-terminal.
@Suite struct UndoTests {
    @Test func a_script_error_inside_a_transaction_rolls_it_back_and_keep_going_goes_on() throws {
        let script = "car sports\nbegin\ncar suv 2\ncar nosuch\ntotal\nbegin\ncar compact\n"
        #expect(
            try carfab(["--keep-going"], stdin: script)
                == RunResult(
                    stdout: "1 Car in Stock. Total Value: $68,300.00\n",
                    stderr: """
                        <stdin>:4:5: error: unknown model 'nosuch'; valid models: compact, sports, suv
                        car nosuch
                            ^~~~~~
                        note: the open transaction was rolled back
                        <stdin>:7:1: warning: end of input with a transaction open: rolled back

                        """, status: 1))
    }

    /// The files, `-e` texts and `-i`'s standard input are one session's input (README "Using
    /// it"): a transaction one leaves open stays open for the next, and only the end of the last
    /// rolls it back, with the warning at its last line; `--check` follows the same (trial 5, 5).
    @Test func a_transaction_stays_open_across_files_and_texts_to_the_end_of_input() throws {
        let dir = try temporaryDirectory(with: ["open.carfab": "begin\ncar sports\n"])
        for check in [[], ["--check"]] {
            let committed = try carfab(check + ["open.carfab", "-e", "car suv; commit; total"], directory: dir)
            #expect(
                committed == RunResult(stdout: check.isEmpty ? "2 Cars in Stock. Total Value: $150,195.00\n" : "", stderr: "", status: 0))
            // Open to the end: rolled back there, where the last input ends.
            #expect(
                try carfab(check + ["open.carfab", "-e", "car suv", "-e", "echo last\necho line 2"], directory: dir)
                    == RunResult(
                        stdout: check.isEmpty ? "last\nline 2\n" : "",
                        stderr: "<command-line 2>:2:1: warning: end of input with a transaction open: rolled back\n", status: 0))
        }
        // Standard input read after -i goes on with it too.
        #expect(
            try carfab(["-e", "begin; car sports", "-i"], stdin: "commit\ntotal\n", directory: dir)
                == RunResult(stdout: "1 Car in Stock. Total Value: $68,300.00\n", stderr: "", status: 0))
    }

    @Test func a_source_is_one_step_and_undo_past_the_start_changes_nothing() throws {
        let dir = try temporaryDirectory(with: [
            "quote.carfab": "car sports 2\nset drivetrain 4wd\nrate GBP 0.5\nvar who Ann\n",
            "main.carfab": "begin\ncar suv\nsource quote.carfab\ntotal GBP\nundo\ntotal GBP; vars\nundo 2\ncommit\nundo\n"
        ])
        #expect(
            try carfab(["main.carfab"], directory: dir)
                == RunResult(
                    stdout: "3 Cars in Stock. Total Value: £111,747.50\n1 Car in Stock. Total Value: £49,413.81\nNo variables are set.\n",
                    stderr: """
                        main.carfab:7:6: error: only 1 step to undo since 'begin'
                        undo 2
                             ^
                        note: the open transaction was rolled back

                        """, status: 1))
    }

    @Test func undo_in_a_script_before_begin_says_why_it_cannot() throws {
        #expect(
            try carfab(["-e", "car sports; undo"])
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:13: error: no undo history is kept in a script: 'undo' works at the prompt, or after 'begin'
                        car sports; undo
                                    ^~~~

                        """, status: 1))
    }
}

/// Trial finding 9: inside an open transaction the history kept every step, so a few hundred
/// bytes of script (each `var` keeping the 512 KiB value it replaced) took GBs. The bound
/// now holds there too: the command that would pass it fails and the transaction rolls back.
@Suite struct UndoBoundEndToEndTests {
    /// The trial's files: `lK` sources `l(K-1)` twice, `l0` sets `a` twice from a 512 KiB `b`.
    static func bombFiles() -> [String: String] {
        var files = ["l0.carfab": "var a \"${b}1\"\nvar a \"${b}2\"\n"]
        for level in 1...11 { files["l\(level).carfab"] = "source l\(level - 1).carfab\nsource l\(level - 1).carfab\n" }
        files["main.carfab"] = "var b x\n" + String(repeating: "var b $b$b\n", count: 19) + "begin\nsource l$d.carfab\n"
        return files
    }

    @Test func a_transaction_past_the_bound_fails_with_history_too_large_in_bounded_memory() throws {
        let dir = try temporaryDirectory(with: Self.bombFiles())
        // d=8: 512 values of 512 KiB, 256 MiB kept without the bound (carfab then dies
        // under this address-space limit); with it, the 97th fails and nothing is kept.
        let run = try shell("prlimit --as=201326592 \"$CARFAB\" --var d=8 main.carfab", directory: dir)
        let chain = ["main.carfab:22"] + (1...8).reversed().map { "l\($0).carfab:\($0 == 6 || $0 == 5 ? 2 : 1)" }
        #expect(
            run
                == RunResult(
                    stdout: "",
                    stderr: chain.map { "In file included from \($0):\n" }.joined() + """
                        l0.carfab:1:1: error: the undo history cannot hold this change within its bound of 64 MiB (an open transaction's steps are never forgotten): the step it belongs to is taken back
                        var a "${b}1"
                        ^~~
                        note: the open transaction was rolled back

                        """, status: 1))
        // The same error in JSON, with its id; with --keep-going the script goes on after
        // the rollback (outside a transaction, where a step too large for the bound fails
        // the same way) and still ends in bounded memory.
        let json = try shell(
            "prlimit --as=201326592 \"$CARFAB\" --format json --keep-going --var d=9 main.carfab", directory: dir)
        let ids = try jsonObjects(json.stdout + json.stderr).compactMap { $0.value["id"] as? String }
        #expect(!ids.isEmpty && ids.allSatisfy { $0 == "history-too-large" }, "\(json)")
        #expect(json.status == 1)
    }
}

/// The prompt keeps the history from its first command.
@Suite(.serialized) struct ReplUndoTests {
    @Test func undo_redo_and_a_failed_command_inside_a_transaction_at_the_prompt() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("carfab-undo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        try Data("car compact\ncar nosuch\n".utf8).write(to: state.appendingPathComponent("bad.carfab"))
        let terminal = try PseudoTerminal(
            arguments: [], environment: ["XDG_STATE_HOME": state.path, "HOME": state.path],
            directory: state)
        #expect(terminal.waitForPrompt())
        #expect(
            terminal.enter("car sports 2; set drivetrain 4wd; clear; undo; total", expecting: "2 Cars in Stock. Total Value: $141,600.00"))
        #expect(terminal.enter("undo; total", expecting: "2 Cars in Stock. Total Value: $136,600.00"))
        #expect(terminal.enter("redo; total", expecting: "2 Cars in Stock. Total Value: $141,600.00"))
        #expect(terminal.enter("undo 9", expecting: "only 2 steps to undo"))
        #expect(terminal.enter("begin; car suv", expecting: "carfab> "))
        // A failed command changes nothing, a sourced file's earlier commands included; the
        // transaction stays open.
        #expect(terminal.enter("source bad.carfab", expecting: "unknown model 'nosuch'"))
        #expect(terminal.enter("total", expecting: "3 Cars in Stock. Total Value: $223,495.00"), "\(terminal.output)")
        #expect(terminal.enter("rollback; total", expecting: "2 Cars in Stock. Total Value: $141,600.00"))
        #expect(terminal.enter("rollback", expecting: "no transaction is open"))
        terminal.type("begin\r")
        #expect(terminal.waitForPrompt())
        terminal.type("\u{04}")
        #expect(terminal.waitFor("warning: end of input with a transaction open: rolled back"), "\(terminal.output)")
        // The prompt's status is that of its last command, as before.
        #expect(terminal.exitStatus() == 0)
    }

    /// The history's bound at the prompt: a `source` whose step the history cannot hold
    /// fails with `history-too-large` and changes nothing, inside a transaction (which stays
    /// open) or outside one.
    @Test func a_source_past_the_bound_fails_at_the_prompt_and_changes_nothing() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("carfab-undo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        // 120 values of 512 KiB each kept by the next: more than the bound.
        let big =
            "var b x\n" + String(repeating: "var b $b$b\n", count: 19)
            + (1...120).map { "var a \"${b}\($0)\"\n" }.joined()
        try Data(big.utf8).write(to: state.appendingPathComponent("big.carfab"))
        let terminal = try PseudoTerminal(
            arguments: [], environment: ["XDG_STATE_HOME": state.path, "HOME": state.path],
            directory: state)
        #expect(terminal.waitForPrompt())
        #expect(terminal.enter("begin; car suv", expecting: "carfab> "))
        let refused = "error: the undo history cannot hold this change"
        terminal.type("source big.carfab\r")
        #expect(terminal.waitFor(refused, times: 1), "\(terminal.output)")
        // The whole file is taken back, `var b` too; the transaction stays open.
        terminal.type("total; vars\r")
        #expect(terminal.waitFor("No variables are set.", times: 1), "\(terminal.output)")
        #expect(terminal.output.contains("1 Car in Stock. Total Value: $81,895.00"))
        terminal.type("rollback; total\r")
        #expect(terminal.waitFor("0 Cars in Stock. Total Value: $0.00", times: 1), "\(terminal.output)")
        // Outside a transaction too: the source is no step, so `undo` takes back the car.
        terminal.type("car compact; source big.carfab\r")
        #expect(terminal.waitFor(refused, times: 2), "\(terminal.output)")
        terminal.type("vars; undo; total\r")
        #expect(terminal.waitFor("No variables are set.", times: 2), "\(terminal.output)")
        #expect(terminal.waitFor("0 Cars in Stock. Total Value: $0.00", times: 2), "\(terminal.output)")
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }
}
