import CarFactory

/// `models`, `parts`, `currencies`.
enum CatalogCommands {
    static let all: [CommandSpec] = [
        CommandSpec(
            name: "models", aliases: [], group: .catalog,
            arguments: [],
            summary: "list the models with their base prices and default options",
            details:
                "One row per model: name, car type, base price in the base currency, and its default floorplan, suspension and drivetrain, then its default option of each family defined with 'family'.",
            example: "models",
            run: { session, call throws(ScriptError) in
                let catalog = session.catalog
                // A column for each defined family after the book's three.
                var table = Table(
                    [
                        .init("model"), .init("car type"), .init("base price", alignRight: true),
                        .init("floorplan"), .init("suspension"), .init("drivetrain")
                    ]
                        + catalog.definedFamilies.map { .init(catalog.name(of: $0)) })
                for factory in catalog.registry.factories {
                    table.append(
                        [
                            .text(factory.model), .text(factory.carType), .money(factory.basePrice),
                            .text(factory.makeFloorplan().name), .text(factory.makeSuspension().name),
                            .text(factory.makeDrivetrain().name)
                        ]
                            + catalog.definedFamilies.map { .text(catalog.defaultPart(of: $0, for: factory).name) })
                }
                session.emit(.table(table), call)
            }),
        CommandSpec(
            name: "parts", aliases: [], group: .catalog,
            arguments: [.optional("FAMILY", .family)],
            summary: "list the options of every family (or of FAMILY)",
            details:
                "One row per option: family, name, how it is shown on a car, other names it answers to, and list price. Floorplans also show seats and engine position.",
            example: "parts suspension",
            run: { session, call throws(ScriptError) in
                var table = Table([
                    .init("family"), .init("option"), .init("shown as"), .init("other names"),
                    .init("list price", alignRight: true), .init("seats", alignRight: true),
                    .init("engine")
                ])
                let families = call.family(1).map { [$0] } ?? session.catalog.families
                for family in families {
                    for part in session.catalog.options(of: family).parts {
                        let floorplan: (any Floorplan)? = if case .floorplan(let f) = part.kind { f } else { nil }
                        table.append([
                            .text(session.catalog.name(of: family)), .text(part.name), .text(part.shownAs),
                            .names(part.otherNames), .money(part.listPrice),
                            floorplan.map { .integer(Int64($0.seats)) } ?? .none,
                            floorplan.map { .text($0.engine.rawValue) } ?? .none
                        ])
                    }
                }
                session.emit(.table(table), call)
            }),
        CommandSpec(
            name: "currencies", aliases: [], group: .catalog,
            arguments: [],
            summary: "list the currencies with their symbols, digits and rates",
            details: "The rate is how many units of the currency one unit of the base currency (USD) buys.",
            example: "currencies",
            run: { session, call throws(ScriptError) in
                var table = Table([.init("code"), .init("symbol"), .init("digits", alignRight: true), .init("rate")])
                for currency in session.catalog.currencies {
                    table.append([
                        .text(currency.code), .text(currency.symbol),
                        .integer(Int64(currency.digits)), .text(currency.rate.description)
                    ])
                }
                session.emit(.table(table), call)
            })
    ]
}
