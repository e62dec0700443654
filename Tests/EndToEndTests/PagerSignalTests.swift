import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Trial 9, finding 5: SIGTERM, SIGHUP and SIGQUIT stop carfab at once while a `help` page is
/// in the pager (they waited until the user quit the pager, which a `kill`, `timeout` or a
/// service manager's stop never does), and end the pager with it.
@Suite(.serialized) struct PagerSignalTests {
    let state: URL

    init() throws {
        state = try scratchFolder("pager-signal")
    }

    /// Whether process `pid` has ended (gone, or a zombie its new parent has not reaped yet).
    static func ended(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        // `PID (COMMAND) STATE ...`: the state follows the last parenthesis.
        guard let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    /// Waits until `pid` is blocked in wait4: carfab waiting for its pager to end.
    static func waitUntilWaitingForChild(_ pid: pid_t, timeout: Double = 10) -> Bool {
        #if arch(arm64)
        let wait4 = "260"
        #else
        let wait4 = "61"
        #endif
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let call = (try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8)) ?? ""
            if call.split(separator: " ").first.map(String.init) == wait4 { return true }
            usleep(2_000)
        }
        return false
    }

    @Test(arguments: [(SIGTERM, 143), (SIGHUP, 129), (SIGQUIT, 131)] as [(Int32, Int32)])
    func a_stop_signal_ends_the_pager_and_carfab_at_once(signal: Int32, status: Int32) throws {
        let folder = state.appendingPathComponent("signal-\(signal)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // As `less` under `sh -c`: a process of its own under the shell, which reads the whole
        // page, then waits for keys that never come (its pid is noted once it waits).
        let pager = folder.appendingPathComponent("pager")
        try writeFile(
            "#!/bin/sh\ncat > /dev/null\necho $$ > \"$0.pid.part\"\nmv \"$0.pid.part\" \"$0.pid\"\nexec sleep 1000\n",
            to: pager, mode: 0o755)
        let noted = folder.appendingPathComponent("pager.pid")
        let terminal = try PseudoTerminal(
            environment: ["XDG_STATE_HOME": state.path, "HOME": state.path, "PAGER": pager.path])
        #expect(terminal.waitFor("carfab> "))
        terminal.type("help\r")
        #expect(terminal.wait { FileManager.default.fileExists(atPath: noted.path) })
        let pagerPid = pid_t(try String(contentsOf: noted, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        defer { if pagerPid > 0 && !Self.ended(pagerPid) { kill(pagerPid, SIGKILL) } }
        #expect(pagerPid > 0)
        #expect(Self.waitUntilWaitingForChild(terminal.pid))
        kill(terminal.pid, signal)
        // At once: before the fix carfab waited for the pager, which waits for ever.
        #expect(terminal.exitStatus() == status)
        #expect(terminal.wait { Self.ended(pagerPid) }, "the pager still runs")
    }
}
