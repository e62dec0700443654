/// Positions (rules, models) by pair of parts: open addressing over three arrays of `Int`.
///
/// Not a `[PartPair: Int]`: a dictionary of a key type no other dictionary uses has its
/// storage type set up at run time the first time, and that checks `PartPair: Hashable` by
/// scanning every conformance record of the binary. The built-in catalog's first rule paid it
/// at every start-up (~120k instructions of 1.63M; callgrind, an empty file).
struct PartPairMap: Sendable, LinearProbing {
    /// Per slot, the pair's two identities and its value; a value of -1 marks a free slot.
    private var firsts: [Int] = []
    private var seconds: [Int] = []
    private var values: [Int] = []
    /// How many pairs are held.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// The value held for `pair`, if any.
    subscript(pair: PartPair) -> Int? {
        guard !values.isEmpty else { return nil }
        let (first, second) = Self.bits(pair)
        let mask = values.count - 1
        var slot = Self.slot(first, second, mask: mask)
        while values[slot] >= 0 {
            if firsts[slot] == first && seconds[slot] == second { return values[slot] }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Holds `value` (a position: not negative) for `pair`, replacing any it held.
    mutating func set(_ value: Int, for pair: PartPair) {
        precondition(value >= 0, "a pair map holds positions")
        // At most half full, so that a probe soon meets a free slot.
        if (count + 1) * 2 > values.count { grow() }
        let (first, second) = Self.bits(pair)
        let mask = values.count - 1
        var slot = Self.slot(first, second, mask: mask)
        while values[slot] >= 0 {
            if firsts[slot] == first && seconds[slot] == second {
                values[slot] = value
                return
            }
            slot = (slot + 1) & mask
        }
        firsts[slot] = first
        seconds[slot] = second
        values[slot] = value
        count += 1
    }

    /// Holds nothing for `pair` (`undo` takes definitions back).
    mutating func remove(_ pair: PartPair) {
        guard !values.isEmpty else { return }
        let (first, second) = Self.bits(pair)
        let mask = values.count - 1
        var slot = Self.slot(first, second, mask: mask)
        while values[slot] >= 0 {
            if firsts[slot] == first && seconds[slot] == second {
                values[slot] = -1
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
    func homeSlot(ofEntryIn slot: Int) -> Int { Self.slot(firsts[slot], seconds[slot], mask: probeMask) }
    mutating func moveEntry(from: Int, to: Int) {
        firsts[to] = firsts[from]
        seconds[to] = seconds[from]
        values[to] = values[from]
        values[from] = -1
    }

    /// Twice the slots (16 at first), every pair placed again.
    private mutating func grow() {
        let old = (firsts, seconds, values)
        let capacity = max(16, values.count * 2)
        firsts = [Int](repeating: 0, count: capacity)
        seconds = [Int](repeating: 0, count: capacity)
        values = [Int](repeating: -1, count: capacity)
        let mask = capacity - 1
        for index in old.2.indices where old.2[index] >= 0 {
            var slot = Self.slot(old.0[index], old.1[index], mask: mask)
            while values[slot] >= 0 { slot = (slot + 1) & mask }
            firsts[slot] = old.0[index]
            seconds[slot] = old.1[index]
            values[slot] = old.2[index]
        }
    }

    private static func bits(_ pair: PartPair) -> (Int, Int) {
        (Int(bitPattern: UInt(bitPattern: pair.first)), Int(bitPattern: UInt(bitPattern: pair.second)))
    }

    /// The first slot to probe: the high bits of both identities multiplied and mixed.
    private static func slot(_ first: Int, _ second: Int, mask: Int) -> Int {
        let mixed = UInt(bitPattern: first) &* 0x9E37_79B9_7F4A_7C15 ^ UInt(bitPattern: second) &* 0xC2B2_AE3D_27D4_EB4F
        return Int(truncatingIfNeeded: mixed >> 32) & mask
    }
}
