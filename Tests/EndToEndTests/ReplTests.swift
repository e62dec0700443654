import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The interactive prompt, driven through a pseudo-terminal as a person would use it.
@Suite(.serialized) struct ReplTests {
    let state: URL

    init() throws {
        state = try scratchFolder("state")
    }

    func start(_ arguments: [String] = []) throws -> PseudoTerminal {
        try PseudoTerminal(arguments: arguments, environment: ["XDG_STATE_HOME": state.path, "HOME": state.path])
    }

    var historyFile: URL { state.appendingPathComponent("carfab/history") }

    @Test func banner_prompt_and_ctrl_d_exits_zero() throws {
        let terminal = try start()
        #expect(terminal.waitFor("Type 'help' for commands"))
        #expect(terminal.waitFor("carfab> "))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }

    @Test func tab_completes_a_model_a_family_and_an_option() throws {
        let terminal = try start()
        #expect(terminal.enter("car spo\t", expecting: "carfab> "))
        #expect(terminal.enter("set dri\t4\t", expecting: "carfab> "))
        #expect(terminal.enter("show", expecting: "Drive: 4WD"), "\(terminal.output)")
        #expect(terminal.output.contains("Car type: Porsche Boxster"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }

    @Test func several_candidates_are_listed() throws {
        let terminal = try start()
        terminal.type("car s\t")
        #expect(
            terminal.waitFor("sports  Porsche Boxster    $68,300.00\r\nsuv     Cadillac Escalade  $81,895.00\r\n"),
            "\(terminal.output)")
        // Names with nothing to say about them are listed in columns.
        terminal.interrupt()
        terminal.type("set \t")
        #expect(terminal.waitFor("floorplan   suspension  drivetrain"), "\(terminal.output)")
        terminal.interrupt()
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }

    @Test func ctrl_c_abandons_the_line_and_the_next_command_works() throws {
        let terminal = try start()
        terminal.type("car sp")
        #expect(terminal.interrupt(), "\(terminal.output.debugDescription)")
        #expect(terminal.enter("echo after", expecting: "after\r\n"), "\(terminal.output)")
        #expect(terminal.enter("list", expecting: "The stock is empty."))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }

    @Test func errors_show_a_caret_and_the_session_goes_on() throws {
        let terminal = try start()
        #expect(terminal.enter("car sprots", expecting: "did you mean 'sports'?"))
        #expect(terminal.waitFor("car sprots\r\n    ^~~~~~"))
        #expect(terminal.enter("car suv 2; total GBP", expecting: "2 Cars in Stock. Total Value: £98,827.61"))
        terminal.type("quit\r")
        #expect(terminal.exitStatus() == 0)
    }

    @Test func an_open_quote_continues_at_a_second_prompt() throws {
        let terminal = try start()
        terminal.type("echo \"£ é\r")
        #expect(terminal.waitFor("...> "))
        #expect(terminal.enter("done\"", expecting: "£ é\r\ndone\r\n"), "\(terminal.output)")
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }

    @Test func history_is_recalled_with_up_also_after_a_restart_and_kept_private() throws {
        let first = try start()
        #expect(first.enter("echo remembered", expecting: "remembered\r\n"))
        #expect(first.enter("echo remembered", expecting: "carfab> "))
        first.type("\u{1B}[A\r")
        // (Bracketed paste, asked for while a line is read, is off, `\e[?2004l`, before a command runs.)
        #expect(first.waitFor("\r\n\u{1B}[?2004lremembered\r\n", times: 3), "\(first.output)")
        first.type("\u{04}")
        #expect(first.exitStatus() == 0)

        let attributes = try FileManager.default.attributesOfItem(atPath: historyFile.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let saved = try String(contentsOf: historyFile, encoding: .utf8)
        #expect(saved.components(separatedBy: "echo\\040remembered").count == 2, "consecutive duplicates collapse: \(saved)")

        let second = try start()
        second.type("\u{1B}[A\r")
        #expect(second.waitFor("\r\n\u{1B}[?2004lremembered\r\n", times: 1), "\(second.output)")
        second.type("\u{04}")
        #expect(second.exitStatus() == 0)
    }

    @Test func sigterm_saves_history_and_exits_143() throws {
        let terminal = try start()
        #expect(terminal.enter("echo before term", expecting: "before term\r\n"))
        #expect(terminal.waitForPrompt())
        kill(terminal.pid, SIGTERM)
        #expect(terminal.exitStatus() == 143)
        #expect(try String(contentsOf: historyFile, encoding: .utf8).contains("echo\\040before\\040term"))
    }

    @Test func a_history_path_that_is_not_a_file_is_a_warning_not_a_failure() throws {
        try FileManager.default.createDirectory(at: historyFile, withIntermediateDirectories: true)
        let terminal = try start()
        #expect(terminal.enter("echo still works", expecting: "still works\r\n"))
        // `services` says what the warning said: the history is off, not running (trial 5, 5).
        #expect(terminal.enter("services", expecting: "output   running\r\nhistory  off\r\n"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
        #expect(
            terminal.output.contains(
                "carfab: warning: history file '\(historyFile.path)' is not a regular file; it is neither read nor written"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: historyFile.path).isEmpty)
    }

    @Test func i_enters_the_prompt_after_the_scripts() throws {
        let terminal = try start(["-e", "car suv 2", "-i"])
        #expect(terminal.enter("total GBP", expecting: "2 Cars in Stock. Total Value: £98,827.61"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }
}

extension ReplTests {
    @Test func ctrl_c_interrupts_a_running_source_and_returns_to_the_prompt() throws {
        let terminal = try start()
        // `source /dev/stdin` reads the terminal itself: it runs until interrupted.
        terminal.type("source /dev/stdin\r")
        // Running the command: libedit has given the terminal back (echo on), and carfab reads it.
        #expect(waitUntilBlockedReading(terminal.pid) { !terminal.echoIsOff })
        let prompts = terminal.count("carfab> ")
        kill(terminal.pid, SIGINT)
        #expect(terminal.waitFor("carfab> ", times: prompts + 1), "\(terminal.output.debugDescription)")
        #expect(terminal.enter("echo back", expecting: "back\r\n"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }
}

extension ReplTests {
    @Test func sighup_saves_history_and_exits_129() throws {
        let terminal = try start()
        #expect(terminal.enter("echo before hangup", expecting: "before hangup\r\n"))
        #expect(terminal.waitForPrompt())
        kill(terminal.pid, SIGHUP)
        #expect(terminal.exitStatus() == 129)
        #expect(try String(contentsOf: historyFile, encoding: .utf8).contains("echo\\040before\\040hangup"))
    }
}
