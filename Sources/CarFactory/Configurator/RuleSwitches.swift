// How a rule core switches a rule off or on: in work in proportion to the rule's own pairs,
// most often a few edges.
//
// Option x's clash with option y (x's edge to y's family, y's bit) holds when a rule on says
// so: a `forbid` of the two; a `require` from x of another option of y's family; a `require`
// from y of another option of x's family. So the core counts, per edge and bit, the `forbid`s
// on naming it and the `require`s on from the edge's option keeping it, and per edge how many
// bits those `require`s keep (with one, which): a `require`'s clash from the other side is read
// off its first option's edge. A switch changes its own counts, and then only the bits whose
// answer may have changed: a `forbid` its two, a `require` its first edge's words and its
// required family's edges back to its option only when its option's first `require` into that
// family comes or its last goes (between one and two, the one edge of the option kept).
// (Rebuilt from every rule behind each edge the rule has a pair on, a switch cost those rules
// each time: on 30 families of 512 options with 20,000 rules, 55% of `options f3`'s 12 s,
// trial 11, 3.)

extension Configurator {
    /// Per edge, the bits its `forbid`s and `require`s name (`slotStart[e]..<slotStart[e + 1]`,
    /// in bit order), with the rules on behind each.
    struct SwitchCounts {
        var slotStart: [Int] = [0]
        var slotBit: [Int32] = []
        /// Per slot, the `forbid`s on naming its bit.
        var forbids: [Int32] = []
        /// Per slot, the `require`s on from the edge's option keeping its bit (forbidding the rest).
        var keeping: [Int32] = []
        /// Per edge, how many bits have a `require` on keeping them, and their sum (with one, that bit).
        var keptBits: [Int32] = []
        var keptSum: [Int] = []
        /// The options with a `require` into another family, ordered by their family and that
        /// one (`requirerPair`: `family * familyCount + other`), to redraw an edge from the
        /// other side without looking at each option of its family.
        var requirerPair: [Int] = []
        var requirers: [Int] = []
        var familyCount = 0

        /// The slot of `bit` on `edge`, if a rule names it there.
        func slot(_ edge: Int, _ bit: Int) -> Int? {
            var low = slotStart[edge]
            var high = slotStart[edge + 1]
            while low < high {
                let middle = (low + high) / 2
                let at = Int(slotBit[middle])
                if at == bit { return middle }
                if at < bit { low = middle + 1 } else { high = middle }
            }
            return nil
        }

        /// The options of family `f` with a `require` into family `g`.
        func requirers(from f: Int, into g: Int) -> ArraySlice<Int> {
            let pair = f * familyCount + g
            return requirers[first(pair)..<first(pair + 1)]
        }

        /// Where the options of family pair `pair` and those after it start in `requirers`.
        private func first(_ pair: Int) -> Int {
            var low = 0
            var high = requirerPair.count
            while low < high {
                let middle = (low + high) / 2
                if requirerPair[middle] < pair { low = middle + 1 } else { high = middle }
            }
            return low
        }

        /// Whether the `require`s on from `edge`'s option forbid `bit` (they keep another).
        func keptForbid(_ edge: Int, _ bit: Int) -> Bool {
            keptBits[edge] >= 2 || keptBits[edge] == 1 && keptSum[edge] != bit
        }
    }

    /// The edge of option `id` (a global id) to `family`, if it has one (its edges are in family order).
    func edge(from id: Int, to family: Int) -> Int? {
        var low = edgeStart[id]
        var high = edgeStart[id + 1]
        while low < high {
            let middle = (low + high) / 2
            if edgeFamily[middle] == family { return middle }
            if edgeFamily[middle] < family { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// Every rule on, and the counts to switch them (work: a unit per rule, per bit and per edge).
    mutating func startSwitching() {
        rulesOff = Array(repeating: false, count: space.rules.count)
        // Per `forbid` its two bits, per `require` the one its first option keeps: edge, bit, kind.
        var keys: [Int] = []
        var requirers: [(pair: Int, option: Int)] = []
        func key(_ from: ConfigurationSpace.Choice, _ to: ConfigurationSpace.Choice, keeps: Bool) {
            guard let edge = edge(from: optionBase[from.family] + from.option, to: to.family) else { return }
            keys.append(edge << 32 | to.option << 1 | (keeps ? 1 : 0))
        }
        for rule in space.rules {
            switch rule.kind {
            case .forbid:
                key(rule.first, rule.second, keeps: false)
                key(rule.second, rule.first, keeps: false)
            case .require:
                key(rule.first, rule.second, keeps: true)
                requirers.append((rule.first.family * familyCount + rule.second.family, rule.first.option))
            }
        }
        keys.sort()
        let edges = edgeFamily.count
        var counts = SwitchCounts()
        counts.slotStart = Array(repeating: 0, count: edges + 1)
        counts.keptBits = Array(repeating: 0, count: edges)
        counts.keptSum = Array(repeating: 0, count: edges)
        var last = -1
        for key in keys {
            let (edge, bit) = (key >> 32, key >> 1 & 0x7FFF_FFFF)
            if key >> 1 != last {
                last = key >> 1
                counts.slotBit.append(Int32(bit))
                counts.forbids.append(0)
                counts.keeping.append(0)
                counts.slotStart[edge + 1] = counts.slotBit.count
            }
            let slot = counts.slotBit.count - 1
            if key & 1 == 0 {
                counts.forbids[slot] += 1
            } else {
                if counts.keeping[slot] == 0 {
                    counts.keptBits[edge] += 1
                    counts.keptSum[edge] += bit
                }
                counts.keeping[slot] += 1
            }
        }
        // Edges without slots end where the one before them does.
        for edge in 0..<edges { counts.slotStart[edge + 1] = max(counts.slotStart[edge + 1], counts.slotStart[edge]) }
        requirers.sort { ($0.pair, $0.option) < ($1.pair, $1.option) }
        for (index, requirer) in requirers.enumerated() where index == 0 || requirers[index - 1] != requirer {
            counts.requirerPair.append(requirer.pair)
            counts.requirers.append(requirer.option)
        }
        counts.familyCount = familyCount
        meter.units &+= space.rules.count + keys.count + edges + requirers.count
        switches = counts
    }

    /// Whether a rule on forbids option `option` of family `f` with option `bit` of family `g`
    /// (`edge`: the option's edge to `g`; `back`: whether the `require`s of `bit` forbid it, if known).
    private func forbidden(_ f: Int, _ option: Int, _ edge: Int, _ g: Int, _ bit: Int, back: Bool? = nil) -> Bool {
        if switches.keptForbid(edge, bit) || back == true { return true }
        if let slot = switches.slot(edge, bit), switches.forbids[slot] > 0 { return true }
        if let back { return back }
        guard let other = self.edge(from: optionBase[g] + bit, to: f) else { return false }
        return switches.keptForbid(other, option)
    }

    /// Sets `bit` of the mask of `edge` (option `option` of family `f` to family `g`) as the
    /// rules on say (`back`: as `forbidden`'s).
    private mutating func redraw(_ f: Int, _ option: Int, _ edge: Int, _ g: Int, bit: Int, back: Bool? = nil) {
        let word = edgeMask[edge] + bit >> 6
        let one = UInt64(1) << UInt64(bit & 63)
        if forbidden(f, option, edge, g, bit, back: back) { masks[word] |= one } else { masks[word] &= ~one }
        noteClash(f, option, edge, g)
    }

    /// Switches `rule` off (its pairs taken out of the edges' masks) or back on; counts its
    /// work in the meter (held to the limit at the next step): a unit per edge looked at, and
    /// per word and option of a family redrawn.
    mutating func switchRule(_ rule: Int, off: Bool) {
        rulesOff[rule] = off
        root = RootDomains()
        let constraint = space.rules[rule]
        let change: Int32 = off ? -1 : 1
        var units = 0
        defer { meter.units &+= units }
        let (a, b) = (constraint.first, constraint.second)
        guard case .require = constraint.kind else {
            for (x, y) in [(a, b), (b, a)] {
                guard let edge = edge(from: optionBase[x.family] + x.option, to: y.family),
                    let slot = switches.slot(edge, y.option)
                else { continue }
                switches.forbids[slot] += change
                redraw(x.family, x.option, edge, y.family, bit: y.option)
                units += 1
            }
            return
        }
        guard let edge = edge(from: optionBase[a.family] + a.option, to: b.family), let slot = switches.slot(edge, b.option)
        else { return }
        units += 1
        let before = switches.keptBits[edge]
        let keptBefore = switches.keptSum[edge]
        switches.keeping[slot] += change
        guard switches.keeping[slot] == (off ? 0 : 1) else { return }
        switches.keptBits[edge] += change
        switches.keptSum[edge] += off ? -b.option : b.option
        let after = switches.keptBits[edge]
        // Two options kept or more, before and after: every other option forbidden still.
        guard before < 2 || after < 2 else { return }
        // The first edge: all of b's family but the one option kept, or what the other rules say.
        let count = optionCounts[b.family]
        if after > 0 {
            for w in 0..<wordCount[b.family] { masks[edgeMask[edge] + w] = Self.fullWord(w, of: count) }
            noteClash(a.family, a.option, edge, b.family)
            if after == 1 { redraw(a.family, a.option, edge, b.family, bit: switches.keptSum[edge]) }
            units += wordCount[b.family]
        } else {
            // No option kept: the bits `forbid`s name, and those of b's family's options whose
            // own `require`s into a's family forbid a.
            for w in 0..<wordCount[b.family] { masks[edgeMask[edge] + w] = 0 }
            let slots = switches.slotStart[edge]..<switches.slotStart[edge + 1]
            for slot in slots where switches.forbids[slot] > 0 {
                let bit = Int(switches.slotBit[slot])
                masks[edgeMask[edge] + bit >> 6] |= 1 << UInt64(bit & 63)
            }
            let requirers = switches.requirers(from: b.family, into: a.family)
            for o in requirers {
                guard let back = self.edge(from: optionBase[b.family] + o, to: a.family), switches.keptForbid(back, a.option)
                else { continue }
                masks[edgeMask[edge] + o >> 6] |= 1 << UInt64(o & 63)
            }
            noteClash(a.family, a.option, edge, b.family)
            units += wordCount[b.family] + slots.count + requirers.count
        }
        // The options of b's family whose clash with a changed: all but the one kept when the
        // first `require` came or the last went, else the one kept alone before or after.
        let whole = before == 0 || after == 0
        let alone = before == 1 ? keptBefore : switches.keptSum[edge]
        for o in whole ? 0..<count : alone..<alone + 1 where !whole || o != alone {
            guard let back = self.edge(from: optionBase[b.family] + o, to: a.family) else { continue }
            redraw(b.family, o, back, a.family, bit: a.option, back: switches.keptForbid(edge, o))
            units += 1
        }
    }

    /// Copies `edge`'s mask into `clashWords` (where kept) after a change.
    private mutating func noteClash(_ f: Int, _ option: Int, _ edge: Int, _ g: Int) {
        if !clashWords.isEmpty { clashWords[(optionBase[f] + option) * familyCount + g] = masks[edgeMask[edge]] }
    }
}
