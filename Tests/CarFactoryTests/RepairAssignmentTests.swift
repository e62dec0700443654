import Testing

@testable import CarFactory

// The search over a minimal correction set's assignments (the repairs of one set of families):
// cheap assignments first, and a bound from the options forward checking leaves, so the
// cheapest repair of a large set costs steps in proportion to its options, not to their product.
@Suite struct RepairAssignmentTests {
    /// Option 1 of family 0 forbids option 0 (the car's) of each of `families` other families
    /// of `options` options, their dearest option first: every repair of 0:1 changes them all,
    /// in any of (options - 1)^families ways, and no rule holds between them.
    static func space(families: Int, options: Int) -> ConfigurationSpace {
        let rules = (1...families).map { ConfigurationSpace.Constraint(.forbid, .init(0, 1), .init($0, 0)) }
        let prices = [[0, 0]] + (1...families).map { _ in [Int64(0)] + (1..<options).map { Int64((options - $0) * 100) } }
        let names = [["a", "b"]] + (1...families).map { f in (0..<options).map { "f\(f)o\($0)" } }
        return ConfigurationSpace(prices: prices, names: names, rules: rules)
    }

    @Test func the_cheapest_repair_of_a_large_set_takes_steps_in_proportion_to_its_options() throws {
        // 8 families of 8 options: 7^8 (5.7 million) assignments. Tried in index order, the
        // dearest first, with a bound from each member's cheapest option at the start, the
        // cheapest repair took 3,600 steps and the ten cheapest 12,500; the cheapest first,
        // with the bound from the options left, 75 and 870.
        let space = Self.space(families: 8, options: 8)
        let car = Array(repeating: 0, count: 9)
        let configurator = try Configurator(space: space, limits: SearchLimits(steps: 2_000, repairs: 10))
        let cheapest = try configurator.repairs(of: car, wanting: .init(0, 1), limit: 1)
        #expect(cheapest == [Repair(changes: (1...8).map { .init($0, 7) }, priceChange: 800)])
        // The ten cheapest: the cheapest, then each family one step dearer (in family order).
        let ten = try configurator.repairs(of: car, wanting: .init(0, 1))
        #expect(ten.count == 10)
        #expect(ten.first == cheapest.first)
        for (index, repair) in ten.dropFirst().prefix(8).enumerated() {
            var changes = (1...8).map { ConfigurationSpace.Choice($0, 7) }
            changes[index] = .init(index + 1, 6)
            #expect(repair == Repair(changes: changes, priceChange: 900))
        }
        #expect(ten.last?.priceChange == 1_000)
    }
}
