/// One option of one family, as a rule names it.
public struct PartChoice: Hashable, Sendable, CustomStringConvertible {
    /// The family.
    public let family: PartFamily
    /// The option's catalog name.
    public let option: String

    /// Names `option` of `family`.
    public init(_ family: PartFamily, _ option: String) {
        self.family = family
        self.option = option
    }

    /// Whether `part` is this option (rules hold canonical catalog names).
    public func matches(_ part: any Part) -> Bool {
        part.family == family && part.name == option
    }

    /// `suspension race`.
    public var description: String { "\(family) \(option)" }
}

/// A pair of options that may not go on one car.
public struct Rule: Hashable, Sendable, CustomStringConvertible {
    /// The first option named.
    public let first: PartChoice
    /// The option it cannot go with.
    public let second: PartChoice

    /// Forbids `first` together with `second`.
    public init(forbid first: PartChoice, with second: PartChoice) {
        self.first = first
        self.second = second
    }

    /// Whether a car whose part of each family is `part(family)` breaks the rule.
    public func isBroken(by part: (PartFamily) -> any Part) -> Bool {
        first.matches(part(first.family)) && second.matches(part(second.family))
    }

    /// `race suspension cannot go with a long floorplan`.
    public var violationMessage: String {
        "\(first.option) \(first.family) cannot go with a \(second.option) \(second.family)"
    }

    /// The rule as it is written in a script: `forbid suspension race with floorplan long`.
    public var description: String { "forbid \(first) with \(second)" }
}
