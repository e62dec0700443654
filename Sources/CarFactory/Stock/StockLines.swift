/// A stock's lines, numbered from 1: an array with room at its front as well as its back, so
/// that taking a line off or putting one back at either end is O(1) amortized, and one in the
/// middle moves only the lines on its shorter side.
///
/// Removing line 1 of an array moved every later line: emptying a stock from the front
/// (`remove 1` over and over, or `rollback` of that) took time in the square of its lines
/// (200,000 lines: 4.4 s; 8.3 s in a transaction). A tree of chunks would make any position
/// sublinear, but reading a line would then take a walk, and `show`, `set` and `car` read or
/// write the current line on every command: here a read is one addition more than the array's.
@usableFromInline struct StockLines: Sendable {
    /// Slots `head...` are the lines; those before `head` are free (left as they were).
    @usableFromInline private(set) var slots: [StockLedger.Entry] = []
    /// The first line's slot.
    @usableFromInline private(set) var head = 0

    /// How many lines there are.
    @inlinable var count: Int { slots.count &- head }

    /// Whether there is no line.
    var isEmpty: Bool { slots.count == head }

    /// Line `number` (1-based, within `count`: the caller checks it).
    @inlinable subscript(number: Int) -> StockLedger.Entry {
        get { slots[head &+ number &- 1] }
        set { slots[head &+ number &- 1] = newValue }
    }

    /// The lines in order.
    var live: ArraySlice<StockLedger.Entry> { slots[head...] }

    /// The lines' storage, in slots (free ones included).
    var capacity: Int { slots.capacity }

    /// Adds a line after the last.
    mutating func append(_ entry: StockLedger.Entry) { slots.append(entry) }

    /// Takes line `number` away (within `count`), moving the lines on its shorter side.
    mutating func remove(_ number: Int) {
        let slot = head + number - 1
        if number - 1 < count - number {
            // Nearer the front: the lines before it move up one, into its slot.
            var index = slot
            while index > head {
                slots[index] = slots[index - 1]
                index -= 1
            }
            head += 1
            // Twice as many free slots as lines: the lines move to the start, once for at
            // least a third as many removals from the front, so each pays O(1) for it. (Not
            // sooner: right after `openFront` an undo and redo of `remove 1`, over and over,
            // would move every line each time.)
            if head > 64 && head > 2 * count { compactFront() }
        } else {
            slots.remove(at: slot)
        }
        if head == slots.count {
            // No line left: the storage is kept, from its start.
            slots.removeAll(keepingCapacity: true)
            head = 0
        }
    }

    /// Puts `entry` in as line `number` (1...count + 1), moving the lines on its shorter side.
    mutating func insert(_ entry: StockLedger.Entry, at number: Int) {
        if number - 1 < count - (number - 1) {
            if head == 0 { openFront() }
            // Nearer the front: the lines before it move down one, into a free slot.
            head -= 1
            var index = head
            let slot = head + number - 1
            while index < slot {
                slots[index] = slots[index + 1]
                index += 1
            }
            slots[slot] = entry
        } else {
            slots.insert(entry, at: head + number - 1)
        }
    }

    /// Removes every line (keeping the storage if asked).
    mutating func removeAll(keepingCapacity: Bool) {
        slots.removeAll(keepingCapacity: keepingCapacity)
        head = 0
    }

    /// Changes each line's configuration id by `renumber` (in order; the ledger's `compact`).
    mutating func renumber(_ renumber: (Int32) -> Int32) {
        for index in head..<slots.count { slots[index].configuration = renumber(slots[index].configuration) }
    }

    /// Lines made of `entries`, in order.
    init(_ entries: [StockLedger.Entry] = []) { slots = entries }

    /// The lines moved to the start of the storage.
    private mutating func compactFront() {
        slots.removeFirst(head)
        head = 0
    }

    /// Free slots before the first line, as many as there are lines (at least 16): the next
    /// insertions at the front pay for the move, O(1) each.
    private mutating func openFront() {
        let room = Swift.max(16, count)
        var moved: [StockLedger.Entry] = []
        moved.reserveCapacity(room + slots.count)
        let filler = StockLedger.Entry(count: 0, configuration: 0)
        moved.append(contentsOf: repeatElement(filler, count: room))
        moved.append(contentsOf: slots)
        slots = moved
        head = room
    }
}
