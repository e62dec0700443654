// The configurator's search: exact and complete over a `ConfigurationSpace`.
//
// Every rule is a set of forbidden pairs (`require A with B` forbids A with each other option
// of B's family), so a car is valid when no two of its options are a forbidden pair. The
// search keeps, per family, the options still possible as a bitset; choosing an option takes
// out of every other family the options it cannot go with (forward checking), and a family
// left with none ends the branch. Bounds come from the prices still possible. No branch is
// cut on a guess: only where no answer in it can beat (or tie) the answers already found.

/// What the search may spend on one answer, and how many repairs it lists.
public struct SearchLimits: Sendable {
    /// The most search steps for one answer; past it the answer is an error. An answer may
    /// try this many choices, and do this many times `Configurator.unitsPerStep` units of work
    /// around them (a unit: one option's clashes with another family, or a word of 64
    /// options, looked at), so the limit bounds time.
    public var steps: Int
    /// The most repairs listed for one wanted option (the cheapest ones, in ranking order).
    public var repairs: Int

    /// Limits of `steps` search steps per answer and `repairs` repairs listed.
    public init(steps: Int, repairs: Int) {
        self.steps = steps
        self.repairs = repairs
    }

    /// 1,000,000 steps per answer, 10 repairs listed.
    public static let standard = SearchLimits(steps: 1_000_000, repairs: 10)
}

/// A set of changes to other families that, with a wanted option, makes a valid car; minimal
/// when no smaller set of the same families, whatever options they take, makes one (every family it
/// changes must change).
public struct Repair: Hashable, Sendable {
    /// The other options to set, in family order.
    public let changes: [ConfigurationSpace.Choice]
    /// The price change of the wanted option and the changes together, in base-currency minor units.
    public let priceChange: Int64
}

/// Where an option stands for a car.
public enum OptionStatus: Hashable, Sendable {
    /// It is the car's option.
    case current
    /// It can be set alone; the price changes by this much.
    case settable(priceChange: Int64)
    /// It needs other changes too: the cheapest minimal repair.
    case needsRepair(Repair)
    /// No valid car has it (with the fixed families as they are): the rules that make it so.
    case impossible(rules: [Int])
}

/// Answers a configurator's questions over one space: the cheapest valid car, the minimal
/// repairs for an option, the status of every option.
public struct Configurator {
    /// The space searched.
    public let space: ConfigurationSpace
    /// The search's limits.
    public let limits: SearchLimits
    /// Asked now and then during a search: true stops it (`searchStopped`).
    let shouldStop: () -> Bool
    /// The work done so far, shared by the configurators one answer makes (see `step`).
    let meter: WorkMeter

    let familyCount: Int
    let optionCounts: [Int]
    /// Where each family's bitset starts in a flat array of words, and how many words it has.
    let wordOffset: [Int]
    let wordCount: [Int]
    let totalWords: Int
    /// Whether every family has at most 64 options: each family's bitset is one word, at the
    /// family's index, and the hot loops take a path without loops over words. Each edge's
    /// mask is then one word too, at the edge's own index (`edgeMask[edge] == edge`): the hot
    /// loops read `masks[edge]`, a load less per edge.
    let singleWord: Bool
    /// Where each family's options start among all options (a global option id).
    let optionBase: [Int]
    /// For each global option id, its edges `edgeStart[id]..<edgeStart[id + 1]`: a family and
    /// where, in `masks`, the bitset of that family's options it cannot go with starts.
    let edgeStart: [Int]
    let edgeFamily: [Int]
    let edgeMask: [Int]
    /// Rule cores switch rules off by taking their pairs out of these (`rulesOff`).
    var masks: [UInt64]
    /// Per option (by global id) and family, where its edge's mask starts in `masks` (-1: no
    /// edge), for the bound's inner loops; left empty past `clashTableLimit` entries.
    let clashTable: [Int]
    /// Where every family has one word (`singleWord`) and `clashTable` is kept: per option and
    /// family, the mask itself (0: no edge), one load where `clashTable` and `masks` took two
    /// in propagation's inner loop. Rule cores keep it with `masks` (`switchRule`).
    var clashWords: [UInt64]
    /// With `clashWords`: per option (by global id), the families it has an edge to, as a
    /// bitset of `(familyCount + 63) / 64` words: propagation takes the open ones among them
    /// without a branch per edge on whether its family is chosen.
    let neighbours: [UInt64]
    /// What the edge and clash tables take, in bytes (at most `tableByteLimit`).
    let tableBytes: Int
    /// For each edge, the rules behind it (`edgeRuleStart[e]..<edgeRuleStart[e + 1]` in `edgeRules`).
    let edgeRuleStart: [Int]
    let edgeRules: [Int]
    /// Per rule, whether it is switched off (its pairs are out of `masks`); empty: none is.
    var rulesOff: [Bool] = []
    /// In a rule core, what its switches count (`startSwitching`).
    var switches = SwitchCounts()
    /// Each family's options from the cheapest (ties by name).
    let byPrice: [[Int]]
    /// Each option's place in its family's name order.
    let nameRank: [[Int]]
    /// Each family's options in name order.
    let byName: [[Int]]
    /// The options arc consistency leaves with nothing chosen, once worked out (`rootDomains`).
    /// A new box when a rule is switched (`switchRule`), so no copy reads another's.
    var root = RootDomains()

    /// A configurator over `space`, stopping when `shouldStop` says so; `catalogTooWide` if
    /// its tables would pass `tableByteLimit`. Its set-up's work counts to its first answer.
    public init(
        space: ConfigurationSpace, limits: SearchLimits = .standard, shouldStop: @escaping () -> Bool = { false }
    ) throws(CarFactoryError) {
        let meter = WorkMeter()
        try self.init(space: space, limits: limits, shouldStop: shouldStop, meter: meter)
        meter.setup = meter.units
    }

    /// A configurator over `space` whose work counts in `meter` (another configurator's, for
    /// a search that one answer makes with both).
    init(space: ConfigurationSpace, limits: SearchLimits, shouldStop: @escaping () -> Bool, meter: WorkMeter) throws(CarFactoryError) {
        self.space = space
        self.limits = limits
        self.shouldStop = shouldStop
        self.meter = meter
        familyCount = space.familyCount
        optionCounts = space.prices.map(\.count)
        var offsets: [Int] = []
        var counts: [Int] = []
        var bases: [Int] = []
        var words = 0
        var options = 0
        for count in optionCounts {
            offsets.append(words)
            counts.append(max(1, (count + 63) / 64))
            bases.append(options)
            words += max(1, (count + 63) / 64)
            options += count
        }
        wordOffset = offsets
        wordCount = counts
        totalWords = words
        singleWord = words == optionCounts.count
        optionBase = bases
        let tables = try Self.edgeTables(
            space, optionCounts: optionCounts, bases: bases, words: counts, limits: limits, shouldStop: shouldStop, meter: meter)
        edgeStart = tables.edgeStart
        edgeFamily = tables.edgeFamily
        edgeMask = tables.edgeMask
        tableBytes = tables.bytes
        if options * familyCount <= Self.clashTableLimit {
            // The clash table, and for one-word families each option's neighbouring families as bits.
            var table = Array(repeating: -1, count: options * familyCount)
            for id in 0..<options {
                for edge in tables.edgeStart[id]..<tables.edgeStart[id + 1] {
                    table[id * familyCount + tables.edgeFamily[edge]] = tables.edgeMask[edge]
                }
            }
            clashTable = table
            clashWords = singleWord ? table.map { $0 < 0 ? 0 : tables.masks[$0] } : []
            neighbours = singleWord ? tables.near : []
        } else {
            clashTable = []
            clashWords = []
            neighbours = []
        }
        masks = tables.masks
        edgeRuleStart = tables.edgeRuleStart
        edgeRules = tables.edgeRules
        // Names compare as they are looked up, case-insensitively (`nameKey`): `Zed` after `apex`.
        let byName = space.names.map { names in
            let keys = names.map { nameKey($0) }
            return names.indices.sorted { (keys[$0], $0) < (keys[$1], $1) }
        }
        let nameRank = byName.map { order in
            var rank = Array(repeating: 0, count: order.count)
            for (place, option) in order.enumerated() { rank[option] = place }
            return rank
        }
        self.byName = byName
        self.nameRank = nameRank
        byPrice = space.prices.indices.map { f in
            space.prices[f].indices.sorted { (space.prices[f][$0], nameRank[f][$0]) < (space.prices[f][$1], nameRank[f][$1]) }
        }
    }

    /// The most entries `clashTable` holds (4 MiB of them).
    static let clashTableLimit = 1 << 19

    // MARK: Domains

    /// Every option of every family possible.
    private func fullDomains() -> [UInt64] {
        var words = Array(repeating: UInt64(0), count: totalWords)
        for f in 0..<familyCount {
            for o in 0..<optionCounts[f] { words[wordOffset[f] + o >> 6] |= 1 << UInt64(o & 63) }
        }
        return words
    }

    /// Where a configurator keeps its `rootDomains` once worked out.
    final class RootDomains {
        /// Nil until worked out; then the domains, or `.none` if a family was left with none.
        var domains: [UInt64]??
    }

    /// Every option that keeps a partner in every other family, and so on until none is left
    /// to take out (arc consistency with nothing chosen), worked out once per configurator;
    /// nil if a family is left with none (no valid car at all). A search that chooses options
    /// and propagates from these ends with the very domains it would from every option
    /// (arc consistency's fixpoint is the greatest, and these hold it), with the work of the
    /// families its choices changed only: each of 6 x 2,000's 117 repair searches began with
    /// the whole propagation, two thirds of its `options`' instructions. It records no rules,
    /// so a search that gathers them (a rule core) starts from every option.
    func rootDomains() -> [UInt64]? {
        if let known = root.domains { return known }
        var domains = fullDomains()
        let kept = propagate(&domains, assigned: Array(repeating: false, count: familyCount))
        root.domains = .some(kept ? domains : nil)
        return kept ? domains : nil
    }

    @inline(__always) func contains(_ domains: [UInt64], _ f: Int, _ o: Int) -> Bool {
        domains[wordOffset[f] + o >> 6] & (1 << UInt64(o & 63)) != 0
    }

    private func isEmpty(_ domains: [UInt64], _ f: Int) -> Bool {
        for w in 0..<wordCount[f] where domains[wordOffset[f] + w] != 0 { return false }
        return true
    }

    /// Chooses option `o` of family `f`: takes out of every family the options it cannot go
    /// with. False if `o` was no longer possible or a family is left with none. `used`, if
    /// given, gathers the rules behind every option taken out.
    func choose(_ f: Int, _ o: Int, in domains: inout [UInt64], used: RuleRecord? = nil) -> Bool {
        guard contains(domains, f, o) else { return false }
        for w in 0..<wordCount[f] { domains[wordOffset[f] + w] = 0 }
        domains[wordOffset[f] + o >> 6] = 1 << UInt64(o & 63)
        let id = optionBase[f] + o
        var units = wordCount[f]
        defer { meter.units &+= units }
        for edge in edgeStart[id]..<edgeStart[id + 1] {
            let g = edgeFamily[edge]
            let mask = edgeMask[edge]
            var any: UInt64 = 0
            var changed = false
            units += wordCount[g]
            for w in 0..<wordCount[g] {
                let before = domains[wordOffset[g] + w]
                let after = before & ~masks[mask + w]
                if after != before { changed = true }
                domains[wordOffset[g] + w] = after
                any |= after
            }
            if changed, let used { record(edge, used) }
            if any == 0 { return false }
        }
        return true
    }

    /// `choose`, marking in `changed` each family that lost options (as `propagate(_:assigned:since:)`
    /// would find them by comparing the domains with a copy of them made before): a search
    /// then propagates from the marks without that copy. On false, `changed` is left all false.
    func choose(_ f: Int, _ o: Int, in domains: inout [UInt64], marking changed: inout FamilySet) -> Bool {
        guard contains(domains, f, o) else {
            changed.removeAll()
            return false
        }
        if singleWord { return chooseInOneWordFamilies(f, o, in: &domains, marking: &changed) }
        let only = UInt64(1) << UInt64(o & 63)
        var units = wordCount[f]
        defer { meter.units &+= units }
        for w in 0..<wordCount[f] {
            let word = w == o >> 6 ? only : 0
            if domains[wordOffset[f] + w] != word {
                domains[wordOffset[f] + w] = word
                changed.insert(f)
            }
        }
        let id = optionBase[f] + o
        for edge in edgeStart[id]..<edgeStart[id + 1] {
            let g = edgeFamily[edge]
            let mask = edgeMask[edge]
            var any: UInt64 = 0
            units += wordCount[g]
            for w in 0..<wordCount[g] {
                let before = domains[wordOffset[g] + w]
                let after = before & ~masks[mask + w]
                if after != before {
                    domains[wordOffset[g] + w] = after
                    changed.insert(g)
                }
                any |= after
            }
            if any == 0 {
                changed.removeAll()
                return false
            }
        }
        return true
    }

    /// `choose(_:_:in:marking:)` where every family's bitset is one word (`singleWord`), `o`
    /// still possible: the same options taken out and units counted, without loops over words.
    private func chooseInOneWordFamilies(_ f: Int, _ o: Int, in domains: inout [UInt64], marking changed: inout FamilySet) -> Bool {
        var units = 1
        defer { meter.units &+= units }
        let only = UInt64(1) << UInt64(o)
        if domains[f] != only {
            domains[f] = only
            changed.insert(f)
        }
        let id = optionBase[f] + o
        for edge in edgeStart[id]..<edgeStart[id + 1] {
            let g = edgeFamily[edge]
            units += 1
            let before = domains[g]
            let after = before & ~masks[edge]
            if after != before {
                domains[g] = after
                changed.insert(g)
            }
            if after == 0 {
                changed.removeAll()
                return false
            }
        }
        return true
    }

    /// `choose(_:_:in:marking:)` of an option that clashes with no option left in any other
    /// family: takes out `f`'s other options only (the edges would take out nothing).
    func keepOnly(_ f: Int, _ o: Int, in domains: inout [UInt64], marking changed: inout FamilySet) -> Bool {
        guard contains(domains, f, o) else {
            changed.removeAll()
            return false
        }
        meter.units &+= wordCount[f]
        for w in 0..<wordCount[f] {
            let word = w == o >> 6 ? UInt64(1) << UInt64(o & 63) : 0
            if domains[wordOffset[f] + w] != word {
                domains[wordOffset[f] + w] = word
                changed.insert(f)
            }
        }
        return true
    }

    /// Whether the family at the far end of `edge` still has an option the edge's mask marks.
    @inline(__always) func meets(_ domains: [UInt64], edge: Int) -> Bool {
        let h = edgeFamily[edge]
        if singleWord { return domains[h] & masks[edge] != 0 }
        let mask = edgeMask[edge]
        for w in 0..<wordCount[h] where domains[wordOffset[h] + w] & masks[mask + w] != 0 { return true }
        return false
    }

    /// The list price of family `g`'s cheapest option still in `domains` (nil if none is).
    @inline(__always) func cheapestPrice(_ domains: [UInt64], _ g: Int) -> Int64? {
        if singleWord {
            // By price order, the first option left is the cheapest: a look or two.
            let word = domains[g]
            guard word != 0 else { return nil }
            for o in byPrice[g] where word & (1 << UInt64(o)) != 0 { return space.prices[g][o] }
            return nil
        }
        var low = Int64.max
        for w in 0..<wordCount[g] {
            var bits = domains[wordOffset[g] + w]
            while bits != 0 {
                low = min(low, space.prices[g][w << 6 + bits.trailingZeroBitCount])
                bits &= bits - 1
            }
        }
        return low == .max ? nil : low
    }

    /// Gathers into `used` the rules behind `edge`.
    func record(_ edge: Int, _ used: RuleRecord) {
        for position in edgeRuleStart[edge]..<edgeRuleStart[edge + 1] where rulesOff.isEmpty || !rulesOff[edgeRules[position]] {
            used.insert(edgeRules[position])
        }
    }

    /// Whether options `a` of family `f` and `b` of family `g` are a forbidden pair.
    func conflict(_ f: Int, _ a: Int, _ g: Int, _ b: Int) -> Bool {
        let id = optionBase[f] + a
        for edge in edgeStart[id]..<edgeStart[id + 1] where edgeFamily[edge] == g {
            return masks[edgeMask[edge] + b >> 6] & (1 << UInt64(b & 63)) != 0
        }
        return false
    }

    /// Whether the car `options` keeps every rule.
    public func isValid(_ options: [Int]) -> Bool {
        for f in 0..<familyCount {
            for g in f + 1..<familyCount where conflict(f, options[f], g, options[g]) { return false }
        }
        return true
    }

    // MARK: Counting steps

    /// Steps taken by the answer under way, checked against the limit and the stop request.
    final class Effort {
        /// Choices tried (and searches' starts, see `countStart`).
        var steps = 0
        /// Units of work done.
        var work = 0
        /// The meter's reading when last counted: an answer's work is counted from its
        /// effort's making (`newEffort()`), or from a search's start (`countStart`), so work the
        /// configurator did for earlier answers is not this one's.
        var counted: Int

        init(reading: Int) {
            counted = reading
        }
        /// What the answer has spent against the limit: its choices or its work in steps,
        /// whichever is more.
        var spent: Int { max(steps, work / Configurator.unitsPerStep) }
        /// The step count at which the stop request is next asked.
        var nextStopCheck = 1024
        /// Room the bound reuses from node to node.
        var scratch = BoundScratch()
    }

    /// The work the searches of one answer have done, in units of a rule's edge or a word of
    /// a family's options looked at (added once per call by the loops that do it).
    final class WorkMeter {
        var units = 0
        /// The units a configurator's set-up took that no answer has counted yet: the first
        /// answer's effort starts with them (`newEffort`).
        var setup = 0

        /// `setup`, now counted.
        func takeSetup() -> Int {
            defer { setup = 0 }
            return setup
        }
    }

    /// The rules a search used to take options out (by position): a flag per rule and the
    /// list of those flagged, where a `Set` hashed each rule at each option taken out (a fifth
    /// of the instructions of 60 x 8's rules ruling out its 190 impossible options).
    final class RuleRecord {
        private var flagged: [Bool] = []
        private var list: [Int] = []

        /// Notes `rule` as used.
        func insert(_ rule: Int) {
            if rule >= flagged.count { flagged += Array(repeating: false, count: rule + 1 - flagged.count) }
            guard !flagged[rule] else { return }
            flagged[rule] = true
            list.append(rule)
        }

        /// Whether `rule` was used.
        func contains(_ rule: Int) -> Bool { rule < flagged.count && flagged[rule] }

        /// The rules used, in definition order.
        var sorted: [Int] { list.sorted() }
    }

    /// `a + b`, or `moneyOverflow`.
    private func sum(_ a: Int64, _ b: Int64) throws(CarFactoryError) -> Int64 {
        let (value, overflow) = a.addingReportingOverflow(b)
        if overflow { throw .moneyOverflow }
        return value
    }

    /// The price change of putting option `o` of family `g` in place of option `was`.
    private func change(_ g: Int, from was: Int, to o: Int) throws(CarFactoryError) -> Int64 {
        let (value, overflow) = space.prices[g][o].subtractingReportingOverflow(space.prices[g][was])
        if overflow { throw .moneyOverflow }
        return value
    }

    /// Counts a step (a choice tried) and the work done since the last one against the limit:
    /// the choices, and the work in steps of `unitsPerStep` units, may each reach it. Asks for
    /// a stop every 1,024 steps. A choice's cost grows with the rules (propagation visits each
    /// edge of the options that lose partners): with choices alone counted, `why` on 15,000
    /// rules took 26 s to reach the limit and `cheapest` on 5,000 took 49 s. (Choices and work
    /// added up, 60 x 8's `options` passed the limit: about 900,000 choices, 485,000 steps of work.)
    func step(_ effort: Effort) throws(CarFactoryError) {
        // Every node looks at each family's options at least once (to pick one to branch on).
        meter.units &+= totalWords
        try charge(effort, steps: 1)
    }

    /// Counts `steps` and the meter's new units (see `step`).
    func charge(_ effort: Effort, steps: Int) throws(CarFactoryError) {
        let units = meter.units
        effort.work += units - effort.counted
        effort.counted = units
        effort.steps += steps
        let spent = effort.spent
        if spent > limits.steps { throw .searchLimitReached(steps: limits.steps) }
        if spent >= effort.nextStopCheck {
            effort.nextStopCheck = spent + 1024
            if shouldStop() { throw .searchStopped }
        }
    }

    /// Counts the meter's new units into `effort` without holding them to the limit: the work
    /// a search did after its last step (backing out of its last nodes) is the answer's too,
    /// and the next search that shares the effort is held to it.
    func tally(_ effort: Effort) {
        effort.work += meter.units - effort.counted
        effort.counted = meter.units
    }

    /// An effort for a new answer: its work is counted from now, the configurator's set-up
    /// included if no answer has counted it.
    func newEffort() -> Effort {
        let effort = Effort(reading: meter.units)
        effort.work = meter.takeSetup()
        return effort
    }

    /// Units of work (an edge or a word of options looked at) counted as one step. A unit
    /// costs about 60 instructions (callgrind: 553 million for the 8.9 million units of 60 x
    /// 8's `why 0:0`), so 1,000,000 steps of work are about 6 seconds here; the most
    /// work a benchmark answer does, 60 x 8's `options`, is 497 million units (485,000 steps).
    public static let unitsPerStep = 1024

    // MARK: The cheapest car

    /// The cheapest valid car whose family `f` has option `fixed[f]` where that is not nil:
    /// an option per family, the sum of list prices lowest; ties go to the lowest option names
    /// in family order. Nil if no valid car has the fixed options.
    public func cheapest(fixed: [Int?]) throws(CarFactoryError) -> [Int]? {
        var domains = fullDomains()
        var assigned = Array(repeating: false, count: familyCount)
        for f in 0..<familyCount {
            guard let o = fixed[f] else { continue }
            if !choose(f, o, in: &domains) { return nil }
            assigned[f] = true
        }
        guard propagate(&domains, assigned: assigned) else { return nil }
        let effort = newEffort()
        // Whether any car has the fixed options is quicker to learn on its own (the family
        // with the fewest options first) than by a search for the cheapest.
        guard try satisfiable(domains, &assigned, nil, effort) else { return nil }
        // First the lowest price (a family where the bound's cheapest car breaks a rule goes
        // first), then the first car in name order at that price: family by family, each
        // option before the best car's (in name order) is tried with a search for a car at
        // that price having it; the first found is the new best car.
        var cost: Int64 = 0
        for f in 0..<familyCount { if let o = fixed[f] { cost = try sum(cost, space.prices[f][o]) } }
        var lowest = CheapestSearch(chosen: fixed.map { $0 ?? 0 }, assigned: assigned)
        lowest.cost = cost
        try lowestPrice(domains, &lowest, effort)
        guard let price = lowest.bestCost, var best = lowest.best else { return nil }
        for f in 0..<familyCount where !assigned[f] {
            assigned[f] = true
            for o in byName[f] where o != best[f] && contains(domains, f, o) {
                if nameRank[f][o] > nameRank[f][best[f]] { break }
                var next = domains
                guard choose(f, o, in: &next), propagate(&next, assigned: assigned, since: domains) else { continue }
                var trial = CheapestSearch(chosen: best, assigned: assigned)
                trial.chosen[f] = o
                trial.cost = try sum(cost, space.prices[f][o])
                // Nothing is cheaper than `price`: the first car found at it ends the search.
                trial.bestCost = saturating(price, 1)
                try lowestPrice(next, &trial, effort)
                if let car = trial.best {
                    best = car
                    break
                }
            }
            let before = domains
            guard choose(f, best[f], in: &domains), propagate(&domains, assigned: assigned, since: before) else { return nil }
            cost = try sum(cost, space.prices[f][best[f]])
        }
        return best
    }

    private struct CheapestSearch {
        var chosen: [Int]
        var assigned: [Bool]
        var cost: Int64 = 0
        var best: [Int]?
        var bestCost: Int64?
    }

    /// Finds the lowest price of a completion of `domains` (branch and bound, the bound of
    /// `priceBound`); keeps a car at it in `state.best`.
    private func lowestPrice(_ domains: [UInt64], _ state: inout CheapestSearch, _ effort: Effort) throws(CarFactoryError) {
        try step(effort)
        let limit = state.bestCost.map { $0 - state.cost }
        guard let rest = priceBound(domains, assigned: state.assigned, limit: limit, &effort.scratch) else { return }
        let node = NodeBound(rest: rest, pick: effort.scratch.pick, clashing: effort.scratch.clashing)
        try lowestPrice(domains, node, &state, effort)
    }

    /// What `priceBound` found for a node: the bound on its open families' prices, the
    /// cheapest car along the forest and the families where that car breaks a rule.
    private struct NodeBound {
        var rest: Int64
        var pick: [Int]
        var clashing: [Int]
    }

    private func lowestPrice(_ domains: [UInt64], _ node: NodeBound, _ state: inout CheapestSearch, _ effort: Effort)
        throws(CarFactoryError)
    {
        let bound = saturating(state.cost, node.rest)
        if let best = state.bestCost, bound >= best { return }
        // The cheapest car along the bound's forest may keep every rule: then it is the
        // cheapest here. Else a family where it breaks one goes first (the fewest options).
        if node.clashing.isEmpty {
            var car = state.chosen
            for g in 0..<familyCount where !state.assigned[g] { car[g] = node.pick[g] }
            state.best = car
            state.bestCost = bound
            return
        }
        // Of the families in a clash, the one with the fewest options left goes first (then
        // the one in the most clashes): with the options propagation leaves, dead ends show
        // soonest (60 x 8 with 3,000 rules: 2,630 steps to the price against 2,934).
        var counts = [Int](repeating: 0, count: familyCount)
        for g in node.clashing { counts[g] += 1 }
        var pick = -1
        var most = 0
        var fewest = Int.max
        for g in node.clashing {
            let options = optionCount(domains, g)
            if options < fewest || (options == fewest && counts[g] > most) {
                most = counts[g]
                fewest = options
                pick = g
            }
        }
        let g = pick
        state.assigned[g] = true
        defer { state.assigned[g] = false }
        let before = state.cost
        // Each option's bound first, then the options from the lowest bound (ties in price
        // order): the search meets a cheap car soonest, and each car found cuts more. On
        // 60 x 8 with 3,000 rules the price order alone met its 18th and cheapest car at
        // step 2,450 of 2,596.
        var children: [(bound: Int64, place: Int, option: Int, domains: [UInt64], node: NodeBound)] = []
        for o in byPrice[g] where contains(domains, g, o) {
            var next = domains
            guard choose(g, o, in: &next), propagate(&next, assigned: state.assigned, since: domains) else { continue }
            try step(effort)
            let cost = try sum(before, space.prices[g][o])
            let limit = state.bestCost.map { $0 - cost }
            guard let rest = priceBound(next, assigned: state.assigned, limit: limit, &effort.scratch) else { continue }
            let childBound = saturating(cost, rest)
            if let best = state.bestCost, childBound >= best { continue }
            let child = NodeBound(rest: rest, pick: effort.scratch.pick, clashing: effort.scratch.clashing)
            children.append((childBound, children.count, o, next, child))
        }
        children.sort { ($0.bound, $0.place) < ($1.bound, $1.place) }
        for child in children {
            state.chosen[g] = child.option
            state.cost = try sum(before, space.prices[g][child.option])
            try lowestPrice(child.domains, child.node, &state, effort)
        }
        state.cost = before
    }

    /// The number of options of family `g` still in `domains`.
    func optionCount(_ domains: [UInt64], _ g: Int) -> Int {
        var count = 0
        for w in 0..<wordCount[g] { count += domains[wordOffset[g] + w].nonzeroBitCount }
        return count
    }

    // MARK: Repairs (the search is in CorrectionSets.swift)

    /// Whether repair `a` of the car `current` ranks before `b`: price change, number of
    /// changes, then the option names of the cars they make, in family order.
    public func ranksBefore(_ a: Repair, _ b: Repair, of current: [Int]) -> Bool {
        if a.priceChange != b.priceChange { return a.priceChange < b.priceChange }
        if a.changes.count != b.changes.count { return a.changes.count < b.changes.count }
        // The cars, as `cheapest` breaks its ties: at the first family where they differ, which
        // one repair may change and the other keep (comparing the changes alone put a repair
        // that changes an earlier family first, whatever the names).
        var i = 0
        var j = 0
        while i < a.changes.count || j < b.changes.count {
            let fa = i < a.changes.count ? a.changes[i].family : Int.max
            let fb = j < b.changes.count ? b.changes[j].family : Int.max
            let f = min(fa, fb)
            let x = fa == f ? a.changes[i].option : current[f]
            let y = fb == f ? b.changes[j].option : current[f]
            if fa == f { i += 1 }
            if fb == f { j += 1 }
            if x != y { return nameRank[f][x] < nameRank[f][y] }
        }
        return false
    }

    // MARK: Options

    /// Where each option of each family (or of the families in `only`) stands for the car
    /// `current`: current, settable alone with its price change, needing the cheapest repair,
    /// or on no valid car with the rules that make it so.
    public func statuses(of current: [Int], families only: [Int]? = nil) throws(CarFactoryError) -> [[OptionStatus]] {
        // One answer, one budget of steps for all its options.
        let effort = newEffort()
        var result: [[OptionStatus]] = []
        for f in 0..<familyCount {
            guard only?.contains(f) ?? true else {
                result.append([])
                continue
            }
            var statuses: [OptionStatus] = []
            for o in 0..<optionCounts[f] {
                statuses.append(try status(of: .init(f, o), for: current, effort))
            }
            result.append(statuses)
        }
        return result
    }

    /// Where option `choice` stands for the car `current`.
    public func status(of choice: ConfigurationSpace.Choice, for current: [Int]) throws(CarFactoryError) -> OptionStatus {
        try status(of: choice, for: current, newEffort())
    }

    private func status(of choice: ConfigurationSpace.Choice, for current: [Int], _ effort: Effort) throws(CarFactoryError) -> OptionStatus
    {
        let f = choice.family
        let o = choice.option
        if current[f] == o { return .current }
        var car = current
        car[f] = o
        if isValid(car) { return .settable(priceChange: try change(f, from: current[f], to: o)) }
        try countStart(effort)
        if let cheapest = try repairs(of: current, wanting: choice, fixed: [], limit: 1, effort).first { return .needsRepair(cheapest) }
        try countStart(effort)
        return .impossible(rules: try rulesRuling(out: choice, effort))
    }

    /// Whether some valid car has `choice`; gathers into `used` (if given) every rule that took an option out.
    func satisfiable(
        _ choice: ConfigurationSpace.Choice, fixed: [Bool] = [], current: [Int] = [],
        recording used: RuleRecord?, _ effort: Effort
    ) throws(CarFactoryError) -> Bool {
        try validCar(with: choice, fixed: fixed, current: current, recording: used, effort) != nil
    }

    /// A valid car with `choice` (and the `fixed` families as in `current`), the first the
    /// search finds; nil if there is none. Gathers into `used` (if given) every rule that took an option out.
    func validCar(
        with choice: ConfigurationSpace.Choice, fixed: [Bool] = [], current: [Int] = [],
        recording used: RuleRecord?, _ effort: Effort
    ) throws(CarFactoryError) -> [Int]? {
        var domains = fullDomains()
        guard choose(choice.family, choice.option, in: &domains, used: used) else { return nil }
        var assigned = Array(repeating: false, count: familyCount)
        assigned[choice.family] = true
        for f in 0..<familyCount where f != choice.family && f < fixed.count && fixed[f] {
            guard choose(f, current[f], in: &domains, used: used) else { return nil }
            assigned[f] = true
        }
        guard propagate(&domains, assigned: assigned, used: used) else { return nil }
        return try validCar(domains, &assigned, used, effort)
    }

    private func satisfiable(
        _ domains: [UInt64], _ assigned: inout [Bool], _ used: RuleRecord?,
        _ effort: Effort
    ) throws(CarFactoryError) -> Bool {
        try validCar(domains, &assigned, used, effort) != nil
    }

    /// The first valid car the search finds below `domains` (every family left open is
    /// chosen, the one with the fewest options first), or nil.
    private func validCar(
        _ domains: [UInt64], _ assigned: inout [Bool], _ used: RuleRecord?,
        _ effort: Effort
    ) throws(CarFactoryError) -> [Int]? {
        try step(effort)
        // The free family with the fewest options left goes first.
        var pick: Int?
        var fewest = Int.max
        for g in 0..<familyCount where !assigned[g] {
            var count = 0
            for w in 0..<wordCount[g] { count += domains[wordOffset[g] + w].nonzeroBitCount }
            if count < fewest {
                fewest = count
                pick = g
            }
        }
        guard let g = pick else {
            // Every family is chosen: each has one option left.
            return (0..<familyCount).map { f in (0..<optionCounts[f]).first { contains(domains, f, $0) } ?? 0 }
        }
        assigned[g] = true
        defer { assigned[g] = false }
        for o in 0..<optionCounts[g] where contains(domains, g, o) {
            var next = domains
            guard choose(g, o, in: &next, used: used), propagate(&next, assigned: assigned, since: domains, used: used) else { continue }
            if let car = try validCar(next, &assigned, used, effort) { return car }
        }
        return nil
    }
}
