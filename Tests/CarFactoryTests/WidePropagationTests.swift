import Testing

@testable import CarFactory

// Propagation over families of more than 64 options (several words each), which takes its own
// path: an option of one family loses its partners in another either by walking the other's
// options left, or, where its options that could lose them are fewer, by looking at each of
// those. Both must take out exactly what propagation by options does (the path that records
// rules), and the configurator's answers must be brute force's.
@Suite struct WidePropagationTests {
    typealias Choice = ConfigurationSpace.Choice
    typealias Random = SplitMix64

    /// Three families of 66 to 70 options; rules between their first 8 options, a third of
    /// them `require`s (each forbids its option with every other option of a wide family).
    static func space(seed: UInt64) -> ConfigurationSpace {
        var random = Random(state: seed)
        let counts = (0..<3).map { _ in 66 + random.below(5) }
        let prices = counts.map { count in (0..<count).map { _ in Int64(random.below(6) * 100) } }
        let names = counts.map { count in (0..<count).map { "o\($0)" } }
        var rules: [ConfigurationSpace.Constraint] = []
        for _ in 0..<(6 + random.below(20)) {
            let f = random.below(3)
            let g = (f + 1 + random.below(2)) % 3
            rules.append(.init(random.below(3) == 0 ? .require : .forbid, Choice(f, random.below(8)), Choice(g, random.below(8))))
        }
        return ConfigurationSpace(prices: prices, names: names, rules: rules)
    }

    @Test(arguments: 0..<60)
    func propagation_by_families_takes_out_what_propagation_by_options_does(seed: Int) throws {
        let space = Self.space(seed: UInt64(seed))
        let configurator = try Configurator(space: space)
        var random = Random(state: UInt64(seed) ^ 0xF00D)
        var full = Array(repeating: UInt64(0), count: configurator.totalWords)
        for f in 0..<3 {
            for o in 0..<space.prices[f].count { full[configurator.wordOffset[f] + o >> 6] |= 1 << UInt64(o & 63) }
        }
        // With nothing chosen: the configurator's root domains are the same.
        var byOptions = full
        let kept = configurator.propagate(&byOptions, assigned: [false, false, false], used: Configurator.RuleRecord())
        #expect(configurator.rootDomains() == (kept ? byOptions : nil), "seed \(seed)")
        // Then one or two options chosen, from the root domains and from every option.
        for _ in 0..<20 {
            var assigned = [false, false, false]
            var fromRoot = configurator.rootDomains() ?? full
            var fromFull = full
            var byOptions = full
            var choicesKept = true
            for _ in 0..<(1 + random.below(2)) {
                let f = random.below(3)
                let o = random.below(8)
                assigned[f] = true
                choicesKept =
                    configurator.choose(f, o, in: &fromRoot) && configurator.choose(f, o, in: &fromFull)
                    && configurator.choose(f, o, in: &byOptions) && choicesKept
            }
            guard choicesKept else { continue }
            let a = configurator.propagate(&fromRoot, assigned: assigned)
            let b = configurator.propagate(&fromFull, assigned: assigned)
            let c = configurator.propagate(&byOptions, assigned: assigned, used: Configurator.RuleRecord())
            #expect(a == c && b == c, "seed \(seed)")
            if c { #expect(fromRoot == byOptions && fromFull == byOptions, "seed \(seed), chosen \(assigned)") }
        }
    }

    /// Every minimal repair for `wanted` on `current`, by listing every valid car with it.
    static func minimalRepairs(_ space: ConfigurationSpace, current: [Int], wanted: Choice) -> [Repair] {
        let others = (0..<3).filter { $0 != wanted.family }
        var repairs: [(families: Set<Int>, repair: Repair)] = []
        for a in space.prices[others[0]].indices {
            for b in space.prices[others[1]].indices {
                var car = current
                car[wanted.family] = wanted.option
                car[others[0]] = a
                car[others[1]] = b
                guard ConfiguratorPropertyTests.valid(car, space) else { continue }
                let families = Set(others.filter { car[$0] != current[$0] })
                let changes = families.sorted().map { Choice($0, car[$0]) }
                let change = ConfiguratorPropertyTests.price(car, space) - ConfiguratorPropertyTests.price(current, space)
                repairs.append((families, Repair(changes: changes, priceChange: change)))
            }
        }
        let minimal = repairs.filter { candidate in !repairs.contains { $0.families.isStrictSubset(of: candidate.families) } }
        return minimal.map(\.repair).sorted { ConfiguratorPropertyTests.ranksBefore($0, $1, space, current: current) }
    }

    @Test(arguments: 0..<12)
    func option_statuses_on_wide_families_agree_with_enumeration(seed: Int) throws {
        let space = Self.space(seed: UInt64(seed))
        var random = Random(state: UInt64(seed) ^ 0xBEEF)
        // A valid car among the first options, where the rules are.
        var current: [Int]?
        for _ in 0..<200 where current == nil {
            let car = (0..<3).map { _ in random.below(8) }
            if ConfiguratorPropertyTests.valid(car, space) { current = car }
        }
        guard let current else { return }
        let statuses = try Configurator(space: space).statuses(of: current)
        // The first options (where the rules are) and a few past them.
        for f in 0..<3 {
            for o in [0, 1, 2, 3, 4, 5, 6, 7, 8, 40, space.prices[f].count - 1] {
                let expected = Self.minimalRepairs(space, current: current, wanted: Choice(f, o))
                var alone = current
                alone[f] = o
                switch statuses[f][o] {
                case .current:
                    #expect(current[f] == o)
                case .settable(let change):
                    #expect(current[f] != o && ConfiguratorPropertyTests.valid(alone, space), "seed \(seed), \(f):\(o)")
                    #expect(change == space.prices[f][o] - space.prices[f][current[f]])
                case .needsRepair(let repair):
                    #expect(!ConfiguratorPropertyTests.valid(alone, space), "seed \(seed), \(f):\(o)")
                    #expect(repair == expected.first, "seed \(seed), \(f):\(o)")
                case .impossible:
                    #expect(expected.isEmpty, "seed \(seed), \(f):\(o) is on a valid car")
                }
            }
        }
    }
}
