// Arc consistency for the configurator's searches: an option still possible in an open family
// stays only while every other open family keeps some option it can go with. Taking out the
// options that have lost every partner in some family cuts nothing a valid car could use (each
// of its options has its partner in every family), so no answer is missed; it raises each
// family's cheapest option (the bounds) and finds dead ends before they are branched on.

extension Configurator {
    /// Takes out of each open family (not `assigned`) every option that some other open family
    /// has no option left to go with, until none is left to take out. False if a family is
    /// left with none. With `since`, the domains as they were when they last had none to take
    /// out: only partners in the families that lost options since then are looked at first.
    /// `used`, if given, gathers the rules behind every option taken out.
    func propagate(_ domains: inout [UInt64], assigned: [Bool], since before: [UInt64]? = nil, used: RuleRecord? = nil) -> Bool {
        var changed = familiesChanged(domains, since: before)
        var next = FamilySet(familyCount: familyCount)
        // Only propagation by families uses `open` (an empty set allocates nothing).
        var open = FamilySet(familyCount: used == nil ? familyCount : 0)
        return propagate(&domains, assigned: assigned, changed: &changed, next: &next, open: &open, used: used)
    }

    /// `propagate` from the families `changed` marks (those that lost options since the
    /// domains last had none to take out), with `next` (all false) as room for the families
    /// each pass changes and `open` for the families not `assigned`: a search reuses all three
    /// from node to node rather than make three arrays per call (see
    /// `choose(_:_:in:marking:)`). Leaves `changed` and `next` all false.
    func propagate(
        _ domains: inout [UInt64], assigned: [Bool], changed: inout FamilySet, next: inout FamilySet, open: inout FamilySet,
        used: RuleRecord? = nil
    ) -> Bool {
        // Without rules to record, by families: as fast, and the options taken out are the same.
        let kept =
            used == nil && !clashTable.isEmpty
            ? propagateByFamily(&domains, assigned: assigned, changed: &changed, next: &next, open: &open)
            : propagateByOption(&domains, assigned: assigned, changed: &changed, next: &next, used: used)
        if !kept {
            changed.removeAll()
            next.removeAll()
        }
        return kept
    }

    private func propagateByOption(
        _ domains: inout [UInt64], assigned: [Bool], changed: inout FamilySet, next: inout FamilySet, used: RuleRecord?
    ) -> Bool {
        // Each pass looks only at partners in the families that lost options before it (only
        // their options can have lost support); the first, without `since`, at every family.
        let familyCount = familyCount
        var units = 0
        defer { meter.units &+= units }
        var any = true
        while any {
            any = false
            for g in 0..<familyCount where !assigned[g] {
                units += 1
                var left = false
                for w in 0..<wordCount[g] {
                    var bits = domains[wordOffset[g] + w]
                    while bits != 0 {
                        let o = w << 6 + bits.trailingZeroBitCount
                        bits &= bits - 1
                        units += edgeStart[optionBase[g] + o + 1] - edgeStart[optionBase[g] + o]
                        if supported(domains, g, o, assigned: assigned, changed: changed, used: used) {
                            left = true
                            continue
                        }
                        domains[wordOffset[g] + w] &= ~(1 << UInt64(o & 63))
                        next.insert(g)
                        any = true
                    }
                }
                if !left { return false }
            }
            swap(&changed, &next)
            next.removeAll()
        }
        return true
    }

    /// `propagate` without recording rules: for each open family that lost options, the
    /// options of each other open family that every option it has left clashes with are
    /// taken out. That looks at the options left in the families that changed (a few) and
    /// their edges, where looking at every option of every family and all its edges took
    /// most of the cheapest car's search (60 x 8, 3,000 rules).
    private func propagateByFamily(
        _ domains: inout [UInt64], assigned: [Bool], changed: inout FamilySet, next: inout FamilySet, open: inout FamilySet
    ) -> Bool {
        if !clashWords.isEmpty {
            return propagateOneWordFamilies(&domains, assigned: assigned, changed: &changed, next: &next, open: &open)
        }
        let familyCount = familyCount
        var units = 0
        defer { meter.units &+= units }
        var any = true
        while any {
            any = false
            units += familyCount
            for h in 0..<familyCount where changed.contains(h) && !assigned[h] {
                // A family can lose options only where the first option left in h has an edge.
                var first = -1
                for w in 0..<wordCount[h] where domains[wordOffset[h] + w] != 0 {
                    first = w << 6 + domains[wordOffset[h] + w].trailingZeroBitCount
                    break
                }
                guard first >= 0 else { return false }
                let id = optionBase[h] + first
                let optionsLeft = optionCount(domains, h)
                for edge in edgeStart[id]..<edgeStart[id + 1] {
                    let g = edgeFamily[edge]
                    units += 1
                    guard !assigned[g] else { continue }
                    // The options of g still possible that the first option left in h clashes
                    // with, those that every other option left in h clashes with too taken out:
                    // found from h's options, or, where they are fewer, from those of g (each
                    // option of g whose clashes cover h's options left). On families of 2,000
                    // options joined by `require`s, h's options were walked for each edge
                    // (two thirds of 6 x 2,000's `options`).
                    var candidates = 0
                    units += wordCount[g]
                    for w in 0..<wordCount[g] { candidates += (masks[edgeMask[edge] + w] & domains[wordOffset[g] + w]).nonzeroBitCount }
                    let byCandidates = candidates < optionsLeft
                    var left: UInt64 = 0
                    var lost = false
                    for w in 0..<wordCount[g] {
                        var gone = masks[edgeMask[edge] + w] & domains[wordOffset[g] + w]
                        if byCandidates {
                            var bits = gone
                            while bits != 0 {
                                let a = w << 6 + bits.trailingZeroBitCount
                                bits &= bits - 1
                                units += 1
                                // Clashes go both ways: a, clashing with h's first option, has an edge to h.
                                let back = clashTable[(optionBase[g] + a) * familyCount + h]
                                guard back >= 0 else { continue }
                                for v in 0..<wordCount[h] {
                                    units += 1
                                    if domains[wordOffset[h] + v] & ~masks[back + v] != 0 {
                                        gone &= ~(1 << UInt64(a & 63))
                                        break
                                    }
                                }
                            }
                        } else {
                            for v in 0..<wordCount[h] where gone != 0 {
                                var bits = domains[wordOffset[h] + v]
                                if v == first >> 6 { bits &= bits - 1 }
                                while bits != 0 && gone != 0 {
                                    let p = v << 6 + bits.trailingZeroBitCount
                                    bits &= bits - 1
                                    units += 1
                                    let mask = clashTable[(optionBase[h] + p) * familyCount + g]
                                    gone = mask < 0 ? 0 : gone & masks[mask + w]
                                }
                            }
                        }
                        let word = domains[wordOffset[g] + w]
                        if word & gone != 0 {
                            domains[wordOffset[g] + w] = word & ~gone
                            lost = true
                        }
                        left |= domains[wordOffset[g] + w]
                    }
                    if left == 0 { return false }
                    if lost {
                        next.insert(g)
                        any = true
                    }
                }
            }
            swap(&changed, &next)
            next.removeAll()
        }
        return true
    }

    /// `propagateByFamily` where every family has at most 64 options (one word, at its family's
    /// index): the same options taken out and the same units counted, without the loops over
    /// words. With `choose` and `settle` likewise, 60 x 8's `options` for the first 6 families'
    /// options (19 searches, callgrind) took 1,127 million instructions, against 1,405 million.
    /// `open` is the caller's room for the open families (made per call, it was an allocation
    /// a call: 629,000 calls and 500 million of 60 x 8's 15.2 billion instructions of `options`).
    private func propagateOneWordFamilies(
        _ domains: inout [UInt64], assigned: [Bool], changed: inout FamilySet, next: inout FamilySet, open: inout FamilySet
    ) -> Bool {
        let familyCount = familyCount
        var units = 0
        defer { meter.units &+= units }
        open.removeAll()
        for g in 0..<familyCount where !assigned[g] { open.insert(g) }
        let familyWords = open.words.count
        var any = true
        while any {
            any = false
            units += familyCount
            // The families that changed, by their bits (in index order, as a loop over every
            // family would take them).
            for w in 0..<changed.words.count {
                var marked = changed.words[w]
                while marked != 0 {
                    let h = w << 6 + marked.trailingZeroBitCount
                    marked &= marked - 1
                    guard !assigned[h] else { continue }
                    let options = domains[h]
                    guard options != 0 else { return false }
                    // A family can lose options only where the first option left in h has an edge.
                    let first = options.trailingZeroBitCount
                    let rest = options & (options - 1)
                    let base = optionBase[h]
                    let id = base + first
                    // A unit per edge, as when the edges to chosen families were walked too.
                    units += edgeStart[id + 1] - edgeStart[id]
                    // The open families the first option has an edge to, in index order (the
                    // order of its edges).
                    for v in 0..<familyWords {
                        var targets = neighbours[id * familyWords + v] & open.words[v]
                        while targets != 0 {
                            let g = v << 6 + targets.trailingZeroBitCount
                            targets &= targets - 1
                            // The options of g every option left in h clashes with.
                            var gone = clashWords[id * familyCount + g]
                            var bits = rest
                            while bits != 0 && gone != 0 {
                                let p = bits.trailingZeroBitCount
                                bits &= bits - 1
                                units += 1
                                gone &= clashWords[(base + p) * familyCount + g]
                            }
                            let word = domains[g]
                            let left = word & ~gone
                            if left == 0 {
                                // The walk of the edges stopped here.
                                units -= edgesPast(g, of: id, familyWords)
                                return false
                            }
                            if left != word {
                                domains[g] = left
                                next.insert(g)
                                any = true
                            }
                        }
                    }
                }
            }
            swap(&changed, &next)
            next.removeAll()
        }
        return true
    }

    /// The number of edges option `id` has to families after `g` (by `neighbours`).
    private func edgesPast(_ g: Int, of id: Int, _ familyWords: Int) -> Int {
        var count = (neighbours[id * familyWords + g >> 6] & ((~0 << UInt64(g & 63)) << 1)).nonzeroBitCount
        for v in (g >> 6 + 1)..<familyWords { count += neighbours[id * familyWords + v].nonzeroBitCount }
        return count
    }

    /// Whether option `o` of family `g` goes with some option still possible in every other
    /// open family among those `changed`. If not, records in `used` the rules it breaks with that family's options
    /// and the rules that took that family's other options out are already recorded.
    private func supported(
        _ domains: [UInt64], _ g: Int, _ o: Int, assigned: [Bool], changed: FamilySet, used: RuleRecord?
    ) -> Bool {
        let id = optionBase[g] + o
        if singleWord {
            // One word per family, at the family's index: the same edges in the same order.
            for edge in edgeStart[id]..<edgeStart[id + 1] {
                let h = edgeFamily[edge]
                guard changed.contains(h), !assigned[h], domains[h] & ~masks[edge] == 0 else { continue }
                if let used { record(edge, used) }
                return false
            }
            return true
        }
        for edge in edgeStart[id]..<edgeStart[id + 1] {
            let h = edgeFamily[edge]
            guard changed.contains(h), !assigned[h] else { continue }
            let mask = edgeMask[edge]
            var any: UInt64 = 0
            for w in 0..<wordCount[h] { any |= domains[wordOffset[h] + w] & ~masks[mask + w] }
            if any == 0 {
                if let used { record(edge, used) }
                return false
            }
        }
        return true
    }

    /// For each family, whether its options differ between `domains` and `before` (each
    /// family, without `before`).
    private func familiesChanged(_ domains: [UInt64], since before: [UInt64]?) -> FamilySet {
        guard let before else { return .all(familyCount) }
        var changed = FamilySet(familyCount: familyCount)
        for g in 0..<familyCount {
            for w in 0..<wordCount[g] where domains[wordOffset[g] + w] != before[wordOffset[g] + w] { changed.insert(g) }
        }
        return changed
    }
}
