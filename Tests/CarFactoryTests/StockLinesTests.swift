import Testing

@testable import CarFactory

// A stock's lines in blocks that may run short, found through a tree of their sizes: whatever
// is removed or put back where, they read as a plain array would, and any change moves at most
// a block's lines, whatever the stock's size (emptying a stock from the front, rolling that
// back, removing its middle line again and again, or taking turns at two places moved half
// the lines or more each time with a plain array or a gap buffer, and one line a block with
// blocks kept full: trial 9, 2).
@Suite struct StockLinesTests {
    static func entry(_ tag: Int) -> StockLedger.Entry { StockLedger.Entry(count: Int64(tag), configuration: 0) }
    static func tags(_ lines: StockLines) -> [Int64] { lines.live.map(\.count) }
    static let block = StockLines.blockSize

    /// Lines made by appending `entries`, as `car` makes them.
    static func lines(_ tags: some Sequence<Int>) -> StockLines {
        var lines = StockLines()
        for tag in tags { lines.append(entry(tag)) }
        return lines
    }

    /// Every line read by its number (the tree's way or the direct one) and in order agree with `model`.
    static func expectReads(_ lines: StockLines, _ model: [Int64], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(lines.count == model.count, sourceLocation: sourceLocation)
        #expect(tags(lines) == model, sourceLocation: sourceLocation)
        let read = model.indices.map { lines[$0 + 1].count }
        #expect(read == model, sourceLocation: sourceLocation)
        for from in [0, 1, model.count / 2, model.count] {
            #expect(Array(lines.live(from: from).map(\.count)) == Array(model[from...]), sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: Array(1...6) as [UInt64])
    func they_read_as_an_array_does_after_any_changes(seed: UInt64) {
        var random = SplitMix64(state: seed)
        // Across a few blocks: starting with some, so that full blocks turn their rings.
        let first = random.below(6 * Self.block)
        var lines = Self.lines(0..<first)
        var model = (0..<first).map(Int64.init)
        var next = first
        for _ in 0..<4000 {
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
        Self.expectReads(lines, model)
        // Each slot written by `subscript` is the one read back.
        for number in stride(from: 1, through: model.count, by: 5) { lines[number] = Self.entry(-number) }
        for number in stride(from: 1, through: model.count, by: 5) { model[number - 1] = Int64(-number) }
        Self.expectReads(lines, model)
    }

    /// Lines put back at the front of a stock of full blocks (a rollback of `remove 1`s after
    /// the lines were packed) split the first block and fill the halves: read in order all along.
    @Test func lines_put_in_at_full_blocks_split_them_and_read_in_order() {
        let first = 5 * Self.block
        var lines = Self.lines(0..<first)
        var model = (0..<first).map(Int64.init)
        for tag in 0..<(3 * Self.block + 5) {
            let number = [1, 1 + Self.block, 1 + 2 * Self.block, lines.count / 2][tag % 4]
            lines.insert(Self.entry(first + tag), at: number)
            model.insert(Int64(first + tag), at: number - 1)
        }
        Self.expectReads(lines, model)
        let sizes = lines.sizes.indices.map(lines.size)
        #expect(sizes.allSatisfy { $0 <= Self.block } && sizes.reduce(0, +) == model.count)
    }

    /// Review of stock11, 2: the lines packed after many removals leave a quarter of each
    /// block free, so lines put back (a rollback of more removals) go into their blocks, or
    /// pass one to a neighbour, and split none until a block and its neighbours are full.
    /// Packed full, the first line put back split its block, and each split after cost
    /// O(blocks): 16 µs a line at 4 M lines.
    @Test func lines_put_back_after_a_pack_split_no_block_until_one_fills() {
        let n = 64 * Self.block
        var lines = Self.lines(0..<n)
        var model = (0..<n).map(Int64.init)
        // From the front until the storage is packed (it shrinks: emptied blocks go).
        var slots = lines.slots.count
        while lines.slots.count >= slots {
            slots = lines.slots.count
            lines.remove(1)
            model.removeFirst()
        }
        let blocks = lines.sizes.count
        #expect(lines.sizes.indices.dropLast().allSatisfy { lines.size($0) == StockLines.packedSize })
        // A line into the middle of every block, then a quarter block's more into the first.
        var tag = -1
        func putBack(at number: Int) {
            lines.insert(Self.entry(tag), at: number)
            model.insert(Int64(tag), at: number - 1)
            tag -= 1
        }
        for block in 0..<blocks { putBack(at: min(1 + block * (StockLines.packedSize + 1) + 96, lines.count + 1)) }
        #expect(lines.sizes.count == blocks)
        for _ in 0..<(Self.block - StockLines.packedSize) { putBack(at: 2) }
        #expect(lines.sizes.count == blocks)
        Self.expectReads(lines, model)
    }

    /// How many slots hold something else after `change` (the lines it moved, and the one it
    /// wrote), and how many it added or dropped at the end.
    static func moved(_ lines: inout StockLines, _ change: (inout StockLines) -> Void) -> Int {
        let before = lines.slots
        change(&lines)
        let after = lines.slots
        return zip(before, after).count { $0.count != $1.count } + abs(before.count - after.count)
    }

    /// The most slots a change may move, whatever the lines: half a block, and a new block
    /// filled half (a split), and a line to a neighbour. With blocks kept full it grew with
    /// the blocks (a line each).
    static let bound = 2 * block + 2

    /// Trial 4, 2, trial 5, 7 and trial 9, 2: the middle line again and again, the two ends in
    /// turn, a quarter and three quarters in turn, the front, and places at random: each change
    /// moves at most `bound` slots, over 64 blocks.
    @Test(arguments: ["middle", "ends", "quarters", "front", "random"])
    func any_change_moves_at_most_a_block_whatever_the_lines(pattern: String) {
        // 64 blocks; 300 changes each way (`moved` compares every slot: keep it small).
        let n = 64 * Self.block
        let changes = 300
        var random = SplitMix64(state: 7)
        var lines = Self.lines(1...n)
        var model = (1...n).map(Int64.init)
        var turn = 0
        func number(_ count: Int) -> Int {
            turn += 1
            switch pattern {
            case "middle": return (count + 1) / 2
            case "ends": return turn % 2 == 0 ? 1 : count
            case "quarters": return turn % 2 == 0 ? max(1, count / 4) : max(1, 3 * count / 4)
            case "front": return 1
            default: return 1 + random.below(count)
            }
        }
        for _ in 0..<changes {
            let at = number(lines.count)
            let moved = Self.moved(&lines) { $0.remove(at) }
            model.remove(at: at - 1)
            #expect(moved <= Self.bound, "removing line \(at) of \(lines.count + 1)")
            if moved > Self.bound { break }
        }
        #expect(Self.tags(lines) == model)
        // Put back at the same places.
        for tag in 0..<(2 * changes) {
            let at = min(number(lines.count), lines.count + 1)
            let moved = Self.moved(&lines) { $0.insert(Self.entry(-tag), at: at) }
            model.insert(Int64(-tag), at: at - 1)
            #expect(moved <= Self.bound, "putting line \(at) of \(lines.count) back")
            if moved > Self.bound { break }
        }
        Self.expectReads(lines, model)
    }

    /// Emptied from the front, or worked as a queue (lines added at the end, taken from the
    /// front), the storage stays within twice the lines and a few blocks: emptied blocks are
    /// packed away once they are half of it.
    @Test func emptying_from_the_front_keeps_its_storage_in_proportion_to_its_lines() {
        let n = 10_000
        var lines = Self.lines(1...n)
        for removed in 1...(n - 10) {
            lines.remove(1)
            #expect(lines.slots.count <= 2 * lines.count + 5 * Self.block, "after \(removed)")
        }
        #expect(Self.tags(lines) == ((n - 9)...n).map(Int64.init))
        for tag in 0..<(20 * n) {
            lines.append(Self.entry(n + 1 + tag))
            lines.remove(1)
            if lines.slots.count > 2 * lines.count + 5 * Self.block { break }
        }
        #expect(lines.slots.count <= 2 * lines.count + 5 * Self.block)
        #expect(Self.tags(lines) == ((21 * n - 9)...(21 * n)).map(Int64.init))
        while lines.count > 0 { lines.remove(1) }
        #expect(lines.isEmpty && lines.slots.isEmpty && lines.sizes.isEmpty)
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
