// A set of families as a bitset: the searches mark the families that lost options in one, and
// propagation walks its bits rather than a flag per family (60 x 8's repairs: about six
// passes a step, each of which read and then cleared 60 flags).

/// Families, by index, as bits of 64-bit words.
struct FamilySet {
    /// Family `f` is bit `f & 63` of word `f >> 6`.
    var words: [UInt64]

    /// No family, with room for `familyCount` of them.
    init(familyCount: Int) {
        words = Array(repeating: 0, count: (familyCount + 63) >> 6)
    }

    /// Every family of the first `familyCount`.
    static func all(_ familyCount: Int) -> FamilySet {
        var set = FamilySet(familyCount: familyCount)
        for f in 0..<familyCount { set.insert(f) }
        return set
    }

    @inline(__always) mutating func insert(_ f: Int) {
        words[f >> 6] |= 1 << UInt64(f & 63)
    }

    @inline(__always) mutating func remove(_ f: Int) {
        words[f >> 6] &= ~(1 << UInt64(f & 63))
    }

    @inline(__always) func contains(_ f: Int) -> Bool {
        words[f >> 6] & (1 << UInt64(f & 63)) != 0
    }

    /// Takes every family out.
    @inline(__always) mutating func removeAll() {
        for w in words.indices { words[w] = 0 }
    }
}
