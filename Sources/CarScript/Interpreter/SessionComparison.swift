import CarFactory

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
        options.fileAccess =
            switch self.options.fileAccess {
            case .allowed: .readOnly(otherwiseRefusedBy: "while loading a session to compare")
            case let other: other
            }
        let errors = FirstError()
        let loaded = Session(catalog: initialCatalog, sink: errors, options: options, commands: commands)
        loaded.enclosingScripts = enclosingScripts + frames.map { (file: $0.lines.file, identity: $0.identity) }
        loaded.commandNesting = commandNesting
        loaded.run(source)
        if let diagnostic = errors.diagnostic { throw LoadFailure(diagnostic: diagnostic) }
        return SessionContents(loaded)
    }

    /// `diff FILE [FILE]`: the first file against the second, or against this session.
    func compare(_ call: Invocation) throws(ScriptError) {
        // `-`, standard input, touches no file, so it is allowed as `source -` is (with --safe).
        if call.word(1) != "-" || !(call.word(2).isEmpty || call.word(2) == "-") { try admitFiles(for: call) }
        let first = try load(argument: 1, of: call)
        let second = call.word(2).isEmpty ? SessionContents(self) : try load(argument: 2, of: call)
        // Checking loads the files only to check them: there are no sessions to compare.
        if options.checkOnly || options.checksComparisons { return }
        let table = SessionComparison.table(first, second, stop: stop)
        // Stopped while comparing: the stop says it all, and a partial table would mislead.
        if stop.isRequested { throw ScriptError(.reported, at: call.range(0)) }
        emit(.table(table), call)
    }

    /// The session saved in the file argument `index` of `call` names.
    private func load(argument index: Int, of call: Invocation) throws(ScriptError) -> SessionContents {
        let name = call.word(index)
        let source: any LineSource
        do throws(ScriptError) {
            let path = name == "-" ? name : try filePath(name, for: call)
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
            return try load(source)
        } catch {
            let place = error.diagnostic.line > 0 ? "\(ScriptError.shown(error.diagnostic.file)):\(error.diagnostic.line): " : ""
            throw ScriptError(
                .io("cannot load '\(ScriptError.shown(name))' to compare: \(place)\(error.diagnostic.message)"), at: call.range(index))
        }
    }
}

/// Keeps the first error a loaded session reports, and nothing else.
private final class FirstError: ResultSink {
    var diagnostic: Diagnostic?
    func receive(_ result: CommandResult, from command: CommandSpec) {}
    func receive(_ diagnostic: Diagnostic) {
        if diagnostic.severity == .error && self.diagnostic == nil { self.diagnostic = diagnostic }
    }
}

/// The differences between two sessions, as rows: what changed (`added`, `removed`,
/// `changed`), what it is (`model`, `option`, `rule`, `currency`, `rate`, `variable`, `line`,
/// `current line`, `total`), its name, how it is in the first and in the second, and for
/// amounts the difference. Sessions that are the same give no rows.
package enum SessionComparison {
    /// (A stop request ends the matching of stock lines at once, and the table is not to be shown.)
    static func table(_ first: SessionContents, _ second: SessionContents, stop: StopRequest? = nil) -> Table {
        var rows: [[Table.Cell]] = []
        func row(
            _ change: String, _ what: String, _ name: String, _ before: String?, _ after: String?,
            _ difference: Int64? = nil
        ) {
            // The difference is a change in the base currency, typed as `try`'s change row is:
            // text shows it with its sign, JSON as money.
            rows.append([
                .text(change), .text(what), .text(name), before.map { .text($0) } ?? .none,
                after.map { .text($0) } ?? .none, difference.map { .moneyChange(.base($0)) } ?? .none
            ])
        }
        // `whole`: how an item added or removed is shown when `text` leaves part of it to a
        // row of its own (a currency's rate), so that the row is a definition that can be copied back.
        func compare(
            _ what: String, _ a: [(key: String, name: String, text: String)],
            _ b: [(key: String, name: String, text: String)], whole: [String: String] = [:]
        ) {
            let second = Dictionary(b.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
            let first = Dictionary(a.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
            for item in a {
                if let other = second[item.key] {
                    if other.text != item.text { row("changed", what, item.name, item.text, other.text) }
                } else {
                    row("removed", what, item.name, whole[item.key] ?? item.text, nil)
                }
            }
            for item in b where first[item.key] == nil { row("added", what, item.name, nil, whole[item.key] ?? item.text) }
        }
        compare("family", families(first.catalog), families(second.catalog))
        compare("model", models(first.catalog), models(second.catalog))
        compare("option", options(first.catalog), options(second.catalog))
        compare("rule", rules(first.catalog), rules(second.catalog))
        compare(
            "currency", currencies(first.catalog), currencies(second.catalog),
            whole: definitions(first.catalog).merging(definitions(second.catalog)) { a, _ in a })
        compare("rate", rates(first.catalog, shared: second.catalog), rates(second.catalog, shared: first.catalog))
        compare(
            "variable", first.variableNames.map { ($0, $0, first.variables[$0] ?? "") },
            second.variableNames.map { ($0, $0, second.variables[$0] ?? "") })
        let catalogRows = rows.count
        compareLines(first.stock, first.catalog, second.stock, second.catalog, stop: stop) { change, number, before, after, difference in
            row(change, "line", number, before, after, difference)
        }
        let linesDiffer = rows.count > catalogRows
        if first.stock.currentNumber != second.stock.currentNumber {
            row(
                "changed", "current line", "", first.stock.currentNumber.map(String.init) ?? "none",
                second.stock.currentNumber.map(String.init) ?? "none")
        }
        if linesDiffer || first.stock.valueMinorUnits != second.stock.valueMinorUnits {
            let a = first.stock
            let b = second.stock
            row(
                a.valueMinorUnits == b.valueMinorUnits && a.carCount == b.carCount ? "same" : "changed", "total", "",
                total(a), total(b), b.valueMinorUnits &- a.valueMinorUnits)
        }
        var table = Table([
            .init("change"), .init("what"), .init("name"), .init("first"), .init("second"),
            .init("difference", alignRight: true)
        ])
        for item in rows { table.append(item) }
        return table
    }

    private static func total(_ stock: StockLedger) -> String {
        "\(stock.carCount) car\(stock.carCount == 1 ? "" : "s"), \(Money.base(stock.valueMinorUnits))"
    }

    private static func families(_ catalog: Catalog) -> [(key: String, name: String, text: String)] {
        catalog.definitions.compactMap {
            guard case .family(let family) = $0 else { return nil }
            return (nameKey(family.name), family.name, SessionScript.definition(of: family))
        }
    }

    private static func models(_ catalog: Catalog) -> [(key: String, name: String, text: String)] {
        catalog.definitions.compactMap {
            guard case .model(let model) = $0 else { return nil }
            return (nameKey(model.name), model.name, SessionScript.definition(of: model))
        }
    }

    private static func options(_ catalog: Catalog) -> [(key: String, name: String, text: String)] {
        catalog.definitions.compactMap {
            guard case .option(let option) = $0 else { return nil }
            return (
                "\(nameKey(option.familyName)) \(nameKey(option.name))", "\(option.familyName) \(option.name)",
                SessionScript.definition(of: option)
            )
        }
    }

    private static func rules(_ catalog: Catalog) -> [(key: String, name: String, text: String)] {
        catalog.definitions.compactMap {
            guard case .rule(let rule) = $0 else { return nil }
            let text = SessionScript.definition(of: rule)
            return (nameKey(text), text, text)
        }
    }

    /// Currencies without their rates (a rate is compared on its own).
    private static func currencies(_ catalog: Catalog) -> [(key: String, name: String, text: String)] {
        catalog.currencies.map {
            (nameKey($0.code), $0.code, "currency \(SessionScript.word($0.code)) \(SessionScript.quoted($0.symbol)) digits \($0.digits)")
        }
    }

    /// Each currency's whole definition, rate and all, by its key: an added or removed currency
    /// is shown as `save` writes it (a changed one has its rate in a `rate` row).
    private static func definitions(_ catalog: Catalog) -> [String: String] {
        Dictionary(catalog.currencies.map { (nameKey($0.code), SessionScript.definition(of: $0)) }, uniquingKeysWith: { a, _ in a })
    }

    /// The rates of the currencies both catalogs have (one only the other has is added or removed whole).
    private static func rates(_ catalog: Catalog, shared other: Catalog) -> [(key: String, name: String, text: String)] {
        let codes = Set(other.currencies.map { nameKey($0.code) })
        return catalog.currencies.filter { codes.contains(nameKey($0.code)) }.map { (nameKey($0.code), $0.code, "\($0.rate)") }
    }

    /// Stock lines, matched as diff(1) matches lines (the fewest added and removed); in each
    /// run of lines removed and added, a line removed and one added of the same model (else
    /// at the same place in the run) are one line changed.
    private static func compareLines(
        _ first: StockLedger, _ firstCatalog: Catalog, _ second: StockLedger, _ secondCatalog: Catalog, stop: StopRequest?,
        _ report: (String, String, String?, String?, Int64?) -> Void
    ) {
        var keys: [String: Int] = [:]
        let a = lines(first, catalog: firstCatalog, keys: &keys)
        let b = lines(second, catalog: secondCatalog, keys: &keys)
        guard let edits = LineMatching.edits(a.map(\.key), b.map(\.key), stop: stop) else { return }
        let removed = edits.removed
        let inserted = edits.inserted
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            guard (i < a.count && removed.contains(i)) || (j < b.count && inserted.contains(j)) else {
                i += 1
                j += 1
                continue
            }
            // One run: the lines removed here and the lines added here.
            var gone: [Int] = []
            var new: [Int] = []
            while i < a.count && removed.contains(i) {
                gone.append(i)
                i += 1
            }
            while j < b.count && inserted.contains(j) {
                new.append(j)
                j += 1
            }
            var partner = [Int?](repeating: nil, count: gone.count)
            var taken = Set<Int>()
            // The first line added of the same model that no line removed took yet: a queue
            // per model (looking through every line added for each line removed was quadratic).
            var byModel: [String: [Int]] = [:]
            for line in new { byModel[b[line].model, default: []].append(line) }
            var nextOfModel: [String: Int] = [:]
            for (index, line) in gone.enumerated() {
                let model = a[line].model
                let position = nextOfModel[model, default: 0]
                if let queue = byModel[model], position < queue.count {
                    partner[index] = queue[position]
                    taken.insert(queue[position])
                    nextOfModel[model] = position + 1
                }
                if index % 4096 == 4095 && stop?.isRequested == true { return }
            }
            var left = new.filter { !taken.contains($0) }[...]
            for index in gone.indices where partner[index] == nil {
                guard let next = left.popFirst() else { break }
                partner[index] = next
                taken.insert(next)
            }
            for (index, line) in gone.enumerated() {
                if let match = partner[index] {
                    report(
                        "changed", "\(line + 1) -> \(match + 1)", text(a[line], against: b[match]), text(b[match], against: a[line]),
                        b[match].value &- a[line].value)
                } else {
                    report("removed", "\(line + 1)", text(a[line]), nil, 0 &- a[line].value)
                }
            }
            for line in new where !taken.contains(line) {
                report("added", "\(line + 1)", nil, text(b[line]), b[line].value)
            }
        }
    }

    /// A stock line: its key (model, every family's option, count), its model, count, parts and value.
    private struct Line {
        let key: LineKey
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

    /// `car MODEL COUNT; set ...` as `save` writes it, with its value. Against the line it
    /// changed into (or from), the parts that differ from that line's are set too, defaults
    /// or not, so the two sides of a changed row always show how it changed (a family only
    /// one side defines, `paint white`, would otherwise leave them the same).
    private static func text(_ line: Line, against other: Line? = nil) -> String {
        var theirs: [String: String] = [:]
        for part in other?.parts ?? [] { theirs[part.family] = part.option }
        let shown = line.parts.filter { !$0.isDefault || (other != nil && theirs[$0.family] != $0.option) }
        let text = "car \(line.model) \(line.count)" + (shown.isEmpty ? "" : "; set " + shown.map(\.words).joined(separator: " "))
        return text + " (\(Money.base(line.value)))"
    }

    /// Each line as what it is (model, parts, count) and its value.
    private static func lines(_ stock: StockLedger, catalog: Catalog, keys: inout [String: Int]) -> [Line] {
        var made: [Int32: (key: Int, model: String, parts: [LinePart], unit: Int64)] = [:]
        var lines: [Line] = []
        lines.reserveCapacity(stock.lineCount)
        for number in stride(from: 1, through: stock.lineCount, by: 1) {
            let (id, count) = stock.entry(number)
            let known: (key: Int, model: String, parts: [LinePart], unit: Int64)
            if let found = made[id] {
                known = found
            } else {
                let car = Car(configuration: stock.configuration(id))
                let parts = catalog.families.map { family in
                    let part = catalog.part(of: family, on: car)
                    return LinePart(
                        family: nameKey(catalog.name(of: family)), option: nameKey(part.name),
                        words: "\(SessionScript.word(catalog.name(of: family))) \(SessionScript.word(part.name))",
                        isDefault: part === catalog.defaultPart(of: family, for: car.factory))
                }
                let words = parts.map { $0.family + " " + $0.option }.joined(separator: "|") + "|" + nameKey(car.factory.model)
                let key = keys[words] ?? keys.count
                keys[words] = key
                known = (key, SessionScript.word(car.factory.model), parts, car.priceMinorUnits)
                made[id] = known
            }
            let value = known.unit.multipliedReportingOverflow(by: count).partialValue
            lines.append(
                Line(
                    key: LineKey(configuration: known.key, count: count), model: known.model, count: count, parts: known.parts, value: value
                ))
        }
        return lines
    }
}
