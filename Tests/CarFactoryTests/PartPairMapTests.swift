import Testing

@testable import CarFactory

/// The catalog's and the rule set's positions by pair of parts (`PartPairMap`), on every pair
/// of the standard catalog's options: more than half of its first 16 slots, so it grows.
@Suite struct PartPairMapTests {
    /// Every pair of options of two different families, each once.
    let pairs: [PartPair] = {
        let parts = PartFamily.book.flatMap { Catalog.standard.options(of: $0).parts }
        var pairs: [PartPair] = []
        for (index, first) in parts.enumerated() {
            for second in parts[(index + 1)...] where first.family != second.family { pairs.append(PartPair(first, second)) }
        }
        return pairs
    }()

    @Test func holds_what_it_was_given_and_nothing_else() {
        #expect(pairs.count * 2 / 3 > 8)
        var map = PartPairMap()
        #expect(map.isEmpty)
        #expect(map[pairs[0]] == nil)
        let held = pairs.count * 2 / 3
        for (position, pair) in pairs[..<held].enumerated() { map.set(position, for: pair) }
        #expect(map.count == held)
        for (position, pair) in pairs.enumerated() {
            #expect(map[pair] == (position < held ? position : nil), "pair \(position)")
        }
    }

    @Test func a_pair_is_the_same_either_way_round_and_set_again_replaces() throws {
        var map = PartPairMap()
        let first = try #require(Catalog.standard.options(of: .floorplan).parts.first)
        let second = try #require(Catalog.standard.options(of: .drivetrain).parts.last)
        map.set(7, for: PartPair(first, second))
        #expect(map[PartPair(second, first)] == 7)
        map.set(9, for: PartPair(second, first))
        #expect(map[PartPair(first, second)] == 9)
        #expect(map.count == 1)
    }
}
