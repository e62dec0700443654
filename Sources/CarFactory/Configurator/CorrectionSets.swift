// Minimal repairs as minimal correction sets (the diagnoses of ConfigFix and FeatureIDE).
//
// A repair for a wanted option W on a car C is a set of changes to other families (not fixed
// ones) that with W makes a valid car. A set S of families is a correction set when some valid
// car has W, C's options outside S and W's family, and any options in S. A repair is minimal
// when the families it changes are a minimal correction set: no smaller set of families,
// whatever options they take, makes a valid car with W. In a minimal correction set every
// valid assignment changes every family (one that kept a family would make a smaller set), so
// a set's repairs are exactly its valid assignments.
//
// Correction sets are closed upward, so the minimal ones are found by a hitting-set tree: a
// set that is not one fails because of some families kept as they are (a conflict), and every
// correction set containing it changes one of them. Branch i adds conflict[i] and keeps
// conflict[0..<i] as they are, so each minimal set is reached once. Each conflict is made
// minimal (every family in it is needed for the failure), which keeps the tree narrow; each
// test is a search over the set's few families only, the others held at the car's options.

extension Configurator {
    /// Every minimal repair for setting `wanted` on the car `current` (at most `limit`, the
    /// first in ranking order; `limits.repairs` if nil): a set of changes to other families
    /// (not those where `fixed` is true) that with `wanted` makes a valid car, minimal when no
    /// smaller set of families, whatever options they take, makes a valid car with `wanted`
    /// (every family it changes must change). Ranked by price change, then number of
    /// changes, then option names in family order. Empty if no valid car has `wanted`; one
    /// repair of no changes if it can be set alone.
    public func repairs(
        of current: [Int], wanting wanted: ConfigurationSpace.Choice, fixed: [Bool] = [],
        limit: Int? = nil
    ) throws(CarFactoryError) -> [Repair] {
        try repairs(of: current, wanting: wanted, fixed: fixed, limit: limit, Effort())
    }

    func repairs(
        of current: [Int], wanting wanted: ConfigurationSpace.Choice, fixed: [Bool],
        limit: Int?, _ effort: Effort
    ) throws(CarFactoryError) -> [Repair] {
        let limit = limit ?? limits.repairs
        guard limit > 0 else { return [] }
        // Whether any valid car has it at all is quick to learn (the family with the fewest
        // options first); the tree would learn it only by trying every set of families.
        guard try satisfiable(wanted, fixed: fixed, current: current, recording: nil, effort) else { return [] }
        var search = try CorrectionSearch(self, current: current, wanted: wanted, fixed: fixed, limit: limit, effort: effort)
        try search.run()
        return search.found
    }
}

/// The hitting-set tree over sets of families for one wanted option, and the repairs found.
struct CorrectionSearch {
    let configurator: Configurator
    let current: [Int]
    /// The current car with the wanted option.
    let car: [Int]
    let limit: Int
    let effort: Configurator.Effort
    /// Families that never change: the wanted option's and the fixed ones.
    let hard: [Bool]
    /// Per family, each other family whose option on `car` rules out some of its options, and
    /// where (in the configurator's `masks`) the bitset of those options starts.
    let rulers: [[(family: Int, mask: Int)]]
    /// The pairs of families whose options on `car` clash.
    let clashes: [(Int, Int)]
    /// Families whose option clashes with one that never changes: every correction set has them.
    let forced: [Bool]
    /// The price change of the wanted option alone.
    let wantedChange: Int64
    /// The families of the set under test.
    var inSet: [Bool]
    /// Families kept as they are in the branch under way.
    var excluded: [Bool]
    /// Each family's place in the set under test (-1 if not in it).
    var slot: [Int]
    /// The repairs found so far, in ranking order, at most `limit`.
    var found: [Repair] = []

    init(
        _ configurator: Configurator, current: [Int], wanted: ConfigurationSpace.Choice, fixed: [Bool], limit: Int,
        effort: Configurator.Effort
    ) throws(CarFactoryError) {
        let n = configurator.familyCount
        self.configurator = configurator
        self.current = current
        self.limit = limit
        self.effort = effort
        var car = current
        car[wanted.family] = wanted.option
        self.car = car
        var hard = Array(repeating: false, count: n)
        for f in 0..<min(n, fixed.count) where fixed[f] { hard[f] = true }
        hard[wanted.family] = true
        self.hard = hard
        var rulers = Array(repeating: [(family: Int, mask: Int)](), count: n)
        var clashes: [(Int, Int)] = []
        var forced = Array(repeating: false, count: n)
        for h in 0..<n {
            let id = configurator.optionBase[h] + car[h]
            for edge in configurator.edgeStart[id]..<configurator.edgeStart[id + 1] {
                let g = configurator.edgeFamily[edge]
                let mask = configurator.edgeMask[edge]
                rulers[g].append((h, mask))
                // Rules forbid pairs both ways, so each clash is seen from its lower family.
                guard g > h, configurator.masks[mask + car[g] >> 6] & (1 << UInt64(car[g] & 63)) != 0 else { continue }
                clashes.append((h, g))
                if hard[h] { forced[g] = true }
                if hard[g] { forced[h] = true }
            }
        }
        self.rulers = rulers
        self.clashes = clashes
        self.forced = forced.indices.map { forced[$0] && !hard[$0] }
        wantedChange = try Self.difference(configurator.space.prices[wanted.family][wanted.option], configurator.space.prices[wanted.family][current[wanted.family]])
        inSet = Array(repeating: false, count: n)
        excluded = Array(repeating: false, count: n)
        slot = Array(repeating: -1, count: n)
    }

    mutating func run() throws(CarFactoryError) {
        // Two families that never change clash: no set of others helps.
        for (a, b) in clashes where hard[a] && hard[b] { return }
        var members: [Int] = []
        for f in forced.indices where forced[f] {
            members.append(f)
            inSet[f] = true
        }
        try explore(members)
    }

    /// Explores the sets that contain `members` and none of the `excluded` families.
    private mutating func explore(_ members: [Int]) throws(CarFactoryError) {
        try configurator.step(effort)
        let kept = inSet.map { !$0 }
        if try solvable(members, constraining: kept) {
            // No set strictly containing a correction set is minimal.
            try consider(members)
            return
        }
        // The families that can take part in the failure: those ruling out an option of a
        // member, and those in a clash with a family kept.
        var candidate = Array(repeating: false, count: inSet.count)
        for f in members {
            for (h, _) in rulers[f] where !inSet[h] && !hard[h] && !excluded[h] { candidate[h] = true }
        }
        for (a, b) in clashes where !inSet[a] && !inSet[b] {
            if !hard[a] && !excluded[a] { candidate[a] = true }
            if !hard[b] && !excluded[b] { candidate[b] = true }
        }
        var constraining = inSet.indices.map { !inSet[$0] && (hard[$0] || excluded[$0] || candidate[$0]) }
        // Leave out each in turn; it is in the conflict if the set becomes solvable without it.
        var conflict: [Int] = []
        for h in candidate.indices where candidate[h] {
            constraining[h] = false
            if try solvable(members, constraining: constraining) {
                constraining[h] = true
                conflict.append(h)
            }
        }
        for h in conflict {
            inSet[h] = true
            try explore(members + [h])
            inSet[h] = false
            excluded[h] = true
        }
        for h in conflict { excluded[h] = false }
    }

    /// Records the repairs of the correction set `members` if it is minimal: no family of it
    /// that need not change (one not `forced`) can be kept as it is.
    private mutating func consider(_ members: [Int]) throws(CarFactoryError) {
        for (index, f) in members.enumerated() where !forced[f] {
            var fewer = members
            fewer.remove(at: index)
            inSet[f] = false
            let kept = inSet.map { !$0 }
            let smaller = try solvable(fewer, constraining: kept)
            inSet[f] = true
            if smaller { return }
        }
        let ordered = members.sorted()
        let kept = inSet.map { !$0 }
        guard let domains = place(ordered, constraining: kept) else {
            clearSlots(ordered)
            return
        }
        // The cheapest change each family can still make, for the bound.
        var cheapest: [Int64] = []
        for (i, f) in ordered.enumerated() {
            let low = options(in: domains, ordered, i).map { configurator.space.prices[f][$0] }.min() ?? 0
            cheapest.append(try Self.difference(low, configurator.space.prices[f][current[f]]))
        }
        var chosen = Array(repeating: -1, count: ordered.count)
        try assignments(ordered, domains, &chosen, cheapest, change: wantedChange)
        clearSlots(ordered)
    }

    /// Every valid assignment of `members` from `domains` in member order, each offered as a
    /// repair; a branch whose price change cannot reach the last of a full list is cut.
    private mutating func assignments(
        _ members: [Int], _ domains: [UInt64], _ chosen: inout [Int], _ cheapest: [Int64], change: Int64
    ) throws(CarFactoryError) {
        try configurator.step(effort)
        guard let i = chosen.firstIndex(of: -1) else {
            let changes = members.indices.map { ConfigurationSpace.Choice(members[$0], chosen[$0]) }
            offer(Repair(changes: changes, priceChange: change))
            return
        }
        if found.count == limit, let last = found.last {
            var bound = change
            for j in i..<members.count { bound = Self.clamped(bound, cheapest[j]) }
            if bound > last.priceChange { return }
        }
        let f = members[i]
        for o in options(in: domains, members, i) where o != current[f] {
            var next = domains
            guard forwardCheck(members, &next, i, f, o, assigned: chosen) else { continue }
            chosen[i] = o
            let price = try Self.difference(configurator.space.prices[f][o], configurator.space.prices[f][current[f]])
            try assignments(members, next, &chosen, cheapest, change: Self.sum(change, price))
        }
        chosen[i] = -1
    }

    private mutating func offer(_ repair: Repair) {
        if found.count == limit, let last = found.last, !configurator.ranksBefore(repair, last) { return }
        let place = found.firstIndex { configurator.ranksBefore(repair, $0) } ?? found.count
        found.insert(repair, at: place)
        if found.count > limit { found.removeLast() }
    }

    // MARK: The search over a set's families

    /// Whether the families `members` can take options that go with each other and with the
    /// car's option of every family `constraining` marks (those must not clash among themselves).
    private mutating func solvable(_ members: [Int], constraining: [Bool]) throws(CarFactoryError) -> Bool {
        for (a, b) in clashes where constraining[a] && constraining[b] { return false }
        guard let domains = place(members, constraining: constraining) else {
            clearSlots(members)
            return false
        }
        var chosen = Array(repeating: -1, count: members.count)
        let found = try solve(members, domains, &chosen)
        clearSlots(members)
        return found
    }

    /// Each member's options that go with every family `constraining` marks, one member after
    /// another (`wordCount` words each); sets `slot`. Nil if a member has none.
    private mutating func place(_ members: [Int], constraining: [Bool]) -> [UInt64]? {
        let c = configurator
        var domains: [UInt64] = []
        var empty = false
        for (i, f) in members.enumerated() {
            slot[f] = i
            let start = domains.count
            for w in 0..<c.wordCount[f] {
                let left = c.optionCounts[f] - w << 6
                domains.append(left >= 64 ? ~0 : (1 << UInt64(left)) - 1)
            }
            for (h, mask) in rulers[f] where constraining[h] {
                for w in 0..<c.wordCount[f] { domains[start + w] &= ~c.masks[mask + w] }
            }
            if !domains[start..<start + c.wordCount[f]].contains(where: { $0 != 0 }) { empty = true }
        }
        return empty ? nil : domains
    }

    private mutating func clearSlots(_ members: [Int]) {
        for f in members { slot[f] = -1 }
    }

    /// Where member `i`'s words start in a set's domains (members are laid out in order).
    private func start(_ members: [Int], _ i: Int) -> Int {
        var offset = 0
        for j in 0..<i { offset += configurator.wordCount[members[j]] }
        return offset
    }

    /// The options left to member `i` of `members` in `domains`.
    private func options(in domains: [UInt64], _ members: [Int], _ i: Int) -> [Int] {
        let s = start(members, i)
        var options: [Int] = []
        for w in 0..<configurator.wordCount[members[i]] {
            var bits = domains[s + w]
            while bits != 0 {
                options.append(w << 6 + bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
        return options
    }

    /// Whether some assignment of the members not yet `chosen` goes with those chosen.
    private func solve(_ members: [Int], _ domains: [UInt64], _ chosen: inout [Int]) throws(CarFactoryError) -> Bool {
        try configurator.step(effort)
        // The member with the fewest options left goes first.
        var pick = -1
        var fewest = Int.max
        for i in members.indices where chosen[i] < 0 {
            let s = start(members, i)
            var count = 0
            for w in 0..<configurator.wordCount[members[i]] { count += domains[s + w].nonzeroBitCount }
            if count < fewest {
                fewest = count
                pick = i
            }
        }
        guard pick >= 0 else { return true }
        let f = members[pick]
        let s = start(members, pick)
        defer { chosen[pick] = -1 }
        for w in 0..<configurator.wordCount[f] {
            var bits = domains[s + w]
            while bits != 0 {
                let o = w << 6 + bits.trailingZeroBitCount
                bits &= bits - 1
                var next = domains
                guard forwardCheck(members, &next, pick, f, o, assigned: chosen) else { continue }
                chosen[pick] = o
                if try solve(members, next, &chosen) { return true }
            }
        }
        return false
    }

    /// Chooses option `o` for member `i` (family `f`): takes out of every member not yet
    /// `assigned` the options it cannot go with. False if one is left with none.
    private func forwardCheck(_ members: [Int], _ domains: inout [UInt64], _ i: Int, _ f: Int, _ o: Int, assigned: [Int]) -> Bool {
        let c = configurator
        let id = c.optionBase[f] + o
        for edge in c.edgeStart[id]..<c.edgeStart[id + 1] {
            let j = slot[c.edgeFamily[edge]]
            guard j >= 0, j != i, assigned[j] < 0 else { continue }
            let g = members[j]
            let s = start(members, j)
            var any: UInt64 = 0
            for w in 0..<c.wordCount[g] {
                domains[s + w] &= ~c.masks[c.edgeMask[edge] + w]
                any |= domains[s + w]
            }
            if any == 0 { return false }
        }
        return true
    }

    // MARK: Money

    static func difference(_ a: Int64, _ b: Int64) throws(CarFactoryError) -> Int64 {
        let (value, overflow) = a.subtractingReportingOverflow(b)
        if overflow { throw .moneyOverflow }
        return value
    }

    static func sum(_ a: Int64, _ b: Int64) throws(CarFactoryError) -> Int64 {
        let (value, overflow) = a.addingReportingOverflow(b)
        if overflow { throw .moneyOverflow }
        return value
    }

    /// `a + b`, held at the bounds of `Int64` (for a bound that must not throw).
    static func clamped(_ a: Int64, _ b: Int64) -> Int64 {
        let (value, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : value
    }
}
