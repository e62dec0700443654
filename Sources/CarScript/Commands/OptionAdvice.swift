import CarFactory

// What changing the current car to an option would do, worked out as `set` would work it
// out: for refusals that explain themselves and for completion that lists prices and the
// options a rule forbids.

/// What putting an option on a car would do.
package enum OptionAdvice: Equatable {
    /// It is the car's option already.
    case current
    /// Allowed; the unit price changes by this many base-currency minor units.
    case allowed(priceChange: Int64)
    /// A rule forbids it.
    case refused(Rule)
    /// It would price the car beyond what can be counted (never below zero: see `Catalog`).
    case unpriced

    /// What putting `part` on `car` would do under `rules`.
    package init(_ part: any Part, on car: Car, rules: RuleSet) {
        if car.part(of: part.family) === part {
            self = .current
            return
        }
        var builder = CarBuilder(car: car, rules: rules)
        do throws(CarFactoryError) {
            try builder.set(part)
            self = .allowed(priceChange: try builder.build().priceMinorUnits - car.priceMinorUnits)
        } catch {
            if case .ruleViolation(let rule) = error { self = .refused(rule) } else { self = .unpriced }
        }
    }

    /// `+$2,500.00`, `(current)`, `(not with the short floorplan)`, `(would cost more than can be counted)`.
    package func text(for family: PartFamily) -> String {
        switch self {
        case .current: return "(current)"
        case .allowed(let change): return Self.signed(change)
        case .refused(let rule):
            let other = rule.first.family == family ? rule.second : rule.first
            let needs = rule.kind == .require && rule.first.family == family
            return "(\(needs ? "needs" : "not with") the \(other.option) \(other.familyName))"
        case .unpriced: return "(would cost more than can be counted)"
        }
    }

    /// A price change with its sign: `+$2,500.00`, `-$400.00`, `+$0.00`.
    package static func signed(_ change: Int64) -> String {
        let text = Money.base(change).description
        return change < 0 ? text : "+" + text
    }

    /// The options of `family` that could replace `car`'s, with their price changes
    /// (`rear +$1,500.00`), looking at no more than `limit` options; and how many were not looked at.
    static func allowed(_ family: PartFamily, for car: Car, catalog: Catalog, limit: Int = 32) -> (names: [String], unchecked: Int) {
        let parts = catalog.options(of: family).parts
        var names: [String] = []
        for part in parts.prefix(limit) {
            if case .allowed(let change) = OptionAdvice(part, on: car, rules: catalog.ruleSet) {
                names.append("\(part.name) (\(signed(change)))")
            }
        }
        return (names, max(parts.count - limit, 0))
    }

    /// Notes for a change to `family` that `rule` refused on `car`: where the rule comes
    /// from, and what the car could have instead.
    static func notes(refusing family: PartFamily, of car: Car, by rule: Rule, catalog: Catalog) -> [Diagnostic.Note] {
        var notes = [origin(of: rule, catalog: catalog)]
        let (names, unchecked) = allowed(family, for: car, catalog: catalog)
        let familyName = catalog.name(of: family)
        var allowedText =
            names.isEmpty
            ? "no other \(familyName) option is allowed for this car"
            : "\(familyName) options allowed for this car: " + names.joined(separator: ", ")
        if unchecked > 0 { allowedText += " (\(unchecked) more options not checked)" }
        notes.append(Diagnostic.Note(allowedText))
        return notes
    }

    /// Where `rule` comes from: `FILE:LINE`, or the built-in catalog.
    static func origin(of rule: Rule, catalog: Catalog) -> Diagnostic.Note {
        if let origin = catalog.origin(of: rule), !origin.hasPrefix(BuiltInCatalog.name + ":") {
            return Diagnostic.Note("the rule '\(rule)' is defined here", at: origin)
        }
        return Diagnostic.Note("the rule '\(rule)' is part of the built-in catalog")
    }
}
