import CarFactory

/// One currency ready to value amounts: the converter and formatter its factory made as a pair.
public final class CurrencyValuation: Sendable {
    /// The currency.
    public let currency: Currency
    /// Converts base-currency amounts into it.
    public let converter: CurrencyConverter
    /// Writes its amounts.
    public let formatter: MoneyFormatter
    /// Whether its symbol is shown as it is (`DisplayText.isPlain`): it comes from a script, and
    /// a text renderer that checked it on every `price` and `total` spent ~120 instructions each.
    package let symbolIsPlain: Bool

    init(_ currency: Currency) {
        let factory = ValuationFactory(currency: currency)
        self.currency = currency
        converter = factory.makeConverter()
        formatter = factory.makeFormatter()
        symbolIsPlain = DisplayText.isPlain(currency.symbol)
    }

    /// `minorUnits` of this currency as a `Money` value.
    public func money(_ minorUnits: Int64) -> Money { Money(minorUnits: minorUnits, currency: currency) }
}

/// The catalog arranged for the hot path: names looked up from bytes, valuations made once.
/// Made once per session and kept in step with each definition and rate change (see
/// `Session.changeCatalog`), each costing time in proportion to what it adds. Its parts are
/// constant references to storage that grows in place, so reading them counts no references.
final class CatalogIndex {
    let factories: GrowingList<any CarFactory>
    /// Each family's options, one constant each: a family's are reached by a switch, not an
    /// array lookup that would count a reference to what it returns.
    let floorplans: GrowingList<any Part>, suspensions: GrowingList<any Part>, drivetrains: GrowingList<any Part>
    /// The options of the catalog's defined families (family 3 first) and their names.
    private var others: [GrowingList<any Part>] = []
    private var otherNames: [NameIndex] = []
    let valuations: GrowingList<CurrencyValuation>
    /// The same valuations, to borrow on the hot path without counting references (`valuations`
    /// keeps them): `price` and `total` borrow theirs, which saves ~105 instructions of each
    /// (callgrind, 20,000 `price` and 20,000 `total GBP`: 1,261 -> 1,155 and 1,578 -> 1,476).
    let borrowedValuations: GrowingList<Unmanaged<CurrencyValuation>>
    // The indexes of names are constants whose tables change in place: a lookup reads the
    // table's storage through them and counts no reference, and no copy of a table's pointers
    // is kept here to go stale.
    /// Models by name.
    let models: NameIndex
    /// Currencies by code.
    let currencies: NameIndex
    private let floorplanNames: NameIndex, suspensionNames: NameIndex, drivetrainNames: NameIndex
    /// The part families by name.
    let families: NameIndex
    /// How many families the catalog has.
    var familyCount: Int { 3 + others.count }
    /// The base currency's valuation, for `total` and `price` without a currency.
    let base: CurrencyValuation
    /// The catalog's rules, for builders. Unchecked: `car` and `set` read them, one call of
    /// swift_beginAccess (63 instructions) each checked (callgrind, 10^5 commands).
    @exclusivity(unchecked) private(set) var rules: RuleSet
    /// Counts rule changes, so what was worked out under earlier rules is known to be stale.
    private(set) var rulesVersion = 0

    init(_ catalog: Catalog) {
        rules = catalog.ruleSet
        factories = GrowingList(catalog.registry.factories)
        models = NameIndex(catalog.registry.factories.map(\.model))
        func names(_ family: PartFamily) -> NameIndex {
            let table = catalog.options(of: family)
            var index = NameIndex(capacity: table.allNames.count)
            for (position, part) in table.parts.enumerated() {
                for name in [part.name] + part.otherNames { index.insert(name, value: position) }
            }
            index.arrange()
            return index
        }
        floorplans = GrowingList(catalog.options(of: .floorplan).parts)
        suspensions = GrowingList(catalog.options(of: .suspension).parts)
        drivetrains = GrowingList(catalog.options(of: .drivetrain).parts)
        floorplanNames = names(.floorplan)
        suspensionNames = names(.suspension)
        drivetrainNames = names(.drivetrain)
        families = NameIndex(catalog.familyNames)
        let valuations = catalog.currencies.map(CurrencyValuation.init)
        self.valuations = GrowingList(valuations)
        borrowedValuations = GrowingList(valuations.map { Unmanaged.passUnretained($0) })
        currencies = NameIndex(catalog.currencies.map(\.code))
        base = valuations[0]
        for family in catalog.definedFamilies {
            let names = names(family)
            others.append(GrowingList(catalog.options(of: family).parts))
            otherNames.append(names)
        }
    }

    /// The options of family `index` (in the catalog's family order).
    @inline(__always)
    func parts(_ index: Int) -> GrowingList<any Part> {
        switch index {
        case 0: floorplans
        case 1: suspensions
        case 2: drivetrains
        default: others[index - 3]
        }
    }

    /// The position among its family's options of the option a lexed word names, in any case.
    @inline(__always)
    func option(_ word: PaddedBytes, family index: Int) -> Int? {
        switch index {
        case 0: floorplanNames.lookup(word)
        case 1: suspensionNames.lookup(word)
        case 2: drivetrainNames.lookup(word)
        default: otherLookup(word, index - 3)
        }
    }

    @inline(never)
    private func otherLookup(_ word: PaddedBytes, _ position: Int) -> Int? {
        otherNames[position].lookup(word)
    }

    private func names(_ index: Int) -> NameIndex {
        switch index {
        case 0: floorplanNames
        case 1: suspensionNames
        case 2: drivetrainNames
        default: otherNames[index - 3]
        }
    }

    /// Adds a new family, called `name`, and its first option.
    func addFamily(_ name: String, _ part: any Part) {
        families.addInPlace(name, value: 3 + others.count)
        families.arrangeInPlace()
        others.append(GrowingList([]))
        otherNames.append(NameIndex())
        add(part)
    }

    /// Adds a new option.
    func add(_ part: any Part) {
        let family = part.family.index
        let names = names(family)
        let parts = parts(family)
        for name in [part.name] + part.otherNames { names.addInPlace(name, value: parts.count) }
        names.arrangeInPlace()
        parts.append(part)
    }

    /// Adds a new model.
    func add(_ factory: any CarFactory) {
        models.addInPlace(factory.model, value: factories.count)
        models.arrangeInPlace()
        factories.append(factory)
    }

    /// Adds a new currency.
    func add(_ currency: Currency) {
        currencies.addInPlace(currency.code, value: valuations.count)
        currencies.arrangeInPlace()
        let valuation = CurrencyValuation(currency)
        valuations.append(valuation)
        borrowedValuations.append(.passUnretained(valuation))
    }

    /// Takes a currency's new rate.
    func update(_ currency: Currency, at position: Int) {
        let valuation = CurrencyValuation(currency)
        valuations[position] = valuation
        borrowedValuations[position] = .passUnretained(valuation)
    }

    /// Takes the catalog's rules after a new one.
    func update(_ rules: RuleSet) {
        self.rules = rules
        rulesVersion += 1
    }

    /// Takes `catalog` (an earlier or later value of the catalog it was kept in step with, put
    /// back by `undo` or `redo`): drops or adds the options, models and currencies that differ
    /// at the end, takes every rate and the rules. What was worked out under the old catalog
    /// is forgotten (the rules' version moves on).
    func sync(with catalog: Catalog) {
        let familyCount = catalog.familyNames.count
        if self.familyCount > familyCount {
            families.removeInPlace(from: familyCount)
            others.removeLast(self.familyCount - familyCount)
            otherNames.removeLast(otherNames.count - others.count)
        }
        while self.familyCount < familyCount {
            let family = PartFamily(index: self.familyCount)
            families.addInPlace(catalog.name(of: family), value: family.index)
            families.arrangeInPlace()
            others.append(GrowingList([]))
            otherNames.append(NameIndex())
        }
        for family in catalog.families {
            let wanted = catalog.options(of: family).parts
            let parts = parts(family.index)
            if parts.count > wanted.count {
                names(family.index).removeInPlace(from: wanted.count)
                parts.removeLast(parts.count - wanted.count)
            }
            for part in wanted[parts.count...] { add(part) }
        }
        let factories = catalog.registry.factories
        if self.factories.count > factories.count {
            models.removeInPlace(from: factories.count)
            self.factories.removeLast(self.factories.count - factories.count)
        }
        for factory in factories[self.factories.count...] { add(factory) }
        let currencies = catalog.currencies
        if valuations.count > currencies.count {
            self.currencies.removeInPlace(from: currencies.count)
            borrowedValuations.removeLast(valuations.count - currencies.count)
            valuations.removeLast(valuations.count - currencies.count)
        }
        for position in 0..<valuations.count where valuations[position].currency.rate != currencies[position].rate {
            update(currencies[position], at: position)
        }
        for currency in currencies[valuations.count...] { add(currency) }
        update(catalog.ruleSet)
    }
}
