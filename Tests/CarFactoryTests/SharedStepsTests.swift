import Testing

@testable import CarFactory

// One count of steps over many searches: every option a completion prices, every option an
// `options` command answers for.
@Suite struct SharedStepsTests {
    /// Family 0 of `count` options, each but the first forbidden with option 0 of family 1
    /// (the car's), so each needs a repair: family 1's option 1.
    static func space(options count: Int) -> ConfigurationSpace {
        let rules = (1..<count).map { ConfigurationSpace.Constraint(.forbid, .init(0, $0), .init(1, 0)) }
        return ConfigurationSpace(
            prices: [(0..<count).map { Int64($0 % 97) }, [0, 500]], names: [(0..<count).map { "d\($0)" }, ["short", "standard"]],
            rules: rules)
    }

    @Test func every_search_asked_with_one_budget_spends_from_it_and_its_limit_holds_over_all_of_them() throws {
        let space = Self.space(options: 200)
        let configurator = try Configurator(space: space)
        let budget = SearchBudget()
        var spent = 0
        for o in 1..<200 {
            let shared = try configurator.repairs(of: [0, 0], wanting: .init(0, o), limit: 1, spending: budget)
            // The same answer as a search with steps of its own.
            #expect(shared == (try configurator.repairs(of: [0, 0], wanting: .init(0, o), limit: 1)))
            #expect(shared.first?.changes == [.init(1, 1)])
            // Each search spends something: at least its start (a step per 64 options: 4 here, and 1 for family 1).
            #expect(budget.spent >= spent + 5)
            spent = budget.spent
        }
        // A limit one below what they spent together stops the last, though each alone fits in it.
        let tight = try Configurator(space: space, limits: SearchLimits(steps: spent - 1, repairs: 10))
        for o in 1..<200 { _ = try tight.repairs(of: [0, 0], wanting: .init(0, o), limit: 1) }
        let shared = SearchBudget()
        var answered = 0
        #expect(throws: CarFactoryError.searchLimitReached(steps: spent - 1)) {
            for o in 1..<200 {
                _ = try tight.repairs(of: [0, 0], wanting: .init(0, o), limit: 1, spending: shared)
                answered += 1
            }
        }
        #expect(answered == 198)
    }

    @Test func a_stop_request_ends_a_shared_budget_search_at_its_start() throws {
        let configurator = try Configurator(space: Self.space(options: 10), shouldStop: { true })
        #expect(throws: CarFactoryError.searchStopped) {
            try configurator.repairs(of: [0, 0], wanting: .init(0, 1), limit: 1, spending: SearchBudget())
        }
    }

    @Test func options_counts_each_search_start_so_a_large_family_cannot_run_long_within_the_limit() throws {
        // 4,000 options that each need a repair: a search's start counts 63 + 1 steps (a step per
        // 64 options of each family), so 4,000 of them pass 100,000 steps; the searches
        // themselves take a few steps each (under 25,000 in all), which counted alone let a
        // family of 60,000 options run 6.5 s within the 1,000,000 steps.
        let space = Self.space(options: 4_000)
        let limited = try Configurator(space: space, limits: SearchLimits(steps: 100_000, repairs: 10))
        #expect(throws: CarFactoryError.searchLimitReached(steps: 100_000)) { _ = try limited.statuses(of: [0, 0], families: [0]) }
        // A family of 1,000 fits: 1,000 starts of 17 steps and the searches' own.
        let smaller = try Configurator(space: Self.space(options: 1_000), limits: SearchLimits(steps: 100_000, repairs: 10))
        let statuses = try smaller.statuses(of: [0, 0], families: [0])
        #expect(statuses[0].count == 1_000)
        #expect(statuses[0][999] == .needsRepair(Repair(changes: [.init(1, 1)], priceChange: 500 + 999 % 97)))
    }
}
