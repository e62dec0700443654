import CarFactory
import CarScript

/// `textDocument/codeAction`: quick fixes from what the engine already knows. Every fix-it
/// of a diagnostic in the range (`did you mean 'sports'?`) is one; and a `set` in the range
/// that a rule refuses gets the configurator's cheapest repair (the one its refusal's note
/// names: for one part what `fit` would apply, for several the cheapest that keeps them all,
/// from `ConfiguratorCommands.cheapestRepair`) as one `set` of every part it changes.
enum CodeActionProvider {
    /// The `CodeAction`s for the lines of `range` in `analysis`'s document.
    static func actions(
        in analysis: DocumentAnalysis, range: (start: TextPosition, end: TextPosition),
        catalog: Catalog
    ) -> JSONValue {
        let document = analysis.document
        let lines = range.start.line...max(range.start.line, range.end.line)
        var actions: [JSONValue] = []
        var files: [String: TextDocument] = [:]
        for diagnostic in analysis.diagnostics(catalog: catalog)
        where diagnostic.file == analysis.name
            && lines.contains(diagnostic.line - 1)
        {
            for fix in diagnostic.fixIts {
                let start = document.position(line: diagnostic.line - 1, column: fix.column)
                let end = document.position(line: diagnostic.line - 1, column: fix.endColumn)
                let replaced = document.text(from: start, to: end)
                actions.append(
                    action(
                        title: "Change '\(replaced)' to '\(fix.replacement)'", uri: document.uri,
                        edit: .object(["range": .object(["start": start.json, "end": end.json]), "newText": .string(fix.replacement)]),
                        diagnostic: analysis.lspDiagnostic(diagnostic, files: &files), preferred: diagnostic.fixIts.count == 1))
            }
        }
        // One budget of search steps for every repair of the request (a range of many refused
        // `set`s searched 1,000,000 steps for each).
        let budget = SearchBudget()
        // One session for the range: the document run up to its first `set` line, then on through
        // the range a command at a time, each `set` alone with its diagnostics kept. A session of
        // its own for every `set`, each a replay of the document above it, made a range quadratic
        // in its lines (4,000 took 2.6 s, 16,000 no answer in 5 s; trial 4, 9).
        var replay: (engine: Engine, collector: DiagnosticCollector)?
        for line in ScriptLines.each(document.bytes) {
            let first = document.position(of: line.range.lowerBound).line
            if first > lines.upperBound { break }
            // A line continued into the range counts: an editor asks from the line of the
            // diagnostic, which may be a later one of the `set`'s (review of the change).
            guard document.position(of: line.range.upperBound).line >= lines.lowerBound else { continue }
            let sets = line.commands.filter { $0.count >= 3 && $0.count % 2 == 1 && $0[0].text.lowercased() == "set" }
            guard !sets.isEmpty || replay != nil else { continue }
            let (engine, collector) =
                replay
                ?? {
                    let collector = DiagnosticCollector(keeping: false)
                    return (analysis.session(before: first, catalog: catalog, sink: collector), collector)
                }()
            replay = (engine, collector)
            var done = line.range.lowerBound
            for words in sets {
                // The commands before it on its line, then the `set` alone.
                evaluate(document.bytes[done..<words[0].range.lowerBound], in: engine, analysis)
                done = words[words.count - 1].range.upperBound
                if let repair = repair(
                    of: words, engine: engine, collector: collector, analysis: analysis, catalog: catalog, budget: budget)
                {
                    actions.append(repair)
                }
            }
            evaluate(document.bytes[done..<line.range.upperBound], in: engine, analysis)
        }
        return .array(actions)
    }

    /// Runs `text`, a part of a line of `analysis`'s document, on `engine`.
    private static func evaluate(_ text: ArraySlice<UInt8>, in engine: Engine, _ analysis: DocumentAnalysis) {
        guard !text.isEmpty else { return }
        engine.evaluate(openLineSource(text: Array(text), name: analysis.name, path: analysis.path))
    }

    /// Runs `set FAMILY OPTION...` (`words`) on `engine`, as the script runs it; if a rule refuses
    /// it, the configurator's repair for it. `catalog` is the one the document is analysed with.
    private static func repair(
        of words: [LineWord], engine: Engine, collector: DiagnosticCollector, analysis: DocumentAnalysis, catalog: Catalog,
        budget: SearchBudget
    ) -> JSONValue? {
        let document = analysis.document
        let start = words[0].range.lowerBound
        let end = words[words.count - 1].range.upperBound
        // The car and catalog the `set` meets, read first: inside a transaction its refusal
        // rolls the transaction back, as in the script.
        let car = try? engine.stock.currentLine().car
        let defined = engine.catalog
        let kept = collector.diagnostics.count
        collector.keeping = true
        evaluate(document.bytes[start..<end], in: engine, analysis)
        collector.keeping = false
        // Where the run may have gone another way, the refusal is not claimed, nor a repair for it.
        guard let car, !engine.runMayHaveDiverged, collector.diagnostics[kept...].contains(where: { $0.id == "rule-violation" })
        else { return nil }
        var parts: [any Part] = []
        for pair in stride(from: 1, to: words.count, by: 2) {
            guard let family = defined.family(named: words[pair].text),
                let part = try? defined.option(named: words[pair + 1].text, in: family)
            else { return nil }
            parts.append(part)
        }
        let title: String
        let added: [any Part]
        if parts.count == 1 {
            // One part: what `fit` would apply.
            guard
                case .some(.some(let repair)) = ConfiguratorCommands.cheapestRepair(
                    for: parts[0], on: car, catalog: defined, stop: analysis.settings.stop,
                    limits: analysis.settings.searchLimits, budget: budget)
            else { return nil }
            added = repair.changes.compactMap { change in
                defined.family(named: change.family).flatMap { try? defined.option(named: change.option, in: $0) }
            }
            guard added.count == repair.changes.count else { return nil }
            let changes = repair.changes.map { "\($0.family) \($0.option)" }.joined(separator: ", ")
            title = "Fit \(parts[0].familyName) \(parts[0].name): also set \(changes) (\(OptionAdvice.signed(repair.priceChange)))"
        } else {
            // Several: the cheapest repair that keeps every part named.
            guard
                case .some(.some(let repair)) = ConfiguratorCommands.cheapestRepair(
                    keeping: parts, on: car, catalog: defined, rules: defined.ruleSet, stop: analysis.settings.stop,
                    limits: analysis.settings.searchLimits, budget: budget)
            else { return nil }
            added = repair.added
            let changes = added.map { "\($0.familyName) \($0.name)" }.joined(separator: ", ")
            title = "Repair keeping these parts: also set \(changes) (\(OptionAdvice.signed(repair.priceChange)))"
        }
        let from = document.position(of: start)
        let to = document.position(of: end)
        let range: JSONValue = .object(["start": from.json, "end": to.json])
        var files: [String: TextDocument] = [:]
        return action(
            title: title, uri: document.uri,
            edit: .object(["range": range, "newText": .string(ConfiguratorCommands.setCommand(parts + added))]),
            diagnostic: refusal(from: from, to: to, in: analysis, catalog: catalog).map { analysis.lspDiagnostic($0, files: &files) },
            preferred: false)
    }

    /// The refusal the editor shows (`DocumentAnalysis.refusals`) on the `set` from `from` to
    /// `to`: the diagnostic its repair fixes, which clients that show quick fixes only for a
    /// diagnostic need (trial 9, 6).
    private static func refusal(
        from: TextPosition, to: TextPosition, in analysis: DocumentAnalysis, catalog: Catalog
    ) -> Diagnostic? {
        analysis.refusals(catalog: catalog).first { refusal in
            guard refusal.file == analysis.name else { return false }
            // Anywhere in the command, on any line it is continued onto (a refusal on a line after
            // the `set`'s first was not found, and its quick fix came without it).
            let at = analysis.document.position(line: refusal.line - 1, column: refusal.column)
            return (at.line, at.character) >= (from.line, from.character) && (at.line, at.character) < (to.line, to.character)
        }
    }

    private static func action(title: String, uri: String, edit: JSONValue, diagnostic: JSONValue?, preferred: Bool) -> JSONValue {
        var members = [JSONMember(key: "title", value: .string(title)), JSONMember(key: "kind", value: .string("quickfix"))]
        if let diagnostic { members.append(JSONMember(key: "diagnostics", value: .array([diagnostic]))) }
        if preferred { members.append(JSONMember(key: "isPreferred", value: .bool(true))) }
        members.append(JSONMember(key: "edit", value: .object(["changes": .object([uri: .array([edit])])])))
        return .object(members)
    }
}
