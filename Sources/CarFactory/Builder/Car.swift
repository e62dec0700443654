/// A finished car: immutable, priced in the base currency.
public struct Car: Sendable {
    /// The factory (and so the model) the car came from.
    public let factory: any CarFactory
    /// The floorplan.
    public let floorplan: any Floorplan
    /// The suspension.
    public let suspension: any Suspension
    /// The drivetrain.
    public let drivetrain: any Drivetrain
    /// Unit price in base-currency minor units: base price plus option differences.
    public let priceMinorUnits: Int64

    init(factory: any CarFactory, floorplan: any Floorplan, suspension: any Suspension,
         drivetrain: any Drivetrain, priceMinorUnits: Int64) {
        self.factory = factory
        self.floorplan = floorplan
        self.suspension = suspension
        self.drivetrain = drivetrain
        self.priceMinorUnits = priceMinorUnits
    }

    /// The car type, e.g. `Porsche Boxster`.
    public var carType: String { factory.carType }
    /// The unit price in the base currency.
    public var price: Money { .base(priceMinorUnits) }

    /// The part of `family`.
    public func part(of family: PartFamily) -> any Part {
        switch family {
        case .floorplan: floorplan
        case .suspension: suspension
        case .drivetrain: drivetrain
        }
    }

    /// The five detail lines of the book: car type, seats, engine, suspension, drive.
    public var details: [(label: String, value: String)] {
        [("Car type", carType),
         ("Seats", String(floorplan.seats)),
         ("Engine", floorplan.engine.rawValue),
         ("Suspension", suspension.shownAs),
         ("Drive", drivetrain.shownAs)]
    }
}
