import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The prompt's defects from issues 19 and 20, driven through a pseudo-terminal.
extension ReplTests {
    @Test func tab_after_earlier_commands_on_the_line_describes_the_car_they_make() throws {
        let terminal = try start()
        #expect(terminal.enter("car suv", expecting: "carfab> "))
        terminal.type("car sports; set suspension \t")
        // On the sports car race suspension is its own; on the SUV's long floorplan it is forbidden.
        #expect(terminal.waitFor("(current)"), "\(terminal.output.debugDescription)")
        #expect(
            terminal.output.contains("race  ") && !terminal.output.contains("(not with the long floorplan)"),
            "\(terminal.output.debugDescription)")
        // Each wait is for what only the step waited on prints ("suv" is in the first line
        // typed: under load, waiting for it let Ctrl-D come while `list` ran).
        let prompts = terminal.count("carfab> ")
        terminal.interrupt()
        #expect(terminal.waitFor("carfab> ", times: prompts + 1))
        #expect(terminal.enter("list", expecting: "Cadillac Escalade"), "\(terminal.output.debugDescription)")
        #expect(terminal.waitFor("carfab> ", times: prompts + 2))
        #expect(!terminal.output.contains("Porsche"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }
}

extension ReplTests {
    /// What carfab says about `line` read as a script from standard input: its first line.
    func scriptError(_ line: [UInt8]) throws -> String {
        let result = try carfab([], stdinData: Data(line + [0x0A]))
        return String(result.stderr.split(separator: "\n").first ?? "")
    }

    @Test func bytes_that_are_not_utf8_and_nul_reach_the_engine_as_in_a_script() throws {
        let terminal = try start()
        for line: [UInt8] in [
            Array("echo a".utf8) + [0xFF] + Array("b".utf8),  // a byte no UTF-8 has
            Array("echo é".utf8) + [0xC3, 0x41],  // a lead without its continuation
            Array("echo ".utf8) + [0xE9, 0x74, 0xE9],  // Latin-1
            Array("echo a".utf8) + [0x00] + Array("b".utf8)
        ] {  // NUL
            let expected = try scriptError(line)
            #expect(expected.hasPrefix("<stdin>:1:"), "\(expected)")
            terminal.type(bytes: line + [0x0D])
            // The prompt counts its lines on: the same column and message after the line number.
            let message = String(expected.dropFirst("<stdin>:1".count))
            #expect(terminal.waitFor(message), "\(message) in \(terminal.output.debugDescription)")
        }
        // Nothing was run as Latin-1 or without its NUL.
        #expect(!terminal.output.contains("\r\nab\r\n") && !terminal.output.contains("\u{E9}t\u{E9}\r\n"))
        #expect(terminal.enter("echo still here", expecting: "still here\r\n"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }
}

extension ReplTests {
    /// Whether `text` holds an SGR sequence (colour, bold, dim).
    func hasStyle(_ text: String) -> Bool {
        text.range(of: "\u{1B}\\[[0-9;]*m", options: .regularExpression) != nil
    }

    /// A session at a terminal of type `term` (nil: TERM unset) that may colour (NO_COLOR empty):
    /// `car ` is typed, then an unknown model.
    func session(term: String?) throws -> PseudoTerminal {
        let terminal = try PseudoTerminal(
            environment: [
                "XDG_STATE_HOME": state.path, "HOME": state.path, "NO_COLOR": "",
                "TERM": term ?? ""
            ], unset: term == nil ? ["TERM"] : [])
        terminal.type("car ")
        #expect(terminal.waitFor("car "))
        return terminal
    }

    @Test func colour_and_the_hint_only_where_terminfo_says_the_terminal_has_colours() throws {
        let colours = try session(term: "xterm-256color")
        #expect(colours.waitFor("\u{1B}[2mMODEL [COUNT]\u{1B}[0m"), "\(colours.output.debugDescription)")
        #expect(colours.enter("sprots", expecting: "did you mean"))
        #expect(colours.output.contains("\u{1B}[1;32mcarfab>"))
        colours.type("\u{04}")
        #expect(colours.exitStatus() == 0)
        for term: String? in [nil, "vt100", "nosuchterm", "dumb"] {
            let terminal = try session(term: term)
            #expect(terminal.enter("sprots", expecting: "did you mean"))
            terminal.type("\u{04}")
            #expect(terminal.exitStatus() == 0)
            #expect(!hasStyle(terminal.output), "TERM=\(term ?? "(unset)"): \(terminal.output.debugDescription)")
            #expect(!terminal.output.contains("MODEL [COUNT]"), "TERM=\(term ?? "(unset)")")
        }
    }
}

extension ReplTests {
    @Test func help_keys_lists_the_editing_keys_and_editrc_binds_them() throws {
        // The person's ~/.editrc is read: here it binds Ctrl-N to carfab's completion.
        try "carfab:bind ^N carfab-complete\n".write(to: state.appendingPathComponent(".editrc"), atomically: true, encoding: .utf8)
        let terminal = try start()
        terminal.type("help k\t\r")
        #expect(terminal.waitFor("  Ctrl-R                 search the history backwards"), "\(terminal.output.debugDescription)")
        #expect(terminal.waitFor("'carfab:bind ^N carfab-complete'"))
        #expect(terminal.enter("car spo\u{0E}; show", expecting: "Car type: Porsche Boxster"), "\(terminal.output.debugDescription)")
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }
}

extension ReplTests {
    @Test func completion_lists_keep_their_columns_on_a_terminal_of_no_size() throws {
        // A pty whose window size was never set reports 0 columns: the names ran together
        // (`floorplansuspensiondrivetrain`); they are laid out for 80 columns instead.
        let terminal = try PseudoTerminal(
            environment: ["XDG_STATE_HOME": state.path, "HOME": state.path], columns: 0)
        #expect(terminal.waitForPrompt())
        terminal.type("why \t")
        #expect(terminal.waitFor("floorplan   suspension  drivetrain"), "\(terminal.output.debugDescription)")
        #expect(!terminal.output.contains("floorplansuspension"))
        #expect(terminal.interrupt())
        // `options` completes a family or `in`, `cheapest` a model, family or `in` (they only rang the bell).
        terminal.type("options \t")
        #expect(terminal.waitFor("floorplan   suspension  drivetrain", times: 2), "\(terminal.output.debugDescription)")
        #expect(terminal.interrupt())
        // The models are described as after `car` (one a line, then the families and `in`).
        terminal.type("cheapest \t")
        #expect(
            terminal.waitFor("suv         Cadillac Escalade  $81,895.00\r\nfloorplan\r\nsuspension\r\ndrivetrain\r\nin\r\n"),
            "\(terminal.output.debugDescription)")
        #expect(terminal.interrupt())
        terminal.type("cheapest suv drivetrain 4\t\r")
        #expect(terminal.waitFor("Drive: 4WD"), "\(terminal.output.debugDescription)")
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }
}
