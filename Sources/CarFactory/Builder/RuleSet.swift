import Synchronization

// Checking a car against the rules is on the path of every `car` and `set`: the rules
// are arranged once as plain part identities, so a check compares integers and copies
// no names; and each configuration is checked once, when it is first made.

/// A catalog's rules, arranged for checking cars quickly, and the configurations made under them.
public final class RuleSet: Sendable {
    /// One rule as the identities of its two parts (nil where a choice names an option not resolved to a part).
    private struct Check {
        let firstFamily: Int
        let first: ObjectIdentifier?
        let secondFamily: Int
        let second: ObjectIdentifier?
    }

    /// The rules, in definition order.
    public let rules: [Rule]
    private let checks: [Check]
    /// Every configuration made under these rules, each made and checked once (see `CarConfiguration`).
    private let made: Mutex<ConfigurationTable>

    /// Arranges `rules` for checking.
    public convenience init(_ rules: [Rule]) {
        self.init(rules, keeping: ConfigurationTable.limit)
    }

    /// Arranges `rules` for checking, keeping at most `limit` configurations.
    init(_ rules: [Rule], keeping limit: Int) {
        made = Mutex(ConfigurationTable(keeping: limit))
        self.rules = rules
        checks = rules.map {
            Check(firstFamily: $0.first.family.index, first: $0.first.part,
                  secondFamily: $0.second.family.index, second: $0.second.part)
        }
    }

    /// No rules.
    public static var none: RuleSet { RuleSet([]) }

    /// The shared configuration of `factory`'s default parts, made and checked the first time.
    ///
    /// Kept under the factory's identity too, so a new car finds it without asking the
    /// factory for its parts.
    func defaultConfiguration(of factory: any CarFactory) -> CarConfiguration {
        made.withLock { table in
            let defaults = ConfigurationKey(defaultsOf: factory)
            if let found = table.existing(defaults) { return found }
            let floorplan = factory.makeFloorplan()
            let suspension = factory.makeSuspension()
            let drivetrain = factory.makeDrivetrain()
            let configuration = table.configuration(for: ConfigurationKey(factory, floorplan, suspension, drivetrain)) {
                make(factory, floorplan, suspension, drivetrain, priceMinorUnits: factory.basePriceMinorUnits)
            }
            table.keep(configuration, for: defaults)
            return configuration
        }
    }

    /// The shared configuration of `current` with `part` in place of its part of that family,
    /// priced `priceMinorUnits`, made and checked the first time. Finding one already made
    /// needs only the part's identity.
    func configuration(_ current: CarConfiguration, with part: any Part, of family: PartFamily,
                       priceMinorUnits: Int64) -> CarConfiguration {
        made.withLock { table in
            table.configuration(for: current.key.replacing(family, with: ObjectIdentifier(part))) {
                switch part.kind {
                case .floorplan(let new):
                    make(current.factory, new, current.suspension, current.drivetrain, priceMinorUnits: priceMinorUnits)
                case .suspension(let new):
                    make(current.factory, current.floorplan, new, current.drivetrain, priceMinorUnits: priceMinorUnits)
                case .drivetrain(let new):
                    make(current.factory, current.floorplan, current.suspension, new, priceMinorUnits: priceMinorUnits)
                }
            }
        }
    }

    private func make(_ factory: any CarFactory, _ floorplan: any Floorplan, _ suspension: any Suspension,
                      _ drivetrain: any Drivetrain, priceMinorUnits: Int64) -> CarConfiguration {
        CarConfiguration(factory: factory, floorplan: floorplan, suspension: suspension, drivetrain: drivetrain,
                         priceMinorUnits: priceMinorUnits, brokenRule: firstBroken(floorplan, suspension, drivetrain))
    }

    /// The first rule a car with these parts breaks, if any.
    public func firstBroken(_ floorplan: any Floorplan, _ suspension: any Suspension,
                            _ drivetrain: any Drivetrain) -> Rule? {
        let parts = (ObjectIdentifier(floorplan), ObjectIdentifier(suspension), ObjectIdentifier(drivetrain))
        func identity(_ family: Int) -> ObjectIdentifier {
            switch family {
            case 0: parts.0
            case 1: parts.1
            default: parts.2
            }
        }
        for (position, check) in checks.enumerated() {
            guard let first = check.first, let second = check.second else {
                // A rule naming options by name only: compare the slow way.
                let rule = rules[position]
                let broken = rule.isBroken { family -> any Part in
                    switch family {
                    case .floorplan: floorplan
                    case .suspension: suspension
                    case .drivetrain: drivetrain
                    }
                }
                if broken { return rule }
                continue
            }
            if identity(check.firstFamily) == first && identity(check.secondFamily) == second { return rules[position] }
        }
        return nil
    }
}
