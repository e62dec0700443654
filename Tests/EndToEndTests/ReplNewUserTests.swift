import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The prompt as a new user met it (issue 13).
extension ReplTests {
    @Test func minus_i_after_a_failed_script_goes_to_the_prompt() throws {
        let terminal = try start(["-e", "car sprots", "-i"])
        #expect(terminal.waitFor("unknown model 'sprots'"))
        #expect(terminal.enter("echo at the prompt", expecting: "at the prompt\r\n"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 1)
    }

    @Test func a_dumb_terminal_gets_no_colour() throws {
        let terminal = try PseudoTerminal(environment: ["XDG_STATE_HOME": state.path, "TERM": "dumb", "NO_COLOR": ""])
        #expect(terminal.enter("car sprots", expecting: "did you mean"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
        #expect(!terminal.output.contains("\u{1B}["))
        // And an xterm does get it (NO_COLOR empty counts as unset).
        let xterm = try PseudoTerminal(environment: ["XDG_STATE_HOME": state.path, "TERM": "xterm", "NO_COLOR": ""])
        #expect(xterm.enter("car sprots", expecting: "did you mean"))
        xterm.type("\u{04}")
        #expect(xterm.exitStatus() == 0)
        #expect(xterm.output.contains("\u{1B}[31merror:"))
    }

    @Test func with_output_redirected_the_prompt_stays_on_the_terminal() throws {
        let file = state.appendingPathComponent("out.txt")
        let terminal = try PseudoTerminal(environment: ["XDG_STATE_HOME": state.path], standardOutput: file)
        #expect(terminal.waitFor("Type 'help' for commands"))
        #expect(terminal.waitFor("carfab> "))
        terminal.type("car suv 2; total GBP\r")
        #expect(terminal.waitFor("carfab> ", times: 2))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
        #expect(try String(contentsOf: file, encoding: .utf8) == "2 Cars in Stock. Total Value: £98,827.61\n")
        #expect(!terminal.output.contains("Total Value"))
    }

    @Test func a_stop_signal_at_the_prompt_ends_its_line() throws {
        let terminal = try start()
        #expect(terminal.waitFor("carfab> "))
        #expect(terminal.waitForPrompt())
        kill(terminal.pid, SIGTERM)
        #expect(terminal.exitStatus() == 143)
        // Bracketed paste is turned off again (`\e[?2004l`) before the line ends.
        #expect(terminal.output.hasSuffix("carfab> \u{1B}[?2004l\r\n"), "\(terminal.output.debugDescription)")
    }

    @Test func ctrl_c_during_source_says_where_it_stopped() throws {
        let fifo = state.appendingPathComponent("in.fifo")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        // Held open for writing here, so the sourced file waits for more after its lines.
        let writer = open(fifo.path, O_RDWR)
        defer { close(writer) }
        var lines = Array("echo one\necho two\n".utf8)
        _ = write(writer, &lines, lines.count)
        let terminal = try PseudoTerminal(environment: ["XDG_STATE_HOME": state.path], directory: state)
        #expect(terminal.enter("source in.fifo", expecting: "two\r\n"))
        let prompts = terminal.count("carfab> ")
        kill(terminal.pid, SIGINT)
        #expect(terminal.waitFor("carfab> ", times: prompts + 1))
        #expect(terminal.output.contains("carfab: interrupted at in.fifo:3\r\n"), "\(terminal.output.debugDescription)")
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }

    @Test func help_fits_the_terminal() throws {
        // This terminal is 100 columns wide: a summary that needs two lines at 80 fits one.
        let terminal = try start()
        #expect(terminal.enter("help", expecting: "Type 'help COMMAND' for details."))
        #expect(terminal.output.contains("  total [CURRENCY]            count the cars in stock and their value (default: USD)\r\n"))
        let lines = terminal.output.components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.count <= 100 })
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }

    @Test func tab_quotes_a_file_name_with_a_blank() throws {
        try Data("echo from my file\n".utf8).write(to: state.appendingPathComponent("my file.carfab"))
        let terminal = try PseudoTerminal(environment: ["XDG_STATE_HOME": state.path], directory: state)
        terminal.type("source my\t")
        #expect(terminal.waitFor("\"my file.carfab\""))
        #expect(terminal.enter("", expecting: "from my file\r\n"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }
}
