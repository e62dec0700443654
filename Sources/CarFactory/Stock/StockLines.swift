/// A stock's lines, numbered from 1: a tiered vector. The lines are cut into blocks of
/// `blockSize`, all full but the last; each full block is a ring (its first line at `starts`),
/// the last one a plain run. A line is read in O(1) (its block, then its place in the ring);
/// putting one in or taking one out moves at most a block's lines within its block and one
/// line in and out of each later block: O(blockSize + lines / blockSize), wherever it is.
/// The block grows with the stock, to about twice the square root of its most lines (see
/// `grow`), so that is O(√lines) a change; within a block, the lines on the shorter side of
/// the place move (a ring turns either way), half a block at most.
///
/// A fixed block of 1,024 lines left it quadratic past a million lines (trial 7, 2): 3.2 M
/// lines then 3.2 M removals from the middle took 21.6 s, now 10.8 s (1.6 M: 5.0 s, 4.1 s;
/// 800,000: 1.50 s, 1.28 s; release build, one at a time).
///
/// Removing line 1 of a plain array moved every later line (emptying a stock from the front,
/// 200,000 lines: 4.4 s); a gap buffer made changes near the last one cheap, but changes taking
/// turns at two places moved every line between them each time (the two ends of 400,000 lines:
/// 53.5 s; a quarter and three quarters of 200,000: 6-8 s; trial 5, 7), as did removals at
/// random places. A tree of chunks would also be sublinear, but reading a line would take a
/// walk, and `set` writes the current line on every command: here a read is a shift, a look at
/// the block's start and an addition more than an array's.
@usableFromInline struct StockLines: Sendable {
    /// The smallest block, as a shift: 1,024 lines, the block of every stock of fewer than
    /// 262,144 lines.
    static let smallestShift = 10
    /// Lines per block, as a shift (a power of two): see `grow`.
    @usableFromInline private(set) var blockShift = StockLines.smallestShift
    /// A line's place in its block, from its index: lines per block less one (kept, not
    /// worked out from the shift on every read of a line, as `set` and `show` read one).
    @usableFromInline private(set) var blockMask = (1 << StockLines.smallestShift) - 1
    /// Lines per block.
    @inlinable var blockSize: Int { blockMask &+ 1 }

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
        let block = index &>> blockShift
        return (block &<< blockShift) | ((starts[block] &+ index) & blockMask)
    }

    /// Line `number` (1-based, within `count`: the caller checks it).
    @inlinable subscript(number: Int) -> StockLedger.Entry {
        get { slots[slot(number)] }
        set { slots[slot(number)] = newValue }
    }

    /// Sets the configuration of the line in `slot` (see `slot(_:)`).
    @inlinable mutating func setConfiguration(_ id: Int32, atSlot slot: Int) { slots[slot].configuration = id }

    /// The lines in order.
    var live: Lines { Lines(slots: slots, starts: starts, blockShift: blockShift) }

    /// The lines in order.
    struct Lines: RandomAccessCollection {
        let slots: [StockLedger.Entry]
        let starts: [Int]
        let blockShift: Int
        var startIndex: Int { 0 }
        var endIndex: Int { slots.count }
        subscript(position: Int) -> StockLedger.Entry {
            let block = position >> blockShift
            return slots[block << blockShift | ((starts[block] + position) & ((1 << blockShift) - 1))]
        }
    }

    /// The lines' storage, in slots.
    var capacity: Int { slots.capacity }

    /// Adds a line after the last.
    @inlinable mutating func append(_ entry: StockLedger.Entry) {
        // The last block is full (or there is none): the line starts a new one.
        if slots.count & blockMask == 0 { startBlock() }
        slots.append(entry)
    }

    /// A new last block, after a larger block if the stock has outgrown its own (out of
    /// line: once a block's lines).
    @usableFromInline @inline(never) mutating func startBlock() {
        grow()
        starts.append(0)
    }

    /// Doubles the block once the lines (all in full blocks: a new one is about to start)
    /// reach a quarter of its square, so that it stays about twice their square root: a
    /// line moved within its block costs a few times less than one passed on between blocks
    /// (a look at a far slot). Every ring is put in order and pairs of blocks become one:
    /// O(lines), at 2^18, 2^20, 2^22 ... lines, so O(1) a line added.
    private mutating func grow() {
        guard slots.count >= blockSize &* blockSize &>> 2 else { return }
        for block in starts.indices { straighten(block) }
        blockShift += 1
        blockMask = (1 << blockShift) - 1
        starts = Array(repeating: 0, count: slots.count >> blockShift)
    }

    /// Takes line `number` away (within `count`): the lines after it in its block move up one,
    /// and each later block gives its first line to the block before it.
    mutating func remove(_ number: Int) {
        let index = number - 1
        let block = index >> blockShift
        let last = starts.count - 1
        if block == last {
            straighten(last)
            slots.remove(at: index)
        } else {
            // Within the block, its last place is made free: the lines after it move up, or
            // (fewer) the lines before it move down and the ring turns by one, its first
            // place then its last.
            let at = index & blockMask
            if at < blockSize / 2 {
                for place in stride(from: at, to: 0, by: -1) { slots[position(block, place)] = slots[position(block, place - 1)] }
                starts[block] = (starts[block] + 1) & blockMask
            } else {
                for place in at..<(blockSize - 1) { slots[position(block, place)] = slots[position(block, place + 1)] }
            }
            for next in (block + 1)...last {
                let first: StockLedger.Entry
                if next == last {
                    straighten(last)
                    first = slots.remove(at: last << blockShift)
                } else {
                    first = slots[position(next, 0)]
                    starts[next] = (starts[next] + 1) & blockMask
                }
                slots[position(next - 1, blockSize - 1)] = first
            }
        }
        if slots.count & blockMask == 0 && starts.count > slots.count >> blockShift { starts.removeLast() }
    }

    /// Puts `entry` in as line `number` (1...count + 1): the lines after it in its block move
    /// down one, and each later block takes the last line of the block before it first.
    mutating func insert(_ entry: StockLedger.Entry, at number: Int) {
        let index = number - 1
        guard index < slots.count else {
            append(entry)
            return
        }
        // Every block full: a line more may take a larger block (see `grow`).
        if slots.count & blockMask == 0 { grow() }
        let block = index >> blockShift
        let last = starts.count - 1
        if block == last {
            straighten(last)
            slots.insert(entry, at: index)
            // A full block and one more line: that line starts a new block.
            if slots.count & blockMask == 1 { starts.append(0) }
            return
        }
        // The block's last line goes on to the next block; the lines after the place move
        // down, or (fewer) the ring turns back by one, the last place then its first, and
        // the lines before the place move up.
        var carried = slots[position(block, blockSize - 1)]
        let at = index & blockMask
        if at < blockSize / 2 {
            starts[block] = (starts[block] - 1) & blockMask
            for place in 0..<at { slots[position(block, place)] = slots[position(block, place + 1)] }
            slots[position(block, at)] = entry
        } else {
            var place = blockSize - 1
            while place > at {
                slots[position(block, place)] = slots[position(block, place - 1)]
                place -= 1
            }
            slots[position(block, place)] = entry
        }
        for next in (block + 1)...last {
            if next == last && slots.count & blockMask != 0 {
                // The last block has room: the line carried goes in first.
                slots.insert(carried, at: last << blockShift)
                return
            }
            // A full block: its last line goes on, and the line carried takes its first place.
            let out = slots[position(next, blockSize - 1)]
            starts[next] = (starts[next] - 1) & blockMask
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
        blockShift = Self.smallestShift
        blockMask = (1 << blockShift) - 1
    }

    /// Changes each line's configuration id by `renumber` (the ledger's `compact`; any order).
    mutating func renumber(_ renumber: (Int32) -> Int32) {
        for index in slots.indices { slots[index].configuration = renumber(slots[index].configuration) }
    }

    /// Lines made of `entries`, in order.
    init(_ entries: [StockLedger.Entry] = []) {
        slots = entries
        // The block the lines would have grown to, one by one.
        while entries.count > blockSize * blockSize >> 2 {
            blockShift += 1
            blockMask = (1 << blockShift) - 1
        }
        starts = Array(repeating: 0, count: (entries.count + blockMask) >> blockShift)
    }

    /// The slot of place `place` (0-based) in full block `block`.
    private func position(_ block: Int, _ place: Int) -> Int {
        block << blockShift | ((starts[block] + place) & blockMask)
    }

    /// The block `block`'s lines in order from its first slot (its start 0), if they are not.
    private mutating func straighten(_ block: Int) {
        let start = starts[block]
        guard start != 0 else { return }
        let base = block << blockShift
        let lines = (0..<blockSize).map { slots[base | ((start + $0) & blockMask)] }
        for place in 0..<blockSize { slots[base + place] = lines[place] }
        starts[block] = 0
    }
}
