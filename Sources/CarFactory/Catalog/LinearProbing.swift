/// An open-addressing table with linear probing whose removals leave no marks behind: the
/// name maps of the catalog (`NameMap`, `PartPairMap`) and the engine's name index. One way of
/// closing the hole a removal leaves, for all of them.
package protocol LinearProbing {
    /// The number of slots less one (the slots are a power of two).
    var probeMask: Int { get }
    /// Whether `slot` holds an entry.
    func isOccupied(_ slot: Int) -> Bool
    /// The slot a probe for the entry in `slot` starts at.
    func homeSlot(ofEntryIn slot: Int) -> Int
    /// Moves the entry in slot `from` to slot `to` (free), and frees `from`.
    mutating func moveEntry(from: Int, to: Int)
}

extension LinearProbing {
    /// After the entry in `slot` was freed: moves back each entry after it in its run that a
    /// probe from its first slot would no longer reach, so lookups stay as short as before.
    @inlinable package mutating func closeHole(at slot: Int) {
        let mask = probeMask
        var hole = slot
        var next = (hole &+ 1) & mask
        while isOccupied(next) {
            if (next &- homeSlot(ofEntryIn: next)) & mask >= (next &- hole) & mask {
                moveEntry(from: next, to: hole)
                hole = next
            }
            next = (next &+ 1) & mask
        }
    }
}
