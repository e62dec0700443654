/// One option of one family, as a rule names it.
public struct PartChoice: Hashable, Sendable, CustomStringConvertible {
    /// The family.
    public let family: PartFamily
    /// The option's catalog name.
    public let option: String
    /// The family's name (`suspension`, `paint`).
    public let familyName: String
    /// The catalog's part, once resolved: checking a car then compares identities, not names.
    let part: ObjectIdentifier?

    /// Names `option` of the book's `family`.
    public init(_ family: PartFamily, _ option: String) {
        self.init(family, named: family.description, option)
    }

    /// Names `option` of `family`, which is called `familyName`.
    public init(_ family: PartFamily, named familyName: String, _ option: String) {
        self.family = family
        self.familyName = familyName
        self.option = option
        part = nil
    }

    /// Names the catalog's `part` itself.
    public init(_ part: any Part) {
        family = part.family
        familyName = part.familyName
        option = part.name
        self.part = ObjectIdentifier(part)
    }

    /// Whether `part` is this option.
    public func matches(_ part: any Part) -> Bool {
        if let identity = self.part { return ObjectIdentifier(part) == identity }
        return part.family == family && part.name == option
    }

    public static func == (lhs: PartChoice, rhs: PartChoice) -> Bool {
        lhs.family == rhs.family && lhs.option == rhs.option
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(family)
        hasher.combine(option)
    }

    /// `suspension race`.
    public var description: String { "\(familyName) \(option)" }
}

/// A rule on two options of different families: a pair that may not go on one car
/// (`forbid`), or an option that may go only on a car with another (`require`).
public struct Rule: Hashable, Sendable, CustomStringConvertible {
    /// What a rule says of its two options.
    public enum Kind: String, Hashable, Sendable {
        /// The two options may not go on one car.
        case forbid
        /// The first option may go only on a car that also has the second.
        case require
    }

    /// Whether it forbids the pair or requires the second with the first.
    public let kind: Kind
    /// The first option named.
    public let first: PartChoice
    /// The option it cannot go with (`forbid`), or must go with (`require`).
    public let second: PartChoice

    /// Forbids `first` together with `second`.
    public init(forbid first: PartChoice, with second: PartChoice) {
        kind = .forbid
        self.first = first
        self.second = second
    }

    /// Allows `first` only on a car that also has `second`.
    public init(require first: PartChoice, with second: PartChoice) {
        kind = .require
        self.first = first
        self.second = second
    }

    /// The rule named as it is identified among rules: a `forbid` forbids its pair either way
    /// round (`forbid A with B` is `forbid B with A`, one rule: "already defined"), so it names
    /// first the option `precedes` puts first; a `require` is directed, and stays as it is.
    /// The catalog's check for a rule defined already and `diff` both identify rules so.
    public func identified(by precedes: (PartChoice, PartChoice) -> Bool) -> Rule {
        isNamedReversed(by: precedes) ? Rule(forbid: second, with: first) : self
    }

    /// Whether the rule as identified (`identified(by:)`) names its options the other way round.
    @inline(__always)
    func isNamedReversed(by precedes: (PartChoice, PartChoice) -> Bool) -> Bool {
        kind == .forbid && precedes(second, first)
    }

    /// Whether a car whose part of each family is `part(family)` breaks the rule (nil: a
    /// part that is neither option).
    public func isBroken(by part: (PartFamily) -> (any Part)?) -> Bool {
        guard let held = part(first.family), first.matches(held) else { return false }
        let secondHeld = part(second.family).map(second.matches) ?? false
        return kind == .forbid ? secondHeld : !secondHeld
    }

    /// `race suspension cannot go with the long floorplan`, `4wd drivetrain needs the long floorplan`.
    /// "The", which reads right before any family's name: "a" read "needs a hydro brakes" for a
    /// family named `brakes` (trial 7).
    public var violationMessage: String {
        let other = "the \(second.option) \(second.familyName)"
        return switch kind {
        case .forbid: "\(first.option) \(first.familyName) cannot go with \(other)"
        case .require: "\(first.option) \(first.familyName) needs \(other)"
        }
    }

    /// The rule as it is written in a script: `forbid suspension race with floorplan long`.
    public var description: String { "\(kind.rawValue) \(first) with \(second)" }
}
