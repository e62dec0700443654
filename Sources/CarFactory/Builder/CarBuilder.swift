/// A car under configuration: seeded by its factory, changed one part at a time, checked on every change.
public struct CarBuilder: Sendable {
    private let rules: RuleSet
    /// The parts as they stand, shared with every car built the same way.
    private var configuration: CarConfiguration

    /// A builder holding the factory's default parts.
    public init(factory: any CarFactory, rules: RuleSet) {
        self.rules = rules
        configuration = rules.defaultConfiguration(of: factory)
    }

    /// A builder holding the factory's default parts, checked against `rules`.
    public init(factory: any CarFactory, rules: [Rule]) {
        self.init(factory: factory, rules: RuleSet(rules))
    }

    /// A builder holding an existing car's parts, to change it.
    public init(car: Car, rules: RuleSet) {
        self.rules = rules
        configuration = rules.completed(car.configuration)
    }

    /// A builder holding an existing car's parts, checked against `rules`.
    public init(car: Car, rules: [Rule]) {
        self.init(car: car, rules: RuleSet(rules))
    }

    /// Replaces the part of `part`'s family; a change that breaks a rule or overflows leaves
    /// the builder as it was. (No change prices a car below zero: the catalog refuses any
    /// definition that would let one, so there is nothing to check here.)
    public mutating func set(_ part: any Part) throws(CarFactoryError) {
        configuration = try Self.configuration(configuration, with: [part], rules: rules)
    }

    /// Replaces the parts of several families at once: only the car they make together is
    /// checked (its rules), so a change that goes through a forbidden car one
    /// part at a time can be made in one step. A refusal leaves the builder as it was.
    public mutating func set(_ parts: [any Part]) throws(CarFactoryError) {
        configuration = try Self.configuration(configuration, with: parts, rules: rules)
    }

    /// `current` (a builder's: holding every family `rules` know) with `parts` in place of
    /// its parts of their families (a family named twice: the later part), checked: the one
    /// place a change is priced and checked (builders and the engine's `set` both come here).
    /// Only the car they make together is made and checked, whatever the number of parts.
    /// (Completed again here, it compared each of 58 parts' families twice a 61-pair `set`.)
    package static func configuration(
        _ current: CarConfiguration, with parts: [any Part],
        rules: RuleSet
    ) throws(CarFactoryError) -> CarConfiguration {
        var floorplan = current.floorplan
        var suspension = current.suspension
        var drivetrain = current.drivetrain
        var others = current.others
        // Base price plus, per family, the chosen option's list price minus the default's:
        // kept up to date by each change instead of summed again.
        var price = current.priceMinorUnits
        for part in parts {
            let family = part.family
            guard holds(current, family) else { throw .unknownOption(part.name, family: part.familyName) }
            let replaced: any Part =
                switch family.index {
                case 0: floorplan
                case 1: suspension
                case 2: drivetrain
                default: others[family.index - 3]
                }
            let delta = part.listPriceMinorUnits.subtractingReportingOverflow(replaced.listPriceMinorUnits)
            let sum = price.addingReportingOverflow(delta.partialValue)
            if delta.overflow || sum.overflow { throw .moneyOverflow }
            price = sum.partialValue
            switch part.kind {
            case .floorplan(let new): floorplan = new
            case .suspension(let new): suspension = new
            case .drivetrain(let new): drivetrain = new
            case .defined: others[family.index - 3] = part
            }
        }
        let next = rules.configuration(
            of: current.factory, floorplan, suspension, drivetrain, others: others, priceMinorUnits: price)
        if let broken = next.brokenRule { throw .ruleViolation(broken) }
        return next
    }

    /// Whether `configuration` has a place for a part of `family` (a part of a family the
    /// rules' catalog does not define has none).
    @inline(__always)
    private static func holds(_ configuration: CarConfiguration, _ family: PartFamily) -> Bool {
        family.index < 3 + configuration.others.count
    }

    /// The car as configured.
    public func build() throws(CarFactoryError) -> Car {
        if let broken = configuration.brokenRule { throw .ruleViolation(broken) }
        return Car(configuration: configuration)
    }
}
