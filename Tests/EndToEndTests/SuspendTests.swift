import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-Z and `fg` as a person's shell does them, at the prompt and in the pager (trial 9,
/// findings 5 and 7).
extension ReplTests {
    /// 5: after `fg` the prompt and the line typed so far are drawn once, from the start of the
    /// terminal's line (they were drawn twice on one line: `carfab> echo abcarfab> echo ab`).
    @Test func after_ctrl_z_and_fg_the_line_is_drawn_once() throws {
        let terminal = try PseudoTerminal(
            environment: ["XDG_STATE_HOME": state.path, "HOME": state.path], asJob: true)
        terminal.type("echo ab")
        #expect(terminal.waitFor("echo ab"))
        terminal.type("\u{1A}")
        #expect(terminal.waitFor("[stopped]"), "\(terminal.output.debugDescription)")
        #expect(terminal.wait { terminal.echoIsOff && terminal.output.hasSuffix("carfab> echo ab") })
        #expect(terminal.enter("cd", expecting: "abcd\r\n"), "\(terminal.output.debugDescription)")
        let continued = try #require(terminal.output.components(separatedBy: "[stopped]").last)
        // bash prints the job it continues, then the prompt's line comes back once.
        let drawn = try #require(continued.components(separatedBy: "\r\n").dropFirst(2).first)
        #expect(drawn == "\u{1B}[?2004h\rcarfab> echo abcd", "\(continued.debugDescription)")
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }

    /// 5: a stop no shell saw (SIGSTOP, then SIGCONT) leaves the line on the screen: it is drawn
    /// again over itself, not beside it.
    @Test func after_a_stop_no_shell_saw_the_line_is_drawn_over_itself() throws {
        let terminal = try start()
        terminal.type("echo ab")
        #expect(terminal.waitFor("echo ab"))
        kill(terminal.pid, SIGSTOP)
        #expect(terminal.wait { terminal.isStopped })
        let before = terminal.output.count
        kill(terminal.pid, SIGCONT)
        #expect(terminal.wait { terminal.output.dropFirst(before).hasSuffix("carfab> echo ab") })
        #expect(String(terminal.output.dropFirst(before)) == "\rcarfab> echo ab", "\(terminal.output.debugDescription)")
        terminal.type("\u{15}\u{04}")
        #expect(terminal.exitStatus() == 0)
    }

    /// 7: Ctrl-Z while a page is shown stops the pager with carfab, even one that ignores Ctrl-Z
    /// as `less` does under LESSSECURE: the keys typed then go to the shell (they went to the
    /// pager, which went on reading the terminal); `fg` gives the page back, and the prompt
    /// after it is drawn once.
    @Test func ctrl_z_in_the_pager_stops_the_pager_too() throws {
        let folder = state.appendingPathComponent("pager-stop")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let pager = folder.appendingPathComponent("pager")
        try writeFile(
            "#!/bin/bash\ntrap '' TSTP\ncat > /dev/null\necho 'pager ready'\nIFS= read -r line < /dev/tty\necho \"pager read: $line\"\n",
            to: pager, mode: 0o755)
        let terminal = try PseudoTerminal(
            environment: ["XDG_STATE_HOME": state.path, "HOME": state.path, "PAGER": pager.path], asJob: true,
            shellReadsWhileStopped: true)
        terminal.type("help\r")
        #expect(terminal.waitFor("pager ready\r\n"))
        terminal.send("\u{1A}")
        #expect(terminal.waitFor("[stopped]"), "\(terminal.output.debugDescription)")
        terminal.send("jobs\r")
        #expect(terminal.waitFor("shell read: jobs\r\n"), "\(terminal.output.debugDescription)")
        #expect(!terminal.output.contains("pager read:"), "\(terminal.output.debugDescription)")
        // Continued: the pager reads the terminal again, and carfab prompts once it ends.
        let prompts = terminal.count("carfab> ")
        terminal.send("q\r")
        #expect(terminal.waitFor("pager read: q\r\n"), "\(terminal.output.debugDescription)")
        #expect(terminal.waitFor("carfab> ", times: prompts + 1))
        #expect(terminal.enter("echo back", expecting: "back\r\n"))
        #expect(terminal.count("carfab> ") == prompts + 2, "\(terminal.output.debugDescription)")
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }
}
