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
    /// The most search steps (choices tried) for one answer; past it the answer is an error.
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
/// when no smaller set of families, whatever options they take, makes one (every family it
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
    private let shouldStop: () -> Bool

    let familyCount: Int
    let optionCounts: [Int]
    /// Where each family's bitset starts in a flat array of words, and how many words it has.
    let wordOffset: [Int]
    let wordCount: [Int]
    let totalWords: Int
    /// Where each family's options start among all options (a global option id).
    let optionBase: [Int]
    /// For each global option id, its edges `edgeStart[id]..<edgeStart[id + 1]`: a family and
    /// where, in `masks`, the bitset of that family's options it cannot go with starts.
    let edgeStart: [Int]
    let edgeFamily: [Int]
    let edgeMask: [Int]
    let masks: [UInt64]
    /// Per option (by global id) and family, where its edge's mask starts in `masks` (-1: no
    /// edge), for the bound's inner loops; left empty past `clashTableLimit` entries.
    let clashTable: [Int]
    /// For each edge, the rules behind it (`edgeRuleStart[e]..<edgeRuleStart[e + 1]` in `edgeRules`).
    private let edgeRuleStart: [Int]
    private let edgeRules: [Int]
    /// Each family's options from the cheapest (ties by name).
    let byPrice: [[Int]]
    /// Each option's place in its family's name order.
    let nameRank: [[Int]]
    /// Each family's options in name order.
    let byName: [[Int]]

    /// A configurator over `space`, stopping when `shouldStop` says so.
    public init(space: ConfigurationSpace, limits: SearchLimits = .standard, shouldStop: @escaping () -> Bool = { false }) {
        self.space = space
        self.limits = limits
        self.shouldStop = shouldStop
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
        optionBase = bases
        // Each option's forbidden partners, merged per other family, with the rules behind them.
        var partners = [[Int: (mask: [UInt64], rules: [Int])]](repeating: [:], count: options)
        func forbid(_ a: ConfigurationSpace.Choice, _ family: Int, _ option: Int, rule: Int) {
            let id = bases[a.family] + a.option
            var entry = partners[id][family] ?? (Array(repeating: 0, count: counts[family]), [])
            entry.mask[option >> 6] |= 1 << UInt64(option & 63)
            if entry.rules.last != rule { entry.rules.append(rule) }
            partners[id][family] = entry
        }
        for (index, rule) in space.rules.enumerated() {
            switch rule.kind {
            case .forbid:
                forbid(rule.first, rule.second.family, rule.second.option, rule: index)
                forbid(rule.second, rule.first.family, rule.first.option, rule: index)
            case .require:
                for other in 0..<optionCounts[rule.second.family] where other != rule.second.option {
                    forbid(rule.first, rule.second.family, other, rule: index)
                    forbid(ConfigurationSpace.Choice(rule.second.family, other), rule.first.family, rule.first.option, rule: index)
                }
            }
        }
        var start: [Int] = [0]
        var family: [Int] = []
        var maskAt: [Int] = []
        var store: [UInt64] = []
        var ruleStart: [Int] = [0]
        var rules: [Int] = []
        for id in 0..<options {
            for (other, entry) in partners[id].sorted(by: { $0.key < $1.key }) {
                family.append(other)
                maskAt.append(store.count)
                store += entry.mask
                rules += entry.rules
                ruleStart.append(rules.count)
            }
            start.append(family.count)
        }
        edgeStart = start
        edgeFamily = family
        edgeMask = maskAt
        if options * familyCount <= Self.clashTableLimit {
            var table = Array(repeating: -1, count: options * familyCount)
            for id in 0..<options {
                for edge in start[id]..<start[id + 1] { table[id * familyCount + family[edge]] = maskAt[edge] }
            }
            clashTable = table
        } else {
            clashTable = []
        }
        masks = store
        edgeRuleStart = ruleStart
        edgeRules = rules
        byPrice = space.prices.indices.map { f in
            space.prices[f].indices.sorted { (space.prices[f][$0], space.names[f][$0]) < (space.prices[f][$1], space.names[f][$1]) }
        }
        byName = space.names.map { names in names.indices.sorted { (names[$0], $0) < (names[$1], $1) } }
        nameRank = space.names.map { names in
            var rank = Array(repeating: 0, count: names.count)
            for (place, option) in names.indices.sorted(by: { (names[$0], $0) < (names[$1], $1) }).enumerated() { rank[option] = place }
            return rank
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

    func contains(_ domains: [UInt64], _ f: Int, _ o: Int) -> Bool {
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
        for edge in edgeStart[id]..<edgeStart[id + 1] {
            let g = edgeFamily[edge]
            let mask = edgeMask[edge]
            var any: UInt64 = 0
            var changed = false
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

    /// Gathers into `used` the rules behind `edge`.
    func record(_ edge: Int, _ used: RuleRecord) {
        for position in edgeRuleStart[edge]..<edgeRuleStart[edge + 1] { used.rules.insert(edgeRules[position]) }
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
        var steps = 0
        /// Room the bound reuses from node to node.
        var scratch = BoundScratch()
    }

    /// The rules a search used to take options out.
    final class RuleRecord {
        var rules = Set<Int>()
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

    func step(_ effort: Effort) throws(CarFactoryError) {
        effort.steps += 1
        if effort.steps > limits.steps { throw .searchLimitReached(steps: limits.steps) }
        if effort.steps & 1023 == 0, shouldStop() { throw .searchStopped }
    }

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
        let effort = Effort()
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
        guard let rest = priceBound(domains, assigned: state.assigned, &effort.scratch) else { return }
        let bound = saturating(state.cost, rest)
        if let best = state.bestCost, bound >= best { return }
        // The cheapest car along the bound's forest may keep every rule: then it is the
        // cheapest here. Else a family where it breaks one goes first (the fewest options).
        if effort.scratch.clashing.isEmpty {
            var car = state.chosen
            for g in 0..<familyCount where !state.assigned[g] { car[g] = effort.scratch.pick[g] }
            state.best = car
            state.bestCost = bound
            return
        }
        // Of the families in a clash, the one with the fewest options left goes first (then
        // the one in the most clashes): with the options propagation leaves, dead ends show
        // soonest (60 x 8 with 3,000 rules: 2,630 steps to the price against 2,934).
        var counts = [Int](repeating: 0, count: familyCount)
        for g in effort.scratch.clashing { counts[g] += 1 }
        var pick = -1
        var most = 0
        var fewest = Int.max
        for g in effort.scratch.clashing {
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
        for o in byPrice[g] where contains(domains, g, o) {
            var next = domains
            guard choose(g, o, in: &next), propagate(&next, assigned: state.assigned, since: domains) else { continue }
            state.chosen[g] = o
            state.cost = try sum(before, space.prices[g][o])
            try lowestPrice(next, &state, effort)
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

    /// Whether repair `a` ranks before `b`: price change, number of changes, then names in family order.
    public func ranksBefore(_ a: Repair, _ b: Repair) -> Bool {
        if a.priceChange != b.priceChange { return a.priceChange < b.priceChange }
        if a.changes.count != b.changes.count { return a.changes.count < b.changes.count }
        for (x, y) in zip(a.changes, b.changes) where x != y {
            if x.family != y.family { return x.family < y.family }
            return nameRank[x.family][x.option] < nameRank[y.family][y.option]
        }
        return false
    }

    // MARK: Options

    /// Where each option of each family (or of the families in `only`) stands for the car
    /// `current`: current, settable alone with its price change, needing the cheapest repair,
    /// or on no valid car with the rules that make it so.
    public func statuses(of current: [Int], families only: [Int]? = nil) throws(CarFactoryError) -> [[OptionStatus]] {
        // One answer, one budget of steps for all its options.
        let effort = Effort()
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
        try status(of: choice, for: current, Effort())
    }

    private func status(of choice: ConfigurationSpace.Choice, for current: [Int], _ effort: Effort) throws(CarFactoryError) -> OptionStatus
    {
        let f = choice.family
        let o = choice.option
        if current[f] == o { return .current }
        var car = current
        car[f] = o
        if isValid(car) { return .settable(priceChange: try change(f, from: current[f], to: o)) }
        if let cheapest = try repairs(of: current, wanting: choice, fixed: [], limit: 1, effort).first { return .needsRepair(cheapest) }
        return .impossible(rules: try rulesRuling(out: choice, effort))
    }

    // MARK: Explanations

    /// A minimal set of rules under which no valid car has `choice` (none of them can be left
    /// out). Empty if some valid car has it.
    public func rulesRuling(out choice: ConfigurationSpace.Choice) throws(CarFactoryError) -> [Int] {
        try rulesRuling(out: choice, Effort())
    }

    private func rulesRuling(out choice: ConfigurationSpace.Choice, _ effort: Effort) throws(CarFactoryError) -> [Int] {
        let used = RuleRecord()
        guard try !satisfiable(choice, recording: used, effort) else { return [] }
        // Rules are tried in definition order, so the answer does not depend on the search's path.
        var core = used.rules.sorted()
        var needed = Set<Int>()
        // Leave out each rule in turn; it is needed if the option becomes possible without it.
        // If not, the rules the smaller search used are enough: every rule found needed is
        // among them (fewer rules allow more cars), so a large set shrinks in a few searches.
        while let rule = core.first(where: { !needed.contains($0) }) {
            let trial = core.filter { $0 != rule }
            let smaller = Configurator(space: space.keeping(rules: trial), limits: limits, shouldStop: shouldStop)
            let record = RuleRecord()
            if try smaller.satisfiable(choice, recording: record, effort) {
                needed.insert(rule)
            } else {
                core = record.rules.map { trial[$0] }.sorted()
            }
        }
        return core
    }

    /// Whether some valid car has `choice`; gathers into `used` (if given) every rule that took an option out.
    func satisfiable(
        _ choice: ConfigurationSpace.Choice, fixed: [Bool] = [], current: [Int] = [],
        recording used: RuleRecord?, _ effort: Effort
    ) throws(CarFactoryError) -> Bool {
        var domains = fullDomains()
        guard choose(choice.family, choice.option, in: &domains, used: used) else { return false }
        var assigned = Array(repeating: false, count: familyCount)
        assigned[choice.family] = true
        for f in 0..<familyCount where f != choice.family && f < fixed.count && fixed[f] {
            guard choose(f, current[f], in: &domains, used: used) else { return false }
            assigned[f] = true
        }
        guard propagate(&domains, assigned: assigned, used: used) else { return false }
        return try satisfiable(domains, &assigned, used, effort)
    }

    private func satisfiable(
        _ domains: [UInt64], _ assigned: inout [Bool], _ used: RuleRecord?,
        _ effort: Effort
    ) throws(CarFactoryError) -> Bool {
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
        guard let g = pick else { return true }
        assigned[g] = true
        defer { assigned[g] = false }
        for o in 0..<optionCounts[g] where contains(domains, g, o) {
            var next = domains
            guard choose(g, o, in: &next, used: used), propagate(&next, assigned: assigned, since: domains, used: used) else { continue }
            if try satisfiable(next, &assigned, used, effort) { return true }
        }
        return false
    }
}
