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
    private var ruleOrigins = RuleOrigins()
    /// The rules arranged for checking cars.
    public private(set) var ruleSet = RuleSet.none
    /// The currencies, in definition order.
    public private(set) var currencies: [Currency] = []
    private var optionTables = [OptionTable](repeating: OptionTable(), count: PartFamily.book.count)
    /// Every family's name, in family order (the book's three first).
    public private(set) var familyNames = PartFamily.bookNames
    /// Each defined family's name and how it is shown (family 3 first).
    private var familyLabels: [FamilyLabel] = []
    /// Families and currencies by name key (`NameMap`: no `[String: Int]` to set up at start-up).
    private var familyIndex = NameMap()
    private var currencyIndex = NameMap()
    /// Every definition, in the order made: a session saves those made since it began.
    public private(set) var definitions: [CatalogDefinition] = []
    /// The most bytes the names and texts of a catalog's definitions may hold in all, each
    /// definition counted `EntryCost` bytes more: each name may hold 4 KiB (the language's
    /// bound), an option a line of aliases, and a few lines that `source` one another many
    /// times could otherwise define gigabytes of them.
    public static let textLimit = 1 << 24
    /// The bytes the names and texts of the definitions hold and their entries count, against
    /// `textLimit`.
    public private(set) var textBytes = 0
    /// Each rule (its place in `rules`) by the pair of parts it forbids, and the first model
    /// (its place among the factories) whose default options hold each pair: a new model or
    /// rule is checked against the others in constant time. (Positions, so that every map by
    /// pair is of one type: each generic type is set up at run time the first time it is
    /// used, which start-up pays for.)
    private var rulesByPair = PartPairMap()
    /// Each `require` rule (its place in `rules`) by its two parts in the order named.
    private var requiresByPair = PartPairMap()
    private var modelsByDefaultPair = PartPairMap()
    /// The least a car of any model can cost, and the first model (its place among the
    /// factories) that can cost so little: see `lowestPrice(of:)`. Never below zero: a
    /// definition that would take it there is refused. One figure serves every model: a
    /// family's cheapest option is never dearer than a model's default (which is one of its
    /// options), so a new cheapest option lowers every model's least price by the same amount.
    private var lowest: (price: Int64, model: Int)?

    /// A catalog holding only the base currency.
    public init() {
        currencies = [.base]
        currencyIndex.set(0, for: nameKey(Currency.base.code))
        for (position, name) in PartFamily.bookNames.enumerated() { familyIndex.set(position, for: name) }
    }

    /// The options of `family`.
    public func options(of family: PartFamily) -> OptionTable {
        optionTables[family.index]
    }

    /// Every family, in definition order (the book's three first).
    public var families: [PartFamily] { familyNames.indices.map(PartFamily.init(index:)) }

    /// The families defined in the catalog (after the book's three).
    public var definedFamilies: ArraySlice<PartFamily> { families[3...] }

    /// The family called `name` (case-insensitive), if any.
    public func family(named name: some StringProtocol) -> PartFamily? {
        familyIndex[nameKey(name)].map(PartFamily.init(index:))
    }

    /// The name of `family` (`suspension`, `paint`).
    public func name(of family: PartFamily) -> String {
        family.index < familyNames.count ? familyNames[family.index] : family.description
    }

    /// How a defined family is shown on a car (`Paint`); a book family's name.
    public func shownAs(of family: PartFamily) -> String {
        family.isBook || family.index - 3 >= familyLabels.count ? name(of: family) : familyLabels[family.index - 3].shownAs
    }

    /// The first option of a defined family, which a model that names none has (nil for the book's).
    public func defaultOption(of family: PartFamily) -> (any Part)? {
        family.isBook || family.index - 3 >= ruleSet.familyDefaults.count ? nil : ruleSet.familyDefaults[family.index - 3]
    }

    /// `factory`'s default option of `family` (a family defined after the model: its first option).
    public func defaultPart(of family: PartFamily, for factory: any CarFactory) -> any Part {
        // The catalog's factories were made under its families (an undone family goes with
        // the catalog value that had it), so a model lacks only families defined after it.
        factory.defaultPart(of: family) ?? defaultOption(of: family) ?? factory.makeDrivetrain()
    }

    /// `car`'s part of `family` (a car made before the family was defined: its model's default).
    public func part(of family: PartFamily, on car: Car) -> any Part {
        ruleSet.completed(car.configuration).part(of: family) ?? car.drivetrain
    }

    /// `car`'s part of every family, in family order: completed once, where `part(of:on:)` a
    /// family at a time completes it each time (61 families: `save` of 100,000 configured
    /// cars spent 29 s comparing every family for each; trial 11, 1).
    public func parts(on car: Car) -> [any Part] {
        completed(car).configuration.parts
    }

    /// `car` with a part of every family (the same car when it has them).
    public func completed(_ car: Car) -> Car {
        let configuration = ruleSet.completed(car.configuration)
        return configuration === car.configuration ? car : Car(configuration: configuration)
    }

    /// The option of `family` answering to `name`.
    public func option(named name: some StringProtocol, in family: PartFamily) throws(CarFactoryError) -> any Part {
        guard family.index < optionTables.count, let part = optionTables[family.index].part(named: name) else {
            throw .unknownOption(String(name), family: self.name(of: family))
        }
        return part
    }

    /// Registers a new family with its first option, which every model (and every car in
    /// stock) has until it names another; returns that option.
    @discardableResult
    public mutating func define(_ definition: FamilyDefinition) throws(CarFactoryError) -> any Part {
        guard familyIndex[nameKey(definition.name)] == nil else { throw .duplicateFamily(definition.name) }
        guard familyNames.count < PartFamily.limit else { throw .tooManyFamilies(limit: PartFamily.limit) }
        let bytes = try textRoom(EntryCost.family, [definition.name, definition.shownAs, definition.option, definition.optionShownAs])
        let family = PartFamily(index: familyNames.count)
        let label = FamilyLabel(name: definition.name, shownAs: definition.shownAs, defaultOption: definition.option)
        let option = OptionDefinition(
            family: family, familyName: definition.name, name: definition.option, shownAs: definition.optionShownAs,
            listPrice: definition.listPrice)
        let part = CatalogDefinedOption(option, label: label)
        var table = OptionTable()
        try table.add(part)
        store(definition, part: part, table: table, label: label)
        textBytes += bytes
        return part
    }

    /// Adds a family whose name is known to be free, with its one option `part` (in `table`):
    /// what defining it and putting it back (`restore`) share.
    private mutating func store(_ definition: FamilyDefinition, part: any Part, table: OptionTable, label: FamilyLabel) {
        familyIndex.set(familyNames.count, for: nameKey(definition.name))
        familyNames.append(definition.name)
        familyLabels.append(label)
        optionTables.append(table)
        ruleSet = ruleSet.adding(familyDefault: part)
        // Every model has the new option: its pairs with each model's other defaults are known.
        for (position, factory) in registry.factories.enumerated() {
            for pair in defaultPairs(of: factory) where modelsByDefaultPair[pair] == nil { modelsByDefaultPair.set(position, for: pair) }
        }
        definitions.append(.family(definition))
    }

    /// The bytes a definition counts: `texts` and `entry` more, if the catalog has room for
    /// them (see `textLimit`).
    private func textRoom(_ entry: Int, _ texts: [String]) throws(CarFactoryError) -> Int {
        let bytes = texts.reduce(entry) { $0 + $1.utf8.count }
        guard bytes <= Self.textLimit - textBytes else { throw .catalogTooLarge(limit: Self.textLimit) }
        return bytes
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
        let family = definition.family
        guard family.index < optionTables.count else { throw .unknownOption(definition.name, family: name(of: family)) }
        guard optionTables[family.index].parts.count < PartFamily.optionLimit else {
            throw .tooManyOptions(family: name(of: family), limit: PartFamily.optionLimit)
        }
        let bytes = try textRoom(EntryCost.option, [definition.name, definition.shownAs] + definition.otherNames)
        if family == .floorplan {
            guard let seats = definition.seats, let engine = definition.engine else {
                throw .floorplanNeedsLayout(definition.name)
            }
            guard (1...99).contains(seats) else { throw .invalidSeats(String(seats)) }
            part = CatalogFloorplan(definition, seats: seats, engine: engine)
        } else {
            guard definition.seats == nil, definition.engine == nil else {
                throw .layoutOnlyForFloorplans(name(of: family))
            }
            part =
                switch family.index {
                case 1: CatalogSuspension(definition)
                case 2: CatalogDrivetrain(definition)
                default: CatalogDefinedOption(definition, label: familyLabels[family.index - 3])
                }
        }
        if let cheapest = optionTables[family.index].cheapest, part.listPriceMinorUnits < cheapest.listPriceMinorUnits {
            // A name that clashes is the error to give first; then the models the new
            // cheapest option takes further down.
            _ = try optionTables[family.index].keys(of: part)
            try lowerLowestPrices(family: family, cheapest: cheapest, to: part)
        }
        try optionTables[family.index].add(part)
        definitions.append(.option(definition))
        textBytes += bytes
        return part
    }

    /// Registers a new model; its default options must exist and keep every rule. Returns its factory.
    @discardableResult
    public mutating func define(_ definition: ModelDefinition) throws(CarFactoryError) -> any CarFactory {
        guard !registry.contains(definition.name) else { throw .duplicateModel(definition.name) }
        let bytes = try textRoom(
            EntryCost.model + EntryCost.modelOption * definition.others.count,
            [definition.name, definition.carType] + definition.others.flatMap { [$0.family, $0.option] })
        guard case .floorplan(let floorplan) = try option(named: definition.floorplan, in: .floorplan).kind,
            case .suspension(let suspension) = try option(named: definition.suspension, in: .suspension).kind,
            case .drivetrain(let drivetrain) = try option(named: definition.drivetrain, in: .drivetrain).kind
        else { preconditionFailure("option tables hold parts of their own family") }
        var others = ruleSet.familyDefaults
        for (familyName, optionName) in definition.others {
            guard let family = family(named: familyName), !family.isBook else {
                throw .unknownOption(optionName, family: familyName)
            }
            others[family.index - 3] = try option(named: optionName, in: family)
        }
        let factory = CatalogCarFactory(
            model: definition.name, carType: definition.carType,
            basePrice: definition.basePrice, floorplan: floorplan,
            suspension: suspension, drivetrain: drivetrain, others: others)
        let pairs = defaultPairs(of: factory)
        for pair in pairs {
            if let broken = rulesByPair[pair] { throw .defaultsBreakRule(model: definition.name, rules[broken]) }
        }
        if let broken = firstRequireBroken(by: factory.defaultPart(of:)) {
            throw .defaultsBreakRule(model: definition.name, broken)
        }
        let lowest = lowestPrice(of: factory)
        if lowest.price < 0 { throw .modelCouldCostLessThanNothing(model: factory.model, options: lowest.options, price: lowest.price) }
        try registry.register(factory)
        if self.lowest.map({ lowest.price < $0.price }) ?? true { self.lowest = (lowest.price, registry.factories.count - 1) }
        storeLastModelPairs(pairs)
        definitions.append(.model(definition))
        textBytes += bytes
        return factory
    }

    /// Records `pairs`, those of the last model's defaults, where no earlier model holds them.
    private mutating func storeLastModelPairs(_ pairs: [PartPair]) {
        for pair in pairs where modelsByDefaultPair[pair] == nil { modelsByDefaultPair.set(registry.factories.count - 1, for: pair) }
    }

    /// The least a car of `factory` can cost, ignoring the rules: its base price plus, for
    /// each family, the family's cheapest option's list price less the model's default's
    /// (where that is lower), and those cheapest options (`rear drivetrain`). An exact,
    /// linear bound known as each definition is made: rules only take cars away, so no car
    /// of the model costs less, and no search can be defeated by them.
    private func lowestPrice(of factory: any CarFactory, cheapest: (PartFamily) -> (any Part)? = { _ in nil }) -> (
        price: Int64, options: [String]
    ) {
        var price = factory.basePriceMinorUnits
        var options: [String] = []
        for family in families {
            guard let option = cheapest(family) ?? optionTables[family.index].cheapest else { continue }
            let change = Self.change(to: option, from: defaultPart(of: family, for: factory))
            guard change < 0 else { continue }
            price = Self.saturating(price, change)
            options.append("\(option.name) \(familyNames[family.index])")
        }
        return (price, options)
    }

    /// Refuses `part`, the new cheapest option of `family` in place of `cheapest`, if it
    /// would let a model's cars cost below zero (the model that can cost least is named); else
    /// records the new least price. Constant time: every model's least price falls by the
    /// same amount (see `lowest`).
    private mutating func lowerLowestPrices(family: PartFamily, cheapest: any Part, to part: any Part) throws(CarFactoryError) {
        guard let lowest else { return }
        let lowered = Self.saturating(lowest.price, Self.change(to: part, from: cheapest))
        if lowered < 0 {
            let named = lowestPrice(of: registry.factories[lowest.model]) { $0 == family ? part : nil }
            throw .modelCouldCostLessThanNothing(model: registry.factories[lowest.model].model, options: named.options, price: named.price)
        }
        self.lowest = (lowered, lowest.model)
    }

    /// `option`'s list price less `standard`'s (saturated: amounts are bounded far within it).
    private static func change(to option: any Part, from standard: any Part) -> Int64 {
        saturating(option.listPriceMinorUnits, -standard.listPriceMinorUnits)
    }

    /// `a + b`, held at the ends of `Int64` instead of overflowing.
    private static func saturating(_ a: Int64, _ b: Int64) -> Int64 {
        let sum = a.addingReportingOverflow(b)
        return sum.overflow ? (b < 0 ? Int64.min : Int64.max) : sum.partialValue
    }

    /// The pairs of `factory`'s default parts, one of each family the catalog has.
    private func defaultPairs(of factory: any CarFactory) -> [PartPair] {
        let parts = families.map { defaultPart(of: $0, for: factory) }
        var pairs: [PartPair] = []
        for later in parts.indices {
            for earlier in 0..<later { pairs.append(PartPair(parts[earlier], parts[later])) }
        }
        return pairs
    }

    /// The first `require` rule (in definition order) a car whose part of each family is
    /// `part(family)` breaks, if any. (Models are few and defined once: a walk over the rules.)
    private func firstRequireBroken(by part: (PartFamily) -> (any Part)?) -> Rule? {
        guard !requiresByPair.isEmpty else { return nil }
        return rules.first { $0.kind == .require && $0.isBroken(by: part) }
    }

    /// Adds a rule forbidding two options together; returns it with canonical option names.
    /// `origin` says where it was defined (`FILE:LINE`), for messages about it.
    @discardableResult
    public mutating func forbid(
        _ first: PartChoice, with second: PartChoice,
        origin: String? = nil
    ) throws(CarFactoryError) -> Rule {
        try add(.forbid, first, with: second, origin: origin)
    }

    /// Adds a rule allowing `first` only on a car that also has `second`; returns it with
    /// canonical option names. `origin` says where it was defined (`FILE:LINE`).
    @discardableResult
    public mutating func require(
        _ first: PartChoice, with second: PartChoice,
        origin: String? = nil
    ) throws(CarFactoryError) -> Rule {
        try add(.require, first, with: second, origin: origin)
    }

    /// Adds a rule of `kind` on `first` and `second`, once checked; returns it with canonical
    /// option names. `origin` says where it was defined (`FILE:LINE`).
    @discardableResult
    public mutating func add(
        _ kind: Rule.Kind, _ first: PartChoice, with second: PartChoice,
        origin: String? = nil
    ) throws(CarFactoryError) -> Rule {
        try add(kind, first, with: second, origin: RuleOrigins.Origin(parsing: origin ?? ""))
    }

    /// Adds a rule of `kind` on `first` and `second` defined at line `line` of `file`, once
    /// checked; returns it with canonical option names. (The file's name as the script's
    /// frame holds it, shared by its rules, nothing made of it: the built-in catalog's rules
    /// come here at every start.)
    @discardableResult
    public mutating func add(
        _ kind: Rule.Kind, _ first: PartChoice, with second: PartChoice, file: String, line: Int
    ) throws(CarFactoryError) -> Rule {
        try add(kind, first, with: second, origin: RuleOrigins.Origin(file: file, line: line))
    }

    private mutating func add(
        _ kind: Rule.Kind, _ first: PartChoice, with second: PartChoice, origin: RuleOrigins.Origin
    ) throws(CarFactoryError) -> Rule {
        let rule = try self.rule(kind, first, with: second)
        let bytes = try textRoom(EntryCost.rule + ruleOrigins.cost(of: origin), [rule.first.option, rule.second.option])
        store(rule, origin: origin)
        ruleSet = ruleSet.adding(rule)
        textBytes += bytes
        return rule
    }

    /// Adds a checked rule, found by its pair of parts: what adding it and putting it back
    /// (`restore`) share.
    private mutating func store(_ rule: Rule, origin: RuleOrigins.Origin) {
        switch rule.kind {
        case .forbid: if let pair = PartPair(identifying: rule) { rulesByPair.set(rules.count, for: pair) }
        case .require: if let pair = PartPair(identifying: rule) { requiresByPair.set(rules.count, for: pair) }
        }
        rules.append(rule)
        ruleOrigins.append(origin)
        definitions.append(.rule(rule))
    }

    /// Where `rule` was defined (`FILE:LINE`), if known.
    public func origin(of rule: Rule) -> String? {
        guard let position = rules.firstIndex(of: rule) else { return nil }
        return ruleOrigins.origin(at: position)
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
        guard first.family != second.family else { throw .ruleWithinOneFamily(name(of: first.family)) }
        let firstPart = try option(named: first.option, in: first.family)
        let secondPart = try option(named: second.option, in: second.family)
        switch kind {
        case .forbid:
            let rule = Rule(forbid: PartChoice(firstPart), with: PartChoice(secondPart))
            let pair = PartPair(firstPart, secondPart)
            if let existing = PartPair(identifying: rule).flatMap({ rulesByPair[$0] }) { throw .duplicateRule(rules[existing]) }
            if let model = modelsByDefaultPair[pair] { throw .defaultsBreakRule(model: registry.factories[model].model, rule) }
            return rule
        case .require:
            let rule = Rule(require: PartChoice(firstPart), with: PartChoice(secondPart))
            if let existing = PartPair(identifying: rule).flatMap({ requiresByPair[$0] }) { throw .duplicateRule(rules[existing]) }
            // Models are few: each one's defaults are looked at.
            if let model = registry.factories.first(where: { factory in rule.isBroken { defaultPart(of: $0, for: factory) } }) {
                throw .defaultsBreakRule(model: model.model, rule)
            }
            return rule
        }
    }

    /// Registers a new currency.
    public mutating func define(_ currency: Currency) throws(CarFactoryError) {
        let key = nameKey(currency.code)
        guard currencyIndex[key] == nil else { throw .duplicateCurrency(currency.code) }
        let bytes = try textRoom(EntryCost.currency, [currency.code, currency.symbol])
        textBytes += bytes
        store(currency)
    }

    /// Adds a currency whose code is known to be free.
    private mutating func store(_ currency: Currency) {
        currencyIndex.set(currencies.count, for: nameKey(currency.code))
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
struct PartPair: Sendable {
    let first: ObjectIdentifier
    let second: ObjectIdentifier

    init(_ a: any Part, _ b: any Part) {
        (first, second) =
            a.family.index < b.family.index
            ? (ObjectIdentifier(a), ObjectIdentifier(b)) : (ObjectIdentifier(b), ObjectIdentifier(a))
    }

    /// The parts that identify `rule` among the rules of its kind (`Rule.identified(by:)`, in
    /// family order), if it names the catalog's parts themselves.
    init?(identifying rule: Rule) {
        guard let a = rule.first.part, let b = rule.second.part else { return nil }
        // The order alone, not the rule renamed: making one retained its names at every rule defined.
        (first, second) = rule.isNamedReversed { $0.family.index < $1.family.index } ? (b, a) : (a, b)
    }

    /// `part` paired with itself (`RuleSet`'s set of the parts rules pair).
    init(alone part: ObjectIdentifier) {
        (first, second) = (part, part)
    }

    /// The parts a rule names, in the order it names them (a `require` rule's direction matters).
    init?(directed rule: Rule) {
        guard let a = rule.first.part, let b = rule.second.part else { return nil }
        (first, second) = (a, b)
    }

}

// `undo` of a definition: definitions are only ever added, so the catalog as it was is this
// one with its latest definitions taken off. A step keeps where the catalog stood (a `Mark`, a
// few words however large the catalog) rather than the whole earlier value, which shared every
// table with the catalog after it, so that the next definition copied them all (a 4,000-rule
// file sourced with a history on took 2.8 GB).
extension Catalog {
    /// Where a catalog stood: what `truncate(to:)` puts it back to.
    public struct Mark: Sendable {
        /// How many definitions it had.
        public let definitions: Int
        fileprivate let textBytes: Int
        /// Its rules, kept as the very object: the configurations made under them stay valid.
        fileprivate let ruleSet: RuleSet
        /// The least a car of it could cost, and the model (see `Catalog.lowest`).
        fileprivate let lowest: (price: Int64, model: Int)?
    }

    /// The definitions `truncate(to:)` took off, with the very parts, factories and rules they
    /// made (cars in stock hold them), for `restore(_:)` to put back.
    public struct Tail: Sendable {
        fileprivate let removed: [Removed]
        /// Where the catalog stood before they were taken off.
        fileprivate let end: Mark
        /// How many definitions it holds.
        public var count: Int { removed.count }
    }

    /// One definition taken off, with what it made.
    fileprivate enum Removed: Sendable {
        case family(FamilyDefinition, any Part, FamilyLabel)
        case option(OptionDefinition, any Part)
        case model(ModelDefinition, any CarFactory)
        case rule(Rule, origin: RuleOrigins.Origin)
        case currency(Currency)
    }

    /// Where the catalog stands now.
    public var mark: Mark { Mark(definitions: definitions.count, textBytes: textBytes, ruleSet: ruleSet, lowest: lowest) }

    /// Takes off the definitions made since `mark` (latest first, each one's tables put back
    /// as they were before it), and returns them. Rates are not definitions: one changed since
    /// is put back by `replaceCurrency(at:with:)`.
    public mutating func truncate(to mark: Mark) -> Tail {
        let end = self.mark
        var removed: [Removed] = []
        removed.reserveCapacity(max(definitions.count - mark.definitions, 0))
        while definitions.count > mark.definitions, let last = definitions.popLast() {
            switch last {
            case .family(let definition):
                let family = PartFamily(index: familyNames.count - 1)
                guard let part = optionTables[family.index].parts.first, let label = familyLabels.popLast() else { continue }
                // The pairs it added are those of its option with each model's other defaults.
                for factory in registry.factories {
                    for other in families.dropLast() { modelsByDefaultPair.remove(PartPair(defaultPart(of: other, for: factory), part)) }
                }
                familyIndex.remove(nameKey(definition.name))
                familyNames.removeLast()
                optionTables.removeLast()
                removed.append(.family(definition, part, label))
            case .option(let definition):
                guard let part = optionTables[definition.family.index].removeLast() else { continue }
                removed.append(.option(definition, part))
            case .model(let definition):
                let position = registry.factories.count - 1
                guard let factory = registry.removeLast() else { continue }
                for pair in defaultPairs(of: factory) where modelsByDefaultPair[pair] == position { modelsByDefaultPair.remove(pair) }
                removed.append(.model(definition, factory))
            case .rule(let rule):
                let position = rules.count - 1
                rules.removeLast()
                let origin = ruleOrigins.removeLast()
                switch rule.kind {
                case .forbid:
                    if let pair = PartPair(identifying: rule), rulesByPair[pair] == position { rulesByPair.remove(pair) }
                case .require:
                    if let pair = PartPair(identifying: rule), requiresByPair[pair] == position { requiresByPair.remove(pair) }
                }
                removed.append(.rule(rule, origin: origin))
            case .currency(let currency):
                currencyIndex.remove(nameKey(currency.code))
                currencies.removeLast()
                removed.append(.currency(currency))
            }
        }
        textBytes = mark.textBytes
        ruleSet = mark.ruleSet
        lowest = mark.lowest
        return Tail(removed: removed.reversed(), end: end)
    }

    /// Puts back the definitions `truncate` took off (the catalog standing where it left it),
    /// with the same parts, factories and rules: the catalog is as it was before.
    public mutating func restore(_ tail: Tail) {
        definitions.reserveCapacity(definitions.count + tail.removed.count)
        for item in tail.removed {
            switch item {
            case .family(let definition, let part, let label):
                var table = OptionTable()
                table.append(part)
                // Its default is added to the rules `defaultPairs` reads (the tail's end puts
                // back the very rules).
                store(definition, part: part, table: table, label: label)
            case .option(let definition, let part):
                optionTables[definition.family.index].append(part)
                definitions.append(.option(definition))
            case .model(let definition, let factory):
                registry.append(factory)
                storeLastModelPairs(defaultPairs(of: factory))
                definitions.append(.model(definition))
            case .rule(let rule, let origin):
                store(rule, origin: origin)
            case .currency(let currency):
                store(currency)
            }
        }
        textBytes = tail.end.textBytes
        ruleSet = tail.end.ruleSet
        lowest = tail.end.lowest
    }

    /// Puts `currency` (the same currency at another rate) in place `position`; returns the one replaced.
    public mutating func replaceCurrency(at position: Int, with currency: Currency) -> Currency {
        let replaced = currencies[position]
        currencies[position] = currency
        return replaced
    }
}

/// The bytes each definition counts against `Catalog.textLimit` beyond its names and texts:
/// about what it takes in memory, so that the bound bounds memory and not only text. Measured
/// in a release build, the memory 200,000 definitions took past one's, tables' spare room
/// included: a model 450 bytes (the same with 61 families), a rule 564 (785 at a million),
/// an option 130. Without these, 2,700,000 models of 4-byte names took 1.3 GB and a million
/// rules 855 MB within the bound.
enum EntryCost {
    static let family = 1024
    static let option = 128
    static let model = 512
    /// Each default a model names for a family of its own (`paint red`): its place in the
    /// model's own list of defaults.
    static let modelOption = 48
    static let rule = 640
    static let currency = 256
}
