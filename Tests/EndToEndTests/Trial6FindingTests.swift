import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The findings of the sixth trial of main (trial6) at the program's edge, each shown fixed end
/// to end: the prompt in a real pseudo-terminal, TAP output.
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
        // Counted before: counting reads the terminal, which must not be read until the signal.
        let prompts = terminal.count("carfab> ")
        terminal.type(command + "\r")
        // Not read meanwhile, the terminal fills: carfab waits to write (as for a person whose
        // terminal draws slower than carfab writes), a few kilobytes in.
        #expect(Self.waitUntilBlockedWriting(terminal.pid))
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

    /// 6: a failing test file named `... # TODO ...` or `... # SKIP ...` is a failure to tappy
    /// as to prove (tappy ended the description at the `\#` and read the rest as a directive:
    /// its run was "OK"), and its name is shown whole.
    @Test func a_hash_in_a_test_file_name_is_no_tap_directive_to_tappy_or_prove() throws {
        let directory = state.appendingPathComponent("tests")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in ["x # TODO later.carfab", "y # SKIP.carfab", "z#we\\ird.carfab"] {
            try Data("car nosuch\n".utf8).write(to: directory.appendingPathComponent(name))
        }
        let run = try carfab(["--test", "tests", "--format", "tap"], directory: state)
        #expect(run.status == 1)
        let points = run.stdout.split(separator: "\n").filter { $0.hasPrefix("not ok") || $0.hasPrefix("ok") }
        #expect(
            points == [
                #"not ok 1 - tests/x \x23 TODO later.carfab"#, #"not ok 2 - tests/y \x23 SKIP.carfab"#,
                #"not ok 3 - tests/z\x23we\\ird.carfab"#
            ], "\(run.stdout)")
        let message = "unknown model 'nosuch'; valid models: compact, sports, suv"
        let expected = (1...3).map { "\($0) not ok | \(message) | 1 | " }
        let perl = try launch("/usr/bin/perl", ["-e", TestRunnerTests.perlReader], stdin: run.stdout)
        let tappy = try launch("/usr/bin/python3", ["-c", TestRunnerTests.tappyReader], stdin: run.stdout)
        for reader in [perl, tappy] {
            let lines = reader.stdout.split(separator: "\n")
            #expect(lines.count == 4 && lines.last == "passed 0 failed 3", "\(reader)")
            for (line, start) in zip(lines, expected) { #expect(line.hasPrefix(start), "\(reader)") }
        }
        // tappy's own description of each point: the name whole, no directive.
        let descriptions = try launch(
            "/usr/bin/python3",
            [
                "-c",
                "import sys\nfrom tap.parser import Parser\nfor l in Parser().parse_text(sys.stdin.read()):\n"
                    + "    if l.category == 'test': print(l.description, l.directive.text == '')"
            ], stdin: run.stdout)
        #expect(
            descriptions.stdout == #"""
                - tests/x \x23 TODO later.carfab True
                - tests/y \x23 SKIP.carfab True
                - tests/z\x23we\\ird.carfab True

                """#, "\(descriptions)")
    }

    /// 1: Tab's list of candidates stays whole on the screen when the line typed wraps over
    /// several rows (the redisplay cleared the edit's rows upward from where libedit thought
    /// its cursor was, inside the list: one candidate lost per extra row of the line).
    @Test(arguments: [
        (20, "echo abcdefgh abcdefgh abcdefgh abcdefgh abcdefgh ; car ", ["compact", "sports", "suv"]),
        (40, "car sports 1; car sports; set drivetrain ", ["front", "rear", "4wd", "all", "awd"]),
        (
            80, "car sports 1; set drivetrain 4wd; set floorplan standard; set suspension ",
            ["road", "race", "offroad", "standard", "sports", "firm", "soft"]
        )
    ])
    func tab_lists_every_candidate_when_the_line_wraps(columns: Int, line: String, candidates: [String]) throws {
        let terminal = try start(columns: UInt16(columns))
        #expect(terminal.waitFor("carfab> "))
        // The line as the screen shows it, blanks left out (a row's last blank is not drawn).
        let drawn = ("carfab> " + line).replacing(" ", with: "")
        func shown() -> String {
            TerminalScreen(rows: 24, columns: columns, output: terminal.output).text.joined().replacing(" ", with: "")
        }
        terminal.type(line)
        #expect(terminal.wait { shown().hasSuffix(drawn) })
        let prompts = terminal.count("carfab> ")
        terminal.type("\t")
        // The list, then the line drawn again below it.
        #expect(terminal.wait { terminal.count("carfab> ") > prompts && shown().hasSuffix(drawn) })
        let screen = TerminalScreen(rows: 24, columns: columns, output: terminal.output).text
        let listed = candidates.map { name in screen.contains { $0.hasPrefix(name + " ") } }
        #expect(listed.allSatisfy { $0 }, "\(screen.joined(separator: "|\n"))")
        // Below the last candidate, the line as typed (wrapped as the terminal wraps it).
        let last = screen.lastIndex { $0.hasPrefix(candidates[candidates.count - 1] + " ") } ?? 0
        let redrawn = screen[(last + 1)...].joined().replacing(" ", with: "")
        #expect(redrawn == drawn, "\(redrawn)")
        terminal.type("\u{15}\u{04}")
        #expect(terminal.exitStatus() == 0)
    }

    /// 11: with `bind -v` in the editrc (vi's keys, as the README suggests), Tab still
    /// completes (the new key maps made it insert a Tab); an editrc that binds Tab keeps its own.
    @Test func tab_completes_with_vi_keys_from_the_editrc() throws {
        let editrc = state.appendingPathComponent("editrc")
        try "bind -v\n".write(to: editrc, atomically: true, encoding: .utf8)
        let terminal = try start(environment: ["EDITRC": editrc.path])
        #expect(terminal.enter("car spo\t", expecting: "carfab> "))
        #expect(terminal.enter("show", expecting: "Price: $68,300.00"), "\(terminal.output.debugDescription)")
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
        // Its own Tab binding (insert a Tab, a blank between words) is kept: completion would glue them.
        try "bind -v\nbind ^I ed-insert\n".write(to: editrc, atomically: true, encoding: .utf8)
        let own = try start(environment: ["EDITRC": editrc.path])
        #expect(own.enter("echo a\tb", expecting: "a b\r\n"), "\(own.output.debugDescription)")
        own.type("\u{04}")
        #expect(own.exitStatus() == 0)
    }
}
