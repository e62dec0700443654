/// The options of one family, in definition order, found by name or by any other name.
public struct OptionTable: Sendable {
    /// The family's options.
    public private(set) var parts: [any Part] = []
    private var byKey = NameMap()
    /// For each option, the place of the cheapest of it and the options before it (the first
    /// defined of those at that price): options are added and taken off only at the end
    /// (`undo`), so the cheapest is known again at once when the last is taken off.
    private var cheapestSoFar: [Int] = []

    /// The option answering to `name` (case-insensitive).
    public func part(named name: some StringProtocol) -> (any Part)? {
        byKey[nameKey(name)].map { parts[$0] }
    }

    /// The option with the lowest list price (the first defined of those at that price).
    public var cheapest: (any Part)? { cheapestSoFar.last.map { parts[$0] } }

    /// Every name the options answer to, canonical names first.
    public var allNames: [String] {
        parts.map(\.name) + parts.flatMap(\.otherNames)
    }

    mutating func add(_ part: any Part) throws(CarFactoryError) {
        store(part, keys: try keys(of: part))
    }

    /// Adds `part`, whose names are known to be free (its own again, for `redo`).
    mutating func append(_ part: any Part) {
        store(part, keys: ([part.name] + part.otherNames).map { nameKey($0) })
    }

    /// The name keys `part` would answer to, refused if one clashes with another option's or
    /// is given twice.
    func keys(of part: any Part) throws(CarFactoryError) -> [String] {
        var keys: [String] = []
        // Past a few names, the keys seen so far are kept in a map: comparing each with every
        // earlier one was quadratic (an `option` line of 80,000 aliases took 31 s). A few are
        // compared, as the built-in catalog's are at every start (the map cost ~17,000 instructions).
        var seen = NameMap()
        let few = 8
        for name in [part.name] + part.otherNames {
            let key = nameKey(name)
            if let taken = byKey[key] {
                // Redefining an option by its own name says so; any other clash names the holder.
                let sameOption = name == part.name && nameKey(parts[taken].name) == key
                throw .duplicateOption(name, family: part.familyName, existing: sameOption ? nil : parts[taken].name)
            }
            if keys.count < few ? keys.contains(key) : seen[key] != nil { throw .repeatedName(name) }
            keys.append(key)
            if keys.count == few {
                for (index, key) in keys.enumerated() { seen.set(index, for: key) }
            } else if keys.count > few {
                seen.set(keys.count - 1, for: key)
            }
        }
        return keys
    }

    private mutating func store(_ part: any Part, keys: [String]) {
        for key in keys { byKey.set(parts.count, for: key) }
        let cheaper = cheapest.map { part.listPriceMinorUnits < $0.listPriceMinorUnits } ?? true
        cheapestSoFar.append(cheaper ? parts.count : cheapestSoFar[cheapestSoFar.count - 1])
        parts.append(part)
    }

    /// Takes the last option off (`undo`): the table is as it was before it was added.
    mutating func removeLast() -> (any Part)? {
        guard let part = parts.popLast() else { return nil }
        cheapestSoFar.removeLast()
        for name in [part.name] + part.otherNames { byKey.remove(nameKey(name)) }
        return part
    }
}
