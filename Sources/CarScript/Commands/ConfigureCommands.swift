import CarFactory

/// `car`, `set`, `show`, `list`, `select`, `remove`, `clear`.
enum ConfigureCommands {
    static let all: [CommandSpec] = [
        CommandSpec(
            name: "car", aliases: [], group: .configure,
            arguments: [.required("MODEL", .model), .optional("COUNT", .count)],
            summary: "add a stock line of COUNT cars (default 1) of MODEL; it becomes current",
            details:
                "Builds MODEL with its default options and adds it to the stock as a new line of COUNT cars. The new line becomes the current car, which 'set', 'show' and 'price' work on. A stock holds at most \(StockLedger.maximumLines) lines: a line past that is an error ('stock-too-large') and nothing is added.",
            example: "car suv 2",
            run: { session, call throws(ScriptError) in
                let id = try call.at(1) { () throws(CarFactoryError) in
                    try session.defaultConfiguration(ofModel: call.modelPosition(1))
                }
                try call.at(2) { () throws(CarFactoryError) in try session.stock.add(configuration: id, count: call.count(2) ?? 1) }
            }),
        CommandSpec(
            name: "set", aliases: [], group: .configure,
            arguments: [
                .required("FAMILY", .family), .required("OPTION", .option(familyArgument: 1)),
                .optional("[FAMILY OPTION]...", .words)
            ],
            summary: "change parts of the current car",
            details:
                "Replaces the current car's part of FAMILY (floorplan, suspension, drivetrain, or a family defined with 'family') with OPTION. Several FAMILY OPTION pairs change several parts in one step: only the car they make together must keep the catalog's rules, so a change that would pass through a forbidden car one part at a time can be made at once. A change that breaks a catalog rule is refused and the car stays as it was.",
            example: "set drivetrain 4wd",
            check: { session, call throws(ScriptError) in if call.hasWords(3) { _ = try morePartsToSet(call, session) } },
            run: { session, call throws(ScriptError) in
                guard let current = session.stock.currentConfiguration else {
                    throw ScriptError(.domain(.noCurrentCar), at: call.range(0))
                }
                if !call.hasWords(3) {
                    // One part: by configuration id (see `StockChanges.swift`).
                    let (family, option) = call.optionPosition(2)
                    do throws(ScriptError) {
                        try call.at(2) { () throws(CarFactoryError) in
                            let id = try session.changedConfiguration(current, family: family.index, option: option)
                            try session.stock.replaceCurrent(configuration: id)
                        }
                    } catch {
                        // A refusal says which rule refused it, where that rule is from, and what is allowed.
                        guard case .domain(.ruleViolation(let rule)) = error.kind else { throw error }
                        var explained = error
                        let car = Car(configuration: session.stock.configuration(current))
                        explained.notes = OptionAdvice.notes(refusing: family, of: car, by: rule, catalog: session.catalog)
                        // And the cheapest way to have it after all, which `fit` would take.
                        if session.searchesRefusalRepair,
                            let repair = ConfiguratorCommands.note(
                                repairing: call.option(2), on: car,
                                catalog: session.catalog, stop: session.stop, limits: session.options.searchLimits)
                        {
                            explained.notes.append(repair)
                        }
                        throw explained
                    }
                    return
                }
                try setParts(call, session, on: current)
            }),
        CommandSpec(
            name: "show", aliases: [], group: .configure,
            arguments: [.optional("N", .lineNumber)],
            summary: "show the current car (or line N) and its unit price",
            details:
                "Prints six lines, 'Field: value', for the car: Car type, Seats, Engine, Suspension, Drive, and Price, the price of one such car in US dollars (the base currency). Each family defined with 'family' adds a line before Price, 'SHOWN AS: OPTION SHOWN AS'.",
            example: "show",
            run: { session, call throws(ScriptError) in
                // The stock's cars hold a part of every family the catalog has: the session
                // completes them whenever the catalog gains or loses a family (`completeStock`).
                try call.at(1) { () throws(CarFactoryError) in
                    try session.stock.withCar(ofLine: call.lineNumber(1)) { car in session.emit(car: car, call) }
                }
            }),
        CommandSpec(
            name: "list", aliases: [], group: .configure,
            arguments: [],
            summary: "list the stock lines; * marks the current one",
            details:
                "Prints one row per stock line: its number, model, car type, options (floorplan, suspension, drivetrain, then each family defined with 'family'), count and unit price in the base currency.",
            example: "list",
            run: { session, call throws(ScriptError) in
                // Rows are made as they are written, from a copy of the stock (copied only if it
                // changes meanwhile), into one buffer, so listing a million lines holds one row at
                // a time. A row's group is its configuration: only the current mark, the number and
                // the count vary within one, and a reader that has seen the group asks for those alone.
                let stock = session.stock
                // A column for each defined family after the book's three, as `models` has (trial
                // 7: `list` showed none, so two lines of different paint looked the same). The
                // stock's cars hold a part of every family (`completeStock`).
                let defined = session.catalog.definedFamilies.count
                let countColumn = 7 + defined
                let maker = Table.RowMaker(
                    count: stock.lineCount, groupCount: stock.configurationCount,
                    varying: [true, true, false, false, false, false, false] + Array(repeating: false, count: defined) + [true, false],
                    group: { index in Int(stock.entry(index + 1).configuration) }
                ) { index, cells, varyingOnly in
                    // Within range: the table asks only for rows below `count`.
                    let entry = stock.entry(index + 1)
                    cells[0] = .flag(stock.currentNumber == index + 1)
                    cells[1] = .integer(Int64(index + 1))
                    cells[countColumn] = .integer(entry.count)
                    if varyingOnly { return }
                    let configuration = stock.configuration(entry.configuration)
                    cells[2] = .text(configuration.factory.model)
                    cells[3] = .text(configuration.factory.carType)
                    cells[4] = .text(configuration.floorplan.name)
                    cells[5] = .text(configuration.suspension.name)
                    cells[6] = .text(configuration.drivetrain.name)
                    for (position, part) in configuration.others.prefix(defined).enumerated() {
                        cells[7 + position] = .text(part.name)
                    }
                    cells[countColumn + 1] = .amount(configuration.priceMinorUnits)
                }
                let catalog = session.catalog
                let table = Table(
                    [
                        .init("", key: "current"), .init("#", key: "line", alignRight: true), .init("model"),
                        .init("car type"), .init("floorplan"), .init("suspension"), .init("drivetrain")
                    ] + catalog.definedFamilies.map { .init(catalog.name(of: $0)) }
                        + [.init("count", alignRight: true), .init("unit price", alignRight: true)],
                    emptyMessage: "The stock is empty.", rows: maker)
                session.emit(.table(table), call)
            }),
        CommandSpec(
            name: "select", aliases: [], group: .configure,
            arguments: [.required("N", .lineNumber)],
            summary: "make stock line N the current car",
            details: "Lines are numbered from 1 as 'list' shows them.",
            example: "select 1",
            run: { session, call throws(ScriptError) in
                try call.at(1) { () throws(CarFactoryError) in try session.stock.select(call.lineNumber(1) ?? 0) }
            }),
        CommandSpec(
            name: "remove", aliases: [], group: .configure,
            arguments: [.optional("N", .lineNumber)],
            summary: "remove stock line N (default: the current line)",
            details: "Lines after it move up by one. Removing the current line makes the last line current.",
            example: "remove 2",
            run: { session, call throws(ScriptError) in
                try call.at(1) { () throws(CarFactoryError) in try session.stock.remove(call.lineNumber(1)) }
            }),
        CommandSpec(
            name: "clear", aliases: [], group: .configure,
            arguments: [],
            summary: "remove every stock line",
            details: "Empties the stock; the catalog and rates stay as they are.",
            example: "clear",
            run: { session, _ throws(ScriptError) in session.stock.clear() })
    ]

    /// `set` of several pairs: only the car they make together is made and checked (out of
    /// line: the one-part `set`, by far the more common, keeps a smaller closure; inline,
    /// this cost it 4 instructions a command).
    @inline(never)
    private static func setParts(_ call: Invocation, _ session: Session, on current: Int32) throws(ScriptError) {
        let car = Car(configuration: session.stock.configuration(current))
        let more = try morePartsToSet(call, session)
        let span = SourceRange(call.range(1).start, more[more.count - 1].range.end)
        do throws(CarFactoryError) {
            var builder = CarBuilder(car: car, rules: call.rules)
            try builder.set([call.option(2)] + more.map(\.part))
            try session.stock.replaceCurrent(with: builder.build())
        } catch {
            var refused = ScriptError(.domain(error), at: error.isStockBound ? call.range(0) : span)
            // As for one part: where the rule is from, and the cheapest repair that
            // keeps every part named.
            if case .ruleViolation(let rule) = error {
                refused.notes = [OptionAdvice.origin(of: rule, catalog: session.catalog)]
                if session.searchesRefusalRepair,
                    let repair = ConfiguratorCommands.note(
                        repairing: [call.option(2)] + more.map(\.part), on: car,
                        catalog: session.catalog, rules: call.rules, stop: session.stop,
                        limits: session.options.searchLimits)
                {
                    refused.notes.append(repair)
                }
            }
            throw refused
        }
    }

    /// The parts named after `set`'s first pair, each with where its option stands: each
    /// family once, every option one of its family's. The words are read from their bytes
    /// through the catalog index, as FAMILY and OPTION arguments are; only a word that names
    /// nothing is made a string, for its error. (By name through the catalog, a pair took two
    /// strings, two hashed name keys and four copies of the catalog: a 61-pair `set` ran
    /// 10,000 lines a second; trial 8, 2.)
    private static func morePartsToSet(_ call: Invocation, _ session: Session)
        throws(ScriptError) -> [(part: any Part, range: SourceRange)]
    {
        guard call.hasWords(3) else { return [] }
        let places = call.familyOptionPlaces(3)
        let ranges = call.wordRanges
        var named = UInt64(1) << UInt64(call.family(1)?.index ?? 0)
        var parts: [(part: any Part, range: SourceRange)] = []
        parts.reserveCapacity(places.count / 2)
        for index in stride(from: 0, to: places.count, by: 2) {
            guard let place = places[index] else {
                throw Session.unknown("family", call.words(3)[index], session.catalog.familyNames, at: ranges[index])
            }
            let family = PartFamily(index: place)
            // Its name only for an error: reading the catalog copies it out of the session.
            func name() -> String { session.catalog.name(of: family) }
            // A family is one of 64 (`PartFamily.limit`): one bit each.
            guard named & 1 << UInt64(place) == 0 else {
                throw ScriptError(.refused("\(name()) is named twice; name each family once"), at: ranges[index])
            }
            guard index + 1 < places.count else {
                throw ScriptError(
                    .missingArgument("an option after '\(name())'", usage: call.spec.usage),
                    at: SourceRange(ranges[index].end, ranges[index].end + 1))
            }
            guard let option = places[index + 1] else {
                let table = session.catalog.options(of: family)
                throw Session.unknown(
                    "\(name()) option", call.words(3)[index + 1], table.parts.map(\.name),
                    suggestFrom: table.allNames, at: ranges[index + 1])
            }
            named |= 1 << UInt64(place)
            parts.append((call.part(family, option), ranges[index + 1]))
        }
        return parts
    }
}
