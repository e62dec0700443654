// The lower bound the configurator's searches prune with: the lowest total list price the
// families still open can have. Each family's cheapest option still possible is a first
// estimate; where the cheapest options of two families cannot go together one of them must
// take a dearer option. The bound takes those clashing pairs as the edges of a forest (each
// pair that would close a cycle is left out) and finds, family by family from the leaves,
// the cheapest options that keep every rule along the forest's edges: the cheapest car of a
// problem with fewer rules, so never dearer than the true cheapest completion, and no answer
// is cut. Where that car happens to keep every rule, it is the cheapest completion.

/// The per-family figures the bound computes, kept from node to node (no allocation per node).
struct BoundScratch {
    /// Per option (by global option id): the cheapest price of its family's subtree with it.
    var cost: [Int64] = []
    /// Each open family's parent in the forest (-1 for a root), and the families in order
    /// from the roots down.
    var parent: [Int] = []
    var order: [Int] = []
    var root: [Int] = []
    /// The cheapest car along the forest: an option per open family.
    var pick: [Int] = []
    /// Families whose pick clashes with another open family's pick (a rule off the forest).
    var clashing: [Int] = []
    /// The forest's edges, and room for its neighbour lists.
    var edgeFrom: [Int] = []
    var edgeTo: [Int] = []
    var degree: [Int] = []
    var adjacent: [Int] = []
    var fill: [Int] = []
    var seen: [Bool] = []

    mutating func reset(_ familyCount: Int, _ optionCount: Int) {
        if parent.count != familyCount {
            parent = Array(repeating: -1, count: familyCount)
            root = Array(repeating: 0, count: familyCount)
            pick = Array(repeating: 0, count: familyCount)
            degree = Array(repeating: 0, count: familyCount + 1)
            fill = Array(repeating: 0, count: familyCount + 1)
            seen = Array(repeating: false, count: familyCount)
        }
        if cost.count != optionCount { cost = Array(repeating: 0, count: optionCount) }
        order.removeAll(keepingCapacity: true)
        clashing.removeAll(keepingCapacity: true)
        edgeFrom.removeAll(keepingCapacity: true)
        edgeTo.removeAll(keepingCapacity: true)
    }
}

extension Configurator {
    /// A price at which a family's option counts as impossible (never reached by sums of prices
    /// that do not overflow).
    private static var unreachable: Int64 { .max / 4 }

    /// A lower bound on the total price of the families not `assigned`, over their options
    /// still in `domains` (each price less the option of `current` in that family, if given);
    /// nil if no completion exists. Leaves in `scratch` the cheapest car along the forest
    /// (`pick`) and the families where it breaks a rule (`clashing`, empty if it breaks none).
    /// Stops as soon as the bound reaches `limit` (the node is cut then; `scratch` is not complete).
    func priceBound(
        _ domains: [UInt64], assigned: [Bool], current: [Int]? = nil, limit: Int64? = nil, _ scratch: inout BoundScratch
    ) -> Int64? {
        let optionTotal = optionBase.last.map { $0 + (optionCounts.last ?? 0) } ?? 0
        scratch.reset(familyCount, optionTotal)
        // The work: every option's cost set, every edge of the picks looked at per pass.
        var units = optionTotal + familyCount
        defer { meter.units &+= units }
        // Each open family's cheapest option, the first estimate.
        var estimate: Int64 = 0
        for g in 0..<familyCount where !assigned[g] {
            guard let cheapest = byPrice[g].first(where: { contains(domains, g, $0) }) else { return nil }
            scratch.pick[g] = cheapest
            scratch.root[g] = g
            estimate = saturating(estimate, space.prices[g][cheapest])
        }
        // Past the limit already (prices as they are, not changes): the forest is not needed.
        if let limit, current == nil, estimate >= limit { return estimate }
        // The forest: pairs of open families whose picks clash, each joining two trees; after
        // each pass, pairs whose new picks clash across two trees join them too.
        func top(_ g: Int, _ root: inout [Int]) -> Int {
            var g = g
            while root[g] != g {
                root[g] = root[root[g]]
                g = root[g]
            }
            return g
        }
        var total: Int64 = 0
        for _ in 0..<4 {
            var joined = false
            for g in 0..<familyCount where !assigned[g] {
                let id = optionBase[g] + scratch.pick[g]
                units += edgeStart[id + 1] - edgeStart[id] + optionTotal / max(1, familyCount)
                for edge in edgeStart[id]..<edgeStart[id + 1] {
                    let h = edgeFamily[edge]
                    let p = scratch.pick[h]
                    guard !assigned[h], masks[edgeMask[edge] + p >> 6] & (1 << UInt64(p & 63)) != 0 else { continue }
                    let a = top(g, &scratch.root)
                    let b = top(h, &scratch.root)
                    guard a != b else { continue }
                    scratch.root[a] = b
                    scratch.edgeFrom.append(g)
                    scratch.edgeTo.append(h)
                    joined = true
                }
            }
            if !joined && !scratch.order.isEmpty { break }
            guard let value = forestCar(domains, assigned: assigned, current: current, &scratch) else { return nil }
            total = value
            // Each pass adds edges, so the bound only rises: past the limit it is enough.
            if let limit, total >= limit { return total }
        }
        // Families where the forest's car breaks a rule off the forest.
        scratch.clashing.removeAll(keepingCapacity: true)
        for g in 0..<familyCount where !assigned[g] {
            let id = optionBase[g] + scratch.pick[g]
            for edge in edgeStart[id]..<edgeStart[id + 1] {
                let h = edgeFamily[edge]
                let p = scratch.pick[h]
                if h > g, !assigned[h], masks[edgeMask[edge] + p >> 6] & (1 << UInt64(p & 63)) != 0 {
                    scratch.clashing.append(g)
                    scratch.clashing.append(h)
                }
            }
        }
        return total
    }

    /// The cheapest car along the forest in `scratch` (its `pick`) and its price.
    private func forestCar(_ domains: [UInt64], assigned: [Bool], current: [Int]?, _ scratch: inout BoundScratch) -> Int64? {
        let unreachable = Self.unreachable
        // Each open family's own prices.
        for g in 0..<familyCount where !assigned[g] {
            let offset = current.map { space.prices[g][$0[g]] } ?? 0
            for o in 0..<optionCounts[g] {
                guard contains(domains, g, o) else {
                    scratch.cost[optionBase[g] + o] = unreachable
                    continue
                }
                let (relative, overflow) = space.prices[g][o].subtractingReportingOverflow(offset)
                scratch.cost[optionBase[g] + o] =
                    overflow
                    ? (offset > 0 ? -unreachable : unreachable)
                    : max(-unreachable, min(unreachable - 1, relative))
            }
        }
        // The forest's neighbours of each family: `adjacent[degree[f]..<degree[f + 1]]`; each
        // tree rooted where a walk from its first family starts, the families listed from the roots down.
        var degree = scratch.degree
        var adjacent = scratch.adjacent
        var fill = scratch.fill
        var seen = scratch.seen
        scratch.degree = []
        scratch.adjacent = []
        scratch.fill = []
        scratch.seen = []
        defer {
            scratch.degree = degree
            scratch.adjacent = adjacent
            scratch.fill = fill
            scratch.seen = seen
        }
        for g in 0...familyCount { degree[g] = 0 }
        for i in scratch.edgeFrom.indices {
            degree[scratch.edgeFrom[i] + 1] += 1
            degree[scratch.edgeTo[i] + 1] += 1
        }
        for g in 0..<familyCount { degree[g + 1] += degree[g] }
        if adjacent.count < degree[familyCount] { adjacent = Array(repeating: 0, count: 2 * degree[familyCount]) }
        for g in 0...familyCount { fill[g] = degree[g] }
        for i in scratch.edgeFrom.indices {
            let a = scratch.edgeFrom[i]
            let b = scratch.edgeTo[i]
            adjacent[fill[a]] = b
            fill[a] += 1
            adjacent[fill[b]] = a
            fill[b] += 1
        }
        for g in 0..<familyCount { seen[g] = assigned[g] }
        scratch.order.removeAll(keepingCapacity: true)
        for g in 0..<familyCount where !seen[g] {
            seen[g] = true
            scratch.parent[g] = -1
            var head = scratch.order.count
            scratch.order.append(g)
            while head < scratch.order.count {
                let f = scratch.order[head]
                head += 1
                for i in degree[f]..<degree[f + 1] where !seen[adjacent[i]] {
                    let h = adjacent[i]
                    seen[h] = true
                    scratch.parent[h] = f
                    scratch.order.append(h)
                }
            }
        }
        // From the leaves up: each option's price plus, per child, the cheapest of the
        // child's subtree that goes with it.
        for index in scratch.order.indices.reversed() {
            let h = scratch.order[index]
            let g = scratch.parent[h]
            guard g >= 0 else { continue }
            // Each option of g against each of h's: a unit per word of h's options each.
            meter.units &+= optionCounts[g] * (wordCount[h] + (clashTable.isEmpty ? 8 : 0))
            for o in 0..<optionCounts[g] where scratch.cost[optionBase[g] + o] < unreachable {
                let mask = clashMask(g, o, h)
                var best = unreachable
                for p in 0..<optionCounts[h] {
                    let value = scratch.cost[optionBase[h] + p]
                    guard value < best else { continue }
                    if let mask, masks[mask + p >> 6] & (1 << UInt64(p & 63)) != 0 { continue }
                    best = value
                }
                let sum = best >= unreachable ? unreachable : scratch.cost[optionBase[g] + o] + best
                scratch.cost[optionBase[g] + o] = max(-unreachable, min(unreachable, sum))
            }
        }
        // The roots' cheapest options, then each child's cheapest that goes with its parent's.
        var total: Int64 = 0
        for h in scratch.order {
            let g = scratch.parent[h]
            let mask = g >= 0 ? clashMask(g, scratch.pick[g], h) : nil
            var best = unreachable
            var choice = -1
            for p in byPrice[h] {
                let value = scratch.cost[optionBase[h] + p]
                guard value < best else { continue }
                if let mask, masks[mask + p >> 6] & (1 << UInt64(p & 63)) != 0 { continue }
                best = value
                choice = p
            }
            guard choice >= 0 else { return nil }
            scratch.pick[h] = choice
            if g < 0 { total = saturating(total, best) }
        }
        return total
    }

    /// Where, in `masks`, the options of family `h` that option `o` of family `g` cannot go with start (nil: none).
    func clashMask(_ g: Int, _ o: Int, _ h: Int) -> Int? {
        let id = optionBase[g] + o
        if !clashTable.isEmpty {
            let mask = clashTable[id * familyCount + h]
            return mask < 0 ? nil : mask
        }
        for edge in edgeStart[id]..<edgeStart[id + 1] where edgeFamily[edge] == h { return edgeMask[edge] }
        return nil
    }

    /// `a + b`, held at the ends of the range instead of overflowing (a bound only compares).
    func saturating(_ a: Int64, _ b: Int64) -> Int64 {
        let (value, overflow) = a.addingReportingOverflow(b)
        if overflow { return b > 0 ? .max : .min }
        return value
    }
}
