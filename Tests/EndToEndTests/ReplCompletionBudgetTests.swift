import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Tab after `set FAMILY ` prices each option's repair from one budget of steps, and Ctrl-C or
/// a stop signal during it is honoured at once (the README: Ctrl-C abandons the line; a
/// signal stops carfab wherever it works).
@Suite(.serialized) struct ReplCompletionBudgetTests {
    let folder: URL

    init() throws {
        folder = try scratchFolder("completion-budget")
    }

    func start(catalog text: String) throws -> PseudoTerminal {
        let catalog = folder.appendingPathComponent("catalog.carfab")
        try text.write(to: catalog, atomically: true, encoding: .utf8)
        let terminal = try PseudoTerminal(
            arguments: ["--catalog", catalog.path], environment: ["XDG_STATE_HOME": folder.path, "HOME": folder.path])
        terminal.type("car sports\r")
        #expect(terminal.enter("echo ready", expecting: "ready\r\n", timeout: 30), "\(terminal.output)")
        return terminal
    }

    /// 61 families of 8 options, 20 options of g0 that clash with every other family's
    /// default, and 7,000 random rules: a repair search for any of the 20 runs past the
    /// completion's budget, each step slow (a trial's catalog: over 60 s for Tab before the budget).
    static var hardCatalog: String {
        var state: UInt64 = 12_345
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        var lines: [String] = []
        for f in 0..<61 {
            lines.append("family g\(f) \"G\(f)\" default a\(f) \"A\" price 0")
            for o in 1..<8 { lines.append("option g\(f) o\(f)_\(o) \"O\" price \(100 + next(900))") }
        }
        for t in 0..<20 {
            lines.append("option g0 t\(t) \"T\" price 1")
            for f in 1..<61 { lines.append("forbid g0 t\(t) with g\(f) a\(f)") }
        }
        var seen = Set<[Int]>()
        while seen.count < 7_000 {
            let f = next(61)
            var g = next(60)
            if g >= f { g += 1 }
            let a = [f, 1 + next(7)]
            let b = [g, 1 + next(7)]
            guard seen.insert(a.lexicographicallyPrecedes(b) ? a + b : b + a).inserted else { continue }
            lines.append("forbid g\(f) o\(f)_\(a[1]) with g\(g) o\(g)_\(b[1])")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Types Tab after `set g0 ` and waits until carfab has spent a fifth of a second of
    /// processor time on it with nothing listed yet: the completion is under way.
    func tabUnderWay(_ terminal: PseudoTerminal) -> Bool {
        let before = processorTicks(terminal.pid)
        terminal.type("set g0 \t")
        let busy = terminal.wait(timeout: 30) { processorTicks(terminal.pid) >= before + sysconf(Int32(_SC_CLK_TCK)) / 5 }
        return busy && !terminal.output.contains("o0_1")
    }

    @Test func tab_on_a_family_of_15000_options_that_need_a_repair_answers_at_once() throws {
        var text = ""
        for i in 0..<15_000 { text += "option drivetrain d\(i) \"D\" price \(i % 97)\n" }
        for i in 0..<15_000 { text += "forbid drivetrain d\(i) with floorplan short\n" }
        let terminal = try start(catalog: text)
        terminal.type("set drivetrain \t")
        // Every option described (the first ones with their repair's price, those past the
        // budget with their rule alone; a search each, its own 1,000,000 steps, took over
        // 60 s), then the list cut to the terminal's 24 rows.
        #expect(terminal.waitFor("... and 14984 more: type more of the name to narrow the list\r\n", timeout: 10))
        #expect(terminal.output.contains("front  repair +$500.00 (not with the short floorplan)\r\n"))
        #expect(terminal.output.contains("d2     repair +$502.00 (not with the short floorplan)\r\n"))
        // The line is still there to finish.
        #expect(terminal.enter("rear", expecting: "carfab> ", timeout: 10))
        #expect(terminal.enter("expect drive rear", expecting: "carfab> "))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0, "\(terminal.output.suffix(500))")
    }

    @Test func ctrl_c_during_a_long_completion_abandons_it_and_the_line() throws {
        let terminal = try start(catalog: Self.hardCatalog)
        #expect(tabUnderWay(terminal), "\(terminal.output.suffix(500))")
        let prompts = terminal.count("carfab> ")
        terminal.type("\u{03}")
        #expect(terminal.waitFor("carfab> ", times: prompts + 1, timeout: 5), "\(terminal.output.suffix(500))")
        // Nothing was listed, and the line was abandoned: the next one runs alone.
        #expect(!terminal.output.contains("o0_1"))
        #expect(terminal.enter("echo after", expecting: "after\r\n"), "\(terminal.output.suffix(500))")
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }

    @Test func sigterm_during_a_long_completion_ends_carfab_with_143() throws {
        let terminal = try start(catalog: Self.hardCatalog)
        #expect(tabUnderWay(terminal), "\(terminal.output.suffix(500))")
        kill(terminal.pid, SIGTERM)
        #expect(terminal.exitStatus(timeout: 5) == 143)
        #expect(!terminal.output.contains("o0_1"))
    }
}
