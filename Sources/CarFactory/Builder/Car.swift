/// A finished car: immutable, priced in the base currency.
public struct Car: Sendable {
    /// How it is built: factory, parts and price, shared with every car built the same way.
    public let configuration: CarConfiguration

    @usableFromInline package init(configuration: CarConfiguration) {
        self.configuration = configuration
    }

    /// The factory (and so the model) the car came from.
    public var factory: any CarFactory { configuration.factory }
    /// The floorplan.
    public var floorplan: any Floorplan { configuration.floorplan }
    /// The suspension.
    public var suspension: any Suspension { configuration.suspension }
    /// The drivetrain.
    public var drivetrain: any Drivetrain { configuration.drivetrain }
    /// Unit price in base-currency minor units: base price plus option differences.
    public var priceMinorUnits: Int64 { configuration.priceMinorUnits }

    /// The car type, e.g. `Porsche Boxster`.
    public var carType: String { factory.carType }
    /// The unit price in the base currency.
    public var price: Money { .base(priceMinorUnits) }

    /// The part of `family`, if the car holds one (it holds one of each of the book's; one
    /// made before a family was defined has that family's default: `Catalog.part(of:on:)`).
    public func part(of family: PartFamily) -> (any Part)? {
        configuration.part(of: family)
    }

    /// The five detail lines of the book (car type, seats, engine, suspension, drive), then one per defined family.
    public var details: [(label: String, value: String)] {
        [
            ("Car type", carType),
            ("Seats", String(floorplan.seats)),
            ("Engine", floorplan.engine.rawValue),
            ("Suspension", suspension.shownAs),
            ("Drive", drivetrain.shownAs)
        ]
            + configuration.others.map { part in (Self.familyShownAs(part), part.shownAs) }
    }

    /// How the family of a defined family's part is shown (`Paint`).
    package static func familyShownAs(_ part: any Part) -> String {
        if case .defined(let option) = part.kind { option.label.shownAs } else { part.familyName }
    }
}
