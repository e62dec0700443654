import Testing

@testable import CarFactory

@Suite struct CarConfigurationTests {
    let catalog = Catalog.standard

    func build(_ model: String, _ changes: [(PartFamily, String)] = []) throws -> Car {
        try catalog.car(model, changes)
    }

    @Test func cars_built_the_same_way_share_one_configuration() throws {
        let first = try build("sports", [(.drivetrain, "4wd")])
        let second = try build("sports", [(.suspension, "soft"), (.drivetrain, "4wd"), (.suspension, "firm")])
        #expect(first.configuration === second.configuration)
        #expect(first.priceMinorUnits == second.priceMinorUnits)
        #expect(try build("sports").configuration !== first.configuration)
    }

    @Test func a_configuration_reached_by_different_paths_has_one_price() throws {
        // Changing a part and changing it back lands on the default configuration and price.
        let back = try build("compact", [(.suspension, "race"), (.suspension, "road")])
        let plain = try build("compact")
        #expect(back.configuration === plain.configuration)
        #expect(back.price.description == "$27,995.00")
    }

    @Test func a_configuration_that_breaks_a_rule_is_refused_every_time() throws {
        var builder = try catalog.builder(for: "compact")
        let short = try catalog.option(named: "short", in: .floorplan)
        for _ in 0..<2 {
            #expect(throws: CarFactoryError.self) { try builder.set(short) }
            #expect(try builder.build().floorplan.name == "standard")
        }
    }

    @Test func rules_added_later_apply_to_configurations_made_before() throws {
        var catalog = Catalog.standard
        var builder = try catalog.builder(for: "sports")
        try builder.set(catalog.option(named: "4wd", in: .drivetrain))
        let before = try builder.build()
        try catalog.forbid(PartChoice(.suspension, "firm"), with: PartChoice(.drivetrain, "4wd"))
        var again = try catalog.builder(for: "sports")
        #expect(throws: CarFactoryError.self) { try again.set(catalog.option(named: "4wd", in: .drivetrain)) }
        // The car built earlier keeps its configuration.
        #expect(before.drivetrain.name == "4wd")
    }

    @Test func past_the_limit_configurations_are_made_each_time_and_still_right() throws {
        // Room for two: the sports car's defaults, under their own key and the model's.
        let rules = RuleSet(catalog.rules, keeping: 2)
        let sports = try catalog.registry.factory(named: "sports")
        let fourWheel = try catalog.option(named: "4wd", in: .drivetrain)
        func build() throws -> Car {
            var builder = CarBuilder(factory: sports, rules: rules)
            try builder.set(fourWheel)
            return try builder.build()
        }
        let (first, second) = (try build(), try build())
        #expect(first.configuration !== second.configuration)
        #expect(first.price.description == "$70,800.00" && second.price.description == "$70,800.00")
        #expect(first.drivetrain.name == "4wd")
        #expect(
            try CarBuilder(factory: sports, rules: rules).build().configuration
                === CarBuilder(factory: sports, rules: rules).build().configuration)
    }
}
