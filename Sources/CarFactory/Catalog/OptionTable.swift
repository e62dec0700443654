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
        store(part, keys: keys)
    }

    /// Adds `part`, whose names are known to be free (its own again, for `redo`).
    mutating func append(_ part: any Part) {
        store(part, keys: ([part.name] + part.otherNames).map { nameKey($0) })
    }

    private mutating func store(_ part: any Part, keys: [String]) {
        for key in keys { byKey.set(parts.count, for: key) }
        parts.append(part)
        keepIfCheapest(part)
    }

    /// Takes the last option off (`undo`): the table is as it was before it was added.
    mutating func removeLast() -> (any Part)? {
        guard let part = parts.popLast() else { return nil }
        for name in [part.name] + part.otherNames { byKey.remove(nameKey(name)) }
        if let position = cheapest.firstIndex(where: { $0 === part }) {
            cheapest.remove(at: position)
            // An option it pushed out comes back: the cheapest kept are the first few of all
            // the options by price, the earlier first among equals.
            if cheapest.count == Self.cheapestKept - 1 && parts.count >= Self.cheapestKept {
                cheapest = []
                for part in parts { keepIfCheapest(part) }
            }
        }
        return part
    }

    private mutating func keepIfCheapest(_ part: any Part) {
        let position = cheapest.firstIndex { part.listPriceMinorUnits < $0.listPriceMinorUnits } ?? cheapest.count
        if position < Self.cheapestKept {
            cheapest.insert(part, at: position)
            if cheapest.count > Self.cheapestKept { cheapest.removeLast() }
        }
    }
}
