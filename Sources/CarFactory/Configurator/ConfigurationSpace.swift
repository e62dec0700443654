// A catalog's choices as plain numbers, for the configurator: any number of families, each a
// list of options with list prices, and rules on pairs of options. Nothing here knows the
// three families of today's catalog, so families defined as data fit it unchanged.

/// Families of options with their list prices and names, and the rules between options.
public struct ConfigurationSpace: Sendable {
    /// One option of one family, by positions.
    public struct Choice: Hashable, Sendable, CustomStringConvertible {
        /// The family's position.
        public let family: Int
        /// The option's position in its family.
        public let option: Int

        /// Option `option` of family `family`.
        public init(_ family: Int, _ option: Int) {
            self.family = family
            self.option = option
        }

        /// `2:1`, for test messages.
        public var description: String { "\(family):\(option)" }
    }

    /// A rule between two options of different families.
    public struct Constraint: Hashable, Sendable {
        /// Whether the pair is forbidden, or the second is required with the first.
        public let kind: Rule.Kind
        /// The first option named.
        public let first: Choice
        /// The second option named.
        public let second: Choice

        /// A rule of `kind` on `first` and `second`.
        public init(_ kind: Rule.Kind, _ first: Choice, _ second: Choice) {
            self.kind = kind
            self.first = first
            self.second = second
        }

        /// Whether the car `options` (an option per family) breaks it.
        public func isBroken(by options: [Int]) -> Bool {
            guard options[first.family] == first.option else { return false }
            return (options[second.family] == second.option) == (kind == .forbid)
        }
    }

    /// Each family's options' list prices, in base-currency minor units.
    public let prices: [[Int64]]
    /// Each family's options' names (ties are broken by them, in family order).
    public let names: [[String]]
    /// The rules, in definition order (rules naming an option or family out of range are left out).
    public let rules: [Constraint]

    /// A space of `prices.count` families; `names` must have the same shape.
    public init(prices: [[Int64]], names: [[String]], rules: [Constraint]) {
        self.prices = prices
        self.names = zip(prices, names).map { prices, names in
            prices.indices.map { $0 < names.count ? names[$0] : String($0) }
        }
        func valid(_ choice: Choice) -> Bool {
            prices.indices.contains(choice.family) && prices[choice.family].indices.contains(choice.option)
        }
        self.rules = rules.filter { valid($0.first) && valid($0.second) && $0.first.family != $0.second.family }
    }

    /// The number of families.
    public var familyCount: Int { prices.count }

    /// The rules `options` (an option per family) breaks, by their positions in `rules`.
    public func brokenRules(by options: [Int]) -> [Int] {
        rules.indices.filter { rules[$0].isBroken(by: options) }
    }

    /// The same families with only the rules at `kept` (positions in `rules`).
    public func keeping(rules kept: [Int]) -> ConfigurationSpace {
        ConfigurationSpace(prices: prices, names: names, rules: kept.map { rules[$0] })
    }
}

extension ConfigurationSpace {
    /// The catalog's families and rules (rules naming options by name are resolved by name).
    public init(_ catalog: Catalog) {
        let families = catalog.families
        let tables = families.map { catalog.options(of: $0).parts }
        var positions: [ObjectIdentifier: Int] = [:]
        for parts in tables {
            for (position, part) in parts.enumerated() { positions[ObjectIdentifier(part)] = position }
        }
        func choice(_ named: PartChoice) -> Choice? {
            guard let part = try? catalog.option(named: named.option, in: named.family),
                let position = positions[ObjectIdentifier(part)]
            else { return nil }
            return Choice(named.family.index, position)
        }
        let rules = catalog.rules.compactMap { rule -> Constraint? in
            guard let first = choice(rule.first), let second = choice(rule.second) else { return nil }
            return Constraint(rule.kind, first, second)
        }
        self.init(prices: tables.map { $0.map(\.listPriceMinorUnits) }, names: tables.map { $0.map(\.name) }, rules: rules)
    }

    /// The options of `car`, by position in each family (nil for an option not in the catalog).
    public static func options(of car: Car, in catalog: Catalog) -> [Int]? {
        var options: [Int] = []
        for family in catalog.families {
            let part = catalog.part(of: family, on: car)
            guard let position = catalog.options(of: family).parts.firstIndex(where: { $0 === part }) else { return nil }
            options.append(position)
        }
        return options
    }

    /// The options of `factory`'s defaults, by position in each family.
    public static func defaults(of factory: any CarFactory, in catalog: Catalog) -> [Int]? {
        var options: [Int] = []
        for family in catalog.families {
            let part = catalog.defaultPart(of: family, for: factory)
            guard let position = catalog.options(of: family).parts.firstIndex(where: { $0 === part }) else { return nil }
            options.append(position)
        }
        return options
    }
}
