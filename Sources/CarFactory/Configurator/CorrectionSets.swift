// Minimal repairs as minimal correction sets (the diagnoses of ConfigFix and FeatureIDE).
//
// A repair for a wanted option W on a car C is a set of changes to other families (not fixed
// ones) that with W makes a valid car. A set S of families is a correction set when some valid
// car has W, C's options outside S and W's family, and any options in S. A repair is minimal
// when the families it changes are a minimal correction set: no smaller set of the same families,
// whatever options they take, makes a valid car with W. In a minimal correction set every
// valid assignment changes every family (one that kept a family would make a smaller set), so
// a set's repairs are exactly its valid assignments.
//
// The minimal correction sets are enumerated by one search over valid cars with W, which
// branches only on families that have lost the car's option (forward checking and arc
// consistency from the choices made take it out; such a family must change). While every
// open family still has it, the node holds one car that could be a repair, the one keeping
// them all: any other car under it changes the same families and more, so its changes are not
// minimal. Each car the search ends on is shrunk to a minimal set (each family tried kept in
// turn); the set's repairs are offered, and the set is blocked from then on with a clause (one
// of its families stays as it is), as MCS enumeration with blocking clauses does; the search
// then goes on where it was, never restarting (restarting took 300,000 steps for 60 x 8's
// 0:0). A family whose car's option nothing left can clash with stays as it is (a repair that
// changed it would not be minimal), and once the list is full a node whose lowest price
// change is above the last repair's is cut: every repair of a set not yet found is a car
// under it. Each set's repairs are then its valid assignments, searched over its own families
// with the others held at the car's options.

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
        try repairs(of: current, wanting: wanted, fixed: fixed, limit: limit, newEffort())
    }

    func repairs(
        of current: [Int], wanting wanted: ConfigurationSpace.Choice, fixed: [Bool],
        limit: Int?, _ effort: Effort
    ) throws(CarFactoryError) -> [Repair] {
        let limit = limit ?? limits.repairs
        guard limit > 0 else { return [] }
        var search = try CorrectionSearch(self, current: current, wanted: wanted, fixed: fixed, limit: limit, effort: effort)
        try search.run()
        tally(effort)
        return search.found
    }
}

/// The enumeration of minimal correction sets for one wanted option, and the repairs found.
struct CorrectionSearch {
    let configurator: Configurator
    let current: [Int]
    /// The current car with the wanted option.
    let car: [Int]
    let limit: Int
    let wanted: ConfigurationSpace.Choice
    let effort: Configurator.Effort
    /// Families that never change: the wanted option's and the fixed ones.
    let hard: [Bool]
    /// Per family, each other family whose option on `car` rules out some of its options, and
    /// where (in the configurator's `masks`) the bitset of those options starts.
    let rulers: [[(family: Int, mask: Int)]]
    /// Families whose option clashes with one that never changes: every correction set has them.
    let forced: [Bool]
    /// Whether the car's options clash in two families that may change (the current car
    /// broke a rule): only then can a car that keeps every open family break a rule, the
    /// searches' nodes always having the families that never change chosen.
    let openCarsClash: Bool
    /// The price change of the wanted option alone.
    let wantedChange: Int64
    /// The families of the set whose assignments are searched.
    var inSet: [Bool]
    /// Each family's place in the set under test (-1 if not in it).
    var slot: [Int]
    /// Where each member of the set under test starts in its domains (members laid out in
    /// order); kept, not worked out again per edge of each assignment step.
    var memberStart: [Int] = []
    /// `keepingOpenFamilies`' room, reused from node to node: the families that change and
    /// their options left.
    var changing: [Int] = []
    var changingDomains: [UInt64] = []
    /// The repairs found so far, in ranking order, at most `limit`.
    var found: [Repair] = []
    /// Per family, the edge of its car's option that last showed an option it clashes with
    /// (-1: none yet); a hint only, checked before use, shared by every node. (It was an
    /// array in a class, whose every read and write was checked for exclusive access at run
    /// time: 22 of 553 million instructions of 60 x 8's `why 0:0`.)
    var watchedEdge: [Int]
    /// Room every node reuses (`settle` and the choices before it do not re-enter): the
    /// families that lost options since the last propagation and those the pass under way
    /// changes (`propagate`'s flags), and `settle`'s families that still have the car's
    /// option and those kept. Arrays made per call cost an allocation each.
    var changed: FamilySet
    var changedNext: FamilySet
    /// Propagation's room for the families not chosen (`propagate`).
    var openRoom: FamilySet
    var possible: [UInt64]
    var kept: [UInt64]
    /// `settle`'s families still to justify (open, not hard): found once a call, where each
    /// of its passes looked at every family.
    var unsettled: FamilySet
    /// Where each family's car option is in the domains: its word and its place in it.
    let carWord: [Int]
    let carShift: [UInt64]
    /// For each minimal correction set found, a clause: one of its families stays as it is.
    /// Each clause's families as a bitset (`familyWords` words each), one after another.
    var clauses: [UInt64] = []
    /// Per depth of `explore`, room for its branches' domains and chosen families, reused from
    /// node to node: a copy of each per branch was two allocations a node.
    var childRooms: [(domains: [UInt64], assigned: [Bool])] = []
    /// The families of every clause (their bits or-ed): `settle` looks only at theirs.
    var clauseFamilies: [UInt64]
    /// Words in a bitset of families.
    let familyWords: Int
    /// `forcedChanges`' room, reused from node to node: per family, its share of the bound
    /// (must change) or what it adds once changed (open), whether a counted family's options
    /// reach it, and the open families one family's options reach.
    var extras: [Int64]
    /// Per family, what it adds at least once changed while it could keep the car's option
    /// (`makeKnockLists`).
    var knockExtra: [Int64]
    var claimed: [Bool]
    var reach: [Int] = []
    /// Per option (by the configurator's ids, from `knockStart[id]`), the families whose option
    /// on `car` it clashes with: what choosing it takes the car's option from (about one edge in
    /// eight on 60 x 8, so a node's bound looks at those, not at every edge).
    /// Made when a bound first needs them: a search whose list never fills needs none (6
    /// families of 2,000 options made them for each of thousands of searches).
    var knockStart: [Int] = []
    var knockFamily: [Int] = []
    /// Per family, the most its options' open families add changed (see `mostForced`).
    var mostKnocked: [Int64] = []

    init(
        _ configurator: Configurator, current: [Int], wanted: ConfigurationSpace.Choice, fixed: [Bool], limit: Int,
        effort: Configurator.Effort
    ) throws(CarFactoryError) {
        let n = configurator.familyCount
        self.configurator = configurator
        self.current = current
        self.limit = limit
        self.wanted = wanted
        self.effort = effort
        var car = current
        car[wanted.family] = wanted.option
        self.car = car
        var hard = Array(repeating: false, count: n)
        for f in 0..<min(n, fixed.count) where fixed[f] { hard[f] = true }
        hard[wanted.family] = true
        self.hard = hard
        var rulers = Array(repeating: [(family: Int, mask: Int)](), count: n)
        var forced = Array(repeating: false, count: n)
        var openCarsClash = false
        for h in 0..<n {
            let id = configurator.optionBase[h] + car[h]
            for edge in configurator.edgeStart[id]..<configurator.edgeStart[id + 1] {
                let g = configurator.edgeFamily[edge]
                let mask = configurator.edgeMask[edge]
                rulers[g].append((h, mask))
                // Rules forbid pairs both ways, so each clash is seen from its lower family.
                guard g > h, configurator.masks[mask + car[g] >> 6] & (1 << UInt64(car[g] & 63)) != 0 else { continue }
                if hard[h] { forced[g] = true }
                if hard[g] { forced[h] = true }
                if !hard[h] && !hard[g] { openCarsClash = true }
            }
        }
        self.rulers = rulers
        self.forced = forced.indices.map { forced[$0] && !hard[$0] }
        self.openCarsClash = openCarsClash
        wantedChange = try Self.difference(
            configurator.space.prices[wanted.family][wanted.option], configurator.space.prices[wanted.family][current[wanted.family]])
        inSet = Array(repeating: false, count: n)
        slot = Array(repeating: -1, count: n)
        familyWords = (n + 63) / 64
        watchedEdge = Array(repeating: -1, count: n)
        changed = FamilySet(familyCount: n)
        changedNext = changed
        openRoom = changed
        possible = Array(repeating: 0, count: familyWords)
        clauseFamilies = possible
        kept = possible
        unsettled = FamilySet(familyCount: n)
        extras = Array(repeating: 0, count: n)
        knockExtra = extras
        claimed = Array(repeating: false, count: n)
        carWord = car.indices.map { configurator.wordOffset[$0] + car[$0] >> 6 }
        carShift = car.map { UInt64($0 & 63) }
    }

    mutating func run() throws(CarFactoryError) {
        guard let (domains, chosen) = start(pinned: hard, blocked: false) else { return }
        var assigned = chosen
        try explore(domains, &assigned, depth: 0)
    }

    /// The search for repairs, once through: each car it ends on (one that keeps every family
    /// it can) is shrunk to a minimal correction set, whose repairs are offered and which is
    /// blocked from then on (a clause: one of its families stays as it is), and the search
    /// goes on where it was. Every repair is a car it ends on (see `next`), the clauses and
    /// the price limit only grow tighter, so no part of it needs searching twice.
    /// The node's `assigned` is its parent's room (`childRooms`), which it marks further.
    private mutating func explore(_ domains: [UInt64], _ assigned: inout [Bool], depth: Int) throws(CarFactoryError) {
        // The configurator is read where it is used: a copy of it (`let c = configurator`) in
        // this mutating function retained and released its tables at every node.
        try configurator.step(effort)
        takeLastOptions(domains, &assigned)
        var bound: Int64?
        var forced = false
        if found.count == limit, let last = found.last {
            var lowest = lowestChange(domains)
            if lowest > last.priceChange { return }
            // Worked out only where it may cut (it cost 60 x 8's options a tenth more everywhere).
            if Self.clamped(lowest, mostForced(domains, assigned)) >= last.priceChange {
                lowest = Self.clamped(lowest, forcedChanges(domains, assigned))
                if lowest > last.priceChange { return }
                forced = true
            }
            // Repairs of one price are ranked by their changes, then names: without this cut,
            // K families of two equal options each made 2^K sets of one price, every one
            // searched (trial 11, 1: 49 families ran to the step limit).
            if lowest == last.priceChange && !mayRankBefore(last, domains, assigned) { return }
            bound = lowest
        }
        switch next(domains, assigned, blocked: true) {
        case .none:
            return
        case .car(let witness):
            try end(on: witness)
        case .branch(let g, let values):
            // Every car under the node changes the families that have lost the car's option
            // and those chosen otherwise. If a valid car here changes only those, they are a
            // correction set, every other car's changes are more than it and not minimal, and
            // the node holds no set but theirs (or one within them): it ends on that car, as
            // on a leaf (60 x 8's `options`: 288,983 nodes, 13.9 billion instructions; 203,964
            // and 12.7 billion with this).
            if !openCarsClash, let witness = try keepingOpenFamilies(domains, assigned) {
                try end(on: witness)
                return
            }
            // The bound is a sum over families: with g's cheapest option left replaced by o's
            // price (and g's share of `forcedChanges` by o's own), it bounds o's branch before
            // that is propagated (options only go). Worked out before any branch is searched:
            // the searches below reuse the room `forcedChanges` works in.
            var cheapestLeft = Int64.max
            for o in values { cheapestLeft = min(cheapestLeft, configurator.space.prices[g][o]) }
            var branchBounds: [Int64] = []
            if let bound {
                branchBounds.reserveCapacity(values.count)
                var units = 0
                for o in values {
                    var above = Self.clamped(configurator.space.prices[g][o], -cheapestLeft)
                    if forced && extras[g] > 0 {
                        above = Self.clamped(Self.clamped(above, knockedCost(g, o, domains, assigned, &units, noting: false)), -extras[g])
                    }
                    branchBounds.append(Self.clamped(bound, above))
                }
                configurator.meter.units &+= units
            }
            // Each branch is worked out in this depth's room, taken out while the branches
            // below use theirs and put back after.
            if childRooms.count == depth { childRooms.append((domains, assigned)) }
            var next: [UInt64] = []
            var nextAssigned: [Bool] = []
            swap(&next, &childRooms[depth].domains)
            swap(&nextAssigned, &childRooms[depth].assigned)
            defer {
                swap(&next, &childRooms[depth].domains)
                swap(&nextAssigned, &childRooms[depth].assigned)
            }
            for (index, o) in values.enumerated() {
                if !branchBounds.isEmpty, let last = found.last, branchBounds[index] > last.priceChange { continue }
                for i in domains.indices { next[i] = domains[i] }
                for f in assigned.indices { nextAssigned[f] = assigned[f] }
                nextAssigned[g] = true
                guard choosePropagating(g, o, &next, nextAssigned), settle(&next, &nextAssigned, blocked: true)
                else { continue }
                try explore(next, &nextAssigned, depth: depth + 1)
            }
        }
    }

    /// Ends a branch of the search on `witness`, a valid car with the wanted option that keeps
    /// every clause: the minimal correction set within its changes is offered and blocked.
    private mutating func end(on witness: [Int]) throws(CarFactoryError) {
        let set = try shrink(witness)
        try offerAssignments(of: set)
        // The empty set (the option can be set alone) is the only minimal one; its clause
        // can be kept by no car, so the search ends.
        var bits = Array(repeating: UInt64(0), count: familyWords)
        for g in set { bits[g >> 6] |= 1 << UInt64(g & 63) }
        // An empty set's clause has no family: no car keeps it.
        clauses += bits
        for w in 0..<familyWords { clauseFamilies[w] |= bits[w] }
    }

    /// The valid car under a node (`domains`, `assigned`; settled, the car's options not
    /// clashing in open families) that keeps every open family still able to and changes
    /// those that have lost the car's option; nil if there is none. It keeps every clause:
    /// `settle` found one of each clause's families able to keep its option, and only
    /// those that have lost it change. The kept options go with each other (the car's) and
    /// with the chosen ones (still possible), so only the families that change are searched:
    /// their options that go with the kept ones, then with each other.
    private mutating func keepingOpenFamilies(_ domains: [UInt64], _ assigned: [Bool]) throws(CarFactoryError) -> [Int]? {
        let c = configurator
        var units = 0
        defer { c.meter.units &+= units }
        changing.removeAll(keepingCapacity: true)
        changingDomains.removeAll(keepingCapacity: true)
        memberStart.removeAll(keepingCapacity: true)
        for g in 0..<c.familyCount where !assigned[g] && domains[carWord[g]] >> carShift[g] & 1 == 0 {
            let start = changingDomains.count
            for w in 0..<c.wordCount[g] { changingDomains.append(domains[c.wordOffset[g] + w]) }
            units += rulers[g].count
            for (h, mask) in rulers[g] where !assigned[h] && domains[carWord[h]] >> carShift[h] & 1 != 0 {
                for w in 0..<c.wordCount[g] { changingDomains[start + w] &= ~c.masks[mask + w] }
            }
            var left: UInt64 = 0
            for w in 0..<c.wordCount[g] { left |= changingDomains[start + w] }
            if left == 0 { return nil }
            memberStart.append(start)
            changing.append(g)
        }
        let members = changing
        for (i, g) in members.enumerated() { slot[g] = i }
        defer { clearSlots(members) }
        var chosen = Array(repeating: -1, count: members.count)
        guard try anyAssignment(members, changingDomains, &chosen) else { return nil }
        var witness = car
        for g in 0..<c.familyCount where assigned[g] {
            var w = 0
            while domains[c.wordOffset[g] + w] == 0 { w += 1 }
            witness[g] = w << 6 + domains[c.wordOffset[g] + w].trailingZeroBitCount
        }
        for (i, g) in members.enumerated() { witness[g] = chosen[i] }
        return witness
    }

    /// Chooses for each member not yet `chosen` an option within `domains` (laid out as
    /// `place` lays them out) that goes with every other member's; false if none can. Its work
    /// (the members looked at, the forward checks' edges) is the answer's, held to the limit and
    /// to a stop request: on a pigeonhole of families this search alone grows exponentially
    /// (`fit sw on` of 13 families of 12 options ran 86 s past the limit, deaf to Ctrl-C, before
    /// it counted; review of the change). Work, not a step a choice: its choices are cheap, and
    /// counted as steps they spent Tab's 100,000 in a moment.
    private func anyAssignment(_ members: [Int], _ domains: [UInt64], _ chosen: inout [Int]) throws(CarFactoryError) -> Bool {
        let c = configurator
        c.meter.units &+= members.count
        try c.charge(effort, steps: 0)
        // The member with the fewest options left first.
        var pick = -1
        var fewest = Int.max
        for (i, g) in members.enumerated() where chosen[i] < 0 {
            var count = 0
            for w in 0..<c.wordCount[g] { count += domains[memberStart[i] + w].nonzeroBitCount }
            if count < fewest {
                fewest = count
                pick = i
            }
        }
        guard pick >= 0 else { return true }
        let g = members[pick]
        for w in 0..<c.wordCount[g] {
            var bits = domains[memberStart[pick] + w]
            while bits != 0 {
                let o = w << 6 + bits.trailingZeroBitCount
                bits &= bits - 1
                var next = domains
                guard forwardCheck(members, &next, pick, g, o, assigned: chosen) else { continue }
                chosen[pick] = o
                if try anyAssignment(members, next, &chosen) { return true }
                chosen[pick] = -1
            }
        }
        return false
    }

    /// A minimal correction set among the families that `witness` (a valid car with the wanted
    /// option) changes: each that need not change is tried kept as it is, with those kept
    /// before it; it stays in the set if no valid car keeps it too.
    private mutating func shrink(_ witness: [Int]) throws(CarFactoryError) -> [Int] {
        var pinned = hard
        var open: [Int] = []
        var set: [Int] = []
        for g in car.indices where !hard[g] {
            if witness[g] == car[g] {
                pinned[g] = true
            } else if forced[g] {
                set.append(g)
            } else {
                open.append(g)
            }
        }
        // A family that failed to stay fails with more kept too, so the set ends minimal. The
        // families kept so far are chosen and propagated once (`base`), not per trial.
        guard var (base, baseAssigned) = start(pinned: pinned, blocked: false) else { return (set + open).sorted() }
        while let g = open.first {
            open.removeFirst()
            var domains = base
            var assigned = baseAssigned
            if !assigned[g] {
                assigned[g] = true
                guard choosePropagating(g, car[g], &domains, assigned), settle(&domains, &assigned, blocked: false)
                else {
                    set.append(g)
                    continue
                }
            }
            guard let other = try dive(domains, assigned) else {
                set.append(g)
                continue
            }
            // The car found may keep more of them: they stay as well.
            var more = false
            var stay: [Int] = []
            open.removeAll { h in
                guard other[h] == car[h] else { return false }
                stay.append(h)
                return true
            }
            for h in stay where !assigned[h] {
                assigned[h] = true
                more = configurator.choose(h, car[h], in: &domains, marking: &changed) || more
            }
            // `other` keeps them all, so choosing them leaves it possible.
            if more {
                _ = configurator.propagate(&domains, assigned: assigned, changed: &changed, next: &changedNext, open: &openRoom)
                _ = settle(&domains, &assigned, blocked: false)
            }
            base = domains
            baseAssigned = assigned
        }
        return set.sorted()
    }

    /// Offers as repairs the valid assignments of the minimal correction set `members` (each
    /// changes every family of it).
    private mutating func offerAssignments(of members: [Int]) throws(CarFactoryError) {
        for f in members { inSet[f] = true }
        defer { for f in members { inSet[f] = false } }
        let kept = inSet.map { !$0 }
        guard var domains = place(members, constraining: kept),
            propagate(members, &domains, assigned: Array(repeating: -1, count: members.count))
        else {
            clearSlots(members)
            return
        }
        var chosen = Array(repeating: -1, count: members.count)
        try assignments(members, domains, &chosen, change: wantedChange)
        clearSlots(members)
    }

    /// The lowest price change members `i...` can still make within `domains` (each takes an
    /// option other than the current car's, as every member of the set changes).
    private func lowestChange(_ members: [Int], _ domains: [UInt64], from i: Int) -> Int64 {
        let c = configurator
        var total: Int64 = 0
        for j in i..<members.count {
            let f = members[j]
            let s = start(members, j)
            var low = Int64.max
            for w in 0..<c.wordCount[f] {
                var bits = domains[s + w]
                while bits != 0 {
                    let o = w << 6 + bits.trailingZeroBitCount
                    bits &= bits - 1
                    if o != current[f] { low = min(low, c.space.prices[f][o]) }
                }
            }
            guard low != .max else { return .max }
            total = Self.clamped(total, Self.clamped(low, -c.space.prices[f][current[f]]))
        }
        return total
    }

    /// Every valid assignment of `members` from `domains` in member order, each offered as a
    /// repair; a branch whose price change cannot reach the last of a full list is cut. Each
    /// member's options go from the cheapest, and the bound is taken from the options forward
    /// checking has left, so a cheap assignment comes first and cuts the rest (8 families of
    /// 8 options that must all change, dearest first: 3,600 steps to the cheapest repair in
    /// index order with each member's cheapest option at the start, 75 now).
    private mutating func assignments(
        _ members: [Int], _ domains: [UInt64], _ chosen: inout [Int], change: Int64
    ) throws(CarFactoryError) {
        try configurator.step(effort)
        guard let i = chosen.firstIndex(of: -1) else {
            let changes = members.indices.map { ConfigurationSpace.Choice(members[$0], chosen[$0]) }
            offer(Repair(changes: changes, priceChange: change))
            return
        }
        if found.count == limit, let last = found.last, Self.clamped(change, lowestChange(members, domains, from: i)) > last.priceChange {
            return
        }
        let f = members[i]
        let s = start(members, i)
        for o in configurator.byPrice[f] where o != current[f] && domains[s + o >> 6] & (1 << UInt64(o & 63)) != 0 {
            var next = domains
            guard forwardCheck(members, &next, i, f, o, assigned: chosen) else { continue }
            chosen[i] = o
            let price = try Self.difference(configurator.space.prices[f][o], configurator.space.prices[f][current[f]])
            try assignments(members, next, &chosen, change: Self.sum(change, price))
        }
        chosen[i] = -1
    }

    private mutating func offer(_ repair: Repair) {
        if found.count == limit, let last = found.last, !configurator.ranksBefore(repair, last, of: current) { return }
        let place = found.firstIndex { configurator.ranksBefore(repair, $0, of: current) } ?? found.count
        found.insert(repair, at: place)
        if found.count > limit { found.removeLast() }
    }

    // MARK: The search for a valid car

    /// A valid car with the wanted option that has the car's option in every `pinned` family
    /// and in at least one family of each clause; the car's options are tried first, so the
    /// families it changes are few. Nil if there is none.
    private mutating func witness(pinned: [Bool]) throws(CarFactoryError) -> [Int]? {
        guard let (domains, assigned) = start(pinned: pinned, blocked: false) else { return nil }
        return try dive(domains, assigned)
    }

    /// Every option possible, the `pinned` families as on the car, propagated; nil if that
    /// leaves a family with none.
    private mutating func start(pinned: [Bool], blocked: Bool) -> ([UInt64], [Bool])? {
        let c = configurator
        // From the configurator's arc-consistent domains: only what the pinned options take
        // out is propagated (see `rootDomains`).
        guard var domains = c.rootDomains() else { return nil }
        var assigned = Array(repeating: false, count: c.familyCount)
        for g in 0..<c.familyCount where pinned[g] {
            assigned[g] = true
            guard c.choose(g, car[g], in: &domains, marking: &changed) else { return nil }
        }
        guard c.propagate(&domains, assigned: assigned, changed: &changed, next: &changedNext, open: &openRoom),
            settle(&domains, &assigned, blocked: blocked)
        else { return nil }
        return (domains, assigned)
    }

    /// Chooses option `o` of family `g` and propagates from the families that lost options
    /// (marked in the search's reused flags, not found by comparing with a copy).
    private mutating func choosePropagating(_ g: Int, _ o: Int, _ domains: inout [UInt64], _ assigned: [Bool]) -> Bool {
        configurator.choose(g, o, in: &domains, marking: &changed)
            && configurator.propagate(&domains, assigned: assigned, changed: &changed, next: &changedNext, open: &openRoom)
    }

    private mutating func dive(_ domains: [UInt64], _ assigned: [Bool]) throws(CarFactoryError) -> [Int]? {
        let c = configurator
        try c.step(effort)
        var assigned = assigned
        takeLastOptions(domains, &assigned)
        switch next(domains, assigned, blocked: false) {
        case .none:
            return nil
        case .car(let car):
            return car
        case .branch(let g, let values):
            for o in values {
                var next = domains
                var nextAssigned = assigned
                nextAssigned[g] = true
                guard choosePropagating(g, o, &next, nextAssigned), settle(&next, &nextAssigned, blocked: false)
                else { continue }
                if let found = try dive(next, nextAssigned) { return found }
            }
            return nil
        }
    }

    /// What a node of the search for a car holds.
    private enum Node {
        /// No car that could be a repair (the car it would end on breaks a clause).
        case none
        /// The one car here that could be a repair.
        case car([Int])
        /// A family to choose, and its options in the order to try them.
        case branch(Int, [Int])
    }

    /// Marks chosen each open family that has lost the car's option and has one option left,
    /// where `next` would branch on it (the fewest options first) with that one choice. The
    /// choice would change nothing: arc consistency has already taken out of every open family
    /// the options it clashes with (it is the one option left to support them), the families
    /// chosen lost theirs when they were chosen, and `settle` finds the family justified (what
    /// took its car's option out still clashes with it). So the search is the same, with a node
    /// less per such family: 127,652 of 60 x 8's `options`' 416,635 nodes were such choices.
    private func takeLastOptions(_ domains: [UInt64], _ assigned: inout [Bool]) {
        let c = configurator
        c.meter.units &+= c.familyCount
        if c.singleWord {
            for g in 0..<c.familyCount where !assigned[g] && domains[g] & (domains[g] - 1) == 0 && domains[g] >> UInt64(car[g]) & 1 == 0 {
                assigned[g] = true
            }
            return
        }
        for g in 0..<c.familyCount where !assigned[g] && !c.contains(domains, g, car[g]) && c.optionCount(domains, g) == 1 {
            assigned[g] = true
        }
    }

    /// Only a family that has lost the car's option is branched on (it must change; the one
    /// with the fewest options left first, its options from the cheapest). While every open
    /// family still has it, the car that keeps them all is the one repair the node can hold:
    /// any other car under it changes the same families and more, so its set of changes is
    /// not minimal.
    private func next(_ domains: [UInt64], _ assigned: [Bool], blocked: Bool) -> Node {
        let c = configurator
        // The work: the options of the families looked at, the edges of the options ranked.
        var units = clauses.count
        defer { c.meter.units &+= units }
        var pick = -1
        var fewest = Int.max
        // Of those with the fewest options, the one whose cheapest option left is dearest
        // (against the current car's) goes first: the bound rises soonest (the cheapest repair of
        // every option of 60 x 8's: 517,000 steps in all, against 552,000 by fewest options alone).
        var dearest = Int64.min
        for g in 0..<c.familyCount where !assigned[g] && !c.contains(domains, g, car[g]) {
            let count = c.optionCount(domains, g)
            guard count <= fewest else { continue }
            units += c.optionCounts[g]
            let low = c.cheapestPrice(domains, g) ?? .max
            let change = Self.clamped(low, -c.space.prices[g][current[g]])
            if count < fewest || change > dearest {
                fewest = count
                dearest = change
                pick = g
            }
        }
        var keep = false
        if pick < 0 {
            var kept = car
            for g in 0..<c.familyCount where assigned[g] {
                var w = 0
                while domains[c.wordOffset[g] + w] == 0 { w += 1 }
                kept[g] = w << 6 + domains[c.wordOffset[g] + w].trailingZeroBitCount
            }
            // Open families keep options that clash only on a car that was not valid: one of
            // them is then kept or changed like any other family.
            guard openCarsClash, let clash = firstClash(kept, assigned) else {
                if blocked {
                    var keeps = Array(repeating: UInt64(0), count: familyWords)
                    for g in 0..<c.familyCount where kept[g] == car[g] { keeps[g >> 6] |= 1 << UInt64(g & 63) }
                    for k in stride(from: 0, to: clauses.count, by: familyWords)
                    where !(0..<familyWords).contains(where: { clauses[k + $0] & keeps[$0] != 0 }) {
                        return .none
                    }
                }
                return .car(kept)
            }
            pick = clash
            keep = true
        }
        // Options that take the car's option from the fewest open families first (their
        // repairs change fewer families), then the cheapest.
        var ranked: [(threatens: Int, place: Int, option: Int)] = []
        ranked.reserveCapacity(c.optionCounts[pick])
        for (place, o) in c.byPrice[pick].enumerated() where o != car[pick] && c.contains(domains, pick, o) {
            var threatens = 0
            let id = c.optionBase[pick] + o
            units += c.edgeStart[id + 1] - c.edgeStart[id]
            for edge in c.edgeStart[id]..<c.edgeStart[id + 1] {
                let h = c.edgeFamily[edge]
                if !assigned[h], c.masks[c.edgeMask[edge] + car[h] >> 6] & (1 << UInt64(car[h] & 63)) != 0, c.contains(domains, h, car[h]) {
                    threatens += 1
                }
            }
            ranked.append((threatens, place, o))
        }
        ranked.sort { ($0.threatens, $0.place) < ($1.threatens, $1.place) }
        // One array of the size it ends at (the concatenation of two took three allocations a node).
        var values: [Int] = []
        values.reserveCapacity(ranked.count + 1)
        if keep { values.append(car[pick]) }
        for choice in ranked { values.append(choice.option) }
        return .branch(pick, values)
    }

    /// An open family (not `assigned`) whose option on `car` clashes with another open
    /// family's; nil if none does.
    private func firstClash(_ car: [Int], _ assigned: [Bool]) -> Int? {
        let c = configurator
        // By the edges of each family's option (one per family it clashes with), not by every
        // later family's pair (a family count squared of edge scans).
        var units = 0
        defer { c.meter.units &+= units }
        for g in 0..<c.familyCount where !assigned[g] {
            let id = c.optionBase[g] + car[g]
            units += 1 + c.edgeStart[id + 1] - c.edgeStart[id]
            for edge in c.edgeStart[id]..<c.edgeStart[id + 1] {
                let h = c.edgeFamily[edge]
                if h > g, !assigned[h], c.masks[c.edgeMask[edge] + car[h] >> 6] & (1 << UInt64(car[h] & 63)) != 0 { return g }
            }
        }
        return nil
    }

    /// Keeps each clause: one whose families but one have lost the car's option keeps that
    /// one as it is. False if a clause can no longer be kept or a family is left with none.
    private mutating func settle(_ domains: inout [UInt64], _ assigned: inout [Bool], blocked: Bool) -> Bool {
        let c = configurator
        var units = 0
        defer { c.meter.units &+= units }
        unsettled.removeAll()
        for g in 0..<c.familyCount where !assigned[g] && !hard[g] { unsettled.insert(g) }
        var again = true
        while again {
            again = false
            units += c.familyCount + clauses.count
            // A family may change only while some other family can still take an option its
            // car's option clashes with: in a minimal repair, every family changed has one
            // (one that had none could be put back, leaving a smaller correction set). Taking
            // options out only takes such partners away, so the families found are pinned at once.
            // The edge that showed a family's partner last time is looked at first. Each choice
            // marks the families it changed in `changed`, for the propagation ending the pass.
            for w in 0..<unsettled.words.count {
                var open = unsettled.words[w]
                while open != 0 {
                    let g = w << 6 + open.trailingZeroBitCount
                    open &= open - 1
                    var justified = false
                    let id = c.optionBase[g] + car[g]
                    let watched = watchedEdge[g]
                    if watched >= 0 {
                        justified = c.meets(domains, edge: watched)
                    }
                    if !justified {
                        units += c.edgeStart[id + 1] - c.edgeStart[id]
                        for edge in c.edgeStart[id]..<c.edgeStart[id + 1] where edge != watched {
                            if c.meets(domains, edge: edge) {
                                justified = true
                                watchedEdge[g] = edge
                                break
                            }
                        }
                    }
                    guard !justified else { continue }
                    // No family has an option g's car option clashes with, so choosing it takes
                    // nothing out of the others: only g's own other options go.
                    guard c.keepOnly(g, car[g], in: &domains, marking: &changed) else { return false }
                    assigned[g] = true
                    unsettled.remove(g)
                    again = true
                }
            }
            if blocked && !clauses.isEmpty {
                // Which families of the clauses still have the car's option, and which keep it: a
                // word of each at a time, without a branch per family (they were mispredicted
                // often). Only the clauses' families are looked at: the clauses read no others.
                for w in 0..<familyWords {
                    var canKeep: UInt64 = 0
                    var keeps: UInt64 = 0
                    var listed = clauseFamilies[w]
                    while listed != 0 {
                        let g = w << 6 + listed.trailingZeroBitCount
                        listed &= listed - 1
                        let bit = UInt64(truncatingIfNeeded: domains[carWord[g]] >> carShift[g]) & 1
                        canKeep |= bit << UInt64(g & 63)
                        keeps |= (assigned[g] ? bit : 0) << UInt64(g & 63)
                    }
                    possible[w] = canKeep
                    kept[w] = keeps
                }
                // A clause none of whose families is kept and only one can be keeps that one;
                // one with none that can be fails. (Families pinned in this pass may have
                // taken others' options: the next pass sees that.)
                for k in stride(from: 0, to: clauses.count, by: familyWords) {
                    var count = 0
                    var last = -1
                    var keeps = false
                    for w in 0..<familyWords {
                        let bits = clauses[k + w]
                        if bits & kept[w] != 0 {
                            keeps = true
                            break
                        }
                        let open = bits & possible[w]
                        count += open.nonzeroBitCount
                        if open != 0 { last = w << 6 + open.trailingZeroBitCount }
                    }
                    if keeps { continue }
                    if count == 0 { return false }
                    guard count == 1 else { continue }
                    guard c.choose(last, car[last], in: &domains, marking: &changed) else { return false }
                    assigned[last] = true
                    unsettled.remove(last)
                    kept[last >> 6] |= 1 << UInt64(last & 63)
                    again = true
                }
            }
            if again {
                guard c.propagate(&domains, assigned: assigned, changed: &changed, next: &changedNext, open: &openRoom) else {
                    return false
                }
            }
        }
        return true
    }

    /// Whether a car under a node (`domains`, `assigned`) of `last`'s price could rank before
    /// it: by making fewer changes, or as many and an option named before `last`'s at the first
    /// family where they differ. A family still able to keep its car's option changes only if a
    /// family that changes takes an option that clashes with it (see `settle`), so one that no
    /// chain of such clashes reaches from the families that must change keeps its option
    /// (unless the car broke a rule, `openCarsClash`: then any may change).
    private mutating func mayRankBefore(_ last: Repair, _ domains: [UInt64], _ assigned: [Bool]) -> Bool {
        let c = configurator
        var units = c.familyCount
        defer { c.meter.units &+= units }
        var fewest = 0
        var able = Array(repeating: false, count: c.familyCount)
        for g in 0..<c.familyCount where g != wanted.family && !hard[g] && !c.contains(domains, g, car[g]) {
            fewest += 1
            able[g] = !assigned[g]
        }
        // Each family still to change takes an option that takes the car's option from some open
        // families, which change too (`knockedShares`). Counting only the families that have
        // lost their option, K families of two options each needing a part of its own were
        // counted K changes short at the top of the search.
        fewest += Int(knockedShares(domains, assigned, counting: true))
        if fewest != last.changes.count { return fewest < last.changes.count }
        var grew = true
        while grew {
            grew = false
            for h in 0..<c.familyCount where !assigned[h] && !able[h] {
                if openCarsClash {
                    able[h] = true
                    continue
                }
                let id = c.optionBase[h] + car[h]
                units += c.edgeStart[id + 1] - c.edgeStart[id]
                for edge in c.edgeStart[id]..<c.edgeStart[id + 1] where able[c.edgeFamily[edge]] && c.meets(domains, edge: edge) {
                    able[h] = true
                    grew = true
                    break
                }
            }
        }
        // The first name each family can have under the node, against `last`'s car, in family order.
        var next = 0
        for f in 0..<c.familyCount {
            var theirs = car[f]
            if next < last.changes.count && last.changes[next].family == f {
                theirs = last.changes[next].option
                next += 1
            }
            var first = Int.max
            if assigned[f] || able[f] {
                units += c.optionCounts[f]
                for o in 0..<c.optionCounts[f] where c.contains(domains, f, o) { first = min(first, c.nameRank[f][o]) }
            } else {
                first = c.nameRank[f][car[f]]
            }
            let rank = c.nameRank[f][theirs]
            if first != rank { return first < rank }
        }
        // Its first car is `last`'s own.
        return false
    }

    /// The lowest price change any car within `domains` can have (the wanted option's, plus
    /// each other family's cheapest option left less the current car's). (The forest bound of
    /// `priceBound` cut 60 x 8's searches by a fifth but doubled their time.)
    private func lowestChange(_ domains: [UInt64]) -> Int64 {
        let c = configurator
        var total = wantedChange
        for g in 0..<c.familyCount where g != wanted.family {
            guard let low = c.cheapestPrice(domains, g) else { return .max }
            total = Self.clamped(total, Self.clamped(low, -c.space.prices[g][current[g]]))
        }
        return total
    }

    /// What `lowestChange` leaves out of the families a node must still change (`assigned`
    /// false, the car's option gone): each option they may take takes the car's option from
    /// some open families, which must change too, and cost at least their cheapest other
    /// option (counted at their cheapest option, the car's, in `lowestChange`). With
    /// equal-priced choices each needing a part of its own, the bound was a part short per
    /// choice, and ties were never cut (trial 11, 1).
    private mutating func forcedChanges(_ domains: [UInt64], _ assigned: [Bool]) -> Int64 {
        knockedShares(domains, assigned, counting: false)
    }

    /// Over the families a node must still change, each family's least share over its options:
    /// what the open families the option takes the car's option from add (`knockExtra` each, or
    /// with `counting` 1 each), plus, priced, the option's own price above the family's cheapest
    /// left. Only families whose options reach open families no other counted family's reach
    /// are counted (so none is counted twice). Priced, `extras` gets each family's share (0 if
    /// not counted) for the branches' bounds; counting leaves it as it is.
    private mutating func knockedShares(_ domains: [UInt64], _ assigned: [Bool], counting: Bool) -> Int64 {
        makeKnockLists()
        let c = configurator
        var units = c.familyCount
        defer { c.meter.units &+= units }
        for h in 0..<c.familyCount {
            if !counting { extras[h] = 0 }
            claimed[h] = false
        }
        var total: Int64 = 0
        for g in 0..<c.familyCount where !assigned[g] && g != wanted.family && !c.contains(domains, g, car[g]) {
            guard let cheapest = c.cheapestPrice(domains, g) else { continue }
            reach.removeAll(keepingCapacity: true)
            var least = Int64.max
            for o in 0..<c.optionCounts[g] where c.contains(domains, g, o) {
                let knocked = knockedCost(g, o, domains, assigned, &units, noting: true, counting: counting)
                least = min(least, counting ? knocked : Self.clamped(knocked, c.space.prices[g][o] - cheapest))
            }
            guard least > 0, least != .max, !reach.contains(where: { claimed[$0] }) else { continue }
            for h in reach { claimed[h] = true }
            if !counting { extras[g] = least }
            total = Self.clamped(total, least)
        }
        return total
    }

    /// Makes `knockStart` and `knockFamily`, once; their work is the answer's.
    private mutating func makeKnockLists() {
        guard knockStart.isEmpty else { return }
        let c = configurator
        knockStart.reserveCapacity(c.edgeStart.count)
        knockStart.append(0)
        for id in 0..<c.edgeStart.count - 1 {
            for edge in c.edgeStart[id]..<c.edgeStart[id + 1] {
                let h = c.edgeFamily[edge]
                if c.masks[c.edgeMask[edge] + car[h] >> 6] & (1 << UInt64(car[h] & 63)) != 0 { knockFamily.append(h) }
            }
            knockStart.append(knockFamily.count)
        }
        // Changed, an open family's option left costs at least its cheapest other option, above
        // the car's (its cheapest left while it has it): of all its options, so that it holds
        // at every node (options only go).
        for h in 0..<c.familyCount {
            var other = Int64.max
            for o in c.byPrice[h] where o != car[h] {
                other = c.space.prices[h][o]
                break
            }
            knockExtra[h] = other == .max ? 0 : max(0, Self.clamped(other, -c.space.prices[h][car[h]]))
        }
        // A family's share of `forcedChanges` is at most what its cheapest option left adds: at
        // most what any of its options' families could.
        mostKnocked = (0..<c.familyCount).map { g in
            var most: Int64 = 0
            for o in 0..<c.optionCounts[g] {
                let id = c.optionBase[g] + o
                var sum: Int64 = 0
                for k in knockStart[id]..<knockStart[id + 1] { sum = Self.clamped(sum, knockExtra[knockFamily[k]]) }
                most = max(most, sum)
            }
            return most
        }
        c.meter.units &+= c.edgeStart.count + c.edgeStart[c.edgeStart.count - 1]
    }

    /// At least `forcedChanges`: per family still to change, the most any of its options' open
    /// families could add (`mostKnocked`).
    private mutating func mostForced(_ domains: [UInt64], _ assigned: [Bool]) -> Int64 {
        makeKnockLists()
        let c = configurator
        c.meter.units &+= c.familyCount
        var total: Int64 = 0
        for g in 0..<c.familyCount where !assigned[g] && g != wanted.family && !c.contains(domains, g, car[g]) {
            total = Self.clamped(total, mostKnocked[g])
        }
        return total
    }

    /// What the open families that option `o` of family `g` takes the car's option from must
    /// add at least, changed (`knockExtra`), or with `counting` how many they are; with
    /// `noting`, each is added to `reach`.
    private mutating func knockedCost(
        _ g: Int, _ o: Int, _ domains: [UInt64], _ assigned: [Bool], _ units: inout Int, noting: Bool, counting: Bool = false
    ) -> Int64 {
        let c = configurator
        let id = c.optionBase[g] + o
        units += 1 + knockStart[id + 1] - knockStart[id]
        var extra: Int64 = 0
        for k in knockStart[id]..<knockStart[id + 1] {
            let h = knockFamily[k]
            guard !assigned[h], c.contains(domains, h, car[h]) else { continue }
            if noting { reach.append(h) }
            extra = Self.clamped(extra, counting ? 1 : knockExtra[h])
        }
        return extra
    }

    // MARK: The search over a set's families

    /// Each member's options that go with every family `constraining` marks, one member after
    /// another (`wordCount` words each); sets `slot`. Nil if a member has none.
    private mutating func place(_ members: [Int], constraining: [Bool]) -> [UInt64]? {
        let c = configurator
        var domains: [UInt64] = []
        var empty = false
        memberStart = []
        for (i, f) in members.enumerated() {
            slot[f] = i
            let start = domains.count
            memberStart.append(start)
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
    private func start(_ members: [Int], _ i: Int) -> Int { memberStart[i] }

    /// Chooses option `o` for member `i` (family `f`): takes out of every member not yet
    /// `assigned` the options it cannot go with. False if one is left with none.
    private func forwardCheck(_ members: [Int], _ domains: inout [UInt64], _ i: Int, _ f: Int, _ o: Int, assigned: [Int]) -> Bool {
        let c = configurator
        let id = c.optionBase[f] + o
        c.meter.units &+= c.edgeStart[id + 1] - c.edgeStart[id]
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

    /// Takes out of each member not yet `assigned` every option that some other such member
    /// has no option left to go with, until none is left to take out (as `propagate` does for
    /// a whole car). False if a member is left with none.
    private func propagate(_ members: [Int], _ domains: inout [UInt64], assigned: [Int]) -> Bool {
        let c = configurator
        var starts: [Int] = []
        var offset = 0
        for f in members {
            starts.append(offset)
            offset += c.wordCount[f]
        }
        var changed = true
        while changed {
            changed = false
            for (i, f) in members.enumerated() where assigned[i] < 0 {
                var left = false
                for w in 0..<c.wordCount[f] {
                    var bits = domains[starts[i] + w]
                    while bits != 0 {
                        let o = w << 6 + bits.trailingZeroBitCount
                        bits &= bits - 1
                        let id = c.optionBase[f] + o
                        c.meter.units &+= c.edgeStart[id + 1] - c.edgeStart[id]
                        var supported = true
                        for edge in c.edgeStart[id]..<c.edgeStart[id + 1] {
                            let j = slot[c.edgeFamily[edge]]
                            guard j >= 0, assigned[j] < 0 else { continue }
                            var any: UInt64 = 0
                            for v in 0..<c.wordCount[members[j]] { any |= domains[starts[j] + v] & ~c.masks[c.edgeMask[edge] + v] }
                            if any == 0 {
                                supported = false
                                break
                            }
                        }
                        if supported {
                            left = true
                        } else {
                            domains[starts[i] + w] &= ~(1 << UInt64(o & 63))
                            changed = true
                        }
                    }
                }
                if !left { return false }
            }
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
