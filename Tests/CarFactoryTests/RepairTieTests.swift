import Testing

@testable import CarFactory

// Repairs of one price and size are ranked by names: the search cuts what cannot rank before
// the last repair kept, so ties do not make it enumerate every set of one price (trial 11, 1).
@Suite struct RepairTieTests {
    /// K families `s` of options d (the car's), u and v, all $0; wanting the package forbids
    /// every d; u needs its own part p and v its own part q. Every one of the 2^K sets (each
    /// s, and p or q of each) is a minimal repair of $0 and 2K changes; the first by names
    /// takes u everywhere. 20 families ran to the step limit (time doubled per family).
    @Test(arguments: [(20, Int64(0)), (20, Int64(2_500)), (40, Int64(0))])
    func equal_repairs_are_ranked_without_trying_each(variants: Int, price: Int64) throws {
        var prices: [[Int64]] = [[0, 0]]
        var names: [[String]] = [["off", "on"]]
        var rules: [ConfigurationSpace.Constraint] = []
        for _ in 0..<variants {
            let s = prices.count
            prices += [[0, price, price], [0, price], [0, price]]
            names += [["d", "u", "v"], ["n", "y"], ["n", "y"]]
            rules += [
                .init(.forbid, .init(0, 1), .init(s, 0)), .init(.require, .init(s, 1), .init(s + 1, 1)),
                .init(.require, .init(s, 2), .init(s + 2, 1))
            ]
        }
        let configurator = try Configurator(space: ConfigurationSpace(prices: prices, names: names, rules: rules))
        let car = Array(repeating: 0, count: prices.count)
        let effort = configurator.newEffort()
        let cheapest = try configurator.repairs(of: car, wanting: .init(0, 1), fixed: [], limit: 1, effort)
        let everyU = (0..<variants).flatMap { i in [ConfigurationSpace.Choice(1 + 3 * i, 1), .init(2 + 3 * i, 1)] }
        #expect(cheapest == [Repair(changes: everyU, priceChange: 2 * price * Int64(variants))])
        // A node or two per family, not one per set: 2^20 sets ran past 1,000,000 steps.
        #expect(effort.steps < 50 * variants, "\(effort.steps) steps")
        // The first three by names: u everywhere, then v in the last family, then in the one before.
        let three = try configurator.repairs(of: car, wanting: .init(0, 1), limit: 3)
        let last = 1 + 3 * (variants - 1)
        let before = last - 3
        #expect(
            three.map(\.changes)
                == [
                    everyU,
                    everyU.filter { $0.family != last + 1 }.map { $0.family == last ? .init(last, 2) : $0 } + [.init(last + 2, 1)],
                    everyU.filter { $0.family != before + 1 }.map { $0.family == before ? .init(before, 2) : $0 } + [.init(before + 2, 1)]
                ].map { $0.sorted { $0.family < $1.family } })
    }
}
