/// An abstract factory for one model: it hands out a matching floorplan, suspension and drivetrain.
public protocol CarFactory: AnyObject, Sendable {
    /// The model name, e.g. `sports`.
    var model: String { get }
    /// The car type shown on the car, e.g. `Porsche Boxster`.
    var carType: String { get }
    /// The model's base price in the base currency.
    var basePrice: Money { get }
    /// The base price in minor units of the base currency.
    var basePriceMinorUnits: Int64 { get }
    /// The model's floorplan.
    func makeFloorplan() -> any Floorplan
    /// The model's suspension.
    func makeSuspension() -> any Suspension
    /// The model's drivetrain.
    func makeDrivetrain() -> any Drivetrain
    /// The model's default options of the families its catalog defined before it, in family
    /// order (a family defined later gives it that family's default: `Catalog.defaultPart(of:for:)`).
    var otherDefaults: [any Part] { get }
}

extension CarFactory {
    /// None: a factory made outside a catalog has the book's three families only.
    public var otherDefaults: [any Part] { [] }

    /// The model's default option of `family`, if it names one (it names one of each of the book's).
    public func defaultPart(of family: PartFamily) -> (any Part)? {
        switch family.index {
        case 0: makeFloorplan()
        case 1: makeSuspension()
        case 2: makeDrivetrain()
        default: family.index - 3 < otherDefaults.count ? otherDefaults[family.index - 3] : nil
        }
    }
}

// One shared instance per model, built from a definition; callers see only `CarFactory`.
final class CatalogCarFactory: CarFactory {
    let model: String
    let carType: String
    let basePriceMinorUnits: Int64
    var basePrice: Money { .base(basePriceMinorUnits) }
    private let floorplan: any Floorplan
    private let suspension: any Suspension
    private let drivetrain: any Drivetrain
    let otherDefaults: [any Part]

    init(
        model: String, carType: String, basePrice: Money,
        floorplan: any Floorplan, suspension: any Suspension, drivetrain: any Drivetrain, others: [any Part] = []
    ) {
        otherDefaults = others
        self.model = model
        self.carType = carType
        basePriceMinorUnits = basePrice.minorUnits
        self.floorplan = floorplan
        self.suspension = suspension
        self.drivetrain = drivetrain
    }

    func makeFloorplan() -> any Floorplan { floorplan }
    func makeSuspension() -> any Suspension { suspension }
    func makeDrivetrain() -> any Drivetrain { drivetrain }
}
