import Testing

@testable import CarFactory

// A stock's lines as a tiered vector: whatever is removed or put back where, they read as a
// plain array would, and any change moves at most a block's lines and one more per block
// (emptying a stock from the front, rolling that back, removing its middle line again and
// again, or taking turns at two places, moved half the lines or more each time: quadratic).
@Suite struct StockLinesTests {
    static func entry(_ tag: Int) -> StockLedger.Entry { StockLedger.Entry(count: Int64(tag), configuration: 0) }
    static func tags(_ lines: StockLines) -> [Int64] { lines.live.map(\.count) }
    /// The block of stocks of fewer than 262,144 lines (a larger stock's grows).
    static let block = 1 << StockLines.smallestShift

    @Test(arguments: Array(1...6) as [UInt64])
    func they_read_as_an_array_does_after_any_changes(seed: UInt64) {
        var random = SplitMix64(state: seed)
        // Across a few blocks: starting with some, so that full blocks turn their rings.
        let first = random.below(4 * Self.block)
        var lines = StockLines((0..<first).map(Self.entry))
        var model = (0..<first).map(Int64.init)
        var next = first
        for _ in 0..<3000 {
            // Runs at the front, at the back and anywhere, so that both ends grow and shrink.
            let place = random.below(5)
            if random.below(2) == 0 || model.isEmpty {
                let number = [1, model.count + 1, 1 + random.below(model.count + 1), 1, 1 + Self.block][place]
                guard number <= model.count + 1 else { continue }
                lines.insert(Self.entry(next), at: number)
                model.insert(Int64(next), at: number - 1)
                next += 1
            } else {
                let number = [1, model.count, 1 + random.below(model.count), 2 <= model.count ? 2 : 1, Self.block][place]
                guard number <= model.count else { continue }
                lines.remove(number)
                model.remove(at: number - 1)
            }
            #expect(lines.count == model.count)
        }
        #expect(Self.tags(lines) == model)
        for number in stride(from: 1, through: model.count, by: 7) { #expect(lines[number].count == model[number - 1]) }
        #expect(lines.blockSize == Self.block)
        #expect(lines.starts.count == (model.count + Self.block - 1) / Self.block)
    }

    /// Trial 7, 2: a block of 1,024 lines left 3.2 M changes in the middle of 3.2 M lines
    /// quadratic (27 s). Past 2^18 lines the block doubles, its rings put in order first.
    @Test func the_block_grows_with_the_lines_and_they_still_read_as_an_array_does() {
        let threshold = Self.block * Self.block / 4
        // Some blocks' rings turned (lines put in at the front) when the threshold is passed.
        let first = threshold - 3 * Self.block - 17
        var lines = StockLines((0..<first).map(Self.entry))
        var added: [Int64] = []
        for tag in 0..<(4 * Self.block) {
            lines.insert(Self.entry(first + tag), at: 1 + (tag % 3) * (tag / 3))
            added.append(Int64(first + tag))
        }
        #expect(lines.blockSize == 2 * Self.block)
        var model = (0..<first).map(Int64.init)
        for (tag, value) in added.enumerated() { model.insert(value, at: (tag % 3) * (tag / 3)) }
        #expect(Self.tags(lines) == model)
        var random = SplitMix64(state: 11)
        for _ in 0..<600 {
            let number = 1 + random.below(model.count)
            lines.remove(number)
            model.remove(at: number - 1)
        }
        #expect(Self.tags(lines) == model)
        #expect(lines.starts.count == (model.count + lines.blockSize - 1) / lines.blockSize)
        // Made whole, the lines take the block they would have grown to.
        #expect(StockLines(lines.live.map { $0 }).blockSize == 2 * Self.block)
        #expect(StockLines((0..<threshold).map(Self.entry)).blockSize == Self.block)
        var emptied = lines
        emptied.removeAll(keepingCapacity: false)
        #expect(emptied.blockSize == Self.block)
    }

    /// How many slots hold something else after `change` (the lines it moved, and the one it
    /// wrote), and how many it added or dropped at the end.
    static func moved(_ lines: inout StockLines, _ change: (inout StockLines) -> Void) -> Int {
        let before = lines.slots
        change(&lines)
        let after = lines.slots
        return zip(before, after).count { $0.count != $1.count } + abs(before.count - after.count)
    }

    /// The most slots a change may move in `lines`: a block's, twice (the last block put in
    /// order), and one for each block.
    static func bound(_ lines: StockLines) -> Int { 2 * lines.blockSize + 2 * lines.starts.count + 2 }

    /// Trial 4, 2 and trial 5, 7: the middle line again and again, the two ends in turn, a
    /// quarter and three quarters in turn, and places at random: each change moves at most
    /// `bound` slots (the gap buffer moved every line between two places in turn).
    @Test(arguments: ["middle", "ends", "quarters", "random"])
    func any_change_moves_at_most_a_block_and_a_line_a_block(pattern: String) {
        // Four blocks; 400 changes each way (`moved` compares every slot: keep it small).
        let n = 4 * Self.block
        let changes = 400
        var random = SplitMix64(state: 7)
        var lines = StockLines((1...n).map(Self.entry))
        var model = (1...n).map(Int64.init)
        var turn = 0
        func number(_ count: Int) -> Int {
            turn += 1
            switch pattern {
            case "middle": return (count + 1) / 2
            case "ends": return turn % 2 == 0 ? 1 : count
            case "quarters": return turn % 2 == 0 ? max(1, count / 4) : max(1, 3 * count / 4)
            default: return 1 + random.below(count)
            }
        }
        for _ in 0..<changes {
            let at = number(lines.count)
            let bound = Self.bound(lines)
            let moved = Self.moved(&lines) { $0.remove(at) }
            model.remove(at: at - 1)
            #expect(moved <= bound, "removing line \(at) of \(lines.count + 1)")
            if moved > bound { break }
        }
        #expect(Self.tags(lines) == model)
        // Put back at the same places.
        for tag in 0..<changes {
            let at = min(number(lines.count), lines.count + 1)
            let bound = Self.bound(lines)
            let moved = Self.moved(&lines) { $0.insert(Self.entry(-tag), at: at) }
            model.insert(Int64(-tag), at: at - 1)
            #expect(moved <= bound, "putting line \(at) of \(lines.count) back")
            if moved > bound { break }
        }
        #expect(Self.tags(lines) == model)
    }

    @Test func emptying_from_the_front_keeps_its_storage_in_proportion_to_its_lines() {
        let n = 10_000
        var lines = StockLines((1...n).map(Self.entry))
        for removed in 1...(n - 10) {
            lines.remove(1)
            #expect(lines.slots.count == lines.count, "after \(removed)")
        }
        #expect(Self.tags(lines) == ((n - 9)...n).map(Int64.init))
        while lines.count > 0 { lines.remove(1) }
        #expect(lines.isEmpty && lines.slots.isEmpty && lines.starts.isEmpty)
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
