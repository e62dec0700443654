/// A stock's lines, numbered from 1: blocks of up to 256 lines, in order, each a ring within
/// its own 256 slots of one storage array, with a Fenwick tree of how many lines each block
/// holds. A line is found in O(log blocks) (O(1) while every block before it is full: a
/// stock only ever appended to), and taking one out or putting one in moves at most half a
/// block's lines and updates the tree: O(256 + log lines) wherever it is, whatever the stock's size.
///
/// The blocks before this one were all kept full (a tiered vector): a line taken out of the
/// front moved one line out of each later block, O(√lines) a change, and a script emptying a
/// stock from the front ran in n^1.5 time (trial 9, 2: 3.2 M lines then 3.2 M `remove 1`,
/// 15.0 s). A block may now run short: an emptied block stays empty, in its place, until the
/// storage is more than half empty, when every line is packed again, three quarters of a block
/// each (O(lines), after as many removals: O(1) a removal; the quarter left is room for lines
/// put back). A line put into a full block moves a line to a neighbour with room, or splits
/// the block in two (rebuilding the tree: O(blocks), after at least 64 lines put in since the
/// pack, or 128 since the last split, since each half has 128 free places).
///
/// A tree of chunks would do the same, but reading a line would take a walk of nodes, and
/// `set` writes the current line on every command: here a read is a comparison, a look at
/// the block's first slot and start, and an addition more than an array's.
@usableFromInline struct StockLines: Sendable {
    /// Slots per block, as a shift.
    @usableFromInline static let blockShift = 8
    /// A line's place in its block, from its index.
    @usableFromInline static let blockMask = (1 << blockShift) - 1
    /// Slots per block.
    @usableFromInline static let blockSize = 1 << blockShift
    /// What fills a slot no line holds.
    private static let blank = StockLedger.Entry(count: 0, configuration: 0)
    /// A block of blanks: a new block's slots are copied from it (filling them one by one
    /// cost ~13 instructions a line appended).
    private static let blankBlock = [StockLedger.Entry](repeating: blank, count: blockSize)

    /// The lines' storage, in blocks of `blockSize` slots (a block taken out of the order
    /// keeps its slots until the lines are packed again).
    @usableFromInline private(set) var slots: [StockLedger.Entry] = []
    /// Each block's first slot, block after block in the lines' order.
    @usableFromInline private(set) var bases: [Int] = []
    /// Where each block's first line is, within the block (its ring's start).
    @usableFromInline private(set) var starts: [Int] = []
    /// How many lines each block holds; the last block's is settled only when a change other
    /// than `append` comes (see `settle`; `size(_:)` reads it): appending writes no array but
    /// the slots' (a `car` cost ~90 instructions more when it wrote the size too).
    @usableFromInline private(set) var sizes: [Int] = []
    /// The slot the next line appended goes to, and how many more the last block has room for.
    @usableFromInline private(set) var tail = 0
    @usableFromInline private(set) var tailRoom = 0
    /// A Fenwick tree of `sizes` of every block but the last (node `i`, 1-based, at `i - 1`):
    /// appending to the last block then touches no node.
    private var tree: [Int] = []
    /// How many lines the blocks before the last hold.
    private var beforeLast = 0
    /// How many blocks (before the last) are full from the first on.
    private var fullBlocks = 0
    /// How many blocks from the first on have their slots in order (block `b` at slot
    /// `b << blockShift`): all, until a block is split.
    private var orderedBlocks = 0
    /// The lines found from their index alone (every block before theirs full, and all in
    /// order): those of the first blocks full and in order, or every line (`Int.max`) when
    /// each block but the last is full and all are in order (a stock only appended to).
    @usableFromInline private(set) var directLines = Int.max

    /// How many lines there are.
    @usableFromInline private(set) var count = 0

    /// Whether there is no line.
    var isEmpty: Bool { count == 0 }

    /// No line.
    init() {}

    /// The slot of line `number` (1-based, within `count`).
    @inlinable func slot(_ number: Int) -> Int {
        let index = number &- 1
        guard index < directLines else { return slot(atIndex: index) }
        return (index & ~Self.blockMask) | ((starts[index &>> Self.blockShift] &+ index) & Self.blockMask)
    }

    /// The slot of the line of index `index` (0-based) past the lines found directly: by the tree.
    @usableFromInline @inline(never) func slot(atIndex index: Int) -> Int {
        let (block, place) = locate(index)
        return position(block, place)
    }

    /// Line `number` (1-based, within `count`: the caller checks it).
    @inlinable subscript(number: Int) -> StockLedger.Entry {
        get { slots[slot(number)] }
        set { slots[slot(number)] = newValue }
    }

    /// Sets the configuration of the line in `slot` (see `slot(_:)`).
    @inlinable mutating func setConfiguration(_ id: Int32, atSlot slot: Int) { slots[slot].configuration = id }

    /// The lines in order.
    var live: Lines { Lines(lines: self, from: 0) }

    /// The lines in order from the one of index `index` (0-based).
    func live(from index: Int) -> Lines { Lines(lines: self, from: index) }

    /// The lines in order, from one on.
    struct Lines: Sequence {
        let lines: StockLines
        let from: Int

        var underestimatedCount: Int { Swift.max(0, lines.count - from) }

        func makeIterator() -> Iterator {
            guard from < lines.count else { return Iterator(lines: lines, block: lines.sizes.count, place: 0) }
            let (block, place) = lines.locate(from)
            return Iterator(lines: lines, block: block, place: place)
        }

        /// Walks the blocks in order, each from its start.
        struct Iterator: IteratorProtocol {
            let lines: StockLines
            var block: Int
            var place: Int

            mutating func next() -> StockLedger.Entry? {
                while block < lines.sizes.count && place >= lines.size(block) {
                    block += 1
                    place = 0
                }
                guard block < lines.sizes.count else { return nil }
                defer { place += 1 }
                return lines.slots[lines.position(block, place)]
            }
        }
    }

    /// The lines' storage, in slots.
    var capacity: Int { slots.capacity }

    /// Adds a line after the last (always inlined: a call cost `car` ~30 instructions);
    /// returns the slot it went to.
    @inlinable @inline(__always) @discardableResult mutating func append(_ entry: StockLedger.Entry) -> Int {
        // The last block is full (or there is none): the line starts a new one.
        if tailRoom == 0 { startBlock() }
        let slot = tail
        slots[slot] = entry
        tail = (slot & ~Self.blockMask) | ((slot &+ 1) & Self.blockMask)
        tailRoom &-= 1
        count &+= 1
        return slot
    }

    /// A new last block, after the full one that was last (out of line: once a block's lines).
    @usableFromInline @inline(never) mutating func startBlock() {
        settle()
        if let last = sizes.indices.last {
            // The block that was last joins the tree (its node covers blocks up to it).
            let node = last + 1
            tree.append(sizes[last] + prefix(last) - prefix(node - (node & -node)))
            beforeLast += sizes[last]
            if fullBlocks == last && sizes[last] == Self.blockSize { fullBlocks += 1 }
        }
        if orderedBlocks == sizes.count && slots.count == sizes.count << Self.blockShift { orderedBlocks += 1 }
        bases.append(slots.count)
        slots.append(contentsOf: Self.blankBlock)
        starts.append(0)
        sizes.append(0)
        updateDirectLines()
        syncTail()
    }

    /// Takes line `number` away (within `count`): the lines on the shorter side of it in its
    /// block move one place.
    mutating func remove(_ number: Int) {
        settle()
        defer { syncTail() }
        let (block, place) = locate(number - 1)
        let base = bases[block]
        let start = starts[block]
        let size = sizes[block]
        slots.withUnsafeMutableBufferPointer { slots in
            if place < size / 2 {
                // The lines before it move up one, and the ring starts one place later.
                var at = place
                while at > 0 {
                    slots[base | ((start + at) & Self.blockMask)] = slots[base | ((start + at - 1) & Self.blockMask)]
                    at -= 1
                }
            } else {
                for at in place..<(size - 1) {
                    slots[base | ((start + at) & Self.blockMask)] = slots[base | ((start + at + 1) & Self.blockMask)]
                }
            }
        }
        if place < size / 2 { starts[block] = (start + 1) & Self.blockMask }
        count -= 1
        resize(block, by: -1)
        if count == 0 {
            removeAll(keepingCapacity: true)
            return
        }
        if sizes[block] == 0 && block == sizes.count - 1 { dropLastBlock() }
        // Mostly empty storage (blocks emptied at the front of a queue, say): packed again.
        if slots.count > 2 * count + 4 * Self.blockSize { pack() }
    }

    /// Puts `entry` in as line `number` (1...count + 1).
    mutating func insert(_ entry: StockLedger.Entry, at number: Int) {
        let index = number - 1
        guard index < count else {
            append(entry)
            return
        }
        settle()
        defer { syncTail() }
        var (block, place) = locate(index)
        if place == 0 && block > 0 && sizes[block - 1] < Self.blockSize {
            // First in its block: the end of the block before has room.
            block -= 1
            place = sizes[block]
        } else if sizes[block] == Self.blockSize {
            if block + 1 < sizes.count && sizes[block + 1] < Self.blockSize {
                // The block's last line goes on to the next, first there.
                let last = slots[position(block, Self.blockSize - 1)]
                starts[block + 1] = (starts[block + 1] - 1) & Self.blockMask
                slots[position(block + 1, 0)] = last
                resize(block, by: -1)
                resize(block + 1, by: 1)
            } else if block > 0 && sizes[block - 1] < Self.blockSize {
                // Its first line goes back to the block before, last there (`place` is past it).
                slots[position(block - 1, sizes[block - 1])] = slots[position(block, 0)]
                starts[block] = (starts[block] + 1) & Self.blockMask
                resize(block, by: -1)
                resize(block - 1, by: 1)
                place -= 1
            } else {
                split(block)
                let half = Self.blockSize / 2
                if place >= half {
                    block += 1
                    place -= half
                }
            }
        }
        let base = bases[block]
        let size = sizes[block]
        var start = starts[block]
        if place < size / 2 {
            // The lines before it move down one, and the ring starts one place earlier.
            start = (start - 1) & Self.blockMask
            starts[block] = start
            slots.withUnsafeMutableBufferPointer { slots in
                for at in 0..<place {
                    slots[base | ((start + at) & Self.blockMask)] = slots[base | ((start + at + 1) & Self.blockMask)]
                }
            }
        } else {
            slots.withUnsafeMutableBufferPointer { slots in
                var at = size
                while at > place {
                    slots[base | ((start + at) & Self.blockMask)] = slots[base | ((start + at - 1) & Self.blockMask)]
                    at -= 1
                }
            }
        }
        slots[base | ((start + place) & Self.blockMask)] = entry
        count += 1
        resize(block, by: 1)
    }

    /// Removes every line (keeping the storage if asked).
    mutating func removeAll(keepingCapacity: Bool) {
        slots.removeAll(keepingCapacity: keepingCapacity)
        bases.removeAll(keepingCapacity: keepingCapacity)
        starts.removeAll(keepingCapacity: keepingCapacity)
        sizes.removeAll(keepingCapacity: keepingCapacity)
        tree.removeAll(keepingCapacity: keepingCapacity)
        (count, beforeLast, fullBlocks, orderedBlocks, directLines, tail, tailRoom) = (0, 0, 0, 0, Int.max, 0, 0)
    }

    /// Changes each line's configuration id by `renumber` (the ledger's `compact`), in order.
    mutating func renumber(_ renumber: (Int32) -> Int32) {
        for block in sizes.indices {
            for place in 0..<size(block) {
                let slot = position(block, place)
                slots[slot].configuration = renumber(slots[slot].configuration)
            }
        }
    }

    /// The block holding the line of index `index` (0-based, within `count`), and its place there.
    func locate(_ index: Int) -> (block: Int, place: Int) {
        if index < directLines { return (index >> Self.blockShift, index & Self.blockMask) }
        if index >= beforeLast { return (sizes.count - 1, index - beforeLast) }
        // The most blocks whose lines all come before it: it is in the next.
        var blocks = 0
        var left = index
        var step = 1
        while step * 2 <= tree.count { step *= 2 }
        while step > 0 {
            let next = blocks + step
            if next <= tree.count && tree[next - 1] <= left {
                blocks = next
                left -= tree[next - 1]
            }
            step >>= 1
        }
        return (blocks, left)
    }

    /// How many lines block `block` holds (the last's from `count`: see `sizes`).
    func size(_ block: Int) -> Int { block == sizes.count - 1 ? count - beforeLast : sizes[block] }

    /// The last block's size written down, before a change that reads or moves it.
    private mutating func settle() {
        if !sizes.isEmpty { sizes[sizes.count - 1] = count - beforeLast }
    }

    /// `tail` and `tailRoom` from the last block (its size settled).
    private mutating func syncTail() {
        guard let last = sizes.indices.last else {
            (tail, tailRoom) = (0, 0)
            return
        }
        tail = bases[last] | ((starts[last] + sizes[last]) & Self.blockMask)
        tailRoom = Self.blockSize - sizes[last]
    }

    /// The slot of place `place` (0-based) in block `block`.
    private func position(_ block: Int, _ place: Int) -> Int {
        bases[block] | ((starts[block] + place) & Self.blockMask)
    }

    /// How many lines the blocks before block `block` hold (`block` within the tree).
    private func prefix(_ block: Int) -> Int {
        var sum = 0
        var node = block
        while node > 0 {
            sum += tree[node - 1]
            node &= node - 1
        }
        return sum
    }

    /// Block `block` holds `delta` lines more (its lines already moved), and what counts them follows.
    private mutating func resize(_ block: Int, by delta: Int) {
        sizes[block] += delta
        if block < sizes.count - 1 {
            var node = block + 1
            while node <= tree.count {
                tree[node - 1] += delta
                node += node & -node
            }
            beforeLast += delta
        }
        if delta < 0 && block < fullBlocks {
            fullBlocks = block
        } else if delta > 0 && block == fullBlocks {
            // A few more full blocks may follow: looked at up to a bound, so that taking a
            // line out of the first and putting it back costs no walk of the blocks.
            var looked = 0
            while fullBlocks < sizes.count - 1 && sizes[fullBlocks] == Self.blockSize && looked < 16 {
                fullBlocks += 1
                looked += 1
            }
        }
        updateDirectLines()
    }

    /// `directLines` from `fullBlocks`.
    private mutating func updateDirectLines() {
        let last = sizes.count - 1
        if fullBlocks >= last && orderedBlocks > last {
            directLines = Int.max
        } else {
            directLines = min(fullBlocks, orderedBlocks) << Self.blockShift
        }
    }

    /// Takes the last block (empty) out of the order; its slots go too if they are the last.
    private mutating func dropLastBlock() {
        let base = bases.removeLast()
        starts.removeLast()
        sizes.removeLast()
        if base + Self.blockSize == slots.count { slots.removeLast(Self.blockSize) }
        // The block before is last now: out of the tree.
        if let last = sizes.indices.last {
            tree.removeLast()
            beforeLast -= sizes[last]
            fullBlocks = min(fullBlocks, last)
        }
        orderedBlocks = min(orderedBlocks, sizes.count)
        updateDirectLines()
    }

    /// Splits full block `block` in two: its second half moves to a new block just after it.
    private mutating func split(_ block: Int) {
        let half = Self.blockSize / 2
        let base = slots.count
        slots.append(contentsOf: Self.blankBlock)
        for place in 0..<half { slots[base + place] = slots[position(block, half + place)] }
        sizes[block] = half
        bases.insert(base, at: block + 1)
        starts.insert(0, at: block + 1)
        sizes.insert(half, at: block + 1)
        fullBlocks = min(fullBlocks, block)
        orderedBlocks = min(orderedBlocks, block + 1)
        rebuildTree()
    }

    /// How many lines a block holds once packed: three quarters of it. Packed full, every line
    /// put back (a rollback of the removals that packed them) found its block and both
    /// neighbours full and split one, at O(blocks) for the arrays and the tree: 16 µs a line
    /// at 4 M lines, 52 µs at 16 M (review of stock11, 2). With a quarter free, 64 lines go
    /// into a block (and more into its neighbours) before it splits.
    static let packedSize = blockSize * 3 / 4

    /// Every line packed again, in order, `packedSize` a block (the last may hold fewer): O(lines).
    private mutating func pack() {
        guard count > 0 else { return }
        let blocks = (count + Self.packedSize - 1) / Self.packedSize
        var packed: [StockLedger.Entry] = []
        packed.reserveCapacity(blocks << Self.blockShift)
        var filled = 0
        for entry in live {
            packed.append(entry)
            filled += 1
            if filled == Self.packedSize {
                packed.append(contentsOf: Self.blankBlock[filled...])
                filled = 0
            }
        }
        if filled > 0 { packed.append(contentsOf: Self.blankBlock[filled...]) }
        slots = packed
        bases = (0..<blocks).map { $0 << Self.blockShift }
        starts = Array(repeating: 0, count: blocks)
        sizes = Array(repeating: Self.packedSize, count: blocks)
        sizes[blocks - 1] = count - (blocks - 1) * Self.packedSize
        // No block is full: lines are found by the tree (O(log blocks)).
        fullBlocks = 0
        orderedBlocks = blocks
        rebuildTree()
    }

    /// The tree, `beforeLast` and `directLines` made again from `sizes`: O(blocks).
    private mutating func rebuildTree() {
        let counted = sizes.count - 1
        tree = Array(sizes[0..<counted])
        for node in stride(from: 1, through: counted, by: 1) {
            let parent = node + (node & -node)
            if parent <= counted { tree[parent - 1] += tree[node - 1] }
        }
        beforeLast = count - sizes[counted]
        updateDirectLines()
    }
}
