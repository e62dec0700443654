import Testing

@testable import CarScript

/// How `diff` matches stock lines on large stocks: as few lines removed and added as the
/// standard library finds, within a bounded number of steps, and not at all once stopped.
@Suite struct LineMatchingTests {
    /// `count` lines of a few kinds, so that equal lines recur as in a stock.
    static func lines(_ count: Int, seed: inout UInt64) -> [String] {
        (0..<count).map { _ in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return "car m\(seed >> 61) \(1 + (seed >> 58) % 3)"
        }
    }

    /// Whether `edits` are one script from `a` to `b`: what is kept of a, in order, is what is kept of b.
    static func keptAlike<Line: Equatable>(_ a: [Line], _ b: [Line], _ edits: LineEdits) -> Bool {
        a.indices.filter { !edits.removed.contains($0) }.map { a[$0] } == b.indices.filter { !edits.inserted.contains($0) }.map { b[$0] }
    }

    @Test func large_similar_stocks_get_as_few_changes_as_the_standard_library_finds() {
        var seed: UInt64 = 7
        let a = Self.lines(4_000, seed: &seed)
        var b = a
        for step in 0..<150 {
            let place = (step * 7_919) % b.count
            switch step % 3 {
            case 0: b.remove(at: place)
            case 1: b.insert("car new \(step)", at: place)
            default: b[place] = "car changed \(step)"
            }
        }
        #expect(a.count + b.count > LineMatching.smallLines)
        guard let edits = LineMatching.edits(a, b, stop: nil) else {
            Issue.record("no edits")
            return
        }
        let fewest = b.difference(from: a).count
        #expect(edits.removed.count + edits.inserted.count == fewest)
        #expect(Self.keptAlike(a, b, edits))
    }

    @Test func stocks_that_differ_throughout_end_within_the_budget_as_all_removed_and_added() {
        // 20,000 lines each, none alike but the first and last: the fewest changes would take
        // 20,000^2 steps (16 s in carfab before the bound).
        let a = ["car same 1"] + (0..<20_000).map { "car a \($0)" } + ["car same 2"]
        let b = ["car same 1"] + (0..<20_000).map { "car b \($0)" } + ["car same 2"]
        let edits = LineMatching.edits(a, b, stop: nil)
        #expect(edits?.removed.offsets == Array(1...20_000))
        #expect(edits?.inserted.offsets == Array(1...20_000))
    }

    /// The standard library's matching costs (N + M) D, and D may be N + M however few pairs
    /// of lines there are: one line against 40,000 took 5.5 s (10^7 pairs, the bound before,
    /// were one line against 10^7: days). Past 6,324 lines together the bounded search matches them.
    @Test(.timeLimit(.minutes(1))) func one_line_against_many_ends_within_the_budget() {
        let a = ["car same 1"]
        let b = (0..<400_000).map { "car b \($0 % 3)" } + ["car same 1"] + ["car b 1"]
        #expect(a.count + b.count > LineMatching.smallLines)
        guard let edits = LineMatching.edits(a, b, stop: nil) else {
            Issue.record("no edits")
            return
        }
        #expect(Self.keptAlike(a, b, edits))
    }

    @Test func a_line_set_holds_each_offset_once() {
        var set = LineSet(below: 130)
        for offset in [0, 63, 64, 129, 64] { set.insert(offset) }
        set.insert(contentsOf: 5..<8)
        #expect(set.count == 7)
        #expect(set.offsets == [0, 5, 6, 7, 63, 64, 129])
        #expect(!set.contains(130) && !set.contains(-1) && !set.contains(1))
    }

    @Test func a_stop_ends_the_matching_with_no_answer() {
        let a = (0..<20_000).map { "car a \($0 % 7)" }
        let b = (0..<20_000).map { "car b \($0 % 5)" }
        let stop = StopRequest()
        stop.request()
        #expect(LineMatching.edits(a, b, stop: stop) == nil)
    }

    /// Past the exact search's budget, large stocks that differ in a few places are matched
    /// near the fewest changes, as GNU diff matches large files, not taken as every line
    /// removed and added: two 200,000-line stocks of five kinds of line that differ in 1,800
    /// places gave 200,762 rows (trial 5, 4). Here 3,000 places in 50,000 lines, past the
    /// budget too: every line but the first and last few was removed and added.
    @Test(.timeLimit(.minutes(1))) func stocks_past_the_budget_are_matched_near_the_fewest_changes() {
        var seed: UInt64 = 11
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let a = (0..<50_000).map { _ in "car sports \(1 + next(5))" }
        var b = a
        var bound = 0
        for _ in 0..<3_000 {
            let place = next(b.count)
            if next(2) == 0 {
                b[place] = "car suv \(1 + next(5))"
                bound += 2
            } else {
                b.insert("car compact \(1 + next(5))", at: place)
                bound += 1
            }
        }
        guard let edits = LineMatching.edits(a, b, stop: nil) else {
            Issue.record("no edits")
            return
        }
        #expect(Self.keptAlike(a, b, edits))
        // At most the changes made (fewer where a line was put back), and a fifth more.
        #expect(
            edits.removed.count + edits.inserted.count <= bound * 6 / 5, "\(edits.removed.count) + \(edits.inserted.count), made \(bound)")
    }

    /// The divided matching's answer is always a script (what is kept of each side is the
    /// same), whatever the lines: stocks of a few kinds of line, or of none alike, many or few.
    @Test(arguments: [(2, 9_000, 9_000), (3, 20_000, 7_000), (40, 12_000, 15_000), (1, 4_000, 30_000)])
    func past_the_budget_the_answer_is_a_script(kinds: Int, first: Int, second: Int) {
        var seed: UInt64 = UInt64(kinds * 7 + first)
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let a = (0..<first).map { _ in next(kinds) }
        let b = (0..<second).map { _ in next(kinds + 1) }
        guard let edits = LineMatching.edits(a, b, stop: nil) else {
            Issue.record("no edits")
            return
        }
        #expect(Self.keptAlike(a, b, edits))
    }
}
