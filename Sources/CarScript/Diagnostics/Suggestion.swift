import CarFactory

// "did you mean 'sports'?": the closest valid name by edit distance.

/// The candidate closest to `name` by edit distance, if it is close enough to be a likely typo.
///
/// The work is bounded whatever the input: a name longer than `suggestionLength` is no
/// typo worth a guess, candidates whose length alone rules them out are skipped, and at
/// most `suggestionCandidates` are compared. Each comparison takes a few word operations a
/// character (`BoundedEditDistance`): the full table took ~60 ms for 4,096 candidates of 60
/// characters, so 200 unknown names made a 430 KB script take 12 s (trial 5, 9).
package func closestName(to name: String, in candidates: [String]) -> String? {
    guard let target = BoundedEditDistance(nameKey(name)) else { return nil }
    var best: (name: String, distance: Int)?
    var lowered = LowercaseScalars()
    var scalars: [Unicode.Scalar] = []
    for candidate in candidates.prefix(suggestionCandidates) {
        // Characters counted as the bytes that begin one: a pass over bytes, not a decoding.
        var otherCount = 0
        for byte in candidate.utf8 where byte & 0xC0 != 0x80 { otherCount += 1 }
        // Every byte begins a character only in an ASCII name (a string is valid UTF-8).
        let ascii = otherCount == candidate.utf8.count
        // A name beyond ASCII is folded a character at a time through a table the call fills
        // as it meets them (see `LowercaseScalars`), not by `nameKey` (its `lowercased()` was
        // ~80% of a suggestion: ~17 ms among 4,096 Greek names; trial 7, 3).
        if !ascii {
            scalars.removeAll(keepingCapacity: true)
            lowered.append(candidate, to: &scalars)
            otherCount = scalars.count
        }
        // One edit for short names, about a third of the name for longer ones.
        let allowed = max(1, min(target.count, otherCount) / 3)
        guard abs(otherCount - target.count) <= allowed else { continue }
        // Only a distance within `allowed` and below the best so far changes the answer
        // (the first of equally close candidates stays).
        let limit = min(allowed, (best?.distance ?? Int.max) - 1)
        guard limit >= 0 else { break }
        // An ASCII name (the usual one) is read as bytes, which is faster than as characters.
        let distance =
            ascii
            ? target.distance(to: nameKey(candidate).utf8, count: otherCount, atMost: limit, mask: target.mask(ofASCII:))
            : target.distance(to: scalars, count: otherCount, atMost: limit, mask: target.mask(of:))
        if let distance { best = (candidate, distance) }
    }
    return best?.name
}

/// Names folded to lower case a character at a time, as `String.lowercased()` folds them
/// (each scalar by its `lowercaseMapping`, the result put together): the mapping of each
/// scalar below U+3000 (the scripts with case) is looked up once per suggestion and kept in
/// a table, where `lowercased()` looked up every character of every candidate again.
struct LowercaseScalars {
    /// Per scalar below `tableLimit`: 0 not looked up yet, `several` when it lowers to more
    /// than one scalar, else the scalar it lowers to. Made at the first name beyond ASCII.
    private var table: [UInt32] = []
    private static let tableLimit: UInt32 = 0x3000
    private static let several = UInt32.max

    /// Appends `name`'s scalars folded to lower case to `scalars`.
    mutating func append(_ name: String, to scalars: inout [Unicode.Scalar]) {
        if table.isEmpty { table = Array(repeating: 0, count: Int(Self.tableLimit)) }
        for scalar in name.unicodeScalars {
            let value = scalar.value
            guard value < Self.tableLimit else {
                scalars.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
                continue
            }
            var entry = table[Int(value)]
            if entry == 0 {
                let mapping = scalar.properties.lowercaseMapping.unicodeScalars
                entry = mapping.count == 1 ? mapping.first?.value ?? Self.several : Self.several
                table[Int(value)] = entry
            }
            if entry != Self.several, let one = Unicode.Scalar(entry) {
                scalars.append(one)
            } else {
                scalars.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            }
        }
    }
}

/// The longest name a suggestion is looked for.
let suggestionLength = 64
/// The most candidates compared for one suggestion.
let suggestionCandidates = 4096

/// The edit distance from one name of at most 64 characters to others, with adjacent
/// transpositions counted as one edit (as `editDistance`): Hyyrö's bit-vector algorithm
/// (2003), one 64-bit word for the whole column of the table, so a candidate of n
/// characters costs n steps of a few word operations instead of a row of the table each.
struct BoundedEditDistance {
    /// How many characters the name has.
    let count: Int
    /// For each ASCII character, the positions in the name that hold it, as bits.
    private var asciiMasks = [UInt64](repeating: 0, count: 128)
    /// The same for the other characters: at most 64 of them, in 128 slots by a multiplicative
    /// hash of the scalar's value, probed in turn (0: an empty slot, as no such scalar is 0).
    /// A dictionary's hashing cost more than the distance itself for each character of a
    /// candidate beyond ASCII.
    private var otherScalars: [UInt32] = []
    private var otherMasks: [UInt64] = []

    /// Nil if `name` is longer than `suggestionLength` (which fits a word).
    init?(_ name: String) {
        var count = 0
        for scalar in name.unicodeScalars {
            guard count < suggestionLength else { return nil }
            if scalar.isASCII {
                asciiMasks[Int(scalar.value)] |= 1 << count
            } else {
                if otherScalars.isEmpty {
                    otherScalars = Array(repeating: 0, count: 128)
                    otherMasks = Array(repeating: 0, count: 128)
                }
                var slot = Self.slot(of: scalar.value)
                while otherScalars[slot] != 0 && otherScalars[slot] != scalar.value { slot = (slot + 1) & 127 }
                otherScalars[slot] = scalar.value
                otherMasks[slot] |= 1 << count
            }
            count += 1
        }
        self.count = count
    }

    private static func slot(of value: UInt32) -> Int { Int((value &* 0x9E37_79B1) >> 25) }

    /// The positions in the name that hold `scalar`, as bits.
    func mask(of scalar: Unicode.Scalar) -> UInt64 {
        if scalar.isASCII { return asciiMasks[Int(scalar.value)] }
        guard !otherScalars.isEmpty else { return 0 }
        var slot = Self.slot(of: scalar.value)
        while true {
            let held = otherScalars[slot]
            if held == scalar.value { return otherMasks[slot] }
            if held == 0 { return 0 }
            slot = (slot + 1) & 127
        }
    }

    /// The same for an ASCII character's byte.
    func mask(ofASCII byte: UInt8) -> UInt64 { asciiMasks[Int(byte & 0x7F)] }

    /// The distance to `other` (`count` characters, each read by `mask`), or nil if it is more than `limit`.
    func distance<Other: Sequence>(
        to other: Other, count otherCount: Int, atMost limit: Int, mask: (Other.Element) -> UInt64
    ) -> Int? {
        guard count > 0 else { return otherCount <= limit ? otherCount : nil }
        let last: UInt64 = 1 << (count - 1)
        // The column of the table for the characters of `other` read so far, as differences
        // between neighbours: +1 (vertical positive) or -1 (vertical negative) or 0.
        var positive = UInt64.max
        var negative: UInt64 = 0
        var diagonalZero: UInt64 = 0
        var previousMask: UInt64 = 0
        var distance = count
        var left = otherCount
        for scalar in other {
            let match = mask(scalar)
            let transposed = ((~diagonalZero & match) << 1) & previousMask
            diagonalZero = (((match & positive) &+ positive) ^ positive) | match | negative | transposed
            var horizontalPositive = negative | ~(diagonalZero | positive)
            var horizontalNegative = diagonalZero & positive
            if horizontalPositive & last != 0 { distance += 1 }
            if horizontalNegative & last != 0 { distance -= 1 }
            horizontalPositive = (horizontalPositive << 1) | 1
            horizontalNegative = horizontalNegative << 1
            positive = horizontalNegative | ~(diagonalZero | horizontalPositive)
            negative = horizontalPositive & diagonalZero
            previousMask = match
            left -= 1
            // Each character left can lower the distance by one at most.
            if distance - left > limit { return nil }
        }
        return distance <= limit ? distance : nil
    }
}

/// Levenshtein distance with adjacent transpositions counted as one edit, by the whole
/// table: what `BoundedEditDistance` must agree with (the tests compare them).
func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                value = min(value, previous2[j - 2] + 1)
            }
            current[j] = value
        }
        (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[b.count]
}
