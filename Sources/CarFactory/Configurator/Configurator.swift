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

/// A set of changes that, with a wanted option, makes a valid car.
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
    /// It needs other changes too: the cheapest repair.
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

    private let familyCount: Int
    private let optionCounts: [Int]
    /// Where each family's bitset starts in a flat array of words, and how many words it has.
    private let wordOffset: [Int]
    private let wordCount: [Int]
    private let totalWords: Int
    /// Where each family's options start among all options (a global option id).
    private let optionBase: [Int]
    /// For each global option id, its edges `edgeStart[id]..<edgeStart[id + 1]`: a family and
    /// where, in `masks`, the bitset of that family's options it cannot go with starts.
    private let edgeStart: [Int]
    private let edgeFamily: [Int]
    private let edgeMask: [Int]
    private let masks: [UInt64]
    /// For each edge, the rules behind it (`edgeRuleStart[e]..<edgeRuleStart[e + 1]` in `edgeRules`).
    private let edgeRuleStart: [Int]
    private let edgeRules: [Int]
    /// Each family's options from the cheapest (ties by name).
    private let byPrice: [[Int]]
    /// Each option's place in its family's name order.
    private let nameRank: [[Int]]

    /// A configurator over `space`, stopping when `shouldStop` says so.
    public init(space: ConfigurationSpace, limits: SearchLimits = .standard, shouldStop: @escaping () -> Bool = { false }) {
        self.space = space
        self.limits = limits
        self.shouldStop = shouldStop
        familyCount = space.familyCount
        optionCounts = space.prices.map(\.count)
        var offsets: [Int] = [], counts: [Int] = [], bases: [Int] = []
        var words = 0, options = 0
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
        var start: [Int] = [0], family: [Int] = [], maskAt: [Int] = [], store: [UInt64] = []
        var ruleStart: [Int] = [0], rules: [Int] = []
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
        masks = store
        edgeRuleStart = ruleStart
        edgeRules = rules
        byPrice = space.prices.indices.map { f in
            space.prices[f].indices.sorted { (space.prices[f][$0], space.names[f][$0]) < (space.prices[f][$1], space.names[f][$1]) }
        }
        nameRank = space.names.map { names in
            var rank = Array(repeating: 0, count: names.count)
            for (place, option) in names.indices.sorted(by: { (names[$0], $0) < (names[$1], $1) }).enumerated() { rank[option] = place }
            return rank
        }
    }

    // MARK: Domains

    /// Every option of every family possible.
    private func fullDomains() -> [UInt64] {
        var words = Array(repeating: UInt64(0), count: totalWords)
        for f in 0..<familyCount {
            for o in 0..<optionCounts[f] { words[wordOffset[f] + o >> 6] |= 1 << UInt64(o & 63) }
        }
        return words
    }

    private func contains(_ domains: [UInt64], _ f: Int, _ o: Int) -> Bool {
        domains[wordOffset[f] + o >> 6] & (1 << UInt64(o & 63)) != 0
    }

    private func isEmpty(_ domains: [UInt64], _ f: Int) -> Bool {
        for w in 0..<wordCount[f] where domains[wordOffset[f] + w] != 0 { return false }
        return true
    }

    /// Chooses option `o` of family `f`: takes out of every family the options it cannot go
    /// with. False if `o` was no longer possible or a family is left with none. `used`, if
    /// given, gathers the rules behind every option taken out.
    private func choose(_ f: Int, _ o: Int, in domains: inout [UInt64], used: RuleRecord? = nil) -> Bool {
        guard contains(domains, f, o) else { return false }
        for w in 0..<wordCount[f] { domains[wordOffset[f] + w] = 0 }
        domains[wordOffset[f] + o >> 6] = 1 << UInt64(o & 63)
        let id = optionBase[f] + o
        for edge in edgeStart[id]..<edgeStart[id + 1] {
            let g = edgeFamily[edge], mask = edgeMask[edge]
            var any: UInt64 = 0, changed = false
            for w in 0..<wordCount[g] {
                let before = domains[wordOffset[g] + w]
                let after = before & ~masks[mask + w]
                if after != before { changed = true }
                domains[wordOffset[g] + w] = after
                any |= after
            }
            if changed, let used {
                for position in edgeRuleStart[edge]..<edgeRuleStart[edge + 1] { used.rules.insert(edgeRules[position]) }
            }
            if any == 0 { return false }
        }
        return true
    }

    /// Whether options `a` of family `f` and `b` of family `g` are a forbidden pair.
    private func conflict(_ f: Int, _ a: Int, _ g: Int, _ b: Int) -> Bool {
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
    private final class Effort {
        var steps = 0
    }

    /// The rules a search used to take options out.
    private final class RuleRecord {
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

    private func step(_ effort: Effort) throws(CarFactoryError) {
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
        for f in 0..<familyCount {
            if let o = fixed[f], !choose(f, o, in: &domains) { return nil }
        }
        var state = CheapestSearch(chosen: Array(repeating: 0, count: familyCount))
        try cheapest(from: 0, domains, cost: 0, &state, Effort())
        return state.best
    }

    private struct CheapestSearch {
        var chosen: [Int]
        var best: [Int]?
        var bestCost = Int64.max
    }

    /// Whether the first `count` options of `chosen` come after those of `best` in name order.
    private func namesAfter(_ chosen: [Int], _ best: [Int], count: Int) -> Bool {
        for f in 0..<count where chosen[f] != best[f] {
            return nameRank[f][chosen[f]] > nameRank[f][best[f]]
        }
        return false
    }

    private func cheapest(from f: Int, _ domains: [UInt64], cost: Int64, _ state: inout CheapestSearch,
                          _ effort: Effort) throws(CarFactoryError) {
        try step(effort)
        if f == familyCount {
            if cost < state.bestCost || (cost == state.bestCost && state.best.map { namesAfter($0, state.chosen, count: f) } ?? true) {
                state.best = state.chosen
                state.bestCost = cost
            }
            return
        }
        // The lowest price any completion can have: each family's cheapest option still possible.
        var bound = cost
        for g in f..<familyCount {
            guard let cheapest = byPrice[g].first(where: { contains(domains, g, $0) }) else { return }
            bound = try sum(bound, space.prices[g][cheapest])
        }
        if let best = state.best {
            if bound > state.bestCost || (bound == state.bestCost && namesAfter(state.chosen, best, count: f)) { return }
        }
        for o in byPrice[f] where contains(domains, f, o) {
            var next = domains
            guard choose(f, o, in: &next) else { continue }
            state.chosen[f] = o
            try cheapest(from: f + 1, next, cost: sum(cost, space.prices[f][o]), &state, effort)
        }
    }

    // MARK: Repairs

    /// Every minimal repair for setting `wanted` on the car `current` (at most `limit`, the
    /// first in ranking order): sets of changes to other families, none of which can be left
    /// out (no smaller set of them works), that make with `wanted` a valid car. Families where
    /// `fixed` is true are not changed. Ranked by price change, then number of changes, then
    /// option names in family order. Empty if no valid car has `wanted`; `[]`-changes if it
    /// can be set alone.
    public func repairs(of current: [Int], wanting wanted: ConfigurationSpace.Choice, fixed: [Bool] = [],
                        limit: Int? = nil) throws(CarFactoryError) -> [Repair] {
        try repairs(of: current, wanting: wanted, fixed: fixed, limit: limit, Effort())
    }

    private func repairs(of current: [Int], wanting wanted: ConfigurationSpace.Choice, fixed: [Bool],
                         limit: Int?, _ effort: Effort) throws(CarFactoryError) -> [Repair] {
        let limit = limit ?? limits.repairs
        guard limit > 0 else { return [] }
        var domains = fullDomains()
        var search = RepairSearch(current: current, wanted: wanted, limit: limit, familyCount: familyCount)
        guard choose(wanted.family, wanted.option, in: &domains) else { return [] }
        // Whether any valid car has it at all is quick to learn (the family with the fewest
        // options first); a repair search would learn it only by trying every repair.
        guard try satisfiable(wanted, fixed: fixed, current: current, recording: RuleRecord(), effort) else { return [] }
        search.assigned[wanted.family] = true
        search.delta = try change(wanted.family, from: current[wanted.family], to: wanted.option)
        for f in 0..<familyCount where f != wanted.family && f < fixed.count && fixed[f] {
            guard choose(f, current[f], in: &domains) else { return [] }
            search.assigned[f] = true
        }
        try repairs(domains, &search, effort)
        return search.found
    }

    private struct RepairSearch {
        let current: [Int]
        let wanted: ConfigurationSpace.Choice
        let limit: Int
        /// Families no longer free: the wanted one, fixed ones, changed ones and ones kept.
        var assigned: [Bool]
        /// The option each family is changed to, if it is.
        var changed: [Int?]
        var delta: Int64 = 0
        /// The repairs found so far, in ranking order, at most `limit`.
        var found: [Repair] = []

        init(current: [Int], wanted: ConfigurationSpace.Choice, limit: Int, familyCount: Int) {
            self.current = current
            self.wanted = wanted
            self.limit = limit
            assigned = Array(repeating: false, count: familyCount)
            changed = Array(repeating: nil, count: familyCount)
        }
    }

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

    private func repairs(_ domains: [UInt64], _ search: inout RepairSearch, _ effort: Effort) throws(CarFactoryError) {
        try step(effort)
        let current = search.current
        // A free family whose option can no longer stay must change; else two free families
        // whose options clash (only if the car itself broke a rule) must not both stay.
        var forced: Int?, forcedChoices = Int.max
        var bound = search.delta
        for g in 0..<familyCount where !search.assigned[g] {
            var cheapest: Int64?
            for o in byPrice[g] where o != current[g] && contains(domains, g, o) {
                cheapest = try change(g, from: current[g], to: o)
                break
            }
            if contains(domains, g, current[g]) {
                bound = try sum(bound, min(0, cheapest ?? 0))
            } else {
                guard let cheapest else { return }
                bound = try sum(bound, cheapest)
                // The family with the fewest options left goes first: dead ends show soonest.
                var choices = 0
                for w in 0..<wordCount[g] { choices += domains[wordOffset[g] + w].nonzeroBitCount }
                if choices < forcedChoices { forced = g; forcedChoices = choices }
            }
        }
        if search.found.count == search.limit, let last = search.found.last, bound > last.priceChange { return }
        if let g = forced {
            try change(g, domains, &search, effort)
            return
        }
        var clash: Int?
        outer: for g in 0..<familyCount where !search.assigned[g] {
            for h in g + 1..<familyCount where !search.assigned[h] && conflict(g, current[g], h, current[h]) {
                clash = g
                break outer
            }
        }
        guard let g = clash else {
            try record(&search)
            return
        }
        try change(g, domains, &search, effort)
        // Or keep it as it is (the other family of the clash must then change).
        var kept = domains
        guard choose(g, current[g], in: &kept) else { return }
        search.assigned[g] = true
        try repairs(kept, &search, effort)
        search.assigned[g] = false
    }

    /// Tries each other option of family `g` still possible.
    private func change(_ g: Int, _ domains: [UInt64], _ search: inout RepairSearch, _ effort: Effort) throws(CarFactoryError) {
        let current = search.current
        let before = search.delta
        search.assigned[g] = true
        for o in byPrice[g] where o != current[g] && contains(domains, g, o) {
            var next = domains
            guard choose(g, o, in: &next) else { continue }
            search.changed[g] = o
            search.delta = try sum(before, change(g, from: current[g], to: o))
            try repairs(next, &search, effort)
        }
        search.changed[g] = nil
        search.delta = before
        search.assigned[g] = false
    }

    /// Keeps the changes made as a repair if no smaller set of them works.
    private func record(_ search: inout RepairSearch) throws(CarFactoryError) {
        var changes: [ConfigurationSpace.Choice] = []
        for f in 0..<familyCount { if let o = search.changed[f] { changes.append(.init(f, o)) } }
        let repair = Repair(changes: changes, priceChange: search.delta)
        if search.found.count == search.limit, let last = search.found.last, !ranksBefore(repair, last) { return }
        guard isMinimal(changes, search) else { return }
        let place = search.found.firstIndex { ranksBefore(repair, $0) } ?? search.found.count
        search.found.insert(repair, at: place)
        if search.found.count > search.limit { search.found.removeLast() }
    }

    /// Whether no nonempty subset of `changes` can be undone, leaving a valid car.
    private func isMinimal(_ changes: [ConfigurationSpace.Choice], _ search: RepairSearch) -> Bool {
        guard !changes.isEmpty else { return true }
        var car = search.current
        car[search.wanted.family] = search.wanted.option
        for change in changes { car[change.family] = change.option }
        let changedFamilies = Set(changes.map(\.family))
        // A change can be undone only if its family's old option goes with every option that stays.
        let undoable = changes.filter { change in
            (0..<familyCount).allSatisfy { h in
                h == change.family || changedFamilies.contains(h) || !conflict(change.family, search.current[change.family], h, car[h])
            }
        }
        // Look for a nonempty subset of the undoable ones whose undoing keeps the car valid.
        func undo(_ index: Int, _ car: inout [Int], undone: Int) -> Bool {
            if index == undoable.count { return undone > 0 && isValid(car) }
            let family = undoable[index].family
            if undo(index + 1, &car, undone: undone) { return true }
            car[family] = search.current[family]
            let found = undo(index + 1, &car, undone: undone + 1)
            car[family] = undoable[index].option
            return found
        }
        return !undo(0, &car, undone: 0)
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

    private func status(of choice: ConfigurationSpace.Choice, for current: [Int], _ effort: Effort) throws(CarFactoryError) -> OptionStatus {
        let f = choice.family, o = choice.option
        if current[f] == o { return .current }
        var car = current
        car[f] = o
        if isValid(car) { return .settable(priceChange: try change(f, from: current[f], to: o)) }
        if let cheapest = try repairs(of: current, wanting: choice, fixed: [], limit: 1, effort).first { return .needsRepair(cheapest) }
        return .impossible(rules: try rulesRuling(out: choice, effort))
    }

    // MARK: Explanations

    /// A set of rules under which no valid car has `choice` (minimal when the search finds at
    /// most 64 rules at work: none of them can be left out). Empty if some valid car has it.
    public func rulesRuling(out choice: ConfigurationSpace.Choice) throws(CarFactoryError) -> [Int] {
        try rulesRuling(out: choice, Effort())
    }

    private func rulesRuling(out choice: ConfigurationSpace.Choice, _ effort: Effort) throws(CarFactoryError) -> [Int] {
        let used = RuleRecord()
        guard try !satisfiable(choice, recording: used, effort) else { return [] }
        var core = used.rules.sorted()
        guard core.count <= 64 else { return core }
        // Leave out each rule in turn; keep it only if the option becomes possible without it.
        var index = 0
        while index < core.count {
            var trial = core
            trial.remove(at: index)
            let smaller = Configurator(space: space.keeping(rules: trial), limits: limits, shouldStop: shouldStop)
            if try smaller.satisfiable(choice, recording: RuleRecord(), effort) {
                index += 1
            } else {
                core = trial
            }
        }
        return core
    }

    /// Whether some valid car has `choice`; gathers into `used` every rule that took an option out.
    private func satisfiable(_ choice: ConfigurationSpace.Choice, fixed: [Bool] = [], current: [Int] = [],
                             recording used: RuleRecord, _ effort: Effort) throws(CarFactoryError) -> Bool {
        var domains = fullDomains()
        guard choose(choice.family, choice.option, in: &domains, used: used) else { return false }
        var assigned = Array(repeating: false, count: familyCount)
        assigned[choice.family] = true
        for f in 0..<familyCount where f != choice.family && f < fixed.count && fixed[f] {
            guard choose(f, current[f], in: &domains, used: used) else { return false }
            assigned[f] = true
        }
        return try satisfiable(domains, &assigned, used, effort)
    }

    private func satisfiable(_ domains: [UInt64], _ assigned: inout [Bool], _ used: RuleRecord,
                             _ effort: Effort) throws(CarFactoryError) -> Bool {
        try step(effort)
        // The free family with the fewest options left goes first.
        var pick: Int?, fewest = Int.max
        for g in 0..<familyCount where !assigned[g] {
            var count = 0
            for w in 0..<wordCount[g] { count += domains[wordOffset[g] + w].nonzeroBitCount }
            if count < fewest { fewest = count; pick = g }
        }
        guard let g = pick else { return true }
        assigned[g] = true
        defer { assigned[g] = false }
        for o in 0..<optionCounts[g] where contains(domains, g, o) {
            var next = domains
            guard choose(g, o, in: &next, used: used) else { continue }
            if try satisfiable(next, &assigned, used, effort) { return true }
        }
        return false
    }
}
