/// A stock's lines, numbered from 1: a tiered vector. The lines are cut into blocks of
/// `blockSize`, all full but the last; each full block is a ring (its first line at `starts`),
/// the last one a plain run. A line is read in O(1) (its block, then its place in the ring);
/// putting one in or taking one out moves at most a block's lines within its block and one
/// line in and out of each later block: O(blockSize + lines / blockSize), wherever it is.
///
/// Removing line 1 of a plain array moved every later line (emptying a stock from the front,
/// 200,000 lines: 4.4 s); a gap buffer made changes near the last one cheap, but changes taking
/// turns at two places moved every line between them each time (the two ends of 400,000 lines:
/// 53.5 s; a quarter and three quarters of 200,000: 6-8 s; trial 5, 7), as did removals at
/// random places. A tree of chunks would also be sublinear, but reading a line would take a
/// walk, and `set` writes the current line on every command: here a read is a shift, a look at
/// the block's start and an addition more than an array's.
@usableFromInline struct StockLines: Sendable {
    /// Lines per block: a power of two, about the square root of a large stock's lines.
    @usableFromInline static let blockShift = 10
    @usableFromInline static let blockSize = 1 << blockShift
    @usableFromInline static let blockMask = blockSize - 1

    /// Every line, block after block (a full block's lines rotated by its start): as many
    /// slots as lines.
    @usableFromInline private(set) var slots: [StockLedger.Entry] = []
    /// Where each block's first line is, within the block (0 for the last while it is not full).
    @usableFromInline private(set) var starts: [Int] = []

    /// How many lines there are.
    @inlinable var count: Int { slots.count }

    /// Whether there is no line.
    var isEmpty: Bool { slots.isEmpty }

    /// The slot of line `number` (1-based, within `count`).
    @inlinable func slot(_ number: Int) -> Int {
        let index = number &- 1
        let block = index &>> Self.blockShift
        return (block &<< Self.blockShift) | ((starts[block] &+ index) & Self.blockMask)
    }

    /// Line `number` (1-based, within `count`: the caller checks it).
    @inlinable subscript(number: Int) -> StockLedger.Entry {
        get { slots[slot(number)] }
        set { slots[slot(number)] = newValue }
    }

    /// Sets the configuration of the line in `slot` (see `slot(_:)`).
    @inlinable mutating func setConfiguration(_ id: Int32, atSlot slot: Int) { slots[slot].configuration = id }

    /// The lines in order.
    var live: Lines { Lines(slots: slots, starts: starts) }

    /// The lines in order.
    struct Lines: RandomAccessCollection {
        let slots: [StockLedger.Entry]
        let starts: [Int]
        var startIndex: Int { 0 }
        var endIndex: Int { slots.count }
        subscript(position: Int) -> StockLedger.Entry {
            let block = position >> StockLines.blockShift
            return slots[block << StockLines.blockShift | ((starts[block] + position) & StockLines.blockMask)]
        }
    }

    /// The lines' storage, in slots.
    var capacity: Int { slots.capacity }

    /// Adds a line after the last.
    @inlinable mutating func append(_ entry: StockLedger.Entry) {
        // The last block is full (or there is none): the line starts a new one.
        if slots.count & Self.blockMask == 0 { startBlock() }
        slots.append(entry)
    }

    /// A new last block (out of line: once a block's lines).
    @usableFromInline @inline(never) mutating func startBlock() { starts.append(0) }

    /// Takes line `number` away (within `count`): the lines after it in its block move up one,
    /// and each later block gives its first line to the block before it.
    mutating func remove(_ number: Int) {
        let index = number - 1
        let block = index >> Self.blockShift
        let last = starts.count - 1
        if block == last {
            straighten(last)
            slots.remove(at: index)
        } else {
            // Within the block, the lines after it move up; its last place is then free.
            for place in (index & Self.blockMask)..<(Self.blockSize - 1) {
                slots[position(block, place)] = slots[position(block, place + 1)]
            }
            for next in (block + 1)...last {
                let first: StockLedger.Entry
                if next == last {
                    straighten(last)
                    first = slots.remove(at: last << Self.blockShift)
                } else {
                    first = slots[position(next, 0)]
                    starts[next] = (starts[next] + 1) & Self.blockMask
                }
                slots[position(next - 1, Self.blockSize - 1)] = first
            }
        }
        if slots.count & Self.blockMask == 0 && starts.count > slots.count >> Self.blockShift { starts.removeLast() }
    }

    /// Puts `entry` in as line `number` (1...count + 1): the lines after it in its block move
    /// down one, and each later block takes the last line of the block before it first.
    mutating func insert(_ entry: StockLedger.Entry, at number: Int) {
        let index = number - 1
        guard index < slots.count else {
            append(entry)
            return
        }
        let block = index >> Self.blockShift
        let last = starts.count - 1
        if block == last {
            straighten(last)
            slots.insert(entry, at: index)
            // A full block and one more line: that line starts a new block.
            if slots.count & Self.blockMask == 1 { starts.append(0) }
            return
        }
        // The block's last line goes on to the next block; the lines after the place move down.
        var carried = slots[position(block, Self.blockSize - 1)]
        var place = Self.blockSize - 1
        while place > index & Self.blockMask {
            slots[position(block, place)] = slots[position(block, place - 1)]
            place -= 1
        }
        slots[position(block, place)] = entry
        for next in (block + 1)...last {
            if next == last && slots.count & Self.blockMask != 0 {
                // The last block has room: the line carried goes in first.
                slots.insert(carried, at: last << Self.blockShift)
                return
            }
            // A full block: its last line goes on, and the line carried takes its first place.
            let out = slots[position(next, Self.blockSize - 1)]
            starts[next] = (starts[next] - 1) & Self.blockMask
            slots[position(next, 0)] = carried
            carried = out
        }
        // Every block was full: the last line carried starts a new one.
        append(carried)
    }

    /// Removes every line (keeping the storage if asked).
    mutating func removeAll(keepingCapacity: Bool) {
        slots.removeAll(keepingCapacity: keepingCapacity)
        starts.removeAll(keepingCapacity: keepingCapacity)
    }

    /// Changes each line's configuration id by `renumber` (the ledger's `compact`; any order).
    mutating func renumber(_ renumber: (Int32) -> Int32) {
        for index in slots.indices { slots[index].configuration = renumber(slots[index].configuration) }
    }

    /// Lines made of `entries`, in order.
    init(_ entries: [StockLedger.Entry] = []) {
        slots = entries
        starts = Array(repeating: 0, count: (entries.count + Self.blockMask) >> Self.blockShift)
    }

    /// The slot of place `place` (0-based) in full block `block`.
    private func position(_ block: Int, _ place: Int) -> Int {
        block << Self.blockShift | ((starts[block] + place) & Self.blockMask)
    }

    /// The block `block`'s lines in order from its first slot (its start 0), if they are not.
    private mutating func straighten(_ block: Int) {
        let start = starts[block]
        guard start != 0 else { return }
        let base = block << Self.blockShift
        let lines = (0..<Self.blockSize).map { slots[base | ((start + $0) & Self.blockMask)] }
        for place in 0..<Self.blockSize { slots[base + place] = lines[place] }
        starts[block] = 0
    }
}
