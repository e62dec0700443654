/// A car under configuration: seeded by its factory, changed one part at a time, checked on every change.
public struct CarBuilder: Sendable {
    private let factory: any CarFactory
    private let rules: [Rule]
    private var floorplan: any Floorplan
    private var suspension: any Suspension
    private var drivetrain: any Drivetrain

    /// A builder holding the factory's default parts.
    public init(factory: any CarFactory, rules: [Rule]) {
        self.factory = factory
        self.rules = rules
        floorplan = factory.makeFloorplan()
        suspension = factory.makeSuspension()
        drivetrain = factory.makeDrivetrain()
    }

    /// A builder holding an existing car's parts, to change it.
    public init(car: Car, rules: [Rule]) {
        factory = car.factory
        self.rules = rules
        floorplan = car.floorplan
        suspension = car.suspension
        drivetrain = car.drivetrain
    }

    /// Replaces the part of `part`'s family; a change that breaks a rule or overflows leaves the builder as it was.
    public mutating func set(_ part: any Part) throws(CarFactoryError) {
        var next = self
        switch part.kind {
        case .floorplan(let floorplan): next.floorplan = floorplan
        case .suspension(let suspension): next.suspension = suspension
        case .drivetrain(let drivetrain): next.drivetrain = drivetrain
        }
        try next.check()
        _ = try next.price()
        self = next
    }

    /// The car as configured.
    public func build() throws(CarFactoryError) -> Car {
        try check()
        return Car(factory: factory, floorplan: floorplan, suspension: suspension,
                   drivetrain: drivetrain, priceMinorUnits: try price())
    }

    private func part(of family: PartFamily) -> any Part {
        switch family {
        case .floorplan: floorplan
        case .suspension: suspension
        case .drivetrain: drivetrain
        }
    }

    /// Base price plus, per family, the chosen option's list price minus the default's.
    private func price() throws(CarFactoryError) -> Int64 {
        var total = factory.basePrice.minorUnits
        for family in PartFamily.allCases {
            let delta = part(of: family).listPrice.minorUnits.subtractingReportingOverflow(
                factory.defaultPart(of: family).listPrice.minorUnits)
            let sum = total.addingReportingOverflow(delta.partialValue)
            if delta.overflow || sum.overflow { throw .moneyOverflow }
            total = sum.partialValue
        }
        return total
    }

    private func check() throws(CarFactoryError) {
        for rule in rules where rule.isBroken(by: part(of:)) {
            throw .ruleViolation(rule)
        }
    }
}
