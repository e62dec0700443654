import Testing

@testable import CarFactory

// A stock's lines as a gap buffer: whatever is removed or put back where, they read as a plain
// array would, and a change next to the last one moves a line or none (emptying a stock from the
// front, rolling that back, or removing its middle line again and again, moved half the lines
// or more each time: quadratic).
@Suite struct StockLinesTests {
    static func entry(_ tag: Int) -> StockLedger.Entry { StockLedger.Entry(count: Int64(tag), configuration: 0) }
    static func tags(_ lines: StockLines) -> [Int64] { lines.live.map(\.count) }

    @Test(arguments: Array(1...20) as [UInt64])
    func they_read_as_an_array_does_after_any_changes(seed: UInt64) {
        var random = SplitMix64(state: seed)
        var lines = StockLines()
        var model: [Int64] = []
        var next = 1
        for _ in 0..<3000 {
            // Runs at the front, at the back and anywhere, so that both ends grow and shrink.
            let place = random.below(4)
            if random.below(2) == 0 || model.isEmpty {
                let number = [1, model.count + 1, 1 + random.below(model.count + 1), 1][place]
                lines.insert(Self.entry(next), at: number)
                model.insert(Int64(next), at: number - 1)
                next += 1
            } else {
                let number = [1, model.count, 1 + random.below(model.count), 2 <= model.count ? 2 : 1][place]
                lines.remove(number)
                model.remove(at: number - 1)
            }
            #expect(lines.count == model.count)
        }
        #expect(Self.tags(lines) == model)
        for number in stride(from: 1, through: model.count, by: 7) { #expect(lines[number].count == model[number - 1]) }
    }

    /// How many slots hold something else after `change` (the lines it moved, and the one it
    /// wrote), and how many it added or dropped at the end.
    static func moved(_ lines: inout StockLines, _ change: (inout StockLines) -> Void) -> Int {
        let before = lines.slots
        change(&lines)
        let after = lines.slots
        return zip(before, after).count { $0.count != $1.count } + abs(before.count - after.count)
    }

    /// Trial 5, 7: with the gap alone, removals taking turns at the two ends moved every line
    /// each time (400,000 lines: 53.5 s). Now the lines moved in all, giving up free slots
    /// and making room included, are a few times the lines: O(1) a change, amortized.
    @Test func changes_taking_turns_at_the_two_ends_move_a_line_or_none_each_amortized() {
        let n = 2_000
        for gapFirst in [false, true] {
            var lines = StockLines((1...n).map(Self.entry))
            var model = (1...n).map(Int64.init)
            // The gap somewhere in the middle first, as a removal there leaves it.
            if gapFirst {
                lines.remove(n / 2)
                model.remove(at: n / 2 - 1)
            }
            var moved = 0
            var turn = 0
            while lines.count > 2 {
                let number = turn % 2 == 0 ? 1 : lines.count
                turn += 1
                moved += Self.moved(&lines) { $0.remove(number) }
                model.remove(at: number - 1)
            }
            #expect(Self.tags(lines) == model)
            #expect(moved <= 4 * n, "\(moved) slots changed in \(n) removals")
            // Put back at the two ends in turn.
            moved = 0
            for tag in 1...n {
                let number = tag % 2 == 0 ? 1 : lines.count + 1
                moved += Self.moved(&lines) { $0.insert(Self.entry(tag), at: number) }
                model.insert(Int64(tag), at: number - 1)
            }
            #expect(Self.tags(lines) == model)
            #expect(moved <= 4 * n, "\(moved) slots changed in \(n) insertions")
        }
    }

    @Test func a_change_moves_only_the_lines_on_its_shorter_side() {
        let n = 1000
        for number in [1, 2, 10, 500, 501, 990, 1000] {
            var lines = StockLines((1...n).map(Self.entry))
            let removed = Self.moved(&lines) { $0.remove(number) }
            // The lines before it move up one, or (slots shrinking) the ones after it: then
            // `moved` sees the whole array change size.
            if number - 1 < n - number {
                #expect(removed <= number, "removing line \(number) of \(n)")
            } else {
                #expect(lines.count == n - 1)
            }
            #expect(Self.tags(lines) == (1...n).filter { $0 != number }.map(Int64.init))
        }
        // Put back at the front, over and over (what `rollback` of emptying from the front
        // does): each moves no line once there is room before the first.
        var lines = StockLines((1...n).map(Self.entry))
        lines.insert(Self.entry(0), at: 1)
        for tag in 1...100 {
            let moved = Self.moved(&lines) { $0.insert(Self.entry(-tag), at: 1) }
            #expect(moved <= 1, "insertion \(tag) at the front")
        }
        #expect(lines.count == n + 101)
        #expect(lines[1].count == -100)
        #expect(lines[n + 101].count == Int64(n))
    }

    /// Trial 4, 2: 400,000 lines, half of them removed from the middle, took 28.7 s.
    @Test func removing_the_middle_line_again_and_again_moves_a_line_or_none_each_time() {
        let n = 2_000
        var lines = StockLines((1...n).map(Self.entry))
        var model = (1...n).map(Int64.init)
        for _ in 0..<(n / 2) {
            let number = (lines.count + 1) / 2
            let moved = Self.moved(&lines) { $0.remove(number) }
            model.remove(at: number - 1)
            #expect(moved <= 1, "removing line \(number) of \(lines.count + 1)")
        }
        #expect(Self.tags(lines) == model)
    }

    @Test func emptying_from_the_front_keeps_its_storage_in_proportion_to_its_lines() {
        let n = 10_000
        var lines = StockLines((1...n).map(Self.entry))
        for removed in 1...(n - 10) {
            lines.remove(1)
            // Compacted once the free slots are more than twice the lines.
            #expect(lines.slots.count <= max(3 * lines.count + 65, 65), "after \(removed)")
        }
        #expect(Self.tags(lines) == ((n - 9)...n).map(Int64.init))
        while lines.count > 0 { lines.remove(1) }
        #expect(lines.isEmpty && lines.slots.isEmpty)
    }

    @Test func a_ledger_emptied_from_the_front_and_rolled_back_has_its_lines_again() throws {
        let catalog = Catalog.standard
        var stock = StockLedger()
        let models = ["sports", "suv", "compact"]
        for index in 0..<300 { try stock.add(catalog.builder(for: models[index % 3]).build(), count: Int64(index + 1)) }
        let before = stock.lines.map { "\($0.car.carType) \($0.count)" }
        let value = stock.valueMinorUnits
        stock.journal = StockJournal()
        for _ in 0..<300 { try stock.remove(1) }
        #expect(stock.lineCount == 0 && stock.carCount == 0 && stock.currentNumber == nil)
        // Taken back newest first, as `rollback` does: each puts a line back at the front.
        var changes: [StockChange] = []
        var taken = stock.journal ?? StockJournal()
        while let change = taken.popLast() { changes.append(change) }
        stock.journal = StockJournal()
        for change in changes { try stock.apply(change) }
        #expect(stock.lines.map { "\($0.car.carType) \($0.count)" } == before)
        #expect(stock.valueMinorUnits == value)
        #expect(stock.currentNumber == 300)
    }
}
