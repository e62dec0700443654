/// A car under configuration: seeded by its factory, changed one part at a time, checked on every change.
public struct CarBuilder: Sendable {
    private let factory: any CarFactory
    private let rules: RuleSet
    private var floorplan: any Floorplan
    private var suspension: any Suspension
    private var drivetrain: any Drivetrain
    /// Base price plus, per family, the chosen option's list price minus the default's:
    /// kept up to date by each change instead of summed again.
    private var price: Int64

    /// A builder holding the factory's default parts.
    public init(factory: any CarFactory, rules: RuleSet) {
        self.factory = factory
        self.rules = rules
        floorplan = factory.makeFloorplan()
        suspension = factory.makeSuspension()
        drivetrain = factory.makeDrivetrain()
        price = factory.basePriceMinorUnits
    }

    /// A builder holding the factory's default parts, checked against `rules`.
    public init(factory: any CarFactory, rules: [Rule]) {
        self.init(factory: factory, rules: RuleSet(rules))
    }

    /// A builder holding an existing car's parts, to change it.
    public init(car: Car, rules: RuleSet) {
        factory = car.factory
        self.rules = rules
        floorplan = car.floorplan
        suspension = car.suspension
        drivetrain = car.drivetrain
        price = car.priceMinorUnits
    }

    /// A builder holding an existing car's parts, checked against `rules`.
    public init(car: Car, rules: [Rule]) {
        self.init(car: car, rules: RuleSet(rules))
    }

    /// Replaces the part of `part`'s family; a change that breaks a rule or overflows leaves the builder as it was.
    public mutating func set(_ part: any Part) throws(CarFactoryError) {
        let delta = part.listPriceMinorUnits.subtractingReportingOverflow(self.part(of: part.family).listPriceMinorUnits)
        let sum = price.addingReportingOverflow(delta.partialValue)
        if delta.overflow || sum.overflow { throw .moneyOverflow }
        // Check the car as it would be before changing anything.
        switch part.kind {
        case .floorplan(let new):
            if let broken = rules.firstBroken(new, suspension, drivetrain) { throw .ruleViolation(broken) }
            floorplan = new
        case .suspension(let new):
            if let broken = rules.firstBroken(floorplan, new, drivetrain) { throw .ruleViolation(broken) }
            suspension = new
        case .drivetrain(let new):
            if let broken = rules.firstBroken(floorplan, suspension, new) { throw .ruleViolation(broken) }
            drivetrain = new
        }
        price = sum.partialValue
    }

    /// The car as configured.
    public func build() throws(CarFactoryError) -> Car {
        if let broken = rules.firstBroken(floorplan, suspension, drivetrain) { throw .ruleViolation(broken) }
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
}
