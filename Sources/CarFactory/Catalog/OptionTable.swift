/// The options of one family, in definition order, found by name or by any other name.
public struct OptionTable: Sendable {
    /// The family's options.
    public private(set) var parts: [any Part] = []
    private var byKey = NameMap()

    /// The option answering to `name` (case-insensitive).
    public func part(named name: some StringProtocol) -> (any Part)? {
        byKey[nameKey(name)].map { parts[$0] }
    }

    /// The options with the lowest list prices, cheapest first (at most `cheapestKept`).
    public private(set) var cheapest: [any Part] = []
    /// How many of the cheapest options are kept.
    static let cheapestKept = 8

    /// Every name the options answer to, canonical names first.
    public var allNames: [String] {
        parts.map(\.name) + parts.flatMap(\.otherNames)
    }

    mutating func add(_ part: any Part) throws(CarFactoryError) {
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
        for key in keys { byKey.set(parts.count, for: key) }
        parts.append(part)
        let position = cheapest.firstIndex { part.listPriceMinorUnits < $0.listPriceMinorUnits } ?? cheapest.count
        if position < Self.cheapestKept {
            cheapest.insert(part, at: position)
            if cheapest.count > Self.cheapestKept { cheapest.removeLast() }
        }
    }
}
