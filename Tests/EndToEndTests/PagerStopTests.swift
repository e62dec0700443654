import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-Z and `fg` in the pager, as a person's shell does them (trial 9, finding 7; at the
/// prompt: ReplIntegrityTests).
extension ReplTests {
    /// A pager in folder `name` of the test's state that ignores Ctrl-Z, as `less` under
    /// LESSSECURE does, turns echo off, says `pager ready` once it has read the page, then
    /// reads a line from the terminal and says what it read.
    private func fakePager(in name: String) throws -> URL {
        let folder = state.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let pager = folder.appendingPathComponent("pager")
        try writeFile(
            "#!/bin/bash\ntrap '' TSTP\nstty -echo -icanon < /dev/tty\ncat > /dev/null\necho 'pager ready'\n"
                + "IFS= read -r line < /dev/tty\necho \"pager read: $line\"\nstty echo icanon < /dev/tty\n",
            to: pager, mode: 0o755)
        return pager
    }

    /// 7: Ctrl-Z while a page is shown stops the pager with carfab, even one that ignores Ctrl-Z
    /// as `less` does under LESSSECURE: the keys typed then go to the shell (they went to the
    /// pager, which went on reading the terminal), in the terminal's mode from before the page;
    /// `fg` gives the page back, and the prompt after it is drawn once.
    @Test func ctrl_z_in_the_pager_stops_the_pager_too() throws {
        let pager = try fakePager(in: "pager-stop")
        let terminal = try PseudoTerminal(
            environment: ["XDG_STATE_HOME": state.path, "HOME": state.path, "PAGER": pager.path], asJob: true,
            shellReadsWhileStopped: true)
        terminal.type("help\r")
        #expect(terminal.waitFor("pager ready\r\n"))
        terminal.send("\u{1A}")
        #expect(terminal.waitFor("[stopped]"), "\(terminal.output.debugDescription)")
        // The shell gets the terminal in the mode it had before the page, not the pager's
        // (which, like less, turned echo off: a shell that does not set its own, dash, then
        // echoed nothing typed).
        #expect(!terminal.echoIsOff)
        terminal.send("jobs\r")
        #expect(terminal.waitFor("shell read: jobs\r\n"), "\(terminal.output.debugDescription)")
        #expect(!terminal.output.contains("pager read:"), "\(terminal.output.debugDescription)")
        // Continued: the pager reads the terminal again, and carfab prompts once it ends.
        let prompts = terminal.count("carfab> ")
        terminal.send("q\r")
        #expect(terminal.waitFor("pager read: q\r\n"), "\(terminal.output.debugDescription)")
        #expect(terminal.waitFor("carfab> ", times: prompts + 1))
        // The echo's own line, not the typed one (which holds "back\r\n" too), then the next
        // prompt, drawn once.
        #expect(terminal.enter("echo back", expecting: "echo back\r\n\u{1B}[?2004lback\r\n"), "\(terminal.output.debugDescription)")
        #expect(terminal.waitFor("carfab> ", times: prompts + 2))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
        #expect(terminal.count("carfab> ") == prompts + 2, "\(terminal.output.debugDescription)")
    }

    /// `kill %1` to carfab stopped at the prompt, or stopped with its page: bash sends SIGTERM
    /// and then SIGCONT, and carfab, continued in the background, ends (143) without setting
    /// the terminal's mode, which stopped it again (SIGTTOU; at the pager, a page put back in
    /// the foreground) and left it stopped for good.
    ///
    /// Under `stty tostop` too, where any write from the background stops carfab (it wrote the
    /// end of the prompt's line; review of the change).
    @Test(arguments: [(false, false), (true, false), (false, true)])
    func kill_ends_carfab_stopped_by_ctrl_z(paging: Bool, tostop: Bool) throws {
        let pager = try fakePager(in: "kill-stopped-\(paging)-\(tostop)")
        // `wait` returns at once (148) while bash still has the job as stopped, and a wait that
        // returns so can drop the job as it ends in that instant (the next `wait %1` found no
        // job: 127, once in CI). So the shell waits, with builtins only (an outside command's
        // end also drops ended jobs), until carfab is gone, then asks its status once.
        let terminal = try PseudoTerminal(
            environment: ["XDG_STATE_HOME": state.path, "HOME": state.path, "PAGER": paging ? pager.path : ""],
            columns: 80, asJob: true,
            whenStopped: (tostop ? "stty tostop; " : "")
                + "pid=$(jobs -p %1); kill %1; while kill -0 $pid 2>/dev/null && [ $SECONDS -lt 20 ]; do :; done; "
                + "wait %1 2>/dev/null; s=$?; stty -tostop; echo \"status $s\"")
        #expect(terminal.waitFor("carfab> "))
        if paging {
            terminal.type("help\r")
            #expect(terminal.waitFor("pager ready\r\n"))
        }
        terminal.send("\u{1A}")
        #expect(terminal.waitFor("[stopped]"), "\(terminal.output.debugDescription)")
        #expect(terminal.waitFor("status 143\r\n"), "\(terminal.output.debugDescription)")
        #expect(terminal.exitStatus() == 0)
    }

    /// Ctrl-Z and `fg` with the prompt's output and errors going to a file: carfab reads the
    /// terminal on standard input, and is in its foreground again after `fg` (the foreground was
    /// asked of the file, which has none: every `fg` stopped it again, 149; review of the change).
    /// libedit does not edit there (its output is no terminal): the line is read in the
    /// terminal's own mode before and after, so Ctrl-D ends it (after `fg` the prompt set
    /// libedit's raw mode, and Ctrl-D came as a character), and the file gets no requests meant
    /// for a terminal (bracketed paste, the banner, the line end after Ctrl-D; trial 12, 7).
    @Test func fg_resumes_the_prompt_whose_output_goes_to_a_file() throws {
        let output = state.appendingPathComponent("fg-output.txt")
        let terminal = try PseudoTerminal(
            environment: ["XDG_STATE_HOME": state.path, "HOME": state.path, "TERM": "xterm"], outputAndErrors: output,
            asJob: true)
        func written() -> String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
        // Typed ahead in the terminal's own mode, the line waits for carfab to read it.
        terminal.send("echo ready\r")
        #expect(terminal.wait { written() == "ready\n" }, "\(written().debugDescription)")
        terminal.send("\u{1A}")
        #expect(terminal.waitFor("[stopped]"), "\(terminal.output.debugDescription)")
        // After `fg` the prompt reads the keys typed (it stopped again at once, 149, every time),
        // in the terminal's own mode: sent, not typed when the prompt's mode is set.
        terminal.send("echo back\r")
        #expect(terminal.wait { written().contains("back\n") }, "\(written().debugDescription)")
        terminal.send("\u{04}")
        #expect(terminal.exitStatus() == 0, "\(terminal.output.debugDescription)")
        // The file holds the results alone: no banner, no line end for the screen.
        #expect(written() == "ready\nback\n", "\(written().debugDescription)")
    }
}
