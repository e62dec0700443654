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
}
