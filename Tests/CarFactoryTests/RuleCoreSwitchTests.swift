import Testing

@testable import CarFactory

// A rule core's switches (trial 11, 3): switching a rule off or on costs the rule's own pairs,
// not every rule behind the edges it has a pair on, and leaves the masks as a configurator
// compiled over the rules still on has them.
@Suite struct RuleCoreSwitchTests {
    /// Family 0 of 4 options, family 1 of 1,000: option 0:0 forbids each of 1:1...1:999 (999
    /// rules behind one edge), 0:1 requires 1:5, 0:2 requires 1:6 (twice) and 1:7.
    static func crowdedEdge() throws -> Configurator {
        let prices = [[Int64](repeating: 1, count: 4), [Int64](repeating: 1, count: 1_000)]
        let names = prices.map { $0.indices.map { "o\($0)" } }
        var rules = (1..<1_000).map { ConfigurationSpace.Constraint(.forbid, .init(0, 0), .init(1, $0)) }
        for (first, second) in [(1, 5), (2, 6), (2, 6), (2, 7)] { rules.append(.init(.require, .init(0, first), .init(1, second))) }
        return try Configurator(space: ConfigurationSpace(prices: prices, names: names, rules: rules))
    }

    @Test func a_switch_costs_the_rules_own_pairs_not_the_rules_behind_its_edges() throws {
        var core = try Self.crowdedEdge()
        core.startSwitching()
        func units(_ rule: Int, off: Bool) -> Int {
            let before = core.meter.units
            core.switchRule(rule, off: off)
            return core.meter.units - before
        }
        // A forbid: its two edges, a unit each (rebuilt, the crowded one cost its 999 rules and 16 words).
        #expect(units(500, off: true) == 2)
        #expect(!core.conflict(0, 0, 1, 501) && !core.conflict(1, 501, 0, 0))
        #expect(core.conflict(0, 0, 1, 502))
        #expect(units(500, off: false) == 2)
        #expect(core.conflict(0, 0, 1, 501) && core.conflict(1, 501, 0, 0))
        // A require whose option keeps the same option by another: its edge, nothing changes.
        #expect(units(1_001, off: true) == 1)
        #expect(units(1_001, off: false) == 1)
        // One of two options kept: the edge's 16 words, and the one option kept now alone.
        #expect(units(1_002, off: true) == 1 + 16 + 1)
        #expect(!core.conflict(0, 2, 1, 6) && !core.conflict(1, 6, 0, 2) && core.conflict(1, 7, 0, 2))
        #expect(units(1_002, off: false) == 1 + 16 + 1)
        #expect(core.conflict(0, 2, 1, 6) && core.conflict(1, 6, 0, 2))
        // The option's only require on 1,000 options: its pairs, its first edge's 16 words (and
        // its one bit named) and the 999 other options' edges back.
        #expect(units(999, off: true) == 1 + 16 + 1 + 999)
        #expect(!core.conflict(0, 1, 1, 7) && !core.conflict(1, 7, 0, 1) && core.conflict(1, 7, 0, 0))
        #expect(units(999, off: false) == 1 + 16 + 999)
        #expect(core.conflict(0, 1, 1, 7) && core.conflict(1, 7, 0, 1) && !core.conflict(0, 1, 1, 5))
    }

    @Test func switched_rules_leave_the_masks_of_a_configurator_over_the_rules_on() throws {
        // Families of 3 to 70 options (one word and two), forbids and requires at random, the
        // same pair and the same option's requires more than once: after each switch, every
        // pair clashes as in a configurator compiled over the rules on, and the clash words
        // (one-word families only) follow the masks.
        for (seed, options) in [(UInt64(1), [3, 5, 4, 6]), (2, [70, 3, 66, 5]), (3, [8, 8, 8])] {
            var random = SplitMix64(state: seed)
            let prices = options.map { [Int64](repeating: 1, count: $0) }
            let names = prices.map { $0.indices.map { "o\($0)" } }
            var rules: [ConfigurationSpace.Constraint] = []
            for index in 0..<40 {
                let f = random.below(options.count)
                var g = random.below(options.count - 1)
                if g >= f { g += 1 }
                // Few first options, so requires from one option pile up on one edge.
                let first = ConfigurationSpace.Choice(f, random.below(min(2, options[f])))
                let second = ConfigurationSpace.Choice(g, random.below(options[g]))
                rules.append(.init(index % 3 == 0 ? .forbid : .require, first, second))
            }
            let space = ConfigurationSpace(prices: prices, names: names, rules: rules)
            var core = try Configurator(space: space)
            core.startSwitching()
            for _ in 0..<150 {
                let rule = random.below(rules.count)
                core.switchRule(rule, off: !core.rulesOff[rule])
                let on = rules.indices.filter { !core.rulesOff[$0] }
                let fresh = try Configurator(space: space.keeping(rules: on))
                for f in options.indices {
                    for g in options.indices where g != f {
                        for a in 0..<options[f] {
                            for b in 0..<options[g] where core.conflict(f, a, g, b) != fresh.conflict(f, a, g, b) {
                                Issue.record("seed \(seed): \(f):\(a) with \(g):\(b), rules on \(on)")
                                return
                            }
                        }
                    }
                }
                for entry in core.clashWords.indices where core.clashTable[entry] >= 0 {
                    #expect(core.clashWords[entry] == core.masks[core.clashTable[entry]])
                }
            }
        }
    }
}
