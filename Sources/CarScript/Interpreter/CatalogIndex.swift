import CarFactory

/// One currency ready to value amounts: the converter and formatter its factory made as a pair.
public final class CurrencyValuation: Sendable {
    /// The currency.
    public let currency: Currency
    /// Converts base-currency amounts into it.
    public let converter: CurrencyConverter
    /// Writes its amounts.
    public let formatter: MoneyFormatter

    init(_ currency: Currency) {
        let factory = ValuationFactory(currency: currency)
        self.currency = currency
        converter = factory.makeConverter()
        formatter = factory.makeFormatter()
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
    let models: NameIndex
    /// Each family's options and their names, one constant each: a family's are reached by a
    /// switch, not an array lookup that would count a reference to what it returns.
    let floorplans: GrowingList<any Part>, suspensions: GrowingList<any Part>, drivetrains: GrowingList<any Part>
    let floorplanNames: NameIndex, suspensionNames: NameIndex, drivetrainNames: NameIndex
    let valuations: GrowingList<CurrencyValuation>
    let currencies: NameIndex
    /// The base currency's valuation, for `total` and `price` without a currency.
    let base: CurrencyValuation
    /// The catalog's rules, for builders.
    @exclusivity(unchecked) private(set) var rules: RuleSet

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
        let valuations = catalog.currencies.map(CurrencyValuation.init)
        self.valuations = GrowingList(valuations)
        currencies = NameIndex(catalog.currencies.map(\.code))
        base = valuations[0]
    }

    /// The options of family `index` (in `PartFamily.allCases` order).
    @inline(__always)
    func parts(_ index: Int) -> GrowingList<any Part> {
        switch index {
        case 0: floorplans
        case 1: suspensions
        default: drivetrains
        }
    }

    /// The position among its family's options of the option a lexed word names, in any case.
    @inline(__always)
    func option(_ word: PaddedBytes, family index: Int) -> Int? {
        switch index {
        case 0: floorplanNames.lookup(word)
        case 1: suspensionNames.lookup(word)
        default: drivetrainNames.lookup(word)
        }
    }

    private func names(_ index: Int) -> NameIndex {
        switch index {
        case 0: floorplanNames
        case 1: suspensionNames
        default: drivetrainNames
        }
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
        valuations.append(CurrencyValuation(currency))
    }

    /// Takes a currency's new rate.
    func update(_ currency: Currency, at position: Int) {
        valuations[position] = CurrencyValuation(currency)
    }

    /// Takes the catalog's rules after a new one.
    func update(_ rules: RuleSet) {
        self.rules = rules
    }

    static let families = NameIndex(PartFamily.allCases.map(\.rawValue))
}
