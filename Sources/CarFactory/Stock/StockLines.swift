/// A stock's lines, numbered from 1: a gap buffer, an array with one run of free slots (the
/// gap) that follows the last removal or insertion, so that changes at or near the same place
/// are O(1) amortized, and free slots before the first line, so that either end is O(1) too,
/// wherever the gap is; a change far from the last, neither at an end, moves the lines between.
///
/// Removing line 1 of a plain array moved every later line (emptying a stock from the front,
/// 200,000 lines: 4.4 s); with room at the ends only, removing the middle line again and again
/// still moved half of them each time (400,000 lines: 28.7 s; trial 4, 2); with the gap alone,
/// removals taking turns at the two ends moved every line each time (400,000 lines: 53.5 s;
/// trial 5, 7). A tree of chunks would make any position sublinear, but reading a line would
/// then take a walk, and `show`, `set` and `car` read or write the current line on every
/// command: here a read is two additions and a comparison more than an array's.
@usableFromInline struct StockLines: Sendable {
    /// The lines in order, after the free slots `0..<head` and with the free slots
    /// `gapStart..<gapEnd` among them (free slots are left as they were).
    @usableFromInline private(set) var slots: [StockLedger.Entry] = []
    /// How many free slots come before the first line (`head <= gapStart`).
    @usableFromInline private(set) var head = 0
    /// Where the free slots among the lines start and end.
    @usableFromInline private(set) var gapStart = 0
    @usableFromInline private(set) var gapEnd = 0

    /// How many lines there are.
    @inlinable var count: Int { slots.count &- (gapEnd &- gapStart) &- head }

    /// Whether there is no line.
    var isEmpty: Bool { count == 0 }

    /// The slot of line `number` (1-based, within `count`).
    @inlinable func slot(_ number: Int) -> Int {
        let index = number &- 1 &+ head
        return index < gapStart ? index : index &+ (gapEnd &- gapStart)
    }

    /// Line `number` (1-based, within `count`: the caller checks it).
    @inlinable subscript(number: Int) -> StockLedger.Entry {
        get { slots[slot(number)] }
        set { slots[slot(number)] = newValue }
    }

    /// Sets the configuration of the line in `slot` (see `slot(_:)`).
    @inlinable mutating func setConfiguration(_ id: Int32, atSlot slot: Int) { slots[slot].configuration = id }

    /// The lines in order.
    var live: Lines { Lines(before: slots[head..<gapStart], after: slots[gapEnd...]) }

    /// The lines in order: those before the free slots, then those after them.
    struct Lines: RandomAccessCollection {
        let before: ArraySlice<StockLedger.Entry>
        let after: ArraySlice<StockLedger.Entry>
        var startIndex: Int { 0 }
        var endIndex: Int { before.count + after.count }
        subscript(position: Int) -> StockLedger.Entry {
            position < before.count ? before[before.startIndex + position] : after[after.startIndex + position - before.count]
        }
    }

    /// The lines' storage, in slots (free ones included).
    var capacity: Int { slots.capacity }

    /// Adds a line after the last (after the free slots, wherever they are).
    mutating func append(_ entry: StockLedger.Entry) { slots.append(entry) }

    /// Takes line `number` away (within `count`): the first joins the free slots before it,
    /// the last the free ones after it (or those at the end of the array are dropped);
    /// otherwise the free slots move to it, then take it in.
    mutating func remove(_ number: Int) {
        if number == 1 && gapStart > head {
            head += 1
        } else if number == count && gapEnd < slots.count {
            slots.removeLast()
        } else if number == count && gapStart > head {
            // The gap is at the end: the last line is just before it.
            gapStart -= 1
        } else {
            moveGap(to: number - 1)
            gapEnd += 1
        }
        if count == 0 {
            // No line left: the storage is kept, from its start.
            removeAll(keepingCapacity: true)
            return
        }
        // Twice as many free slots as lines: they are given up, once for at least a third as
        // many removals, so each pays O(1) for it. (Not sooner: right after `openGap` an undo
        // and redo of a removal, over and over, would move every line each time.)
        let free = head + gapEnd - gapStart
        if free > 64 && free > 2 * count { closeGap() }
    }

    /// Puts `entry` in as line `number` (1...count + 1), in the last free slot once they are
    /// there: so lines put back at one place over and over (`rollback` of emptying a stock from
    /// the front puts each back at line 1) each go in without moving another.
    mutating func insert(_ entry: StockLedger.Entry, at number: Int) {
        if number == 1 && head > 0 {
            head -= 1
            slots[head] = entry
            return
        }
        // After the last line, wherever the free slots are.
        if number - 1 == count {
            slots.append(entry)
            return
        }
        if gapStart == gapEnd {
            openGap(at: number - 1)
        } else {
            moveGap(to: number - 1)
        }
        gapEnd -= 1
        slots[gapEnd] = entry
    }

    /// Removes every line (keeping the storage if asked).
    mutating func removeAll(keepingCapacity: Bool) {
        slots.removeAll(keepingCapacity: keepingCapacity)
        head = 0
        gapStart = 0
        gapEnd = 0
    }

    /// Changes each line's configuration id by `renumber` (in order; the ledger's `compact`).
    mutating func renumber(_ renumber: (Int32) -> Int32) {
        for index in slots.indices where (index >= head && index < gapStart) || index >= gapEnd {
            slots[index].configuration = renumber(slots[index].configuration)
        }
    }

    /// Lines made of `entries`, in order.
    init(_ entries: [StockLedger.Entry] = []) {
        slots = entries
        gapStart = entries.count
        gapEnd = entries.count
    }

    /// Moves the free slots to start at line index `index` (0-based), moving the lines between.
    private mutating func moveGap(to line: Int) {
        let index = head + line
        if index < gapStart {
            // The lines index..<gapStart move up to just before the gap's end.
            var from = gapStart
            var to = gapEnd
            while from > index {
                from -= 1
                to -= 1
                slots[to] = slots[from]
            }
            gapEnd = to
            gapStart = index
        } else if index > gapStart {
            // The lines after the gap, up to index, move down to its start.
            var from = gapEnd
            var to = gapStart
            while to < index {
                slots[to] = slots[from]
                from += 1
                to += 1
            }
            gapStart = to
            gapEnd = from
        }
    }

    /// Free slots at line index `index`, as many as there are lines (at least 16): the next
    /// insertions there pay for the move, O(1) each.
    private mutating func openGap(at line: Int) {
        let index = head + line
        let room = Swift.max(16, count)
        let filler = StockLedger.Entry(count: 0, configuration: 0)
        slots.insert(contentsOf: repeatElement(filler, count: room), at: index)
        gapStart = index
        gapEnd = index + room
    }

    /// The lines after the free slots moved down to them, and the free slots (both runs) given up.
    private mutating func closeGap() {
        slots.removeSubrange(gapStart..<gapEnd)
        slots.removeSubrange(0..<head)
        head = 0
        gapStart = slots.count
        gapEnd = slots.count
    }
}
