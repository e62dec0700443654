import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The findings of the seventh trial of main (trial7) in what carfab writes, each shown fixed
/// end to end: a stop during a long table, in JSON and in text.
@Suite(.serialized) struct Trial7OutputFindingTests {
    let state: URL

    init() throws {
        state = try scratchFolder("trial7-output")
    }

    /// carfab at a prompt with `arguments` run first.
    func start(_ arguments: [String]) throws -> PseudoTerminal {
        try PseudoTerminal(arguments: arguments, environment: ["XDG_STATE_HOME": state.path, "HOME": state.path])
    }

    /// A script that makes a stock of `lines` lines, line N of N sports cars.
    func stockScript(lines: Int) throws -> URL {
        let file = state.appendingPathComponent("stock.carfab")
        try (1...lines).map { "car sports \($0)\n" }.joined().write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// A prompt over a stock of 100,000 lines (with `options`) that ran `command` and was
    /// sent Ctrl-C while writing its rows: returned once the next prompt is shown.
    func interrupted(_ command: String, options: [String] = []) throws -> PseudoTerminal {
        let terminal = try start(options + [try stockScript(lines: 100_000).path, "-i"])
        #expect(terminal.waitFor("carfab> ", timeout: 30))
        // Counted before: counting reads the terminal, and reading it until the signal would
        // let the whole table through (as CI's run of stop 33 did).
        let prompts = terminal.count("carfab> ")
        terminal.type(command + "\r")
        #expect(Trial6FindingTests.waitUntilBlockedWriting(terminal.pid))
        kill(terminal.pid, SIGINT)
        #expect(terminal.waitFor("carfab> ", times: prompts + 1, timeout: 30))
        return terminal
    }

    /// The one JSON object of `command` in a terminal's `output`, parsed.
    static func object(of command: String, in output: String) -> [String: Any]? {
        guard let start = output.range(of: "{\"type\":\"result\",\"command\":\"\(command)\"") else { return nil }
        let line = output[start.lowerBound...].prefix { !$0.isNewline }
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// 4: Ctrl-C during a long `diff` (or `list`) in text leaves the rows written so far, and
    /// says on standard error that the table was cut short, as a stopped `source` says where
    /// it stopped: a partial table is not taken for a whole one (it said nothing).
    @Test(arguments: ["diff /dev/null", "list"])
    func a_table_cut_short_by_a_stop_says_so(command: String) throws {
        let name = String(command.prefix { $0 != " " })
        let terminal = try interrupted(command)
        let said = try #require(terminal.output.firstRange(of: "carfab: interrupted: \(name) cut short after "))
        let counts = terminal.output[said.upperBound...].prefix { !$0.isNewline }.split(separator: " ")
        // "N of M rows": N rows written (fewer than the table's M), then the message and the prompt.
        #expect(counts.count == 4 && counts[1] == "of" && counts[3] == "rows", "\(counts)")
        let written = try #require(Int(counts.first ?? ""))
        let rows = try #require(Int(counts.dropFirst(2).first ?? ""))
        #expect(written > 0 && written < rows && rows >= 100_000)
        #expect(
            terminal.output.hasSuffix(" rows\r\n\r\n\u{1B}[?2004hcarfab> "), "\(terminal.output.suffix(200).debugDescription)")
    }

    /// 13: with `--format json`, Ctrl-C or SIGTERM during a long `list` or `diff` ends it
    /// between rows, as in text, and the line stays one JSON object that says it was cut
    /// short (`"interrupted":true`): all 100,000 rows were still written.
    @Test(arguments: ["list", "diff /dev/null"])
    func a_stop_ends_a_long_json_table_between_rows_as_one_object(command: String) throws {
        let name = String(command.prefix { $0 != " " })
        let terminal = try interrupted(command, options: ["--format", "json"])
        let object = Self.object(of: name, in: terminal.output)
        let rows = object?["rows"] as? [[String: Any]] ?? []
        #expect(object?["interrupted"] as? Bool == true, "\(terminal.output.suffix(300).debugDescription)")
        #expect(!rows.isEmpty && rows.count < 100_000, "\(rows.count) rows")
        // The session goes on, its stock as it was.
        #expect(terminal.enter("total", expecting: "\"count\":5000050000"))
        terminal.type(command + "\r")
        #expect(Trial6FindingTests.waitUntilBlockedWriting(terminal.pid))
        let before = terminal.output.count
        kill(terminal.pid, SIGTERM)
        #expect(terminal.exitStatus(timeout: 30) == 143)
        let after = Self.object(of: name, in: String(terminal.output.dropFirst(before)))
        #expect(after?["interrupted"] as? Bool == true, "\(terminal.output.suffix(300).debugDescription)")
        #expect((after?["rows"] as? [Any])?.count ?? 100_000 < 100_000)
    }
}
