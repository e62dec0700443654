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
/// Rebuilt whenever the session's catalog changes (definitions and rates are rare).
final class CatalogIndex: Sendable {
    let factories: [any CarFactory]
    let models: NameIndex
    let parts: [[any Part]]
    let options: [NameIndex]
    let valuations: [CurrencyValuation]
    let currencies: NameIndex
    /// The base currency's valuation, for `total` and `price` without a currency.
    let base: CurrencyValuation
    /// The catalog's rules, for builders.
    let rules: RuleSet

    init(_ catalog: Catalog) {
        rules = catalog.ruleSet
        factories = catalog.registry.factories
        models = NameIndex(factories.map(\.model))
        var parts: [[any Part]] = []
        var options: [NameIndex] = []
        for family in PartFamily.allCases {
            let table = catalog.options(of: family)
            parts.append(table.parts)
            var index = NameIndex(capacity: table.allNames.count)
            for (position, part) in table.parts.enumerated() {
                for name in [part.name] + part.otherNames { index.insert(name, value: position) }
            }
            index.arrange()
            options.append(index)
        }
        self.parts = parts
        self.options = options
        valuations = catalog.currencies.map(CurrencyValuation.init)
        currencies = NameIndex(catalog.currencies.map(\.code))
        base = valuations[0]
    }

    static let families = NameIndex(PartFamily.allCases.map(\.rawValue))

    /// An index of an empty catalog.
    static let empty = CatalogIndex(Catalog())
}
