/// Positions (families, currencies, options) by name key: open addressing over an array of
/// names and one of `Int`.
///
/// Not a `[String: Int]`: the first dictionary keyed by `String` has its storage type set up
/// at run time, and that checks `String: Hashable` by scanning every conformance record of the
/// binary. The built-in catalog's tables paid it at every start-up (~119k instructions of
/// 1.49M; callgrind, an empty file).
struct NameMap: Sendable, LinearProbing {
    /// Per slot, the name and its value; a value of -1 marks a free slot.
    private var names: [String] = []
    private var values: [Int] = []
    /// How many names are held.
    private(set) var count = 0

    /// The value held for `name`, if any.
    subscript(name: String) -> Int? {
        guard !values.isEmpty else { return nil }
        let mask = values.count - 1
        var slot = name.hashValue & mask
        while values[slot] >= 0 {
            if names[slot] == name { return values[slot] }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Holds `value` (a position: not negative) for `name`, replacing any it held.
    mutating func set(_ value: Int, for name: String) {
        precondition(value >= 0, "a name map holds positions")
        // At most half full, so that a probe soon meets a free slot.
        if (count + 1) * 2 > values.count { grow() }
        let mask = values.count - 1
        var slot = name.hashValue & mask
        while values[slot] >= 0 {
            if names[slot] == name {
                values[slot] = value
                return
            }
            slot = (slot + 1) & mask
        }
        names[slot] = name
        values[slot] = value
        count += 1
    }

    /// Holds nothing for `name` (`undo` takes definitions back).
    mutating func remove(_ name: String) {
        guard !values.isEmpty else { return }
        let mask = values.count - 1
        var slot = name.hashValue & mask
        while values[slot] >= 0 {
            if names[slot] == name {
                values[slot] = -1
                names[slot] = ""
                count -= 1
                closeHole(at: slot)
                return
            }
            slot = (slot + 1) & mask
        }
    }

    // The removal's probing (see `LinearProbing.closeHole`).
    var probeMask: Int { values.count - 1 }
    func isOccupied(_ slot: Int) -> Bool { values[slot] >= 0 }
    func homeSlot(ofEntryIn slot: Int) -> Int { names[slot].hashValue & probeMask }
    mutating func moveEntry(from: Int, to: Int) {
        names[to] = names[from]
        values[to] = values[from]
        names[from] = ""
        values[from] = -1
    }

    /// Twice the slots (8 at first), every name placed again.
    private mutating func grow() {
        let old = (names, values)
        let capacity = max(8, values.count * 2)
        names = [String](repeating: "", count: capacity)
        values = [Int](repeating: -1, count: capacity)
        let mask = capacity - 1
        for index in old.1.indices where old.1[index] >= 0 {
            var slot = old.0[index].hashValue & mask
            while values[slot] >= 0 { slot = (slot + 1) & mask }
            names[slot] = old.0[index]
            values[slot] = old.1[index]
        }
    }
}
