/// Everything a session can build and value: models, options, rules and currencies.
///
/// Every definition is checked first and registered whole, or not at all.
public struct Catalog: Sendable {
    /// The model factories.
    public private(set) var registry = FactoryRegistry()
    /// The rules every car must keep.
    public private(set) var rules: [Rule] = [] {
        didSet { ruleSet = RuleSet(rules) }
    }
    /// The rules arranged for checking cars.
    public private(set) var ruleSet = RuleSet.none
    /// The currencies, in definition order.
    public private(set) var currencies: [Currency] = []
    private var optionTables = [OptionTable](repeating: OptionTable(), count: PartFamily.allCases.count)
    private var currencyIndex: [String: Int] = [:]

    /// A catalog holding only the base currency.
    public init() {
        currencies = [.base]
        currencyIndex = [nameKey(Currency.base.code): 0]
    }

    /// The options of `family`.
    public func options(of family: PartFamily) -> OptionTable {
        optionTables[family.index]
    }

    /// The option of `family` answering to `name`.
    public func option(named name: some StringProtocol, in family: PartFamily) throws(CarFactoryError) -> any Part {
        guard let part = optionTables[family.index].part(named: name) else {
            throw .unknownOption(String(name), family: family)
        }
        return part
    }

    /// The currency with code `code` (case-insensitive).
    public func currency(named code: some StringProtocol) throws(CarFactoryError) -> Currency {
        guard let index = currencyIndex[nameKey(code)] else { throw .unknownCurrency(String(code)) }
        return currencies[index]
    }

    /// A builder seeded with `model`'s default parts.
    public func builder(for model: some StringProtocol) throws(CarFactoryError) -> CarBuilder {
        CarBuilder(factory: try registry.factory(named: model), rules: ruleSet)
    }

    /// A builder seeded with an existing car, to change it.
    public func builder(for car: Car) -> CarBuilder {
        CarBuilder(car: car, rules: ruleSet)
    }

    /// Registers a new option of a family.
    public mutating func define(_ definition: OptionDefinition) throws(CarFactoryError) {
        let part: any Part
        switch definition.family {
        case .floorplan:
            guard let seats = definition.seats, let engine = definition.engine else {
                throw .floorplanNeedsLayout(definition.name)
            }
            guard (1...99).contains(seats) else { throw .invalidSeats(String(seats)) }
            part = CatalogFloorplan(definition, seats: seats, engine: engine)
        case .suspension, .drivetrain:
            guard definition.seats == nil, definition.engine == nil else {
                throw .layoutOnlyForFloorplans(definition.family)
            }
            part = definition.family == .suspension ? CatalogSuspension(definition) : CatalogDrivetrain(definition)
        }
        try optionTables[definition.family.index].add(part)
    }

    /// Registers a new model; its default options must exist and keep every rule.
    public mutating func define(_ definition: ModelDefinition) throws(CarFactoryError) {
        guard !registry.contains(definition.name) else { throw .duplicateModel(definition.name) }
        guard case .floorplan(let floorplan) = try option(named: definition.floorplan, in: .floorplan).kind,
              case .suspension(let suspension) = try option(named: definition.suspension, in: .suspension).kind,
              case .drivetrain(let drivetrain) = try option(named: definition.drivetrain, in: .drivetrain).kind
        else { preconditionFailure("option tables hold parts of their own family") }
        let factory = CatalogCarFactory(model: definition.name, carType: definition.carType,
                                        basePrice: definition.basePrice, floorplan: floorplan,
                                        suspension: suspension, drivetrain: drivetrain)
        if let broken = rules.first(where: { $0.isBroken(by: factory.defaultPart(of:)) }) {
            throw .defaultsBreakRule(model: definition.name, broken)
        }
        try registry.register(factory)
    }

    /// Adds a rule forbidding two options together; returns it with canonical option names.
    @discardableResult
    public mutating func forbid(_ first: PartChoice, with second: PartChoice) throws(CarFactoryError) -> Rule {
        guard first.family != second.family else { throw .ruleWithinOneFamily(first.family) }
        let rule = Rule(forbid: PartChoice(try option(named: first.option, in: first.family)),
                        with: PartChoice(try option(named: second.option, in: second.family)))
        let reversed = Rule(forbid: rule.second, with: rule.first)
        if let existing = rules.first(where: { $0 == rule || $0 == reversed }) { throw .duplicateRule(existing) }
        if let factory = registry.factories.first(where: { rule.isBroken(by: $0.defaultPart(of:)) }) {
            throw .defaultsBreakRule(model: factory.model, rule)
        }
        rules.append(rule)
        return rule
    }

    /// Registers a new currency.
    public mutating func define(_ currency: Currency) throws(CarFactoryError) {
        let key = nameKey(currency.code)
        guard currencyIndex[key] == nil else { throw .duplicateCurrency(currency.code) }
        currencyIndex[key] = currencies.count
        currencies.append(currency)
    }

    /// Changes the rate of a currency other than the base currency.
    public mutating func setRate(of code: some StringProtocol, to rate: DecimalNumber) throws(CarFactoryError) {
        guard let index = currencyIndex[nameKey(code)] else { throw .unknownCurrency(String(code)) }
        guard index != 0 else { throw .baseRateIsFixed(currencies[index].code) }
        currencies[index] = try currencies[index].with(rate: rate)
    }
}
