/// One option of one family, as a rule names it.
public struct PartChoice: Hashable, Sendable, CustomStringConvertible {
    /// The family.
    public let family: PartFamily
    /// The option's catalog name.
    public let option: String
    /// The catalog's part, once resolved: checking a car then compares identities, not names.
    let part: ObjectIdentifier?

    /// Names `option` of `family`.
    public init(_ family: PartFamily, _ option: String) {
        self.family = family
        self.option = option
        part = nil
    }

    /// Names the catalog's `part` itself.
    public init(_ part: any Part) {
        family = part.family
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

    /// `race suspension cannot go with a long floorplan`, `... with an offroad suspension`.
    public var violationMessage: String {
        "\(first.option) \(first.family) cannot go with \(indefiniteArticle(before: second.option)) \(second.option) \(second.family)"
    }

    /// The rule as it is written in a script: `forbid suspension race with floorplan long`.
    public var description: String { "forbid \(first) with \(second)" }
}

/// "a" or "an" for the word that follows, by its first letter (`an offroad`, `a 4wd`).
package func indefiniteArticle(before word: String) -> String {
    guard let first = word.unicodeScalars.first else { return "a" }
    return "aeiouAEIOU".unicodeScalars.contains(first) ? "an" : "a"
}
