import Testing

@testable import CarFactory

// The step limit bounds work, not only choices: a choice's propagation visits more edges the
// more rules there are, and that work counts (a step per `Configurator.unitsPerStep` units).
@Suite struct WorkStepsTests {
    static let bench60 = ConfigurationSpace.generated(families: 60, options: 8, rules: 3_000, seed: 60 * 7919 + 3_000)

    /// The first option (in family order) that the car cannot take alone but some valid car
    /// has: the benchmark's `why 0:0`.
    static func wanted(_ configurator: Configurator, _ car: [Int]) throws -> ConfigurationSpace.Choice? {
        for f in car.indices {
            for o in 0..<configurator.optionCounts[f] where o != car[f] {
                var alone = car
                alone[f] = o
                guard !configurator.isValid(alone), try configurator.rulesRuling(out: .init(f, o)).isEmpty else { continue }
                return .init(f, o)
            }
        }
        return nil
    }

    @Test func the_cheapest_car_on_60_by_8_counts_its_propagation_as_steps() throws {
        // About 2,000 choices, and 6 million units of work around them (6,000 steps more):
        // counted by choices alone it fitted in 5,000 steps.
        let (space, _) = Self.bench60
        let none = [Int?](repeating: nil, count: 60)
        let tight = try Configurator(space: space, limits: SearchLimits(steps: 5_000, repairs: 10))
        #expect(throws: CarFactoryError.searchLimitReached(steps: 5_000)) { _ = try tight.cheapest(fixed: none) }
        // Within the standard limit, the same car as with no limit at all.
        let standard = try Configurator(space: space).cheapest(fixed: none)
        let unlimited = try Configurator(space: space, limits: SearchLimits(steps: .max, repairs: 10)).cheapest(fixed: none)
        #expect(standard != nil && standard == unlimited)
    }

    @Test func the_repairs_on_60_by_8_do_no_more_work_than_their_steps_allow() throws {
        // About 10,000 choices and 9 million units of work (8,700 steps).
        let (space, car) = Self.bench60
        let probe = try Configurator(space: space)
        let wanted = try #require(try Self.wanted(probe, car))
        // The work done is what the steps allow: never more than a step's units per step.
        let configurator = try Configurator(space: space)
        let effort = configurator.newEffort()
        let repairs = try configurator.repairs(of: car, wanting: wanted, fixed: [], limit: nil, effort)
        #expect(repairs.count == 10)
        #expect(configurator.meter.units > 1_000 * Configurator.unitsPerStep)
        #expect(configurator.meter.units <= (effort.spent + 1) * Configurator.unitsPerStep)
        #expect(effort.spent >= effort.steps)
        #expect(
            repairs == (try Configurator(space: space, limits: SearchLimits(steps: .max, repairs: 10)).repairs(of: car, wanting: wanted)))
    }

    @Test func a_catalog_whose_choices_each_propagate_far_ends_at_the_limit_in_bounded_work() throws {
        // As the trial's big3 catalogs: 61 families of 8 options, option t of family 0
        // forbidden with every other family's first option, then 4,000 random rules among the
        // others. `cheapest` with t ran past 25 s without reaching 1,000,000 choices; with
        // 20,000 steps it ends at the limit, its work within them.
        var random = SplitMix64(state: 3)
        var prices = (0..<61).map { _ in [Int64(0)] + (1..<8).map { _ in Int64(random.below(901)) * 100 } }
        prices[0].append(100)
        let names = prices.indices.map { f in prices[f].indices.map { "o\(f)_\($0)" } }
        var rules = (1..<61).map { ConfigurationSpace.Constraint(.forbid, .init(0, 8), .init($0, 0)) }
        var seen = Set<ConfigurationSpace.Constraint>()
        while rules.count < 60 + 4_000 {
            let f = 1 + random.below(60)
            var g = 1 + random.below(59)
            if g >= f { g += 1 }
            let rule = ConfigurationSpace.Constraint(.forbid, .init(f, 1 + random.below(7)), .init(g, 1 + random.below(7)))
            if seen.insert(rule).inserted { rules.append(rule) }
        }
        let space = ConfigurationSpace(prices: prices, names: names, rules: rules)
        var fixed = [Int?](repeating: nil, count: 61)
        fixed[0] = 8
        let configurator = try Configurator(space: space, limits: SearchLimits(steps: 20_000, repairs: 10))
        #expect(throws: CarFactoryError.searchLimitReached(steps: 20_000)) { _ = try configurator.cheapest(fixed: fixed) }
        // The search's setup is counted too: its work ends within a few steps of the limit.
        #expect(configurator.meter.units <= 20_100 * Configurator.unitsPerStep)
        let effort = configurator.newEffort()
        let car = Array(repeating: 0, count: 61)
        #expect(throws: CarFactoryError.searchLimitReached(steps: 20_000)) {
            _ = try configurator.repairs(of: car, wanting: .init(0, 8), fixed: [], limit: nil, effort)
        }
        // The last step's work passes the limit by at most a few steps.
        #expect(effort.spent > 20_000 && effort.spent < 20_100)
    }

    @Test func a_repair_search_ends_a_node_whose_changes_already_make_a_valid_car() throws {
        // The cheapest repair of the benchmark's 27:5 on 60 x 8 took 2,175 steps when such a node
        // was searched below (each car under it changes more families: no minimal set is
        // there but its own); ended there, 853.
        let (space, car) = Self.bench60
        let tight = try Configurator(space: space, limits: SearchLimits(steps: 1_200, repairs: 10))
        let repair = try tight.repairs(of: car, wanting: .init(27, 5), limit: 1)
        let unlimited = try Configurator(space: space, limits: SearchLimits(steps: .max, repairs: 10))
            .repairs(of: car, wanting: .init(27, 5), limit: 1)
        #expect(repair.count == 1 && repair == unlimited)
    }
}
