/// Everything a session can build and value: models, options, rules and currencies.
///
/// Every definition is checked first and registered whole, or not at all.
public struct Catalog: Sendable {
    /// The model factories.
    public private(set) var registry = FactoryRegistry()
    /// The rules every car must keep.
    public private(set) var rules: [Rule] = []
    /// Where each rule was defined (`FILE:LINE`; empty if not known), by its place in
    /// `rules`. (Strings, not optional ones: one generic type fewer to set up at start-up.)
    public private(set) var ruleOrigins: [String] = []
    /// The rules arranged for checking cars.
    public private(set) var ruleSet = RuleSet.none
    /// The currencies, in definition order.
    public private(set) var currencies: [Currency] = []
    private var optionTables = [OptionTable](repeating: OptionTable(), count: PartFamily.allCases.count)
    private var currencyIndex: [String: Int] = [:]
    /// Every definition, in the order made: a session saves those made since it began.
    public private(set) var definitions: [CatalogDefinition] = []
    /// Each rule (its place in `rules`) by the pair of parts it forbids, and the first model
    /// (its place among the factories) whose default options hold each pair: a new model or
    /// rule is checked against the others in constant time. (Positions, so that every map by
    /// pair is of one type: each generic type is set up at run time the first time it is
    /// used, which start-up pays for.)
    private var rulesByPair: [PartPair: Int] = [:]
    /// Each `require` rule (its place in `rules`) by its two parts in the order named.
    private var requiresByPair: [PartPair: Int] = [:]
    private var modelsByDefaultPair: [PartPair: Int] = [:]

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

    /// Registers a new option of a family; returns it.
    @discardableResult
    public mutating func define(_ definition: OptionDefinition) throws(CarFactoryError) -> any Part {
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
        definitions.append(.option(definition))
        return part
    }

    /// Registers a new model; its default options must exist and keep every rule. Returns its factory.
    @discardableResult
    public mutating func define(_ definition: ModelDefinition) throws(CarFactoryError) -> any CarFactory {
        guard !registry.contains(definition.name) else { throw .duplicateModel(definition.name) }
        guard case .floorplan(let floorplan) = try option(named: definition.floorplan, in: .floorplan).kind,
              case .suspension(let suspension) = try option(named: definition.suspension, in: .suspension).kind,
              case .drivetrain(let drivetrain) = try option(named: definition.drivetrain, in: .drivetrain).kind
        else { preconditionFailure("option tables hold parts of their own family") }
        let factory = CatalogCarFactory(model: definition.name, carType: definition.carType,
                                        basePrice: definition.basePrice, floorplan: floorplan,
                                        suspension: suspension, drivetrain: drivetrain)
        let pairs = PartPair.all(of: factory)
        for pair in pairs {
            if let broken = rulesByPair[pair] { throw .defaultsBreakRule(model: definition.name, rules[broken]) }
        }
        if let broken = firstRequireBroken(by: factory.defaultPart(of:)) {
            throw .defaultsBreakRule(model: definition.name, broken)
        }
        try checkCheapestCar(of: factory)
        try registry.register(factory)
        for pair in pairs where modelsByDefaultPair[pair] == nil { modelsByDefaultPair[pair] = registry.factories.count - 1 }
        definitions.append(.model(definition))
        return factory
    }

    /// Refuses a model that some choice of options the rules allow would price below zero.
    /// Only the few cheapest options of each family are tried (a bounded search); `set`
    /// refuses such a car too, whatever options come later.
    private func checkCheapestCar(of factory: any CarFactory) throws(CarFactoryError) {
        let candidates = PartFamily.allCases.map { family -> [any Part] in
            let standard = factory.defaultPart(of: family)
            return [standard] + optionTables[family.index].cheapest.filter { $0.listPriceMinorUnits < standard.listPriceMinorUnits }
        }
        var lowest: (price: Int64, parts: [any Part])?
        for floorplan in candidates[0] {
            for suspension in candidates[1] {
                for drivetrain in candidates[2] {
                    let parts = [floorplan, suspension, drivetrain]
                    var price = factory.basePriceMinorUnits
                    for (family, part) in parts.enumerated() {
                        let difference = part.listPriceMinorUnits.subtractingReportingOverflow(candidates[family][0].listPriceMinorUnits)
                        let sum = price.addingReportingOverflow(difference.partialValue)
                        price = difference.overflow || sum.overflow ? Int64.min : sum.partialValue
                    }
                    guard price < lowest?.price ?? 0,
                          rulesByPair[PartPair(floorplan, suspension)] == nil, rulesByPair[PartPair(floorplan, drivetrain)] == nil,
                          rulesByPair[PartPair(suspension, drivetrain)] == nil,
                          firstRequireBroken(by: { parts[$0.index] }) == nil else { continue }
                    lowest = (price, parts)
                }
            }
        }
        guard let lowest else { return }
        let changed = PartFamily.allCases.filter { lowest.parts[$0.index] !== candidates[$0.index][0] }
        throw .modelCouldCostLessThanNothing(model: factory.model, options: changed.map { "\(lowest.parts[$0.index].name) \($0)" },
                                             price: lowest.price)
    }

    /// The first `require` rule (in definition order) a car whose part of each family is
    /// `part(family)` breaks, if any. (Models are few and defined once: a walk over the rules.)
    private func firstRequireBroken(by part: (PartFamily) -> any Part) -> Rule? {
        guard !requiresByPair.isEmpty else { return nil }
        return rules.first { $0.kind == .require && $0.isBroken(by: part) }
    }

    /// Adds a rule forbidding two options together; returns it with canonical option names.
    /// `origin` says where it was defined (`FILE:LINE`), for messages about it.
    @discardableResult
    public mutating func forbid(_ first: PartChoice, with second: PartChoice,
                                origin: String? = nil) throws(CarFactoryError) -> Rule {
        try add(.forbid, first, with: second, origin: origin)
    }

    /// Adds a rule allowing `first` only on a car that also has `second`; returns it with
    /// canonical option names. `origin` says where it was defined (`FILE:LINE`).
    @discardableResult
    public mutating func require(_ first: PartChoice, with second: PartChoice,
                                 origin: String? = nil) throws(CarFactoryError) -> Rule {
        try add(.require, first, with: second, origin: origin)
    }

    /// Adds a rule of `kind` on `first` and `second`, once checked; returns it with canonical option names.
    @discardableResult
    public mutating func add(_ kind: Rule.Kind, _ first: PartChoice, with second: PartChoice,
                             origin: String? = nil) throws(CarFactoryError) -> Rule {
        let rule = try self.rule(kind, first, with: second)
        switch rule.kind {
        case .forbid: if let pair = PartPair(rule) { rulesByPair[pair] = rules.count }
        case .require: if let pair = PartPair(directed: rule) { requiresByPair[pair] = rules.count }
        }
        rules.append(rule)
        ruleOrigins.append(origin ?? "")
        ruleSet = ruleSet.adding(rule)
        definitions.append(.rule(rule))
        return rule
    }

    /// Where `rule` was defined (`FILE:LINE`), if known.
    public func origin(of rule: Rule) -> String? {
        guard let position = rules.firstIndex(of: rule), position < ruleOrigins.count,
              !ruleOrigins[position].isEmpty else { return nil }
        return ruleOrigins[position]
    }

    /// The rule `forbid` would add, checked against the rules and models but not added.
    public func rule(forbidding first: PartChoice, with second: PartChoice) throws(CarFactoryError) -> Rule {
        try rule(.forbid, first, with: second)
    }

    /// The rule `require` would add, checked against the rules and models but not added.
    public func rule(requiring first: PartChoice, with second: PartChoice) throws(CarFactoryError) -> Rule {
        try rule(.require, first, with: second)
    }

    /// The rule of `kind` on `first` and `second`, checked against the rules and models but not added.
    public func rule(_ kind: Rule.Kind, _ first: PartChoice, with second: PartChoice) throws(CarFactoryError) -> Rule {
        guard first.family != second.family else { throw .ruleWithinOneFamily(first.family) }
        let firstPart = try option(named: first.option, in: first.family)
        let secondPart = try option(named: second.option, in: second.family)
        switch kind {
        case .forbid:
            let rule = Rule(forbid: PartChoice(firstPart), with: PartChoice(secondPart))
            let pair = PartPair(firstPart, secondPart)
            if let existing = rulesByPair[pair] { throw .duplicateRule(rules[existing]) }
            if let model = modelsByDefaultPair[pair] { throw .defaultsBreakRule(model: registry.factories[model].model, rule) }
            return rule
        case .require:
            let rule = Rule(require: PartChoice(firstPart), with: PartChoice(secondPart))
            if let existing = PartPair(directed: rule).flatMap({ requiresByPair[$0] }) { throw .duplicateRule(rules[existing]) }
            // Models are few: each one's defaults are looked at.
            if let model = registry.factories.first(where: { rule.isBroken(by: $0.defaultPart(of:)) }) {
                throw .defaultsBreakRule(model: model.model, rule)
            }
            return rule
        }
    }

    /// Registers a new currency.
    public mutating func define(_ currency: Currency) throws(CarFactoryError) {
        let key = nameKey(currency.code)
        guard currencyIndex[key] == nil else { throw .duplicateCurrency(currency.code) }
        currencyIndex[key] = currencies.count
        currencies.append(currency)
        definitions.append(.currency(currency))
    }

    /// Changes the rate of a currency other than the base currency; returns its position among the currencies.
    @discardableResult
    public mutating func setRate(of code: some StringProtocol, to rate: DecimalNumber) throws(CarFactoryError) -> Int {
        guard let index = currencyIndex[nameKey(code)] else { throw .unknownCurrency(String(code)) }
        guard index != 0 else { throw .baseRateIsFixed(currencies[index].code) }
        currencies[index] = try currencies[index].with(rate: rate)
        return index
    }
}

/// Two parts of different families, in family order, by identity: what a rule forbids, and
/// what a car or a model's defaults hold three of.
struct PartPair: Hashable, Sendable {
    let first: ObjectIdentifier
    let second: ObjectIdentifier

    init(_ a: any Part, _ b: any Part) {
        (first, second) = a.family.index < b.family.index
            ? (ObjectIdentifier(a), ObjectIdentifier(b)) : (ObjectIdentifier(b), ObjectIdentifier(a))
    }

    /// The pair a rule forbids, if it names the catalog's parts themselves.
    init?(_ rule: Rule) {
        guard let a = rule.first.part, let b = rule.second.part else { return nil }
        (first, second) = rule.first.family.index < rule.second.family.index ? (a, b) : (b, a)
    }

    /// The parts a rule names, in the order it names them (a `require` rule's direction matters).
    init?(directed rule: Rule) {
        guard let a = rule.first.part, let b = rule.second.part else { return nil }
        (first, second) = (a, b)
    }

    /// The three pairs of a factory's default parts.
    static func all(of factory: any CarFactory) -> [PartPair] {
        let floorplan = factory.makeFloorplan(), suspension = factory.makeSuspension(), drivetrain = factory.makeDrivetrain()
        return [PartPair(floorplan, suspension), PartPair(floorplan, drivetrain), PartPair(suspension, drivetrain)]
    }
}
