// The default catalog of the brief, exactly as its tables, built through the domain API so
// the domain is tested on its own; carfab itself loads the same catalog as a script.
@testable import CarFactory

extension Catalog {
    /// The built-in catalog: three models, nine options, two rules, four currencies.
    public static let standard: Catalog = {
        var catalog = Catalog()
        do {
            try catalog.loadStandardDefinitions()
        } catch {
            preconditionFailure("the built-in catalog is inconsistent: \(error)")
        }
        return catalog
    }()

    /// A car of `model` with `changes` made in order, as a script's `car` and `set` make it.
    func car(_ model: String, _ changes: [(PartFamily, String)] = []) throws -> Car {
        var builder = try builder(for: model)
        for (family, name) in changes { try builder.set(option(named: name, in: family)) }
        return try builder.build()
    }

    private mutating func loadStandardDefinitions() throws(CarFactoryError) {
        func usd(_ dollars: Int64) -> Money { .base(dollars * 100) }
        let options: [OptionDefinition] = [
            .init(family: .floorplan, name: "short", shownAs: "Short", listPrice: usd(0), seats: 2, engine: .mid),
            .init(family: .floorplan, name: "standard", shownAs: "Standard", listPrice: usd(2_000), seats: 4, engine: .front),
            .init(family: .floorplan, name: "long", shownAs: "Long", listPrice: usd(6_500), seats: 8, engine: .front),
            .init(family: .suspension, name: "road", shownAs: "Standard", otherNames: ["standard"], listPrice: usd(0)),
            .init(family: .suspension, name: "race", shownAs: "Firm", otherNames: ["sports", "firm"], listPrice: usd(2_400)),
            .init(family: .suspension, name: "offroad", shownAs: "Soft", otherNames: ["soft"], listPrice: usd(1_800)),
            .init(family: .drivetrain, name: "front", shownAs: "Front", listPrice: usd(0)),
            .init(family: .drivetrain, name: "rear", shownAs: "Rear", listPrice: usd(1_500)),
            .init(family: .drivetrain, name: "4wd", shownAs: "4WD", otherNames: ["all", "awd"], listPrice: usd(4_000))
        ]
        for option in options { try define(option) }
        try forbid(PartChoice(.suspension, "race"), with: PartChoice(.floorplan, "long"))
        try forbid(PartChoice(.drivetrain, "front"), with: PartChoice(.floorplan, "short"))
        let models: [ModelDefinition] = [
            .init(
                name: "compact", carType: "VW Golf", basePrice: .base(2_799_500),
                floorplan: "standard", suspension: "road", drivetrain: "front"),
            .init(
                name: "sports", carType: "Porsche Boxster", basePrice: .base(6_830_000),
                floorplan: "short", suspension: "race", drivetrain: "rear"),
            .init(
                name: "suv", carType: "Cadillac Escalade", basePrice: .base(8_189_500),
                floorplan: "long", suspension: "offroad", drivetrain: "4wd")
        ]
        for model in models { try define(model) }
        for (code, symbol, digits, rate) in [("GBP", "£", 2, "0.60338"), ("EUR", "€", 2, "0.92"), ("JPY", "¥", 0, "151.5")] {
            try define(Currency(code: code, symbol: symbol, digits: digits, rate: DecimalNumber(parsing: rate)))
        }
    }
}
