/// What takes back each change a stock made, oldest first, and where each undo step starts.
///
/// An entry is a `StockChange` (8 bytes); whether it is the first of a step is one bit beside
/// it, in a list of 64-bit words, so a step that changes one thing keeps 8 bytes and a bit.
/// The word being filled is a stored field, not the list's last element: appending then
/// writes one array, not two (a uniqueness check and a store fewer a change).
@usableFromInline package struct StockJournal: Sendable {
    @usableFromInline var changes: [StockChange] = []
    /// Bit `i % 64` of word `i / 64`: whether entry `i` starts a step, for the entries of
    /// whole words (the first `count / 64 * 64`).
    @usableFromInline var starts: [UInt64] = []
    /// The bits of the entries past the whole words (fewer than 64); those past the end are clear.
    @usableFromInline var tail: UInt64 = 0

    /// An empty journal.
    package init() {}

    /// How many entries it holds.
    @inlinable package var count: Int { changes.count }

    /// Entry `index`'s change.
    package subscript(index: Int) -> StockChange { changes[index] }

    /// Makes room for `entries` entries, so that appending up to them copies nothing.
    package mutating func reserveCapacity(_ entries: Int) {
        changes.reserveCapacity(entries)
        starts.reserveCapacity(entries / 64 + 1)
    }

    /// Adds `change` at the end, the first of a step or not.
    @inline(__always)
    package mutating func append(_ change: consuming StockChange, startsStep: Bool) {
        let index = changes.count
        changes.append(change)
        if startsStep { tail |= 1 << UInt64(index & 63) }
        if index & 63 == 63 {
            starts.append(tail)
            tail = 0
        }
    }

    /// Whether entry `index` starts a step.
    package func startsStep(_ index: Int) -> Bool {
        let word = index >> 6
        return (word < starts.count ? starts[word] : tail) & 1 << UInt64(index & 63) != 0
    }

    /// Entry `index` no longer starts a step (it joins the one before: a committed transaction).
    package mutating func joinStep(_ index: Int) {
        let word = index >> 6
        let mask = ~(UInt64(1) << UInt64(index & 63))
        if word < starts.count { starts[word] &= mask } else { tail &= mask }
    }

    /// Takes the last entry out.
    package mutating func popLast() -> StockChange? {
        guard let last = changes.popLast() else { return nil }
        let index = changes.count
        if index & 63 == 63 { tail = starts.removeLast() }
        tail &= (1 << UInt64(index & 63)) - 1
        return last
    }

    /// Keeps only the first `count` entries.
    package mutating func keepFirst(_ count: Int) {
        guard count < changes.count else { return }
        changes.removeSubrange(count...)
        let whole = count >> 6
        if whole < starts.count {
            tail = starts[whole]
            starts.removeSubrange(whole...)
        }
        tail &= (1 << UInt64(count & 63)) - 1
    }

    /// Drops the first `count` entries (the oldest steps'): the rest move down, their bits too.
    /// Walks every word (rare: the history drops a quarter of its bound at once).
    package mutating func removeFirst(_ count: Int) {
        guard count > 0 else { return }
        changes.removeFirst(count)
        var words = starts
        words.append(tail)
        words.removeFirst(min(count >> 6, words.count))
        let shift = UInt64(count & 63)
        if shift != 0 {
            for index in words.indices {
                let next = index + 1 < words.count ? words[index + 1] : 0
                words[index] = words[index] >> shift | next << (64 - shift)
            }
        }
        let whole = changes.count >> 6
        tail = whole < words.count ? words[whole] : 0
        words.removeSubrange(min(whole, words.count)...)
        starts = words
    }
}
