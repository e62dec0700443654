// How `diff` matches two sessions' stock lines: the fewest lines removed and added, as diff(1)
// finds them, in time bounded for any stocks, and ended at once by a stop request.

/// The stock lines one session removes and the other adds.
struct LineEdits {
    var removed = Set<Int>()
    var inserted = Set<Int>()
}

enum LineMatching {
    /// Stocks with up to this many pairs of lines (about 3,000 lines each) are matched by the
    /// standard library's `difference(from:)`, as they always were.
    static let smallPairs = 10_000_000
    /// The most steps the bounded search takes (each a comparison of two lines or a diagonal
    /// tried): about 2,800 differences between two large stocks, in a few milliseconds.
    static let stepBudget = 4_000_000

    /// The lines of `a` removed and of `b` added to make `b` of `a`; nil if `stop` was asked
    /// for while matching.
    ///
    /// Large stocks are matched past their common first and last lines by Myers' algorithm,
    /// whose cost grows with the number of differences D as (N + M) D: past `stepBudget` steps
    /// (two stocks of tens of thousands of lines that differ throughout took 16 s for 20,000
    /// lines each, and four times that for twice as many) every line between the common first
    /// and last ones is taken as removed and added, as GNU diff stops looking for the fewest
    /// changes in large files.
    static func edits<Key: Hashable>(_ a: [Key], _ b: [Key], stop: StopRequest?) -> LineEdits? {
        var edits = LineEdits()
        if a.count * b.count <= smallPairs {
            for change in b.difference(from: a) {
                switch change {
                case .remove(let offset, _, _): edits.removed.insert(offset)
                case .insert(let offset, _, _): edits.inserted.insert(offset)
                }
            }
            return edits
        }
        var prefix = 0
        while prefix < a.count && prefix < b.count && a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix && suffix < b.count - prefix && a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
            suffix += 1
        }
        let n = a.count - prefix - suffix
        let m = b.count - prefix - suffix
        guard n > 0 && m > 0, let script = shortestEdit(a[prefix..<prefix + n], b[prefix..<prefix + m], stop: stop) else {
            if stop?.isRequested == true { return nil }
            edits.removed = Set(prefix..<prefix + n)
            edits.inserted = Set(prefix..<prefix + m)
            return edits
        }
        edits.removed = Set(script.removed.map { $0 + prefix })
        edits.inserted = Set(script.inserted.map { $0 + prefix })
        return edits
    }

    /// Myers' greedy shortest edit script of `a` into `b` (offsets from each slice's start);
    /// nil past `stepBudget` steps or on a stop. Each round d keeps the furthest point reached
    /// on diagonals -d...d (2d + 1 numbers), to trace the script back from the end.
    private static func shortestEdit<Key: Equatable>(_ a: ArraySlice<Key>, _ b: ArraySlice<Key>, stop: StopRequest?) -> LineEdits? {
        let n = a.count
        let m = b.count
        let a0 = a.startIndex
        let b0 = b.startIndex
        let offset = n + m + 1
        var furthest = [Int32](repeating: 0, count: 2 * offset + 1)
        var rounds: [[Int32]] = []
        var steps = 0
        var last = -1
        search: for d in 0...(n + m) {
            rounds.append(Array(furthest[offset - d...offset + d]))
            for k in stride(from: -d, through: d, by: 2) {
                var x =
                    k == -d || (k != d && furthest[offset + k - 1] < furthest[offset + k + 1])
                    ? Int(furthest[offset + k + 1]) : Int(furthest[offset + k - 1]) + 1
                var y = x - k
                let start = x
                while x < n && y < m && a[a0 + x] == b[b0 + y] {
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
            if steps > stepBudget || stop?.isRequested == true { return nil }
        }
        guard last >= 0 else { return nil }
        var edits = LineEdits()
        var x = n
        var y = m
        for d in stride(from: last, to: 0, by: -1) {
            let round = rounds[d]
            let k = x - y
            func reached(_ k: Int) -> Int { Int(round[k + d]) }
            let previous = k == -d || (k != d && reached(k - 1) < reached(k + 1)) ? k + 1 : k - 1
            let previousX = reached(previous)
            let previousY = previousX - previous
            if previous == k + 1 {
                edits.inserted.insert(previousY)
            } else {
                edits.removed.insert(previousX)
            }
            x = previousX
            y = previousY
        }
        return edits
    }
}
