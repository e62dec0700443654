import Testing

@testable import CarFactory

@Suite struct CatalogTests {
    let catalog = Catalog.standard

    func build(_ model: String, _ changes: [(PartFamily, String)] = []) throws -> Car {
        try catalog.car(model, changes)
    }

    func details(_ car: Car) -> [String] { car.details.map { "\($0.label): \($0.value)" } }

    @Test func the_sports_car_as_the_book_shows_it() throws {
        let car = try build("sports")
        #expect(details(car) == ["Car type: Porsche Boxster", "Seats: 2", "Engine: Mid", "Suspension: Firm", "Drive: Rear"])
        #expect(car.price.description == "$68,300.00")
    }

    @Test func four_wheel_drive_changes_the_drive_and_the_price() throws {
        let car = try build("sports", [(.drivetrain, "4wd")])
        #expect(details(car).last == "Drive: 4WD")
        #expect(car.price.description == "$70,800.00")
    }

    @Test func every_model_at_its_base_price() throws {
        #expect(try build("compact").price.description == "$27,995.00")
        #expect(try build("SUV").price.description == "$81,895.00")
        #expect(details(try build("compact")) == ["Car type: VW Golf", "Seats: 4", "Engine: Front", "Suspension: Standard", "Drive: Front"])
        #expect(details(try build("suv")) == ["Car type: Cadillac Escalade", "Seats: 8", "Engine: Front", "Suspension: Soft", "Drive: 4WD"])
    }

    @Test func price_is_base_plus_option_differences() throws {
        // compact: 27,995 + (short 0 - standard 2,000) + (race 2,400 - road 0) + (rear 1,500 - front 0);
        // rear first, since front drive cannot go on a short floorplan.
        let car = try build("compact", [(.drivetrain, "rear"), (.floorplan, "short"), (.suspension, "firm")])
        #expect(car.price.description == "$29,895.00")
        // suv with a cheaper drivetrain: 81,895 + (front 0 - 4wd 4,000)
        #expect(try build("suv", [(.drivetrain, "front")]).price.description == "$77,895.00")
    }

    @Test func other_names_and_case_resolve_to_the_same_option() throws {
        #expect(try catalog.option(named: "AWD", in: .drivetrain).name == "4wd")
        #expect(try catalog.option(named: "Sports", in: .suspension).name == "race")
        #expect(try catalog.option(named: "standard", in: .suspension).name == "road")
        #expect(try catalog.option(named: "standard", in: .floorplan).name == "standard")
        #expect(throws: CarFactoryError.unknownOption("hover", family: "drivetrain")) {
            try catalog.option(named: "hover", in: .drivetrain)
        }
        #expect(throws: CarFactoryError.unknownModel("tank")) { try catalog.builder(for: "tank") }
    }

    @Test func race_suspension_on_a_long_floorplan_is_rejected_and_the_car_unchanged() throws {
        var builder = try catalog.builder(for: "suv")
        let before = try builder.build()
        #expect(throws: CarFactoryError.ruleViolation(catalog.rules[0])) {
            try builder.set(catalog.option(named: "race", in: .suspension))
        }
        let after = try builder.build()
        #expect(details(after) == details(before))
        #expect(after.price == before.price)
        // The other way round: a long floorplan under the sports car's race suspension.
        var sports = try catalog.builder(for: "sports")
        #expect(throws: CarFactoryError.ruleViolation(catalog.rules[0])) {
            try sports.set(catalog.option(named: "long", in: .floorplan))
        }
        #expect(details(try sports.build()) == details(try build("sports")))
    }

    @Test func front_drive_on_a_short_floorplan_is_rejected_and_the_car_unchanged() throws {
        var builder = try catalog.builder(for: "sports")
        #expect(throws: CarFactoryError.ruleViolation(catalog.rules[1])) {
            try builder.set(catalog.option(named: "front", in: .drivetrain))
        }
        #expect(try builder.build().drivetrain.name == "rear")
        #expect(catalog.rules[1].violationMessage == "front drivetrain cannot go with the short floorplan")
        #expect(catalog.rules[0].violationMessage == "race suspension cannot go with the long floorplan")
    }

    @Test func factories_are_shared_instances_behind_the_registry() throws {
        let a = try catalog.registry.factory(named: "sports")
        let b = try catalog.registry.factory(named: "SPORTS")
        #expect(a === b)
        #expect(try build("sports").factory === a)
        #expect(catalog.registry.factories.map(\.model) == ["compact", "sports", "suv"])
    }

    @Test func the_standard_catalog_matches_the_brief() throws {
        #expect(
            catalog.options(of: .floorplan).parts.map { "\($0.name) \($0.shownAs) \($0.listPrice)" }
                == ["short Short $0.00", "standard Standard $2,000.00", "long Long $6,500.00"])
        #expect(
            catalog.options(of: .suspension).parts.map { "\($0.name) \($0.shownAs) \($0.otherNames) \($0.listPrice)" }
                == ["road Standard [\"standard\"] $0.00", "race Firm [\"sports\", \"firm\"] $2,400.00", "offroad Soft [\"soft\"] $1,800.00"]
        )
        #expect(
            catalog.options(of: .drivetrain).parts.map { "\($0.name) \($0.shownAs) \($0.listPrice)" }
                == ["front Front $0.00", "rear Rear $1,500.00", "4wd 4WD $4,000.00"])
        #expect(
            catalog.currencies.map { "\($0.code) \($0.symbol) \($0.digits) \($0.rate)" }
                == ["USD $ 2 1", "GBP £ 2 0.60338", "EUR € 2 0.92", "JPY ¥ 0 151.5"])
    }

    @Test func definitions_are_checked_and_all_or_nothing() throws {
        var c = catalog
        try c.define(OptionDefinition(family: .drivetrain, name: "hybrid", shownAs: "Hybrid AWD", listPrice: .base(650_000)))
        try c.define(
            ModelDefinition(
                name: "roadster", carType: "Mazda MX-5", basePrice: .base(3_100_000),
                floorplan: "short", suspension: "race", drivetrain: "rear"))
        var builder = try c.builder(for: "roadster")
        try builder.set(c.option(named: "hybrid", in: .drivetrain))
        #expect(try builder.build().price.description == "$36,000.00")
        #expect(throws: CarFactoryError.duplicateModel("Roadster")) {
            try c.define(
                ModelDefinition(
                    name: "Roadster", carType: "x", basePrice: .base(1), floorplan: "short", suspension: "race", drivetrain: "rear"))
        }
        #expect(throws: CarFactoryError.duplicateOption("AWD", family: "drivetrain", existing: "4wd")) {
            try c.define(OptionDefinition(family: .drivetrain, name: "AWD", shownAs: "x", listPrice: .base(0)))
        }
        #expect(throws: CarFactoryError.defaultsBreakRule(model: "bus", c.rules[0])) {
            try c.define(
                ModelDefinition(name: "bus", carType: "Bus", basePrice: .base(1), floorplan: "long", suspension: "race", drivetrain: "rear")
            )
        }
        #expect(!c.registry.contains("bus"))
        #expect(
            throws: CarFactoryError.defaultsBreakRule(
                model: "compact", Rule(forbid: PartChoice(.drivetrain, "front"), with: PartChoice(.floorplan, "standard")))
        ) {
            try c.forbid(PartChoice(.drivetrain, "front"), with: PartChoice(.floorplan, "standard"))
        }
        #expect(throws: CarFactoryError.duplicateRule(c.rules[0])) {
            try c.forbid(PartChoice(.floorplan, "LONG"), with: PartChoice(.suspension, "firm"))
        }
        #expect(c.rules.count == 2)
        #expect(throws: CarFactoryError.floorplanNeedsLayout("xl")) {
            try c.define(OptionDefinition(family: .floorplan, name: "xl", shownAs: "XL", listPrice: .base(0)))
        }
        #expect(throws: CarFactoryError.baseRateIsFixed("USD")) { try c.setRate(of: "usd", to: DecimalNumber(parsing: "2")) }
        try c.setRate(of: "gbp", to: DecimalNumber(parsing: "0.5"))
        #expect(try c.currency(named: "GBP").rate.description == "0.5")
        #expect(try catalog.currency(named: "GBP").rate.description == "0.60338")
    }
}

@Suite struct SeveralPartsTests {
    /// a1/b1 -> a2/b2: one part at a time breaks a rule either way.
    private func crossedCatalog() throws -> Catalog {
        var catalog = Catalog()
        for (family, name) in [(PartFamily.suspension, "a1"), (.suspension, "a2"), (.drivetrain, "b1"), (.drivetrain, "b2")] {
            try catalog.define(OptionDefinition(family: family, name: name, shownAs: name, listPrice: .base(0)))
        }
        try catalog.define(OptionDefinition(family: .floorplan, name: "f", shownAs: "F", listPrice: .base(0), seats: 2, engine: .front))
        try catalog.define(
            ModelDefinition(name: "m", carType: "M", basePrice: .base(100), floorplan: "f", suspension: "a1", drivetrain: "b1"))
        try catalog.forbid(PartChoice(.suspension, "a2"), with: PartChoice(.drivetrain, "b1"))
        try catalog.forbid(PartChoice(.suspension, "a1"), with: PartChoice(.drivetrain, "b2"))
        return catalog
    }

    @Test func parts_set_together_are_checked_only_as_the_car_they_make() throws {
        let catalog = try crossedCatalog()
        var builder = try catalog.builder(for: "m")
        #expect(throws: CarFactoryError.self) { try builder.set(catalog.option(named: "a2", in: .suspension)) }
        try builder.set([catalog.option(named: "a2", in: .suspension), catalog.option(named: "b2", in: .drivetrain)])
        let car = try builder.build()
        #expect(car.suspension.name == "a2" && car.drivetrain.name == "b2")
    }

    @Test func a_refused_set_of_parts_leaves_the_builder_as_it_was() throws {
        let catalog = Catalog.standard
        var builder = try catalog.builder(for: "compact")
        // A short floorplan with the compact's front drive breaks a rule, whatever the suspension.
        #expect(
            throws: CarFactoryError.ruleViolation(Rule(forbid: PartChoice(.drivetrain, "front"), with: PartChoice(.floorplan, "short")))
        ) {
            try builder.set([catalog.option(named: "short", in: .floorplan), catalog.option(named: "race", in: .suspension)])
        }
        let car = try builder.build()
        #expect(car.floorplan.name == "standard" && car.suspension.name == "road")
        #expect(car.priceMinorUnits == 2_799_500)
    }
}
