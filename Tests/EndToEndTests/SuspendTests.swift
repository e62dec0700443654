import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-Z and `fg` as a person's shell does them at the prompt (trial 9, finding 5).
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
}
