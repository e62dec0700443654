/// The options of one family, in definition order, found by name or by any other name.
public struct OptionTable: Sendable {
    /// The family's options.
    public private(set) var parts: [any Part] = []
    private var byKey = NameMap()

    /// The option answering to `name` (case-insensitive).
    public func part(named name: some StringProtocol) -> (any Part)? {
        byKey[nameKey(name)].map { parts[$0] }
    }

    /// The option with the lowest list price (the first defined of those at that price).
    public private(set) var cheapest: (any Part)?

    /// Every name the options answer to, canonical names first.
    public var allNames: [String] {
        parts.map(\.name) + parts.flatMap(\.otherNames)
    }

    mutating func add(_ part: any Part) throws(CarFactoryError) {
        let keys = try keys(of: part)
        for key in keys { byKey.set(parts.count, for: key) }
        parts.append(part)
        if cheapest.map({ part.listPriceMinorUnits < $0.listPriceMinorUnits }) ?? true { cheapest = part }
    }

    /// The name keys `part` would answer to, refused if one clashes with another option's or
    /// is given twice.
    func keys(of part: any Part) throws(CarFactoryError) -> [String] {
        var keys: [String] = []
        for name in [part.name] + part.otherNames {
            let key = nameKey(name)
            if let taken = byKey[key] {
                // Redefining an option by its own name says so; any other clash names the holder.
                let sameOption = name == part.name && nameKey(parts[taken].name) == key
                throw .duplicateOption(name, family: part.familyName, existing: sameOption ? nil : parts[taken].name)
            }
            if keys.contains(key) { throw .repeatedName(name) }
            keys.append(key)
        }
        return keys
    }
}
