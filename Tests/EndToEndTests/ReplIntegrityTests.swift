import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// History kept whole across prompts open at once, never written through links or over what is
/// not a history file; signals and job control at the prompt.
extension ReplTests {
    func history() throws -> String {
        try String(contentsOf: historyFile, encoding: .utf8)
    }

    @Test func two_prompts_open_at_once_both_keep_their_commands() throws {
        let first = try start()
        let second = try start()
        #expect(first.enter("echo from first", expecting: "from first\r\n"))
        #expect(second.enter("echo from second", expecting: "from second\r\n"))
        first.type("\u{04}")
        #expect(first.exitStatus() == 0)
        #expect(second.enter("echo second again", expecting: "second again\r\n"))
        second.type("\u{04}")
        #expect(second.exitStatus() == 0)
        #expect(try history() == "_HiStOrY_V2_\necho\\040from\\040first\necho\\040from\\040second\necho\\040second\\040again\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: historyFile.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: historyFile.deletingLastPathComponent().path) == ["history"])
    }

    @Test func a_history_file_that_is_a_link_is_neither_read_nor_written() throws {
        let elsewhere = state.appendingPathComponent("elsewhere")
        try Data("precious\n".utf8).write(to: elsewhere)
        try FileManager.default.createDirectory(at: historyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: historyFile.path, withDestinationPath: elsewhere.path)
        let terminal = try start()
        #expect(terminal.enter("echo works", expecting: "works\r\n"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
        #expect(
            terminal.output.contains(
                "carfab: warning: history file '\(historyFile.path)' is a symbolic link; it is neither read nor written"))
        #expect(try String(contentsOf: elsewhere, encoding: .utf8) == "precious\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: historyFile.path) == elsewhere.path)
    }

    @Test func a_file_that_is_not_history_is_left_as_it_is() throws {
        try FileManager.default.createDirectory(at: historyFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("not a history file\n".utf8).write(to: historyFile)
        let terminal = try start()
        #expect(terminal.enter("echo works", expecting: "works\r\n"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
        #expect(terminal.output.contains("it is not a carfab history file; it is left as it is"))
        #expect(try history() == "not a history file\n")
    }

    @Test func a_missing_home_is_not_created_and_that_is_said_at_the_start() throws {
        let home = state.appendingPathComponent("no/such/home")
        // By default, and with XDG_STATE_HOME inside that HOME.
        for xdg in [nil, home.path + "/state"] {
            let terminal = try PseudoTerminal(
                environment: ["HOME": home.path, "XDG_STATE_HOME": xdg ?? ""],
                unset: xdg == nil ? ["XDG_STATE_HOME"] : [])
            let folder = xdg.map { $0 + "/carfab" } ?? home.path + "/.local/state/carfab"
            let warning =
                "carfab: warning: history will not be saved: cannot make its folder '\(folder)': "
                + "'\(home.path)' does not exist (carfab never makes $HOME)\r\n"
            #expect(terminal.waitFor("carfab> "))
            #expect(terminal.output.contains(warning + "carfab "), "\(terminal.output)")
            #expect(terminal.enter("echo works", expecting: "works\r\n"))
            terminal.type("\u{04}")
            #expect(terminal.exitStatus() == 0)
            #expect(terminal.count("warning") == 1, "\(terminal.output)")
            #expect(!FileManager.default.fileExists(atPath: state.appendingPathComponent("no").path))
        }
    }

    @Test func a_missing_state_folder_is_made_private_at_the_start() throws {
        let xdg = state.appendingPathComponent("made/for/state")
        let terminal = try PseudoTerminal(environment: ["HOME": state.path, "XDG_STATE_HOME": xdg.path])
        #expect(terminal.waitFor("carfab> "))
        // Made before the first command, each missing folder private.
        for folder in ["made", "made/for", "made/for/state", "made/for/state/carfab"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: state.appendingPathComponent(folder).path)
            #expect((attributes[.posixPermissions] as? Int) == 0o700, "\(folder)")
        }
        #expect(terminal.enter("echo kept", expecting: "kept\r\n"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
        #expect(!terminal.output.contains("warning"), "\(terminal.output)")
        #expect(
            try String(contentsOf: xdg.appendingPathComponent("carfab/history"), encoding: .utf8)
                == "_HiStOrY_V2_\necho\\040kept\n")
    }

    @Test func a_state_folder_that_cannot_be_made_is_said_before_the_first_prompt() throws {
        let file = state.appendingPathComponent("a-file")
        try Data().write(to: file)
        let terminal = try PseudoTerminal(environment: ["HOME": state.path, "XDG_STATE_HOME": file.path + "/state"])
        #expect(terminal.waitFor("carfab> "))
        #expect(
            terminal.output.contains(
                """
                carfab: warning: history will not be saved: cannot make its folder '\(file.path)/state/carfab': \
                '\(file.path)': Not a directory\r\ncarfab 
                """), "\(terminal.output)")
        #expect(terminal.enter("echo works", expecting: "works\r\n"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
        #expect(terminal.count("warning") == 1, "\(terminal.output)")
    }

    @Test(.enabled(if: getuid() == 0, "needs root to plant another user's link"))
    func a_link_another_user_planted_in_a_shared_folder_is_not_followed() throws {
        // /tmp-like: sticky and writable by all; in it, nobody's link to a folder of root's.
        let shared = state.appendingPathComponent("shared")
        let target = state.appendingPathComponent("target")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let link = shared.appendingPathComponent("state")
        let planted = try shell(
            "chmod 1777 '\(shared.path)' && ln -s '\(target.path)' '\(link.path)' && chown -h 65534:65534 '\(link.path)'")
        #expect(planted.status == 0, "\(planted)")
        let terminal = try PseudoTerminal(environment: ["HOME": state.path, "XDG_STATE_HOME": link.path])
        #expect(terminal.waitFor("carfab> "))
        #expect(
            terminal.output.contains(
                """
                carfab: warning: history will not be saved: cannot make its folder '\(link.path)/carfab': \
                '\(link.path)' is a symbolic link another user made in a shared folder\r\n
                """), "\(terminal.output)")
        #expect(terminal.enter("echo works", expecting: "works\r\n"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty)
        // The user's own link there is followed, as the kernel would.
        let own = shared.appendingPathComponent("mine")
        try FileManager.default.createSymbolicLink(at: own, withDestinationURL: target)
        let followed = try PseudoTerminal(environment: ["HOME": state.path, "XDG_STATE_HOME": own.path])
        #expect(followed.enter("echo kept", expecting: "kept\r\n"))
        followed.type("\u{04}")
        #expect(followed.exitStatus() == 0)
        #expect(FileManager.default.fileExists(atPath: target.appendingPathComponent("carfab/history").path))
    }

    @Test func history_keeps_whole_commands_and_not_abandoned_lines() throws {
        let terminal = try start()
        terminal.type("echo one \\\r")
        #expect(terminal.waitFor("...> "))
        #expect(terminal.enter("two", expecting: "one two\r\n"))
        terminal.type("echo \"three\r")
        #expect(terminal.waitFor("...> ", times: 2))
        #expect(terminal.enter("four\"", expecting: "three\r\nfour\r\n"))
        terminal.type("echo abandoned")
        #expect(terminal.interrupt())
        // Up recalls the whole quoted command as one line, which runs the same.
        terminal.type("\u{1B}[A\r")
        #expect(terminal.waitFor("three\r\nfour\r\n", times: 2), "\(terminal.output)")
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
        #expect(try history() == "_HiStOrY_V2_\necho\\040one\\040\\040two\necho\\040\"three\\134nfour\"\n")
    }

    @Test func ctrl_backslash_saves_history_and_exits_131_quietly() throws {
        let terminal = try start()
        #expect(terminal.enter("echo before quit", expecting: "before quit\r\n"))
        terminal.type("\u{1C}")
        #expect(terminal.exitStatus() == 131)
        #expect(!terminal.output.contains("Press space") && !terminal.output.contains("crashed"))
        #expect(try history().contains("echo\\040before\\040quit"))
    }

    /// Ctrl-Z at the prompt turns bracketed paste off before carfab stops, as bash's readline
    /// does, and on again once it is continued: the shell it stopped to got pasted text wrapped
    /// in `\e[200~` ... `\e[201~`, and the line typed so far is kept, drawn once.
    @Test func ctrl_z_gives_the_shell_the_terminal_without_bracketed_paste() throws {
        let terminal = try PseudoTerminal(
            environment: ["XDG_STATE_HOME": state.path, "HOME": state.path], asJob: true)
        terminal.type("echo ab")
        #expect(terminal.waitFor("echo ab"))
        terminal.type("\u{1A}")
        #expect(terminal.waitFor("[stopped]"), "\(terminal.output.debugDescription)")
        let stopped = terminal.output.components(separatedBy: "[stopped]")[0]
        let (on, off) = ("\u{1B}[?2004h", "\u{1B}[?2004l")
        let lastOn = stopped.range(of: on, options: .backwards)?.lowerBound
        let lastOff = stopped.range(of: off, options: .backwards)?.lowerBound
        #expect(lastOn.flatMap { on in lastOff.map { on < $0 } } == true, "\(stopped.debugDescription)")
        // Continued: on again, and the line as it was.
        #expect(
            terminal.wait {
                terminal.echoIsOff && terminal.output.components(separatedBy: "[stopped]").dropFirst().first?.contains(on) == true
            })
        #expect(terminal.enter("cd", expecting: "abcd\r\n"), "\(terminal.output.debugDescription)")
        // bash prints the job it continues, then the line comes back once, from the start of
        // the terminal's line (trial 9, finding 5: twice on one line, `carfab> echo abcarfab> echo ab`).
        let continued = try #require(terminal.output.components(separatedBy: "[stopped]").last)
        let drawn = try #require(continued.components(separatedBy: "\r\n").dropFirst(2).first)
        #expect(drawn == on + "\rcarfab> echo abcd", "\(continued.debugDescription)")
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }

    /// Ctrl-Z where carfab leads its own session (`ssh -t host carfab`, `tmux new carfab`, as
    /// here): the kernel drops the stop and no SIGCONT comes, and the prompt takes its mode back
    /// at once (it stayed in the shell's, echoing every key twice, until the line ended).
    @Test func ctrl_z_that_cannot_stop_carfab_leaves_the_prompt_as_it_was() throws {
        let terminal = try start()
        terminal.type("echo ab")
        #expect(terminal.waitFor("echo ab"))
        let (on, off) = ("\u{1B}[?2004h", "\u{1B}[?2004l")
        let before = terminal.count(off)
        terminal.type("\u{1A}")
        // Bracketed paste off for the stop that did not come, then on again.
        #expect(terminal.wait { terminal.output.components(separatedBy: off).dropFirst(before + 1).first?.contains(on) == true })
        #expect(terminal.wait { terminal.echoIsOff })
        #expect(terminal.enter("cd", expecting: "abcd\r\n"), "\(terminal.output.debugDescription)")
        #expect(terminal.count("cdcd") == 0)
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }

    @Test func after_a_stop_and_continue_the_prompt_takes_the_terminal_back() throws {
        let terminal = try start()
        terminal.type("echo ab")
        #expect(terminal.waitFor("echo ab"))
        // SIGSTOP, as Ctrl-Z's SIGTSTP would (carfab leads its own session here, where the
        // kernel drops SIGTSTP); then, as a shell does while carfab is stopped, its own mode.
        kill(terminal.pid, SIGSTOP)
        #expect(terminal.wait { terminal.isStopped })
        terminal.makeCooked()
        let before = terminal.output.count
        kill(terminal.pid, SIGCONT)
        #expect(terminal.wait { terminal.echoIsOff }, "\(terminal.output.debugDescription) stopped: \(terminal.isStopped)")
        // No shell wrote meanwhile: the line is drawn again over itself (trial 9, finding 5:
        // it was drawn beside itself, `carfab> echo abcarfab> echo ab`).
        #expect(terminal.wait { terminal.output.dropFirst(before) == "\rcarfab> echo ab" }, "\(terminal.output.debugDescription)")
        #expect(terminal.enter("cd", expecting: "abcd\r\n"), "\(terminal.output.debugDescription)")
        #expect(terminal.count("cdcd") == 0)
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }
}
