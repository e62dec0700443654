import Testing

@testable import CarFactory

// The search for minimal repairs takes a family that must change and has one option left
// without a node of its own: choosing it would take nothing out that arc consistency has not.
@Suite struct RepairLastOptionTests {
    @Test func a_chain_of_forced_changes_costs_no_node_per_change() throws {
        // Option 1 of each family forbids option 0 (the car's) of the next: wanting 0:1 forces
        // each of the 40 others to its one other option, each $1 cheaper. A node per forced
        // change, the cheapest repair took 82 steps (40 of them choices of a family's one option); now 42,
        // the one node and a step per member of the set's assignments.
        let n = 40
        let rules = (0..<n).map { ConfigurationSpace.Constraint(.forbid, .init($0, 1), .init($0 + 1, 0)) }
        let prices: [[Int64]] = [[0, 0]] + (1...n).map { _ in [100, 0] }
        let names = (0...n).map { f in ["f\(f)a", "f\(f)b"] }
        let configurator = try Configurator(space: ConfigurationSpace(prices: prices, names: names, rules: rules))
        let effort = configurator.newEffort()
        let car = Array(repeating: 0, count: n + 1)
        let cheapest = try configurator.repairs(of: car, wanting: .init(0, 1), fixed: [], limit: 1, effort)
        #expect(cheapest == [Repair(changes: (1...n).map { .init($0, 1) }, priceChange: -100 * Int64(n))])
        #expect(effort.steps < 50)
    }
}
