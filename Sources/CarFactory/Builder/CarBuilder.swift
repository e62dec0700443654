/// A car under configuration: seeded by its factory, changed one part at a time, checked on every change.
public struct CarBuilder: Sendable {
    private let factory: any CarFactory
    private let rules: [Rule]
    private var floorplan: any Floorplan
    private var suspension: any Suspension
    private var drivetrain: any Drivetrain
    /// Base price plus, per family, the chosen option's list price minus the default's:
    /// kept up to date by each change instead of summed again.
    private var price: Int64

    /// A builder holding the factory's default parts.
    public init(factory: any CarFactory, rules: [Rule]) {
        self.factory = factory
        self.rules = rules
        floorplan = factory.makeFloorplan()
        suspension = factory.makeSuspension()
        drivetrain = factory.makeDrivetrain()
        price = factory.basePriceMinorUnits
    }

    /// A builder holding an existing car's parts, to change it.
    public init(car: Car, rules: [Rule]) {
        factory = car.factory
        self.rules = rules
        floorplan = car.floorplan
        suspension = car.suspension
        drivetrain = car.drivetrain
        price = car.priceMinorUnits
    }

    /// Replaces the part of `part`'s family; a change that breaks a rule or overflows leaves the builder as it was.
    public mutating func set(_ part: any Part) throws(CarFactoryError) {
        var next = self
        let delta = part.listPriceMinorUnits.subtractingReportingOverflow(self.part(of: part.family).listPriceMinorUnits)
        let sum = price.addingReportingOverflow(delta.partialValue)
        if delta.overflow || sum.overflow { throw .moneyOverflow }
        next.price = sum.partialValue
        switch part.kind {
        case .floorplan(let floorplan): next.floorplan = floorplan
        case .suspension(let suspension): next.suspension = suspension
        case .drivetrain(let drivetrain): next.drivetrain = drivetrain
        }
        try next.check()
        self = next
    }

    /// The car as configured.
    public func build() throws(CarFactoryError) -> Car {
        try check()
        return Car(factory: factory, floorplan: floorplan, suspension: suspension,
                   drivetrain: drivetrain, priceMinorUnits: price)
    }

    private func part(of family: PartFamily) -> any Part {
        switch family {
        case .floorplan: floorplan
        case .suspension: suspension
        case .drivetrain: drivetrain
        }
    }

    private func check() throws(CarFactoryError) {
        for rule in rules where rule.first.matches(part(of: rule.first.family)) && rule.second.matches(part(of: rule.second.family)) {
            throw .ruleViolation(rule)
        }
    }
}
