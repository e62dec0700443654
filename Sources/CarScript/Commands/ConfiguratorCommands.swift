import CarFactory

/// `options`, `why`, `fit`, `cheapest`: the configurator's questions, answered exactly by the
/// domain's `Configurator` over the catalog's families and rules.
///
/// Each takes a trailing `in CURRENCY` for its amounts (the base currency otherwise).
package enum ConfiguratorCommands {
    /// What every configurator command's help says of the search's bound.
    static let searchLimit =
        " A search ends in the error 'search-limit-reached' past 1,000,000 steps: a step is a choice tried, and the work around the choices may take as many steps again, of 1,024 units each (a unit: one option's clashes with another family, or 64 options, looked at), so an answer takes a few seconds at most on any catalog. Ctrl-C stops a search."

    static let all: [CommandSpec] = [
        CommandSpec(
            name: "options", aliases: [], group: .configure,
            arguments: [.optional("[FAMILY] [in CURRENCY]", .words)],
            summary: "list every option for the current car: current, settable, needing a repair, or impossible",
            details:
                "For each option (of every family, or of FAMILY): 'current'; 'settable' with its price change; 'repair' with the cheapest minimal repair (changes to other families that with it make a valid car, where no smaller set of the same families, whatever options they take, would do) as a 'set' command and the total price change; 'overflow' where that step would take the stock's value past the largest amount (so 'set' would fail with 'money-overflow'); or 'impossible', with the rules under which no valid car has it. 'in CURRENCY' gives the amounts in CURRENCY."
                + searchLimit,
            example: "options drivetrain in GBP",
            check: checkingOnly { session, call throws(ScriptError) in _ = try optionsWords(call, session) },
            run: searching { session, call throws(ScriptError) in
                let (pricing, only) = try optionsWords(call, session)
                let answer = try Answer(session, call)
                let statuses = try call.at(0) { () throws(CarFactoryError) in
                    try answer.configurator.statuses(of: answer.current, families: only)
                }
                var table = Table([
                    .init("family"), .init("option"), .init("status"),
                    .init("price change", alignRight: true), .init("repair"), .init("rules")
                ])
                for (f, family) in statuses.enumerated() {
                    for (o, status) in family.enumerated() {
                        let name = answer.name(.init(f, o))
                        let base: [Table.Cell] = [.text(answer.catalog.familyNames[f]), .text(name)]
                        switch status {
                        case .current:
                            table.append(base + [.text("current"), .none, .none, .none])
                        case .settable(let change):
                            table.append(
                                base + [
                                    .text(Self.stockTakes(change, session) ? "settable" : "overflow"),
                                    .money(try convert(change, from: answer.price, pricing)), .none, .none
                                ])
                        case .needsRepair(let repair):
                            table.append(
                                base + [
                                    .text(Self.stockTakes(repair.priceChange, session) ? "repair" : "overflow"),
                                    .money(try convert(repair.priceChange, from: answer.price, pricing)),
                                    .text(answer.command(setting: .init(f, o), repair)), .none
                                ])
                        case .impossible(let rules):
                            table.append(
                                base + [
                                    .text("impossible"), .none, .none, .names(rules.map { SessionScript.definition(of: answer.rule($0)) })
                                ])
                        }
                    }
                }
                session.emit(.table(table), call)
            }),
        CommandSpec(
            name: "why", aliases: [], group: .configure,
            arguments: [
                .required("FAMILY", .family), .required("OPTION", .option(familyArgument: 1)),
                .optional("[in CURRENCY]", .words)
            ],
            summary: "explain what stands in the way of an option, and every minimal repair",
            details:
                "For the current car: every rule that the option would break (with where it was defined), then every minimal repair (a set of changes to other families that with the option makes a valid car, where no smaller set of the same families, whatever options they take, makes a valid car with it: every family it changes must change), cheapest first, then by number of changes, then by the option names of the cars they make in family order (as 'cheapest' breaks ties), each as the 'set' command that applies it with its total price change. At most \(SearchLimits.standard.repairs) repairs are listed; none whose step would take the stock's value past the largest amount ('set' would fail with 'money-overflow', and so does 'why' if none is left). For an option no valid car has, the rules that make it so. 'in CURRENCY' gives the amounts in CURRENCY."
                + searchLimit,
            example: "why drivetrain front",
            check: checkingOnly { session, call throws(ScriptError) in _ = try currencyWords(call, session) },
            run: searching { session, call throws(ScriptError) in
                let pricing = try currencyWords(call, session)
                let answer = try Answer(session, call)
                let wanted = try answer.choice(call.option(2), call)
                var car = answer.current
                car[wanted.family] = wanted.option
                let repairs = try call.at(0) { () throws(CarFactoryError) in
                    answer.current[wanted.family] == wanted.option
                        ? []
                        : try answer.configurator.repairs(of: answer.current, wanting: wanted)
                }
                let possible = answer.current[wanted.family] == wanted.option || !repairs.isEmpty
                let rules =
                    possible
                    ? answer.space.brokenRules(by: car)
                    : try call.at(0) { () throws(CarFactoryError) in try answer.configurator.rulesRuling(out: wanted) }
                // Ranked by price change, the repairs the stock can take come first: past them,
                // `set` would fail with `money-overflow`, and so does `why` if none is left.
                let fitting = repairs.prefix { Self.stockTakes($0.priceChange, session) }
                if fitting.isEmpty && !repairs.isEmpty { throw ScriptError(.domain(.moneyOverflow), at: call.range(2)) }
                let what = Self.optionNamed(call)
                // The option the car has already: said as text, so JSON says it too (an empty
                // table's message is text output's alone).
                if answer.current[wanted.family] == wanted.option && rules.isEmpty {
                    session.emit(.message("The car has the \(what) already."), call)
                    return
                }
                var ruleTable = Table(
                    [.init("rule"), .init("defined at", key: "defined_at")],
                    emptyMessage: "No rule stands in the way of the \(what).")
                for index in rules {
                    let rule = answer.rule(index)
                    ruleTable.append([.text(SessionScript.definition(of: rule)), .text(answer.origin(of: rule))])
                }
                session.emit(.table(ruleTable), call)
                if answer.current[wanted.family] == wanted.option { return }
                var repairTable = Table(
                    [
                        .init("#", key: "rank", alignRight: true), .init("price change", alignRight: true),
                        .init("changes", alignRight: true), .init("commands")
                    ], emptyMessage: "No valid car has the \(what).")
                for (rank, repair) in fitting.enumerated() {
                    repairTable.append([
                        .integer(Int64(rank + 1)), .money(try convert(repair.priceChange, from: answer.price, pricing)),
                        .integer(Int64(repair.changes.count)), .text(answer.command(setting: wanted, repair))
                    ])
                }
                session.emit(.table(repairTable), call)
            }),
        CommandSpec(
            name: "fit", aliases: [], group: .configure,
            arguments: [
                .required("FAMILY", .family), .required("OPTION", .option(familyArgument: 1)),
                .optional("[in CURRENCY]", .words)
            ],
            summary: "set an option and the cheapest repair it needs, in one step",
            details:
                "Sets OPTION on the current car together with the cheapest minimal repair (changes to other families where no smaller set of the same families, whatever options they take, makes a valid car with it; as 'why' ranks them), all or nothing, and prints each change with its price change. An error if no valid car has the option. 'in CURRENCY' gives the amounts in CURRENCY."
                + searchLimit,
            example: "fit drivetrain front",
            check: checkingOnly { session, call throws(ScriptError) in _ = try currencyWords(call, session) },
            run: searching { session, call throws(ScriptError) in
                let pricing = try currencyWords(call, session)
                let line = try call.at(0) { () throws(CarFactoryError) in try session.stock.currentLine() }
                let answer = try Answer(session, call)
                let wanted = try answer.choice(call.option(2), call)
                var table = Table([.init("family"), .init("from"), .init("to"), .init("price change", alignRight: true)])
                guard answer.current[wanted.family] != wanted.option else {
                    // As text, so JSON carries the message too.
                    session.emit(.message("The car has the \(Self.optionNamed(call)) already."), call)
                    return
                }
                let repair = try call.at(2) { () throws(CarFactoryError) in
                    let found =
                        if let budget = session.searchBudget {
                            try answer.configurator.repairs(of: answer.current, wanting: wanted, limit: 1, spending: budget)
                        } else {
                            try answer.configurator.repairs(of: answer.current, wanting: wanted, limit: 1)
                        }
                    guard let cheapest = found.first else {
                        throw .noValidCar([Self.optionNamed(call)])
                    }
                    return cheapest
                }
                let changes = [wanted] + repair.changes
                let parts = changes.map { answer.part($0) }
                // The rows first: a change too large to show fails before the car is changed.
                // Each change's amount is how far it moves the price, converted as `price` converts
                // it, so the rows add up to the change `price` shows.
                var price = answer.price
                for change in changes {
                    let was = ConfigurationSpace.Choice(change.family, answer.current[change.family])
                    let delta = answer.space.prices[change.family][change.option] - answer.space.prices[was.family][was.option]
                    table.append([
                        .text(answer.catalog.familyNames[change.family]), .text(answer.name(was)),
                        .text(answer.name(change)), .money(try convert(delta, from: price, pricing))
                    ])
                    price &+= delta
                }
                try call.at(2) { () throws(CarFactoryError) in
                    var builder = CarBuilder(car: line.car, rules: call.rules)
                    try builder.set(parts)
                    try session.stock.replaceCurrent(with: builder.build())
                }
                session.emit(.table(table), call)
            }),
        CommandSpec(
            name: "cheapest", aliases: [], group: .configure,
            arguments: [.optional("[MODEL] [FAMILY OPTION]... [in CURRENCY]", .words)],
            summary: "show the cheapest valid car (of MODEL, or of any model) with the options given",
            details:
                "Shows the car as 'show' does, then the commands that build it. Ties go to the model name, then the option names in family order. 'in CURRENCY' adds its price in CURRENCY. The stock is not changed. A first word that names a model and also a family (or is a model named 'in') is read the one way that reads the whole command: with a model and a family named paint, 'cheapest paint' is the model and 'cheapest paint red' the family; with a model named in, 'cheapest in GBP' is any model priced in GBP and 'cheapest in drivetrain 4wd' the model in."
                + searchLimit,
            example: "cheapest drivetrain 4wd",
            check: checkingOnly { session, call throws(ScriptError) in
                _ = try cheapestWords(call, session, space: ConfigurationSpace(session.catalog))
            },
            run: searching { session, call throws(ScriptError) in
                let space = ConfigurationSpace(session.catalog)
                let (pricing, model, fixed, named, namedRange) = try cheapestWords(call, session, space: space)
                let options = try call.at(0) { () throws(CarFactoryError) in
                    try Configurator(space: space, limits: session.options.searchLimits, shouldStop: { session.stop.isRequested })
                        .cheapest(fixed: fixed)
                }
                let factories = model.map { [$0] } ?? session.catalog.registry.factories
                guard let options, !factories.isEmpty else {
                    throw ScriptError(.domain(.noValidCar(named)), at: namedRange ?? call.range(0))
                }
                // Each model's price is its base price less its defaults' list prices, plus the
                // options' list prices: the same options are cheapest for every model.
                var best: (price: Int64, factory: any CarFactory)?
                for factory in factories {
                    let price = try call.at(0) { () throws(CarFactoryError) in try modelPrice(factory, options, space, session.catalog) }
                    if best.map({ price < $0.price || (price == $0.price && nameKey(factory.model) < nameKey($0.factory.model)) }) ?? true {
                        best = (price, factory)
                    }
                }
                guard let best else { return }
                let car = try call.at(0) { () throws(CarFactoryError) in
                    var builder = CarBuilder(factory: best.factory, rules: call.rules)
                    try builder.set(
                        options.enumerated().map { session.catalog.options(of: PartFamily(index: $0.offset)).parts[$0.element] })
                    return try builder.build()
                }
                var commands = "car \(SessionScript.word(best.factory.model))"
                let catalog = session.catalog
                let changed = catalog.families.filter { catalog.part(of: $0, on: car) !== catalog.defaultPart(of: $0, for: best.factory) }
                if !changed.isEmpty {
                    commands +=
                        "; set "
                        + changed.map {
                            "\(SessionScript.word(catalog.name(of: $0))) \(SessionScript.word(catalog.part(of: $0, on: car).name))"
                        }
                        .joined(separator: " ")
                }
                // The answer is made whole before any of it is shown: a price too large for the
                // currency fails the command with nothing printed (at the currency).
                var converted: Int64?
                if let pricing {
                    converted = try pricing.at { () throws(CarFactoryError) in
                        try pricing.valuation.converter.convertMinorUnits(car.priceMinorUnits)
                    }
                }
                session.emit(.car(car), call)
                session.emit(.text(commands), call)
                if let pricing, let converted { session.emit(.amount(converted, pricing.valuation), call) }
            })
    ]

    /// Whether the stock can take the current car at its unit price plus `change`, as `set`
    /// would find it (the ledger's own sum): a change that would take the stock's value past
    /// the largest amount is not offered as one that can be made.
    private static func stockTakes(_ change: Int64, _ session: Session) -> Bool {
        guard let price = try? session.stock.currentPriceMinorUnits() else { return true }
        let (unitPrice, overflow) = price.addingReportingOverflow(change)
        return !overflow && (try? session.stock.valueWithCurrentPrice(unitPrice)) != nil
    }

    /// `check` as `--check` runs it: the configurator commands' words are a word list, which
    /// no argument kind resolves, so checking reads them as running does (and a run reads them
    /// once, in `run`).
    private static func checkingOnly(_ check: @escaping CommandSpec.Run) -> CommandSpec.Run {
        { session, call throws(ScriptError) in
            if session.options.checkOnly || (session.options.checksQuestions && call.spec.answersOnly) { try check(session, call) }
        }
    }

    /// `run`, with a search stopped at its step limit advised as fits the command: what
    /// asks less of the search, or does the same without one.
    private static func searching(_ run: @escaping CommandSpec.Run) -> CommandSpec.Run {
        { session, call throws(ScriptError) in
            do throws(ScriptError) {
                try run(session, call)
            } catch {
                var advised = error
                switch error.kind {
                case .domain(.searchLimitReached): advised.notes.append(Diagnostic.Note(searchAdvice(call)))
                case .domain(.catalogTooWide): advised.notes.append(Diagnostic.Note(tooWideAdvice))
                default: break
                }
                throw advised
            }
        }
    }

    /// What a catalog whose configurator's tables would pass their bound can do.
    static let tooWideAdvice =
        "a rule gives the option it names a table of the other family's options, and a 'require' gives one to every other option of its second family too: fewer rules between large families, or smaller families, fit"

    /// What `fit` (or a refused `set`'s repair) says when its search passed the limit.
    static func fitAdvice(_ parts: [any Part]) -> String {
        let named = parts.map { "\(SessionScript.word($0.familyName)) \(SessionScript.word($0.name))" }.joined(separator: " ")
        return "choose the other changes yourself: 'set \(named) FAMILY OPTION ...' sets several parts in one step"
    }

    /// The note of a refused `set` whose repair search could not answer (`error`): that it
    /// passed its limit, with what `fit` advises, or that the catalog is too wide for it; nil
    /// for a stop (which ends the run) or another error.
    static func unanswered(_ error: CarFactoryError, setting parts: [any Part]) -> Diagnostic.Note? {
        switch error {
        case .searchLimitReached(let steps):
            Diagnostic.Note("the search for a repair took more than \(steps) steps and was stopped: \(fitAdvice(parts))")
        case .catalogTooWide:
            Diagnostic.Note("no repair was searched for: \(error)")
        default: nil
        }
    }

    /// What narrows a search that `call` took too far.
    private static func searchAdvice(_ call: Invocation) -> String {
        let word = SessionScript.word
        switch call.spec.name {
        case "options":
            let family = call.hasWords(1) ? call.words(1)[0] : nil
            guard let family, nameKey(family) != "in" else { return "ask about one family at a time: 'options FAMILY'" }
            return "ask about one option at a time: 'fit \(word(family)) OPTION' looks for its cheapest repair alone"
        case "why":
            let (family, option) = (word(call.option(2).familyName), word(call.option(2).name))
            return "'fit \(family) \(option)' looks for the cheapest repair alone; or choose the other changes yourself: "
                + "'set \(family) \(option) FAMILY OPTION ...' sets several parts in one step"
        case "fit":
            return fitAdvice([call.option(2)])
        default:
            return "fix more options to narrow it: 'cheapest MODEL FAMILY OPTION ...'"
        }
    }

    /// The option argument as a message names it (`4wd drivetrain`), each name cut as messages
    /// cut names (grammar.md §3); a text renderer escapes what the terminal would obey.
    private static func optionNamed(_ call: Invocation) -> String {
        shown(call.option(2))
    }

    /// `part` as a message names it: `4wd drivetrain`, each name cut to 60 characters.
    private static func shown(_ part: any Part) -> String {
        "\(DisplayText.quotedName(part.name)) \(DisplayText.quotedName(part.familyName))"
    }

    /// `options`' words: `[FAMILY] [in CURRENCY]`.
    private static func optionsWords(_ call: Invocation, _ session: Session) throws(ScriptError) -> (Pricing?, [Int]?) {
        let words = try CommandWords(call, session, from: 1)
        return (words.pricing, words.family.map { [$0.index] })
    }

    /// `why`'s and `fit`'s words: `FAMILY OPTION [in CURRENCY]` (the family and option resolved
    /// as arguments already, read again so that the reader sees the command's words whole).
    private static func currencyWords(_ call: Invocation, _ session: Session) throws(ScriptError) -> Pricing? {
        try CommandWords(call, session, from: 3).pricing
    }

    /// `cheapest`'s words, `[MODEL] [FAMILY OPTION]... [in CURRENCY]`: the currency, the model,
    /// each family's option (its place in `space`) where one is named, the options named and
    /// where they are written.
    private static func cheapestWords(
        _ call: Invocation, _ session: Session, space: ConfigurationSpace
    ) throws(ScriptError) -> (Pricing?, (any CarFactory)?, [Int?], [String], SourceRange?) {
        let words = try CommandWords(call, session, from: 1)
        var fixed = [Int?](repeating: nil, count: session.catalog.familyNames.count)
        var namedRange: SourceRange?
        for (part, range) in words.parts {
            fixed[part.family.index] = space.names[part.family.index].firstIndex(of: part.name)
            namedRange = SourceRange(namedRange?.start ?? range.start, range.end)
        }
        return (words.pricing, words.model, fixed, words.parts.map { shown($0.part) }, namedRange)
    }

    /// `factory`'s price with `options`: base price plus, per family, the option's list price
    /// less the default's.
    private static func modelPrice(
        _ factory: any CarFactory, _ options: [Int], _ space: ConfigurationSpace,
        _ catalog: Catalog
    ) throws(CarFactoryError) -> Int64 {
        var price = factory.basePriceMinorUnits
        for family in catalog.families {
            let difference = space.prices[family.index][options[family.index]]
                .subtractingReportingOverflow(catalog.defaultPart(of: family, for: factory).listPriceMinorUnits)
            let sum = price.addingReportingOverflow(difference.partialValue)
            if difference.overflow || sum.overflow { throw .moneyOverflow }
            price = sum.partialValue
        }
        return price
    }

    /// The cheapest repair that puts `part` on `car` (none in the list: no valid car has it;
    /// nil: the search could not answer, or the car is not in the catalog's terms).
    static func cheapestRepair(
        for part: any Part, on car: Car, in space: ConfigurationSpace, catalog: Catalog,
        stop: StopRequest?, limits: SearchLimits = .standard, budget: SearchBudget? = nil
    ) -> [Repair]? {
        try? repairs(for: part, on: car, in: space, catalog: catalog, stop: stop, limits: limits, budget: budget)?.get()
    }

    /// The search for the cheapest repair that puts `part` on `car`: its repairs (none: no
    /// valid car has it) or why it could not answer; nil if the car is not in the catalog's terms.
    private static func repairs(
        for part: any Part, on car: Car, in space: ConfigurationSpace, catalog: Catalog,
        stop: StopRequest?, limits: SearchLimits, budget: SearchBudget?
    ) -> Result<[Repair], CarFactoryError>? {
        guard let current = ConfigurationSpace.options(of: car, in: catalog),
            let option = catalog.options(of: part.family).parts.firstIndex(where: { $0 === part })
        else { return nil }
        let wanted = ConfigurationSpace.Choice(part.family.index, option)
        do throws(CarFactoryError) {
            let configurator = try Configurator(space: space, limits: limits, shouldStop: { stop?.isRequested ?? false })
            guard let budget else { return .success(try configurator.repairs(of: current, wanting: wanted, limit: 1)) }
            return .success(try configurator.repairs(of: current, wanting: wanted, limit: 1, spending: budget))
        } catch {
            return .failure(error)
        }
    }

    /// A change of `change` to a price of `price` (base-currency minor units) as money of
    /// `pricing`'s currency: the two prices converted, then their difference, as `price`
    /// shows them (converting the change alone rounds it apart from them: a $1.50 option on a
    /// $3,901.50 car was Q0 at a rate of 0.3, while the price went from Q1,170 to Q1,171).
    private static func convert(
        _ change: Int64, from price: Int64, _ pricing: Pricing?
    ) throws(ScriptError) -> Money {
        guard let pricing else { return .base(change) }
        let valuation = pricing.valuation
        return valuation.money(
            try pricing.at { () throws(CarFactoryError) in
                // Where a whole price is too large for the currency (a huge rate), the change
                // alone may still be shown: it is then converted on its own.
                let (after, overflow) = price.addingReportingOverflow(change)
                if !overflow, let before = try? valuation.converter.convertMinorUnits(price),
                    let moved = try? valuation.converter.convertMinorUnits(after)
                {
                    let (difference, wrapped) = moved.subtractingReportingOverflow(before)
                    if !wrapped { return difference }
                }
                return try valuation.converter.convertMinorUnits(change)
            })
    }

    /// The cheapest repair for `part` on `car`, as a note for a refused `set`: `fit drivetrain
    /// front would also set floorplan standard (+$500.00)`, that no valid car has it, or that
    /// the search passed its limit (`unanswered`).
    static func note(
        repairing part: any Part, on car: Car, catalog: Catalog, stop: StopRequest, limits: SearchLimits = .standard
    ) -> Diagnostic.Note? {
        let space = ConfigurationSpace(catalog)
        guard let searched = repairs(for: part, on: car, in: space, catalog: catalog, stop: stop, limits: limits, budget: nil)
        else { return nil }
        let repairs: [Repair]
        switch searched {
        case .failure(let error): return unanswered(error, setting: [part])
        case .success(let found): repairs = found
        }
        let fit = "fit \(SessionScript.word(part.familyName)) \(SessionScript.word(part.name))"
        guard let repair = repairs.first else {
            return Diagnostic.Note("no valid car has the \(shown(part)), whatever else it has")
        }
        let changes = named(repair, space, catalog).map { "\($0.family) \($0.option)" }
        return Diagnostic.Note("'\(fit)' would also set \(changes.joined(separator: ", ")) (\(OptionAdvice.signed(repair.priceChange)))")
    }

    /// The cheapest repair that keeps every one of `parts` (the parts a refused `set` of several
    /// named), as a note: `the cheapest repair that keeps these parts also sets floorplan
    /// standard: 'set suspension road drivetrain front floorplan standard' (+$500.00)`, or that
    /// no valid car has them together, or that the search passed its limit (`unanswered`). Nil
    /// if nothing else needs to change: a repair that drops a named part is never offered.
    static func note(
        repairing parts: [any Part], on car: Car, catalog: Catalog, rules: RuleSet, stop: StopRequest,
        limits: SearchLimits = .standard
    ) -> Diagnostic.Note? {
        let found: (added: [any Part], priceChange: Int64)?
        switch repair(keeping: parts, on: car, catalog: catalog, rules: rules, stop: stop, limits: limits, budget: nil) {
        case nil: return nil
        case .failure(let error): return unanswered(error, setting: parts)
        case .success(let answer): found = answer
        }
        guard let repair = found else {
            let named = parts.map { "the \(shown($0))" }
            let list = named.count > 1 ? named.dropLast().joined(separator: ", ") + " and " + named[named.count - 1] : named.joined()
            return Diagnostic.Note("no valid car has \(list) together, whatever else it has")
        }
        let changes = repair.added.map { "\($0.familyName) \($0.name)" }
        return Diagnostic.Note(
            "the cheapest repair that keeps these parts also sets \(changes.joined(separator: ", ")): "
                + "'\(setCommand(parts + repair.added))' (\(OptionAdvice.signed(repair.priceChange)))")
    }

    /// `set FAMILY OPTION...` of `parts`, each name written as a script reads it back.
    package static func setCommand(_ parts: [any Part]) -> String {
        "set " + parts.map { "\(SessionScript.word($0.familyName)) \(SessionScript.word($0.name))" }.joined(separator: " ")
    }

    /// The configurator's cheapest repair that keeps every one of `parts` on `car` (what a
    /// refused `set` of several parts' note names and an editor offers as a fix): the other
    /// parts it sets and the price change of the whole step; `.some(nil)` if no valid car has
    /// them together; nil if the search could not answer or nothing else needs to change.
    /// With `budget`, the search spends from it (one budget for every repair of a request).
    package static func cheapestRepair(
        keeping parts: [any Part], on car: Car, catalog: Catalog, rules: RuleSet, stop: StopRequest,
        limits: SearchLimits = .standard, budget: SearchBudget? = nil
    ) -> (added: [any Part], priceChange: Int64)?? {
        guard
            case .success(let found) = repair(
                keeping: parts, on: car, catalog: catalog, rules: rules, stop: stop, limits: limits, budget: budget)
        else { return nil }
        return .some(found)
    }

    /// `cheapestRepair(keeping:...)`'s search: its repair (nil: no valid car has the parts
    /// together), or why it could not answer; nil if there is nothing to say (the car is not in
    /// the catalog's terms, nothing else needs to change, or the built car refuses it).
    private static func repair(
        keeping parts: [any Part], on car: Car, catalog: Catalog, rules: RuleSet, stop: StopRequest,
        limits: SearchLimits, budget: SearchBudget?
    ) -> Result<(added: [any Part], priceChange: Int64)?, CarFactoryError>? {
        guard let first = parts.first, var current = ConfigurationSpace.options(of: car, in: catalog) else { return nil }
        // The named parts go on the car as it is searched from, fixed: the repair changes only
        // other families, and is minimal and cheapest among those that keep them.
        var fixed = Array(repeating: false, count: current.count)
        for part in parts {
            guard let option = catalog.options(of: part.family).parts.firstIndex(where: { $0 === part }) else { return nil }
            current[part.family.index] = option
            fixed[part.family.index] = true
        }
        let space = ConfigurationSpace(catalog)
        let wanted = ConfigurationSpace.Choice(first.family.index, current[first.family.index])
        let repairs: [Repair]
        do throws(CarFactoryError) {
            let configurator = try Configurator(space: space, limits: limits, shouldStop: { stop.isRequested })
            if let budget {
                repairs = try configurator.repairs(of: current, wanting: wanted, fixed: fixed, limit: 1, spending: budget)
            } else {
                repairs = try configurator.repairs(of: current, wanting: wanted, fixed: fixed, limit: 1)
            }
        } catch {
            return .failure(error)
        }
        guard let repair = repairs.first else { return .success(nil) }
        guard !repair.changes.isEmpty else { return nil }
        // The price change is the built car's, and building it checks the repair once more.
        let added = repair.changes.map { catalog.options(of: PartFamily(index: $0.family)).parts[$0.option] }
        var builder = CarBuilder(car: car, rules: rules)
        guard (try? builder.set(parts + added)) != nil, let repaired = try? builder.build() else { return nil }
        let (change, overflow) = repaired.priceMinorUnits.subtractingReportingOverflow(car.priceMinorUnits)
        guard !overflow else { return nil }
        return .success((added, change))
    }

    /// The configurator's cheapest way to have `part` on `car` (what a refused `set`'s note
    /// names and an editor offers as a fix): the other options to set with it, by family
    /// name, and the price change; `.some(nil)` if no valid car has it; nil if the search
    /// could not answer. With `budget`, the search spends from it.
    package static func cheapestRepair(
        for part: any Part, on car: Car, catalog: Catalog, stop: StopRequest, limits: SearchLimits = .standard,
        budget: SearchBudget? = nil
    ) -> (changes: [(family: String, option: String)], priceChange: Int64)?? {
        let space = ConfigurationSpace(catalog)
        guard
            let repairs = cheapestRepair(
                for: part, on: car, in: space, catalog: catalog, stop: stop, limits: limits, budget: budget)
        else { return nil }
        guard let repair = repairs.first else { return .some(nil) }
        return (named(repair, space, catalog), repair.priceChange)
    }

    /// `repair`'s changes by family and option name.
    private static func named(_ repair: Repair, _ space: ConfigurationSpace, _ catalog: Catalog) -> [(family: String, option: String)] {
        repair.changes.map { (catalog.familyNames[$0.family], space.names[$0.family][$0.option]) }
    }
}

/// What the configurator commands share: the catalog as a space, the current car in it.
private struct Answer {
    let catalog: Catalog
    let space: ConfigurationSpace
    let configurator: Configurator
    let current: [Int]
    /// The current car's unit price, in base-currency minor units.
    let price: Int64

    init(_ session: Session, _ call: Invocation) throws(ScriptError) {
        let line = try call.at(0) { () throws(CarFactoryError) in try session.stock.currentLine() }
        price = line.car.priceMinorUnits
        catalog = session.catalog
        space = ConfigurationSpace(catalog)
        let stop = session.stop
        let limits = session.options.searchLimits
        let space = space
        configurator = try call.at(0) { () throws(CarFactoryError) in
            try Configurator(space: space, limits: limits, shouldStop: { stop.isRequested })
        }
        guard let current = ConfigurationSpace.options(of: line.car, in: catalog) else {
            throw ScriptError(.refused("the current car has an option the catalog no longer lists"), at: call.range(0))
        }
        self.current = current
    }

    func choice(_ part: any Part, _ call: Invocation) throws(ScriptError) -> ConfigurationSpace.Choice {
        guard let option = catalog.options(of: part.family).parts.firstIndex(where: { $0 === part }) else {
            throw ScriptError(.domain(.unknownOption(part.name, family: part.familyName)), at: call.range(2))
        }
        return .init(part.family.index, option)
    }

    func name(_ choice: ConfigurationSpace.Choice) -> String { space.names[choice.family][choice.option] }

    func part(_ choice: ConfigurationSpace.Choice) -> any Part {
        catalog.options(of: PartFamily(index: choice.family)).parts[choice.option]
    }

    /// `set drivetrain front floorplan standard`.
    func command(setting wanted: ConfigurationSpace.Choice, _ repair: Repair) -> String {
        "set "
            + ([wanted] + repair.changes).map {
                "\(SessionScript.word(catalog.familyNames[$0.family])) \(SessionScript.word(name($0)))"
            }.joined(separator: " ")
    }

    /// The rule at `index` of the space, which is the catalog's rule at the same place.
    func rule(_ index: Int) -> Rule {
        let constraint = space.rules[index]
        let first = PartChoice(part(constraint.first))
        let second = PartChoice(part(constraint.second))
        return constraint.kind == .forbid ? Rule(forbid: first, with: second) : Rule(require: first, with: second)
    }

    /// `FILE:LINE`, or `built-in catalog`.
    func origin(of rule: Rule) -> String {
        guard let origin = catalog.origin(of: rule), !origin.hasPrefix(BuiltInCatalog.name + ":") else { return "built-in catalog" }
        return origin
    }
}

/// A configurator command's words as `ConfiguratorWords` reads them, with what they name; the
/// first problem is an error at its word.
/// The currency `in CURRENCY` names, and where it is written: an amount too large for it is
/// an error at the currency (as `price CURRENCY`'s is), not at the command.
private struct Pricing {
    let valuation: CurrencyValuation
    let range: SourceRange

    /// `body`'s value; its error placed at the currency.
    func at<T>(_ body: () throws(CarFactoryError) -> T) throws(ScriptError) -> T {
        do throws(CarFactoryError) {
            return try body()
        } catch {
            throw ScriptError(.domain(error), at: range)
        }
    }
}

private struct CommandWords {
    private(set) var pricing: Pricing?
    private(set) var model: (any CarFactory)?
    /// The family `options` names.
    private(set) var family: PartFamily?
    /// `cheapest`'s options, each with where its family and option are written.
    private(set) var parts: [(part: any Part, range: SourceRange)] = []

    /// Reads `call`'s words; `argument` is where its word list starts (`why` and `fit` take
    /// FAMILY and OPTION as arguments first, and their words are given to the reader too).
    init(_ call: Invocation, _ session: Session, from argument: Int) throws(ScriptError) {
        let catalog = session.catalog
        var words = argument <= call.count ? call.words(argument) : []
        var ranges = words.isEmpty ? [] : call.wordRanges
        if argument > 1 {
            let option = call.option(2)
            words = [option.familyName, option.name] + words
            ranges = [call.range(1), call.range(2)] + ranges
        }
        guard let reading = ConfiguratorWords.read(call.spec.name, words, catalog: catalog) else { return }
        if let problem = reading.problem {
            throw Self.error(problem, words, ranges, call, session)
        }
        for (index, role) in reading.roles.enumerated() {
            let word = words[index]
            switch role {
            case .model: model = try? catalog.registry.factory(named: word)
            case .family(let named): family = named
            case .option(let named):
                guard let part = try? catalog.option(named: word, in: named) else { continue }
                parts.append((part, SourceRange(ranges[index - 1].start, ranges[index].end)))
            case .currency:
                pricing = (try? catalog.currency(named: word)).map { Pricing(valuation: CurrencyValuation($0), range: ranges[index]) }
            case .in, .unknown, .extra, .unresolved: break
            }
        }
    }

    /// `problem` as the error a person reads, at the word it is about (or just after the last).
    private static func error(
        _ problem: ConfiguratorWords.Problem, _ words: [String], _ ranges: [SourceRange], _ call: Invocation,
        _ session: Session
    ) -> ScriptError {
        let catalog = session.catalog
        let usage = call.spec.usage
        switch problem {
        case .extra(let at):
            return ScriptError(.unexpectedArgument(words[at], usage: usage), at: ranges[at])
        case .namedTwice(let at):
            let name = DisplayText.quotedName(catalog.family(named: words[at]).map { catalog.name(of: $0) } ?? words[at])
            return ScriptError(.refused("\(name) is named twice; name each family once"), at: ranges[at])
        case .missing(let expected):
            let after = ranges.last ?? call.range(0)
            let place = SourceRange(after.end, after.end + 1)
            let what =
                switch expected.first {
                case .options(let family): "an option after '\(catalog.name(of: family))'"
                case .currencies: "a CURRENCY after 'in'"
                default: "a FAMILY"
                }
            return ScriptError(.missingArgument(what, usage: usage), at: place)
        case .unknown(let at, let expected):
            let (word, range) = (words[at], ranges[at])
            let families = catalog.familyNames
            switch expected.first {
            case .models:
                // Neither a model nor a family: named by the closer of the two.
                let models = catalog.registry.factories.map(\.model)
                switch closestName(to: word, in: models + families) {
                case let name? where models.contains(name): return Session.unknown("model", word, models, at: range)
                case _?: return Session.unknown("family", word, families, at: range)
                case nil: return Session.unknown("model or family", word, models + families, at: range)
                }
            case .options(let family):
                let table = catalog.options(of: family)
                return Session.unknown(
                    "\(catalog.name(of: family)) option", word, table.parts.map(\.name), suggestFrom: table.allNames, at: range)
            case .currencies:
                return Session.unknownCurrency(word, catalog.currencies.map(\.code), at: range)
            default:
                return Session.unknown("family", word, families, at: range)
            }
        }
    }
}
