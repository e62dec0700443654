import CarFactory
import Synchronization

// `diff FILE [FILE]` and `carfab --diff A B`: two sessions compared by meaning, not text. A
// saved session is loaded by running it in a fresh session made from the catalog this one
// began with, which may read files but never write one (a `save` in it is an error, not a
// write), prints nothing, and stops at its first error.

/// What a comparison looks at in a session: its catalog, stock and variables.
struct SessionContents {
    let catalog: Catalog
    let stock: StockLedger
    let variables: [String: String]
    let variableNames: [String]
    /// A loaded session's warning that its script's end rolled back a transaction it left
    /// open (`FILE:LINE: warning: end of input with a transaction open: rolled back`).
    var endOfInputWarning: Diagnostic?

    init(_ session: Session) {
        catalog = session.catalog
        stock = session.stock
        variables = session.variables
        variableNames = session.variableNames
    }
}

/// Why a session could not be loaded to compare: the first error its script reported.
struct LoadFailure: Error {
    let diagnostic: Diagnostic
}

extension Session {
    /// Runs `source` in a fresh session made from the catalog this one began with, reading
    /// files as this one may but writing none; its contents, or its first error.
    func load(_ source: any LineSource) throws(LoadFailure) -> SessionContents {
        var options = EngineOptions()
        options.host = self.options.host
        options.environment = self.options.environment
        options.stop = stop
        // `--check` checks the files as it checks those `source` runs: followed, not run.
        options.checkOnly = self.options.checkOnly || self.options.checksComparisons
        options.boundsSourcing = self.options.boundsSourcing
        options.fileAccess =
            switch self.options.fileAccess {
            case .allowed: .readOnly(otherwiseRefusedBy: "while loading a session to compare")
            case let other: other
            }
        let errors = FirstError()
        let loaded = Session(catalog: initialCatalog, sink: errors, options: options, commands: commands)
        loaded.enclosingScripts = enclosingScripts + frames.map { (file: $0.lines.file, identity: $0.identity) }
        loaded.commandNesting = commandNesting
        loaded.comparisonDepth = comparisonDepth + 1
        // An analysis's bound on following files again is one for it and the sessions it loads:
        // each its own, a tree of sources each ending in `diff` multiplied them.
        loaded.refollowings = refollowings
        loaded.followedIdentities = followedIdentities
        loaded.savedFiles = savedFiles
        loaded.run(source)
        (refollowings, followedIdentities) = (loaded.refollowings, loaded.followedIdentities)
        if loaded.analysisStopped {
            analysisStopped = true
            quitRequested = true
        }
        if let diagnostic = errors.diagnostic { throw LoadFailure(diagnostic: diagnostic) }
        // A transaction the file leaves open was rolled back at its end, as running the file
        // alone rolls it back: the warning is passed on by whoever compares (trial 7).
        var contents = SessionContents(loaded)
        contents.endOfInputWarning = errors.endOfInput
        return contents
    }

    /// `diff FILE [FILE]`: the first file against the second, or against this session.
    func compare(_ call: Invocation) throws(ScriptError) {
        // The second would read what the first left of it, nothing: refused, as `--diff - -` is.
        if call.word(1) == "-" && call.word(2) == "-" {
            throw ScriptError(.refused("'diff' reads standard input once: at most one of its FILEs may be '-'"), at: call.range(2))
        }
        // `-`, standard input, touches no file, so it is allowed as `source -` is (with --safe).
        if call.word(1) != "-" || !(call.word(2).isEmpty || call.word(2) == "-") { try admitFiles(for: call) }
        let first = try load(argument: 1, of: call)
        let second = call.word(2).isEmpty ? SessionContents(self) : try load(argument: 2, of: call)
        // Checking loads the files only to check them: there are no sessions to compare (nil:
        // a file the checked script saved, not loaded).
        if options.checkOnly || options.checksComparisons { return }
        guard let first, let second else { return }
        let table = SessionComparison.table(first, second, stop: stop)
        // Stopped while comparing: the stop says it all, and a partial table would mislead.
        if stop.isRequested { throw ScriptError(.reported, at: call.range(0)) }
        emit(.table(table), call)
    }

    /// The session saved in the file argument `index` of `call` names; nil for a file the
    /// checked script saved itself, whose content only running makes (see `SavedFiles.swift`).
    private func load(argument index: Int, of call: Invocation) throws(ScriptError) -> SessionContents? {
        let name = call.word(index)
        let source: any LineSource
        do throws(ScriptError) {
            let path = name == "-" ? name : try filePath(name, for: call)
            if options.checkOnly && name != "-" && isSavedByScript(path) { return nil }
            guard comparisonDepth < maximumComparisonDepth else {
                let chain = (enclosingScripts.map(\.file) + frames.map(\.lines.file) + [path]).map(ScriptError.shown)
                throw ScriptError(
                    .sourceDepth(
                        "sessions that 'diff' loads nest at most \(maximumComparisonDepth) deep: "
                            + chain.joined(separator: " -> ")),
                    at: call.range(1))
            }
            // A file that compares itself (directly or through files it sources) would load
            // sessions without end: refused as `source` refuses a cycle.
            _ = try checkNesting(of: path, for: call, argument: 1)
            source = name == "-" ? try openStandardInput(for: call) : try openFile(path, for: call)
        } catch {
            // The file gate places its errors at argument 1.
            guard index != 1, error.range == call.range(1) else { throw error }
            var moved = ScriptError(error.kind, at: call.range(index))
            moved.notes = error.notes
            throw moved
        }
        do throws(LoadFailure) {
            let contents = try load(source)
            if let ended = contents.endOfInputWarning, let frame = frames.last {
                // Compared as running the file leaves it: rolled back, with its end's warning.
                var warning = frame.diagnostic(
                    ScriptError(
                        .history(
                            "compared as '\(ScriptError.shown(name))' leaves it: \(ScriptError.shown(ended.file)):\(ended.line): \(ended.message)"
                        ), at: call.range(index)),
                    width: sink.sourceWindowWidth)
                warning.severity = .warning
                sink.receive(warning)
            }
            return contents
        } catch {
            let place = error.diagnostic.line > 0 ? "\(ScriptError.shown(error.diagnostic.file)):\(error.diagnostic.line): " : ""
            throw ScriptError(
                .loadFailed(
                    id: error.diagnostic.id,
                    message: "cannot load '\(ScriptError.shown(name))' to compare: \(place)\(error.diagnostic.message)"),
                at: call.range(index))
        }
    }
}

/// Keeps the first error a loaded session reports, and the warning of a transaction its end
/// rolled back; nothing else.
private final class FirstError: ResultSink {
    var diagnostic: Diagnostic?
    var endOfInput: Diagnostic?
    func receive(_ result: CommandResult, from command: CommandSpec) {}
    func receive(_ diagnostic: Diagnostic) {
        if diagnostic.severity == .error && self.diagnostic == nil { self.diagnostic = diagnostic }
        // The end's own warning, not one a `diff` in the file passed on (`load(argument:of:)`).
        if diagnostic.severity == .warning && diagnostic.id == "history" && diagnostic.message.hasPrefix("end of input with ") {
            endOfInput = diagnostic
        }
    }
}

/// The differences between two sessions, as rows: what changed (`added`, `removed`,
/// `changed`), what it is (`family`, `family order`, `model`, `option`, `rule`, `currency`,
/// `rate`, `variable`, `line`, `current line`, `total`), its name, how it is in the first and in the second, and for
/// amounts the difference. Sessions that are the same give no rows.
///
/// A stock line's row is made when it is asked for, as `list`'s are, from the two stocks and
/// the numbers of the lines it shows: the table keeps 16 bytes a line row where it kept the
/// row's cells (~1.2 KB a line; two 400,000-line sessions that differ throughout took 489 MB,
/// ~35 times the sessions' own; trial 4, 12).
package enum SessionComparison {
    /// A stop request ends the matching of stock lines and the walk through them at once
    /// (every 4,096 lines): the table then has no rows, and is not to be shown.
    static func table(_ first: SessionContents, _ second: SessionContents, stop: StopRequest? = nil) -> Table {
        let columns: [Table.Column] = [
            .init("change"), .init("what"), .init("name"), .init("first"), .init("second"),
            .init("difference", alignRight: true)
        ]
        var rows: [[Table.Cell]] = []
        func row(
            _ change: String, _ what: String, _ name: String, _ before: String?, _ after: String?,
            _ difference: Int64? = nil
        ) {
            rows.append(cells(change, what, name, before, after, difference))
        }
        // `whole`: how an item added or removed is shown when `text` leaves part of it to a
        // row of its own (a currency's rate), so that the row is a definition that can be copied back.
        // Items of one key are changed when their meanings differ; `shown` gives the two texts
        // of such a row (the texts as written, unless it shows more).
        func compare(
            _ what: String, _ a: [Item], _ b: [Item], whole: [String: String] = [:],
            shown: (Item, Item) -> (String, String) = { ($0.text, $1.text) }
        ) {
            let second = Dictionary(b.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
            let first = Dictionary(a.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
            for item in a {
                if let other = second[item.key] {
                    if other.meaning != item.meaning {
                        let (before, after) = shown(item, other)
                        row("changed", what, item.name, before, after)
                    }
                } else {
                    row("removed", what, item.name, whole[item.key] ?? item.text, nil)
                }
            }
            for item in b where first[item.key] == nil { row("added", what, item.name, nil, whole[item.key] ?? item.text) }
        }
        compare("family", families(first.catalog), families(second.catalog))
        // The families both define, in another order, are shown in it by `show` and decide
        // ties of the configurator's answers (option names in family order): a difference
        // (trial 10, 3: two sessions `fit` answered apart were called the same).
        let (firstOrder, secondOrder) = sharedFamilyOrders(first.catalog, second.catalog)
        if firstOrder.map(nameKey) != secondOrder.map(nameKey) {
            // Each name as `save` writes it: `pa int roof` read as three families, or two.
            let written = { (order: [String]) in order.map(SessionScript.word).joined(separator: " ") }
            row("changed", "family order", "", written(firstOrder), written(secondOrder))
        }
        compare(
            "model", models(first.catalog, shared: second.catalog), models(second.catalog, shared: first.catalog),
            shown: { a, b in (modelText(a, against: b), modelText(b, against: a)) })
        compare("option", options(first.catalog), options(second.catalog))
        compare("rule", rules(first.catalog), rules(second.catalog))
        compare(
            "currency", currencies(first.catalog), currencies(second.catalog),
            whole: definitions(first.catalog).merging(definitions(second.catalog)) { a, _ in a })
        compare("rate", rates(first.catalog, shared: second.catalog), rates(second.catalog, shared: first.catalog))
        compare(
            "variable", first.variableNames.map { Item($0, $0, first.variables[$0] ?? "") },
            second.variableNames.map { Item($0, $0, second.variables[$0] ?? "") })
        let catalogRows = rows
        rows = []
        var models: [String: Int] = [:]
        var numbering = ConfigurationNumbering()
        // Stopped: no rows are made (a partial table would mislead, and is not shown).
        let stopped = Table(columns)
        guard let a = ComparedStock(first.stock, catalog: first.catalog, models: &models, numbering: &numbering, stop: stop),
            let b = ComparedStock(second.stock, catalog: second.catalog, models: &models, numbering: &numbering, stop: stop),
            let lineRows = compareLines(a, b, stop: stop)
        else { return stopped }
        if first.stock.currentNumber != second.stock.currentNumber {
            row(
                "changed", "current line", "", first.stock.currentNumber.map(String.init) ?? "none",
                second.stock.currentNumber.map(String.init) ?? "none")
        }
        if !lineRows.isEmpty || first.stock.valueMinorUnits != second.stock.valueMinorUnits {
            let a = first.stock
            let b = second.stock
            row(
                a.valueMinorUnits == b.valueMinorUnits && a.carCount == b.carCount ? "same" : "changed", "total", "",
                total(a), total(b), b.valueMinorUnits &- a.valueMinorUnits)
        }
        let lastRows = rows
        // Every cell may vary from row to row: one group, and every row made whole.
        let maker = Table.RowMaker(
            count: catalogRows.count + lineRows.count + lastRows.count, groupCount: 1,
            varying: [Bool](repeating: true, count: columns.count), group: { _ in 0 },
            fill: { index, cells, _ in
                // Within range: the table asks only for rows below `count`.
                if index < catalogRows.count {
                    cells = catalogRows[index]
                } else if index - catalogRows.count < lineRows.count {
                    cells = lineRows[index - catalogRows.count].cells(a, b)
                } else {
                    cells = lastRows[index - catalogRows.count - lineRows.count]
                }
            })
        return Table(columns, rows: maker)
    }

    /// A row's cells. The difference is a change in the base currency, typed as `try`'s change
    /// row is: text shows it with its sign, JSON as money.
    private static func cells(
        _ change: String, _ what: String, _ name: String, _ before: String?, _ after: String?, _ difference: Int64? = nil
    ) -> [Table.Cell] {
        [
            .text(change), .text(what), .text(name), before.map { .text($0) } ?? .none, after.map { .text($0) } ?? .none,
            difference.map { .moneyChange(.base($0)) } ?? .none
        ]
    }

    private static func total(_ stock: StockLedger) -> String {
        "\(stock.carCount) car\(stock.carCount == 1 ? "" : "s"), \(Money.base(stock.valueMinorUnits))"
    }

    /// An entry of a catalog or a variable as compared: what it is (its key), its name, its
    /// text as written, and its meaning, what makes two of one key the same (its text, unless
    /// it may be written in more than one way).
    private struct Item {
        let key: String
        let name: String
        let text: String
        let meaning: String
        /// A model's definition, and its default option of each defined family both catalogs
        /// have, by the family's key.
        var model: ModelDefinition?
        var defaults: [(family: String, familyName: String, option: String)] = []

        init(_ key: String, _ name: String, _ text: String, meaning: String? = nil) {
            self.key = key
            self.name = name
            self.text = text
            self.meaning = meaning ?? text
        }
    }

    /// The names of the families both catalogs define, each in its catalog's order.
    private static func sharedFamilyOrders(_ first: Catalog, _ second: Catalog) -> ([String], [String]) {
        func defined(_ catalog: Catalog, in other: Catalog) -> [String] {
            catalog.definedFamilies.map { catalog.name(of: $0) }.filter { other.family(named: $0) != nil }
        }
        return (defined(first, in: second), defined(second, in: first))
    }

    private static func families(_ catalog: Catalog) -> [Item] {
        catalog.definitions.compactMap {
            guard case .family(let family) = $0 else { return nil }
            return Item(nameKey(family.name), family.name, SessionScript.definition(of: family))
        }
    }

    /// A model means its name as written, car type, base price and default option of each family: a default
    /// written out (`paint white`, the family's own) or left to the family, and an option named
    /// by an alias or by its name, are the same model, as the catalog makes it. Only the families
    /// both catalogs define count (one the other lacks has a row of its own).
    private static func models(_ catalog: Catalog, shared other: Catalog) -> [Item] {
        let book = catalog.families.prefix(3)
        let defined = catalog.definedFamilies.filter { other.family(named: catalog.name(of: $0)) != nil }
            .sorted { nameKey(catalog.name(of: $0)) < nameKey(catalog.name(of: $1)) }
        return catalog.definitions.compactMap {
            guard case .model(let model) = $0 else { return nil }
            let text = SessionScript.definition(of: model)
            // Every model the catalog defines has its factory.
            guard let factory = try? catalog.registry.factory(named: model.name) else { return Item(nameKey(model.name), model.name, text) }
            let defaults = defined.map { family in
                (
                    family: nameKey(catalog.name(of: family)), familyName: catalog.name(of: family),
                    option: catalog.defaultPart(of: family, for: factory).name
                )
            }
            // Its name as written too: `models` and `list` show `Roadster` and `roadster` apart.
            let meaning =
                [SessionScript.word(model.name), SessionScript.quoted(model.carType), SessionScript.amount(model.basePrice)]
                + book.map { nameKey(catalog.defaultPart(of: $0, for: factory).name) }
                + defaults.map { "\($0.family) \(nameKey($0.option))" }
            var item = Item(nameKey(model.name), model.name, text, meaning: meaning.joined(separator: "|"))
            item.model = model
            item.defaults = defaults
            return item
        }
    }

    /// A changed model as written, with its default of each family it leaves to the family
    /// where `other`'s differs, so that the two sides of the row show how it changed (a family's
    /// default changed under models that name none would otherwise read the same).
    private static func modelText(_ item: Item, against other: Item) -> String {
        guard var model = item.model else { return item.text }
        let written = Set(model.others.map { nameKey($0.family) })
        for part in item.defaults where !written.contains(part.family) {
            let theirs = other.defaults.first { $0.family == part.family }?.option
            if theirs.map(nameKey) != nameKey(part.option) { model.others.append((part.familyName, part.option)) }
        }
        return SessionScript.definition(of: model)
    }

    /// An option means the same with its aliases in another order.
    private static func options(_ catalog: Catalog) -> [Item] {
        catalog.definitions.compactMap {
            guard case .option(let option) = $0 else { return nil }
            var sorted = option
            sorted.otherNames.sort { nameKey($0) < nameKey($1) }
            return Item(
                "\(nameKey(option.familyName)) \(nameKey(option.name))", "\(option.familyName) \(option.name)",
                SessionScript.definition(of: option), meaning: SessionScript.definition(of: sorted))
        }
    }

    /// A rule is what the catalog identifies it by (`Rule.identified(by:)`): `forbid A with B` is
    /// `forbid B with A`, one rule; a `require` is directed.
    private static func rules(_ catalog: Catalog) -> [Item] {
        catalog.definitions.compactMap {
            guard case .rule(let rule) = $0 else { return nil }
            let text = SessionScript.definition(of: rule)
            let identified = rule.identified { nameKey($0.familyName) < nameKey($1.familyName) }
            let key = nameKey(SessionScript.definition(of: identified))
            return Item(key, text, text, meaning: key)
        }
    }

    /// Currencies without their rates (a rate is compared on its own).
    private static func currencies(_ catalog: Catalog) -> [Item] {
        catalog.currencies.map {
            Item(
                nameKey($0.code), $0.code, "currency \(SessionScript.word($0.code)) \(SessionScript.quoted($0.symbol)) digits \($0.digits)")
        }
    }

    /// Each currency's whole definition, rate and all, by its key: an added or removed currency
    /// is shown as `save` writes it (a changed one has its rate in a `rate` row).
    private static func definitions(_ catalog: Catalog) -> [String: String] {
        Dictionary(catalog.currencies.map { (nameKey($0.code), SessionScript.definition(of: $0)) }, uniquingKeysWith: { a, _ in a })
    }

    /// The rates of the currencies both catalogs have (one only the other has is added or removed whole).
    private static func rates(_ catalog: Catalog, shared other: Catalog) -> [Item] {
        let codes = Set(other.currencies.map { nameKey($0.code) })
        return catalog.currencies.filter { codes.contains(nameKey($0.code)) }.map { Item(nameKey($0.code), $0.code, "\($0.rate)") }
    }

    /// Stock lines, matched as diff(1) matches lines (the fewest added and removed); in each
    /// run of lines removed and added, a line removed and one added of the same model (else
    /// at the same place in the run) are one line changed. The rows, in order; nil if `stop`
    /// was asked for.
    private static func compareLines(_ a: ComparedStock, _ b: ComparedStock, stop: StopRequest?) -> [LineRow]? {
        guard let edits = LineMatching.edits(LineKeys(stock: a), LineKeys(stock: b), stop: stop) else { return nil }
        let removed = edits.removed
        let inserted = edits.inserted
        var rows: [LineRow] = []
        var i = 0
        var j = 0
        var walked = 0
        while i < a.count || j < b.count {
            // However the matching ended (stocks that differ only at an end are matched with
            // no search), the walk through their lines stops too.
            walked += 1
            if walked % 4096 == 0 && stop?.isRequested == true { return nil }
            guard (i < a.count && removed.contains(i)) || (j < b.count && inserted.contains(j)) else {
                i += 1
                j += 1
                continue
            }
            // One run: the lines removed here and the lines added here.
            let goneStart = i
            while i < a.count && removed.contains(i) { i += 1 }
            let newStart = j
            while j < b.count && inserted.contains(j) { j += 1 }
            let gone = goneStart..<i
            let new = newStart..<j
            // The first line added of the same model that no line removed took yet: a queue
            // per model, each added line linked to the next of its model (looking through every
            // line added for each line removed was quadratic).
            var partner = [Int](repeating: -1, count: gone.count)
            var taken = LineSet(below: new.count)
            var nextOfModel = [Int](repeating: -1, count: new.count)
            var firstOfModel: [Int: Int] = [:]
            for line in new.reversed() {
                let model = b.model(line)
                nextOfModel[line - newStart] = firstOfModel[model] ?? -1
                firstOfModel[model] = line - newStart
            }
            for (index, line) in gone.enumerated() {
                let model = a.model(line)
                if let first = firstOfModel[model], first >= 0 {
                    partner[index] = newStart + first
                    taken.insert(first)
                    firstOfModel[model] = nextOfModel[first]
                }
                if index % 4096 == 4095 && stop?.isRequested == true { return nil }
            }
            var left = 0
            for index in partner.indices where partner[index] < 0 {
                while left < new.count && taken.contains(left) { left += 1 }
                guard left < new.count else { break }
                partner[index] = newStart + left
                taken.insert(left)
            }
            for (index, line) in gone.enumerated() {
                rows.append(LineRow(first: line, second: partner[index]))
            }
            for line in new where !taken.contains(line - newStart) { rows.append(LineRow(first: -1, second: line)) }
        }
        return rows
    }

    /// A line row: the offsets of the line removed (`first`), added (`second`) or changed
    /// (both); -1 for none (16 bytes a row, where optionals took 32).
    private struct LineRow {
        let first: Int
        let second: Int

        /// Its cells, made from the two stocks.
        func cells(_ a: ComparedStock, _ b: ComparedStock) -> [Table.Cell] {
            if first >= 0 && second >= 0 {
                let old = a.line(first)
                let new = b.line(second)
                return SessionComparison.cells(
                    "changed", "line", "\(first + 1) -> \(second + 1)", text(old, against: new), text(new, against: old),
                    new.value &- old.value)
            }
            if first >= 0 {
                let old = a.line(first)
                return SessionComparison.cells("removed", "line", "\(first + 1)", text(old), nil, 0 &- old.value)
            }
            let new = b.line(second)
            return SessionComparison.cells("added", "line", "\(second + 1)", nil, text(new), new.value)
        }
    }

    /// A stock line: its model, count, parts and value.
    private struct Line {
        let model: String
        let count: Int64
        let parts: [LinePart]
        let value: Int64
    }

    /// What a line is, to match it: its configuration (model and every family's option, the
    /// same number in both sessions for the same words) and its count. (A string per line took
    /// ~400 bytes a line of two 400,000-line sessions; trial 4, 12.)
    private struct LineKey: Hashable {
        let configuration: Int
        let count: Int64
    }

    /// A line's part of one family: the family's and option's keys, `family option` as
    /// `save` writes it, and whether it is the model's default.
    private struct LinePart {
        let family: String
        let option: String
        let words: String
        let isDefault: Bool
    }

    /// A session's stock as `diff` reads it: each line by its offset, made from the stock's
    /// count and configuration when asked for, as `list` makes its rows. Each configuration
    /// keeps only its numbers: its parts' texts, kept for every configuration, took ~9 KB a
    /// line with 61 families (trial 11, 1).
    private struct ComparedStock {
        let stock: StockLedger
        let catalog: Catalog
        /// The book's families, then the defined ones by name: the same order in both
        /// sessions whatever order they defined them in, so the same car is the same line
        /// (a line of `paint red trim leather` against one of `trim leather paint red` was
        /// a change with no difference; trial 7).
        let families: [PartFamily]
        /// Each configuration's number (the same in both sessions for the same model and
        /// options) and its model's, by id; -1 for an id no line has. The matching reads them
        /// for every line it compares.
        private let keys: [Int32]
        private let modelKeys: [Int32]

        /// Numbers every configuration its lines have, in `numbering` and `models` (by its
        /// model), which the other session's stock shares; nil if `stop` is asked for.
        init?(
            _ stock: StockLedger, catalog: Catalog, models: inout [String: Int], numbering: inout ConfigurationNumbering,
            stop: StopRequest?
        ) {
            self.stock = stock
            self.catalog = catalog
            families = catalog.families.sorted { a, b in
                a.isBook || b.isBook ? a.index < b.index : nameKey(catalog.name(of: a)) < nameKey(catalog.name(of: b))
            }
            let side = numbering.add(stock, catalog: catalog, families: families)
            var keys = [Int32](repeating: -1, count: stock.configurationCount)
            var modelKeys = [Int32](repeating: -1, count: stock.configurationCount)
            for number in stride(from: 1, through: stock.lineCount, by: 1) {
                if number & 4095 == 0 && stop?.isRequested == true { return nil }
                let id = stock.entry(number).configuration
                guard keys[Int(id)] < 0 else { continue }
                keys[Int(id)] = Int32(truncatingIfNeeded: numbering.number(id, of: side))
                let model = SessionScript.word(stock.configuration(id).factory.model)
                let modelKey = models[model] ?? models.count
                models[model] = modelKey
                modelKeys[Int(id)] = Int32(truncatingIfNeeded: modelKey)
            }
            self.keys = keys
            self.modelKeys = modelKeys
        }

        var count: Int { stock.lineCount }

        /// The line at `offset` as what it is, to match it.
        func key(_ offset: Int) -> LineKey {
            let (id, count) = stock.entry(offset + 1)
            return LineKey(configuration: Int(keys[Int(id)]), count: count)
        }

        /// The model of the line at `offset`, as a number both stocks share.
        func model(_ offset: Int) -> Int { Int(modelKeys[Int(stock.entry(offset + 1).configuration)]) }

        /// The parts of the configurations rows were made of lately (see `PartsMemo`).
        private let memo = PartsMemo()

        /// The line at `offset`.
        func line(_ offset: Int) -> Line {
            let (id, count) = stock.entry(offset + 1)
            let configuration = stock.configuration(id)
            let (model, parts) = memo.parts(of: id) {
                let car = Car(configuration: configuration)
                let all = catalog.parts(on: car)
                let parts = families.compactMap { family -> LinePart? in
                    guard family.index < all.count else { return nil }
                    let part = all[family.index]
                    return LinePart(
                        family: nameKey(catalog.name(of: family)), option: nameKey(part.name),
                        words: "\(SessionScript.word(catalog.name(of: family))) \(SessionScript.word(part.name))",
                        isDefault: part === catalog.defaultPart(of: family, for: car.factory))
                }
                return (SessionScript.word(car.factory.model), parts)
            }
            return Line(
                model: model, count: count, parts: parts,
                value: configuration.priceMinorUnits.multipliedReportingOverflow(by: count).partialValue)
        }
    }

    /// The model and parts of the configurations rows were made of lately, a few by id: rows
    /// of a few configurations (the book's catalog has 24) find them made, where making them
    /// for each row took 1.5x the time of a comparison of 10^5 lines; memory stays a few
    /// configurations', where keeping every one's took ~9 KB a line with 61 families.
    private final class PartsMemo: Sendable {
        private let slots = Mutex([(id: Int32, model: String, parts: [LinePart])?](repeating: nil, count: 64))

        /// Configuration `id`'s model and parts, made by `make` unless kept.
        func parts(of id: Int32, make: () -> (String, [LinePart])) -> (String, [LinePart]) {
            let slot = Int(id) & 63
            if let kept = slots.withLock({ $0[slot] }), kept.id == id { return (kept.model, kept.parts) }
            let made = make()
            slots.withLock { $0[slot] = (id, made.0, made.1) }
            return made
        }
    }

    /// A stock's lines as keys, made when the matching reads them.
    private struct LineKeys: RandomAccessCollection {
        let stock: ComparedStock
        var startIndex: Int { 0 }
        var endIndex: Int { stock.count }
        subscript(offset: Int) -> LineKey { stock.key(offset) }
    }

    /// `car MODEL COUNT; set ...` as `save` writes it, with its value. Against the line it
    /// changed into (or from), the parts that differ from that line's are set too, defaults
    /// or not, so the two sides of a changed row always show how it changed (a family only
    /// one side defines, `paint white`, would otherwise leave them the same).
    ///
    /// Made twice a row (to measure, then to write), so written into one string: a dictionary
    /// of the other line's parts and the joins took ~12,000 instructions a text.
    private static func text(_ line: Line, against other: Line? = nil) -> String {
        var text = "car "
        text += line.model
        text += " "
        text += String(line.count)
        var first = true
        for part in line.parts {
            // A catalog has a few families, each once: the other line's part of this family is
            // found by looking through them.
            if part.isDefault {
                guard let other, other.parts.first(where: { $0.family == part.family })?.option != part.option else { continue }
            }
            text += first ? "; set " : " "
            first = false
            text += part.words
        }
        text += " (\(Money.base(line.value)))"
        return text
    }
}
