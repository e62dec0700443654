import Testing

@testable import CarFactory

// The configurator on wide catalogs (trial 10, 1): families of thousands of options joined by
// `require` rules, whose edges each held a bitset of the whole other family (2.35 GB a question
// on 20 families of 5,000 options with 5,000 rules). The tables are sized before they are made,
// in proportion to what the rules say, refused past `tableByteLimit`, and their set-up is
// counted as work; switching a rule off in a rule core changes each of its edges once.
@Suite struct WideCatalogConfiguratorTests {
    /// `families` families of `options` options (random prices), then `rules` random rules
    /// between options of two families, every other one a `require`.
    static func space(families: Int, options: Int, rules count: Int, seed: UInt64) -> ConfigurationSpace {
        var random = SplitMix64(state: seed)
        let prices = (0..<families).map { _ in (0..<options).map { _ in Int64(random.below(100)) } }
        let names = (0..<families).map { _ in (0..<options).map { "o\($0)" } }
        var rules: [ConfigurationSpace.Constraint] = []
        for index in 0..<count {
            let f = random.below(families)
            var g = random.below(families - 1)
            if g >= f { g += 1 }
            let first = ConfigurationSpace.Choice(f, 1 + random.below(options - 1))
            let second = ConfigurationSpace.Choice(g, 1 + random.below(options - 1))
            rules.append(.init(index % 2 == 0 ? .forbid : .require, first, second))
        }
        return ConfigurationSpace(prices: prices, names: names, rules: rules)
    }

    /// Whether some rule of `space` forbids option `a` of family `f` with option `b` of family `g`.
    static func forbidden(_ space: ConfigurationSpace, _ f: Int, _ a: Int, _ g: Int, _ b: Int) -> Bool {
        space.rules.contains { rule in
            for (x, y) in [(ConfigurationSpace.Choice(f, a), ConfigurationSpace.Choice(g, b)), (.init(g, b), .init(f, a))] {
                guard rule.first == x, rule.second.family == y.family else { continue }
                if rule.kind == .forbid ? rule.second.option == y.option : rule.second.option != y.option { return true }
            }
            return false
        }
    }

    @Test func the_tables_hold_every_forbidden_pair_and_no_other() throws {
        // With a pair a `require` forbids set by a rule before it on the same edge: the
        // require's bits are added to it, not its own gap written over it.
        let random = Self.space(families: 3, options: 100, rules: 120, seed: 7)
        let space = ConfigurationSpace(
            prices: random.prices, names: random.names,
            rules: [.init(.forbid, .init(0, 5), .init(1, 7)), .init(.require, .init(0, 5), .init(1, 7))] + random.rules)
        let configurator = try Configurator(space: space)
        for f in 0..<3 {
            for g in 0..<3 where g != f {
                for a in 0..<100 {
                    for b in 0..<100 where configurator.conflict(f, a, g, b) != Self.forbidden(space, f, a, g, b) {
                        Issue.record("\(f):\(a) with \(g):\(b)")
                        return
                    }
                }
            }
        }
    }

    @Test func a_wide_catalog_answers_with_tables_in_proportion_to_its_rules() throws {
        // 4 families of 2,500 options with 300 rules, 150 of them `require`s: each of those
        // gives 2,499 options an edge back (40 words), at most 3 per option: 14 MB of tables,
        // sized first; the 750,000 forbidden pairs they were built from are no longer listed.
        let space = Self.space(families: 4, options: 2_500, rules: 300, seed: 11)
        let configurator = try Configurator(space: space)
        #expect(configurator.tableBytes == 14_362_416)
        #expect(configurator.tableBytes <= Configurator.tableByteLimit)
        let car = [0, 0, 0, 0]
        let wanted = try #require(
            (1..<2_500).lazy.map { ConfigurationSpace.Choice(1, $0) }.first { choice in
                var alone = car
                alone[1] = choice.option
                return !configurator.isValid(alone)
            })
        let repairs = try configurator.repairs(of: car, wanting: wanted, limit: 1)
        #expect(repairs.count == 1)
    }

    @Test func a_catalog_too_wide_for_the_tables_is_refused_before_they_are_made() throws {
        // The trial's: 20 families of 5,000 options, 5,000 rules (1.2 GB of masks, dense).
        let space = Self.space(families: 20, options: 5_000, rules: 5_000, seed: 11)
        do throws(CarFactoryError) {
            _ = try Configurator(space: space)
            Issue.record("compiled")
        } catch {
            guard case .catalogTooWide(let bytes, let limit) = error else { throw error }
            #expect(bytes >> 20 == 1_300)
            #expect(limit == 256 << 20)
        }
    }

    @Test func the_set_up_counts_to_the_first_answer_and_a_stop_ends_it() throws {
        let space = Self.space(families: 4, options: 2_500, rules: 300, seed: 11)
        let configurator = try Configurator(space: space)
        let setup = configurator.meter.units
        #expect(setup > 10_000)
        let effort = configurator.newEffort()
        #expect(effort.work == setup)
        #expect(configurator.newEffort().work == 0)
        #expect(throws: CarFactoryError.searchStopped) { try Configurator(space: space, shouldStop: { true }) }
        #expect(throws: CarFactoryError.searchLimitReached(steps: 1)) {
            try Configurator(space: space, limits: SearchLimits(steps: 1, repairs: 1))
        }
    }

    @Test func a_rule_core_switches_a_require_on_large_families_in_work_it_counts() throws {
        // Two families of 2,000 options, one option of family 0 requiring each of 40 options of
        // family 1 (so no valid car has it): the core switches 40 requires, each with 2,000
        // edges. Rebuilt from every pair of every rule behind each edge, once per pair, a
        // switch took some 2,000 x 40 x 2,000 pairs (160 million), uncounted.
        let prices = [[Int64](repeating: 1, count: 2_000), [Int64](repeating: 1, count: 2_000)]
        let names = prices.map { $0.indices.map { "o\($0)" } }
        let rules = (1...40).map { ConfigurationSpace.Constraint(.require, .init(0, 1), .init(1, $0)) }
        let configurator = try Configurator(space: ConfigurationSpace(prices: prices, names: names, rules: rules))
        let effort = configurator.newEffort()
        let core = try configurator.rulesRuling(out: .init(0, 1), effort)
        #expect(core == [38, 39])
        configurator.tally(effort)
        // A switch counts its edge while two options or more stay kept, its 2,000 edges back
        // when one is left alone: 500,000 units in all, the searches' with them (each switch
        // rebuilding its 2,000 edges from their 40 rules, 12 million).
        #expect(effort.work > 200_000)
        #expect(effort.work < 1_000_000)
    }
}
