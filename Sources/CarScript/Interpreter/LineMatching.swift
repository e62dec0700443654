// How `diff` matches two sessions' stock lines: the fewest lines removed and added, as diff(1)
// finds them, in time bounded for any stocks, and ended at once by a stop request.

/// A set of line offsets below a count, a bit each: the lines a run of `diff` removes or adds
/// (as sets of `Int`, every line between the common first and last ones of two 400,000-line
/// stocks took ~8 MB; as bits, 100 KB).
struct LineSet: Equatable {
    private var words: [UInt64]
    /// How many offsets it holds.
    private(set) var count = 0

    /// An empty set of offsets below `bound`.
    init(below bound: Int) {
        words = [UInt64](repeating: 0, count: (max(bound, 0) + 63) / 64)
    }

    /// Whether `offset` is in the set (an offset at or past the bound never is).
    func contains(_ offset: Int) -> Bool {
        guard offset >= 0, offset / 64 < words.count else { return false }
        return words[offset / 64] & (1 << UInt64(offset % 64)) != 0
    }

    /// Adds `offset`, which is below the bound.
    mutating func insert(_ offset: Int) {
        let bit: UInt64 = 1 << UInt64(offset % 64)
        if words[offset / 64] & bit == 0 {
            words[offset / 64] |= bit
            count += 1
        }
    }

    /// Adds every offset of `range`, which is below the bound.
    mutating func insert(contentsOf range: Range<Int>) {
        for offset in range { insert(offset) }
    }

    /// The offsets in the set, in order.
    var offsets: [Int] { (0..<words.count * 64).filter(contains) }
}

/// The stock lines one session removes and the other adds.
struct LineEdits {
    var removed: LineSet
    var inserted: LineSet

    init(removing first: Int, inserting second: Int) {
        removed = LineSet(below: first)
        inserted = LineSet(below: second)
    }
}

enum LineMatching {
    /// Stocks of up to this many lines together (two of about 3,160 lines, the 10^7 pairs they
    /// were bounded by) are matched by the standard library's `difference(from:)`, as they
    /// always were. Its cost grows as (N + M) D, and D may be as large as N + M whatever the
    /// pairs: a bound on pairs let one line against 40,000 take 5.5 s, against 10^6 hours.
    static let smallLines = 6_324
    /// The most steps the bounded search takes (each a comparison of two lines or a diagonal
    /// tried): about 2,800 differences between two large stocks, in a few milliseconds.
    static let stepBudget = 4_000_000

    /// The lines of `a` removed and of `b` added to make `b` of `a`; nil if `stop` was asked
    /// for while matching. Lines are read by offset from 0, as often as the search needs
    /// them: a collection may make them when asked (`diff` holds no array of its lines).
    ///
    /// Large stocks are matched past their common first and last lines by Myers' algorithm,
    /// whose cost grows with the number of differences D as (N + M) D: past `stepBudget` steps
    /// (two stocks of tens of thousands of lines that differ throughout took 16 s for 20,000
    /// lines each, and four times that for twice as many) every line between the common first
    /// and last ones is taken as removed and added, as GNU diff stops looking for the fewest
    /// changes in large files.
    static func edits<Lines: RandomAccessCollection>(_ a: Lines, _ b: Lines, stop: StopRequest?) -> LineEdits?
    where Lines.Element: Hashable, Lines.Index == Int {
        var edits = LineEdits(removing: a.count, inserting: b.count)
        if a.count + b.count <= smallLines {
            for change in b.difference(from: a) {
                switch change {
                case .remove(let offset, _, _): edits.removed.insert(offset)
                case .insert(let offset, _, _): edits.inserted.insert(offset)
                }
            }
            return edits
        }
        let a0 = a.startIndex
        let b0 = b.startIndex
        var prefix = 0
        while prefix < a.count && prefix < b.count && a[a0 + prefix] == b[b0 + prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix && suffix < b.count - prefix
            && a[a0 + a.count - 1 - suffix] == b[b0 + b.count - 1 - suffix]
        {
            suffix += 1
        }
        let n = a.count - prefix - suffix
        let m = b.count - prefix - suffix
        guard n > 0 && m > 0,
            shortestEdit(a, from: a0 + prefix, n, b, from: b0 + prefix, m, into: &edits, at: prefix, stop: stop)
        else {
            if stop?.isRequested == true { return nil }
            edits = LineEdits(removing: a.count, inserting: b.count)
            edits.removed.insert(contentsOf: prefix..<prefix + n)
            edits.inserted.insert(contentsOf: prefix..<prefix + m)
            return edits
        }
        return edits
    }

    /// Myers' greedy shortest edit script of the `n` lines of `a` from `aStart` into the `m`
    /// of `b` from `bStart`, added to `edits` as offsets from `shift`; false past `stepBudget`
    /// steps or on a stop. Each round d keeps the furthest point reached on the d diagonals
    /// -(d - 1), -(d - 1) + 2, ... d - 1 it starts from (the only ones it reads: half of what it
    /// kept before, 16 MB at most), to trace the script back from the end.
    private static func shortestEdit<Lines: RandomAccessCollection>(
        _ a: Lines, from aStart: Int, _ n: Int, _ b: Lines, from bStart: Int, _ m: Int, into edits: inout LineEdits,
        at shift: Int, stop: StopRequest?
    ) -> Bool where Lines.Element: Equatable, Lines.Index == Int {
        let offset = n + m + 1
        var furthest = [Int32](repeating: 0, count: 2 * offset + 1)
        // An array a round, not one for all: one array grown to 16 MB would be copied as it
        // grows, taking half as much again while it is.
        var rounds: [[Int32]] = []
        var steps = 0
        var last = -1
        search: for d in 0...(n + m) {
            rounds.append(stride(from: -(d - 1), through: d - 1, by: 2).map { furthest[offset + $0] })
            for k in stride(from: -d, through: d, by: 2) {
                var x =
                    k == -d || (k != d && furthest[offset + k - 1] < furthest[offset + k + 1])
                    ? Int(furthest[offset + k + 1]) : Int(furthest[offset + k - 1]) + 1
                var y = x - k
                let start = x
                while x < n && y < m && a[aStart + x] == b[bStart + y] {
                    x += 1
                    y += 1
                }
                steps += 1 + x - start
                furthest[offset + k] = Int32(x)
                if x >= n && y >= m {
                    last = d
                    break search
                }
            }
            if steps > stepBudget || stop?.isRequested == true { return false }
        }
        guard last >= 0 else { return false }
        var x = n
        var y = m
        for d in stride(from: last, to: 0, by: -1) {
            let k = x - y
            // Diagonal k' of round d, one of -(d - 1) ... d - 1.
            let round = rounds[d]
            func reached(_ k: Int) -> Int { Int(round[(k + d - 1) / 2]) }
            let previous = k == -d || (k != d && reached(k - 1) < reached(k + 1)) ? k + 1 : k - 1
            let previousX = reached(previous)
            let previousY = previousX - previous
            if previous == k + 1 {
                edits.inserted.insert(shift + previousY)
            } else {
                edits.removed.insert(shift + previousX)
            }
            x = previousX
            y = previousY
        }
        return true
    }
}
