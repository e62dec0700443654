import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The smaller findings of the third trial (its finding 15), each shown fixed end to end.
@Suite struct Trial3SmallFindingTests {
    /// `${env:NAME}` whose value is not UTF-8 is an error at its `$`, as `--var` and a script's
    /// own bytes are (it was read as U+FFFD); the command changes nothing.
    @Test func an_environment_value_that_is_not_utf8_is_an_error_at_its_dollar() throws {
        let error = """
            <command-line>:1:7: error: environment variable 'X' is not valid UTF-8
            var v ${env:X}; save -
                  ^~~~~~~~

            """
        for check in ["", "--check "] {
            #expect(
                try shell(#"X=$(printf 'a\377b') "$CARFAB" \#(check)-e 'var v ${env:X}; save -'"#)
                    == RunResult(stdout: "", stderr: error, status: 1))
        }
        // Going on after it, nothing was set; a valid value is read as it is.
        #expect(
            try shell(#"X=$(printf 'a\377b') Y=é "$CARFAB" --keep-going -e 'var v ${env:X}' -e 'vars; echo ${env:Y}' 2>/dev/null"#)
                == RunResult(stdout: "No variables are set.\né\n", stderr: "", status: 1))
    }

    /// A history of 100 lines of 1 MiB (the line limit) made the prompt start at 110-200 MB (each
    /// kept, then copied into libedit): a line longer than the entry limit (16 KiB) is not
    /// loaded, so the start's peak memory is that of a prompt with a short history; the
    /// short entries around them are recalled, and the file saved again keeps only those.
    @Test func a_history_of_long_lines_is_loaded_in_memory_bounded_by_the_entries_kept() throws {
        let home = try scratchFolder("history-home")
        let folder = home.appendingPathComponent(".local/state/carfab")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var file = Data("_HiStOrY_V2_\necho\\040first\n".utf8)
        let long = Data(("echo\\040" + String(repeating: "y", count: 1 << 20) + "\n").utf8)
        for _ in 0..<100 { file.append(long) }
        file.append(Data("echo\\040last\n".utf8))
        let history = folder.appendingPathComponent("history")
        try file.write(to: history)
        chmod(history.path, 0o600)
        let terminal = try PseudoTerminal(environment: ["HOME": home.path], unset: ["XDG_STATE_HOME"])
        #expect(terminal.waitFor("carfab> "), "\(terminal.output)")
        let peak = Self.peakMemoryKiB(of: terminal.pid)
        // A prompt with a short history peaks at about 7 MB; loading the long lines took 110 MB.
        #expect(peak.map { $0 < 32 << 10 } == true, "VmHWM \(peak.map(String.init) ?? "unknown") kB")
        terminal.type("\u{1B}[A\u{1B}[A\r")
        #expect(terminal.waitFor("first\r\n"), "\(terminal.output.suffix(200))")
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
        let saved = try String(contentsOf: history, encoding: .utf8)
        #expect(saved == "_HiStOrY_V2_\necho\\040first\necho\\040last\necho\\040first\n")
    }

    /// The process's peak resident memory (`VmHWM`, kB).
    private static func peakMemoryKiB(of pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        return line.flatMap { Int($0.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") }
    }
}
