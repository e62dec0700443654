import Testing

@testable import CarFactory

// `require FAMILY OPTION with FAMILY OPTION`: the first option only on a car that has the second.
@Suite struct RequireRuleTests {
    let fourWheelNeedsLong = (PartChoice(.drivetrain, "4wd"), PartChoice(.floorplan, "long"))

    @Test func a_car_with_the_first_option_needs_the_second() throws {
        var catalog = Catalog.standard
        let rule = try catalog.require(fourWheelNeedsLong.0, with: fourWheelNeedsLong.1, origin: "rules.carfab:3")
        #expect(rule.kind == .require)
        #expect(rule.description == "require drivetrain 4wd with floorplan long")
        #expect(rule.violationMessage == "4wd drivetrain needs the long floorplan")
        #expect(catalog.origin(of: rule) == "rules.carfab:3")
        #expect(throws: CarFactoryError.ruleViolation(rule)) { try catalog.car("sports", [(.drivetrain, "4wd")]) }
        // With the second option the first is allowed; the second alone is allowed too.
        var builder = try catalog.builder(for: "sports")
        try builder.set([
            catalog.option(named: "long", in: .floorplan), catalog.option(named: "4wd", in: .drivetrain),
            catalog.option(named: "offroad", in: .suspension)
        ])
        #expect(try builder.build().drivetrain.name == "4wd")
        _ = try catalog.car("compact", [(.floorplan, "long")])
        // The suv already has both.
        _ = try catalog.car("suv")
    }

    @Test func a_require_rule_is_refused_when_a_models_defaults_break_it() throws {
        var catalog = Catalog.standard
        #expect(
            throws: CarFactoryError.defaultsBreakRule(
                model: "compact", Rule(require: PartChoice(.drivetrain, "front"), with: PartChoice(.floorplan, "long")))
        ) {
            try catalog.require(PartChoice(.drivetrain, "front"), with: PartChoice(.floorplan, "long"))
        }
        #expect(catalog.rules.count == 2)
    }

    @Test func a_model_whose_defaults_break_a_require_rule_is_refused() throws {
        var catalog = Catalog.standard
        let rule = try catalog.require(PartChoice(.floorplan, "long"), with: PartChoice(.suspension, "offroad"))
        #expect(throws: CarFactoryError.defaultsBreakRule(model: "bus", rule)) {
            try catalog.define(
                ModelDefinition(
                    name: "bus", carType: "Bus", basePrice: .base(1), floorplan: "long",
                    suspension: "road", drivetrain: "rear"))
        }
        #expect(!catalog.registry.contains("bus"))
    }

    @Test func a_require_rule_given_twice_is_a_duplicate_but_the_reverse_is_not() throws {
        var catalog = Catalog.standard
        let rule = try catalog.require(PartChoice(.floorplan, "long"), with: PartChoice(.suspension, "offroad"))
        #expect(throws: CarFactoryError.duplicateRule(rule)) {
            try catalog.require(PartChoice(.floorplan, "LONG"), with: PartChoice(.suspension, "soft"))
        }
        // The other way round is another rule.
        try catalog.require(PartChoice(.suspension, "offroad"), with: PartChoice(.floorplan, "long"))
        #expect(catalog.rules.count == 4)
    }

    @Test func a_require_rule_named_by_name_only_is_checked_too() throws {
        let rule = Rule(require: PartChoice(.drivetrain, "4wd"), with: PartChoice(.floorplan, "long"))
        let catalog = Catalog.standard
        var builder = CarBuilder(factory: try catalog.registry.factory(named: "compact"), rules: [rule])
        #expect(throws: CarFactoryError.ruleViolation(rule)) { try builder.set(catalog.option(named: "4wd", in: .drivetrain)) }
    }
}
