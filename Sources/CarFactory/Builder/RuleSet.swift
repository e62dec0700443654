// Checking a car against the rules is on the path of every `car` and `set`: the rules
// are arranged once as plain part identities, so a check compares integers and copies
// no names.

/// A catalog's rules, arranged for checking cars quickly.
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

    /// Arranges `rules` for checking.
    public init(_ rules: [Rule]) {
        self.rules = rules
        checks = rules.map {
            Check(firstFamily: $0.first.family.index, first: $0.first.part,
                  secondFamily: $0.second.family.index, second: $0.second.part)
        }
    }

    /// No rules.
    public static let none = RuleSet([])

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
