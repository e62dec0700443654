// How `diff` matches two sessions' stock lines: the fewest lines removed and added, as diff(1)
// finds them, wherever a bounded search finds them, otherwise near that as GNU diff finds it
// for large files; in time bounded for any stocks, and ended at once by a stop request.

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
    /// lines each, and four times that for twice as many) they are matched by `divided`, in
    /// time about linear in the lines, which keeps the long runs in common (taking every line
    /// between the common first and last ones as removed and added, two 200,000-line stocks
    /// that differ in 1,800 places gave 200,762 rows; trial 5, 4).
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
        var steps = 0
        if n > 0 && m > 0
            && shortestEdit(
                a, from: a0 + prefix, n, b, from: b0 + prefix, m, into: &edits, at: (prefix, prefix), steps: &steps,
                budget: stepBudget, stop: stop)
        {
            return edits
        }
        if stop?.isRequested == true { return nil }
        if n == 0 || m == 0 {
            edits.removed.insert(contentsOf: prefix..<prefix + n)
            edits.inserted.insert(contentsOf: prefix..<prefix + m)
            return edits
        }
        // Past the budget: divided where the searches from both ends meet, or where the one
        // that got further had got to once the search is too long.
        guard
            divided(
                a, from: a0 + prefix, n, b, from: b0 + prefix, m, into: &edits, at: (prefix, prefix),
                budget: stepBudget + dividedStepsPerLine * (n + m), stop: stop)
        else { return nil }
        return edits
    }

    /// The steps the divided matching may take for each line: past them, what is left to
    /// match is removed and added whole.
    static let dividedStepsPerLine = 64
    /// The most rounds the divided matching's search from both ends of a stretch takes before
    /// it divides the stretch where it got furthest, as GNU diff's `too_expensive`.
    static let tooExpensive = 256

    /// The `n` lines of `a` from `aStart` matched against the `m` of `b` from `bStart` as
    /// GNU diff matches large files (Myers' divide and conquer in linear space, with its cost
    /// heuristic): each stretch, past its common first and last lines, is divided at the
    /// middle of a shortest edit script, found by searching from both ends until they meet;
    /// past `tooExpensive` rounds, at the point the search that got further reached. So long
    /// runs in common are kept whatever the stretches between them, near the fewest changes,
    /// in time about linear in the lines; once `budget` steps are taken, each stretch left
    /// is removed and added whole. Offsets are put in `edits` from `shifts`; false on a stop.
    private static func divided<Lines: RandomAccessCollection>(
        _ a: Lines, from aStart: Int, _ n: Int, _ b: Lines, from bStart: Int, _ m: Int, into edits: inout LineEdits,
        at shifts: (a: Int, b: Int), budget: Int, stop: StopRequest?
    ) -> Bool where Lines.Element: Equatable, Lines.Index == Int {
        // Offsets into the stretch: x in `a` from `aStart`, y in `b` from `bStart`. The furthest
        // x reached on each diagonal k = x - y, forward and backward, k from -(m + 1) to n + 1.
        let diagonals = n + m + 3
        var forward = [Int32](repeating: 0, count: diagonals)
        var backward = [Int32](repeating: 0, count: diagonals)
        let zero = m + 1
        var steps = 0
        // Stretches to match (x, x limit, y, y limit): a list, not recursion.
        var pending = [(0, n, 0, m)]
        while let (x0, x1, y0, y1) = pending.popLast() {
            if stop?.isRequested == true { return false }
            var xoff = x0
            var yoff = y0
            var xlim = x1
            var ylim = y1
            while xoff < xlim && yoff < ylim && a[aStart + xoff] == b[bStart + yoff] {
                xoff += 1
                yoff += 1
            }
            while xoff < xlim && yoff < ylim && a[aStart + xlim - 1] == b[bStart + ylim - 1] {
                xlim -= 1
                ylim -= 1
            }
            steps += (xoff - x0) + (x1 - xlim) + 1
            guard xoff < xlim && yoff < ylim && steps < budget else {
                edits.removed.insert(contentsOf: shifts.a + xoff..<shifts.a + xlim)
                edits.inserted.insert(contentsOf: shifts.b + yoff..<shifts.b + ylim)
                continue
            }
            let found = split(
                a, aStart, b, bStart, xoff, xlim, yoff, ylim, &forward, &backward, zero: zero, steps: &steps)
            // Any point of the stretch divides it into two whose answers make one (a search
            // that ran along an edge may name one a line past it). Not a corner: were it one,
            // the stretch would be divided without end.
            let middle = (x: min(max(found.x, xoff), xlim), y: min(max(found.y, yoff), ylim))
            guard (middle.x, middle.y) != (xoff, yoff) && (middle.x, middle.y) != (xlim, ylim) else {
                edits.removed.insert(contentsOf: shifts.a + xoff..<shifts.a + xlim)
                edits.inserted.insert(contentsOf: shifts.b + yoff..<shifts.b + ylim)
                continue
            }
            // The later half is done last.
            pending.append((middle.x, xlim, middle.y, ylim))
            pending.append((xoff, middle.x, yoff, middle.y))
        }
        return true
    }

    /// Where to divide the stretch x in `xoff..<xlim`, y in `yoff..<ylim` (whose first lines
    /// differ, and whose last lines do): GNU diff's `diag`. The searches from the start and
    /// from the end take turns, a round each, until a point one reached the other has passed on
    /// its diagonal (the middle of a shortest script); past `tooExpensive` rounds, the point
    /// nearest its far corner that either search reached.
    private static func split<Lines: RandomAccessCollection>(
        _ a: Lines, _ aStart: Int, _ b: Lines, _ bStart: Int, _ xoff: Int, _ xlim: Int, _ yoff: Int, _ ylim: Int,
        _ forward: inout [Int32], _ backward: inout [Int32], zero: Int, steps: inout Int
    ) -> (x: Int, y: Int) where Lines.Element: Equatable, Lines.Index == Int {
        let dmin = xoff - ylim
        let dmax = xlim - yoff
        let fmid = xoff - yoff
        let bmid = xlim - ylim
        var fmin = fmid
        var fmax = fmid
        var bmin = bmid
        var bmax = bmid
        let odd = (fmid - bmid) & 1 != 0
        func reachedForward(_ k: Int) -> Int { Int(forward[zero + k]) }
        func reachedBackward(_ k: Int) -> Int { Int(backward[zero + k]) }
        forward[zero + fmid] = Int32(xoff)
        backward[zero + bmid] = Int32(xlim)
        var round = 1
        while true {
            if fmin > dmin {
                fmin -= 1
                forward[zero + fmin - 1] = -1
            } else {
                fmin += 1
            }
            if fmax < dmax {
                fmax += 1
                forward[zero + fmax + 1] = -1
            } else {
                fmax -= 1
            }
            for k in stride(from: fmax, through: fmin, by: -2) {
                let low = reachedForward(k - 1)
                let high = reachedForward(k + 1)
                var x = low < high ? high : low + 1
                var y = x - k
                let start = x
                // (Never below the stretch's start: a guard, not a case the search makes.)
                while x < xlim && y < ylim && xoff <= x && yoff <= y && a[aStart + x] == b[bStart + y] {
                    x += 1
                    y += 1
                }
                steps += 1 + x - start
                forward[zero + k] = Int32(x)
                if odd && bmin <= k && k <= bmax && reachedBackward(k) <= x { return (x, y) }
            }
            if bmin > dmin {
                bmin -= 1
                backward[zero + bmin - 1] = Int32.max
            } else {
                bmin += 1
            }
            if bmax < dmax {
                bmax += 1
                backward[zero + bmax + 1] = Int32.max
            } else {
                bmax -= 1
            }
            for k in stride(from: bmax, through: bmin, by: -2) {
                let low = reachedBackward(k - 1)
                let high = reachedBackward(k + 1)
                var x = low < high ? low : high - 1
                var y = x - k
                let start = x
                while xoff < x && yoff < y && x <= xlim && y <= ylim && a[aStart + x - 1] == b[bStart + y - 1] {
                    x -= 1
                    y -= 1
                }
                steps += 1 + start - x
                backward[zero + k] = Int32(x)
                if !odd && fmin <= k && k <= fmax && x <= reachedForward(k) { return (x, y) }
            }
            if round >= tooExpensive {
                var forwardBest = (sum: -1, x: 0)
                for k in stride(from: fmax, through: fmin, by: -2) {
                    var x = min(reachedForward(k), xlim)
                    var y = x - k
                    if ylim < y {
                        x = ylim + k
                        y = ylim
                    }
                    if forwardBest.sum < x + y { forwardBest = (x + y, x) }
                }
                var backwardBest = (sum: Int.max, x: 0)
                for k in stride(from: bmax, through: bmin, by: -2) {
                    var x = max(xoff, reachedBackward(k))
                    var y = x - k
                    if y < yoff {
                        x = yoff + k
                        y = yoff
                    }
                    if x + y < backwardBest.sum { backwardBest = (x + y, x) }
                }
                steps += fmax - fmin + bmax - bmin
                return (xlim + ylim) - backwardBest.sum < forwardBest.sum - (xoff + yoff)
                    ? (forwardBest.x, forwardBest.sum - forwardBest.x) : (backwardBest.x, backwardBest.sum - backwardBest.x)
            }
            round += 1
        }
    }

    /// Myers' greedy shortest edit script of the `n` lines of `a` from `aStart` into the `m`
    /// of `b` from `bStart`, added to `edits` as offsets from `shifts`; false once `steps`
    /// (counted on from what it holds) passes `budget`, or on a stop, and then nothing is
    /// added. Each round d keeps the furthest point reached on the d diagonals
    /// -(d - 1), -(d - 1) + 2, ... d - 1 it starts from (the only ones it reads: half of what it
    /// kept before, 16 MB at most), to trace the script back from the end.
    private static func shortestEdit<Lines: RandomAccessCollection>(
        _ a: Lines, from aStart: Int, _ n: Int, _ b: Lines, from bStart: Int, _ m: Int, into edits: inout LineEdits,
        at shifts: (a: Int, b: Int), steps: inout Int, budget: Int, stop: StopRequest?
    ) -> Bool where Lines.Element: Equatable, Lines.Index == Int {
        let offset = n + m + 1
        var furthest = [Int32](repeating: 0, count: 2 * offset + 1)
        // An array a round, not one for all: one array grown to 16 MB would be copied as it
        // grows, taking half as much again while it is.
        var rounds: [[Int32]] = []
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
            if steps > budget || stop?.isRequested == true { return false }
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
                edits.inserted.insert(shifts.b + previousY)
            } else {
                edits.removed.insert(shifts.a + previousX)
            }
            x = previousX
            y = previousY
        }
        return true
    }
}
