import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The findings of the sixth trial of main (trial6) at the program's edge, each shown fixed end
/// to end: the prompt in a real pseudo-terminal.
@Suite(.serialized) struct Trial6FindingTests {
    let state: URL

    init() throws {
        state = try scratchFolder("trial6")
    }

    /// carfab at a prompt with `arguments` run first, on a terminal `columns` wide.
    func start(_ arguments: [String] = [], columns: UInt16 = 100, environment: [String: String] = [:]) throws
        -> PseudoTerminal
    {
        try PseudoTerminal(
            arguments: arguments,
            environment: ["XDG_STATE_HOME": state.path, "HOME": state.path].merging(environment) { $1 },
            columns: columns)
    }

    /// A script that makes a stock of `lines` lines, line N of N sports cars.
    func stockScript(lines: Int) throws -> URL {
        let file = state.appendingPathComponent("stock.carfab")
        try (1...lines).map { "car sports \($0)\n" }.joined().write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// 7: Ctrl-C or SIGTERM while a long `list` or `save -` writes to the terminal ends it
    /// between rows (a terminal always takes the bytes, so the rule for a reader that stopped
    /// never cut it short: all 100,000 rows were still written).
    @Test(arguments: [("list", "  {N}  sports  "), ("save -", "car sports {N}\r\n")])
    func a_stop_ends_a_long_listing_at_the_prompt_between_rows(command: String, row: String) throws {
        func line(_ number: Int) -> String { row.replacing("{N}", with: String(number)) }
        let terminal = try start([try stockScript(lines: 100_000).path, "-i"])
        #expect(terminal.waitFor("carfab> ", timeout: 30))
        terminal.type(command + "\r")
        // Not read meanwhile, the terminal fills: carfab waits to write (as for a person whose
        // terminal draws slower than carfab writes), a few kilobytes in.
        #expect(Self.waitUntilBlockedWriting(terminal.pid))
        let prompts = terminal.count("carfab> ")
        kill(terminal.pid, SIGINT)
        #expect(terminal.waitFor("carfab> ", times: prompts + 1, timeout: 30))
        #expect(
            terminal.count(line(50_000)) == 0 && terminal.count(line(100_000)) == 0,
            "\(terminal.output.suffix(300).debugDescription)")
        // Stopped between rows: the last row written is whole, then the prompt on a line of its own.
        #expect(terminal.output.hasSuffix("\r\n\r\ncarfab> "), "\(terminal.output.suffix(200).debugDescription)")
        // The session goes on, its stock as it was.
        #expect(terminal.enter("total", expecting: "5000050000 Cars in Stock. Total Value: $341,503,415,000,000.00"))
        terminal.type(command + "\r")
        #expect(Self.waitUntilBlockedWriting(terminal.pid))
        kill(terminal.pid, SIGTERM)
        #expect(terminal.exitStatus(timeout: 30) == 143)
        #expect(terminal.count(line(50_000)) == 0 && terminal.count(line(100_000)) == 0)
    }

    /// Waits until `pid` is blocked in a write (to a terminal no one reads).
    static func waitUntilBlockedWriting(_ pid: pid_t, timeout: Double = 30) -> Bool {
        #if arch(arm64)
        let write = "64"
        #else
        let write = "1"
        #endif
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let channel = (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? ""
            let call = (try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8)) ?? ""
            if channel == "wait_woken" && call.split(separator: " ").first.map(String.init) == write { return true }
            usleep(2_000)
        }
        return false
    }
}
