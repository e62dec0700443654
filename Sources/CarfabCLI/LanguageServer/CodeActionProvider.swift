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
        for line in ScriptLines.read(document.bytes) {
            let first = document.position(of: line.range.lowerBound).line
            guard lines.contains(first) else { continue }
            for words in line.commands where words.count >= 3 && words.count % 2 == 1 && words[0].text.lowercased() == "set" {
                if let repair = repair(
                    of: words, lineStart: line.range.lowerBound, line: first, analysis: analysis, catalog: catalog, budget: budget)
                {
                    actions.append(repair)
                }
            }
        }
        return .array(actions)
    }

    /// The configurator's repair for `set FAMILY OPTION` (`words`) if a rule refuses it where it stands.
    private static func repair(
        of words: [LineWord], lineStart: Int, line: Int, analysis: DocumentAnalysis,
        catalog: Catalog, budget: SearchBudget
    ) -> JSONValue? {
        let document = analysis.document
        let collector = DiagnosticCollector(keeping: false)
        let engine = analysis.session(before: line, catalog: catalog, sink: collector)
        // The commands before it on its line, then the `set` alone, its diagnostics kept.
        let start = words[0].range.lowerBound
        let end = words[words.count - 1].range.upperBound
        engine.evaluate(openLineSource(text: Array(document.bytes[lineStart..<start]), name: analysis.name, path: analysis.path))
        // The car and catalog the `set` meets, read first: inside a transaction its refusal
        // rolls the transaction back, as in the script.
        guard let car = try? engine.stock.currentLine().car else { return nil }
        let defined = engine.catalog
        collector.keeping = true
        engine.evaluate(openLineSource(text: Array(document.bytes[start..<end]), name: analysis.name, path: analysis.path))
        guard collector.diagnostics.contains(where: { $0.id == "rule-violation" }) else { return nil }
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
                    limits: AnalysisSettings.searchLimits, budget: budget)
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
                    limits: AnalysisSettings.searchLimits, budget: budget)
            else { return nil }
            added = repair.added
            let changes = added.map { "\($0.familyName) \($0.name)" }.joined(separator: ", ")
            title = "Repair keeping these parts: also set \(changes) (\(OptionAdvice.signed(repair.priceChange)))"
        }
        let range: JSONValue = .object(["start": document.position(of: start).json, "end": document.position(of: end).json])
        return action(
            title: title, uri: document.uri,
            edit: .object(["range": range, "newText": .string(ConfiguratorCommands.setCommand(parts + added))]),
            diagnostic: nil, preferred: false)
    }

    private static func action(title: String, uri: String, edit: JSONValue, diagnostic: JSONValue?, preferred: Bool) -> JSONValue {
        var members = [JSONMember(key: "title", value: .string(title)), JSONMember(key: "kind", value: .string("quickfix"))]
        if let diagnostic { members.append(JSONMember(key: "diagnostics", value: .array([diagnostic]))) }
        if preferred { members.append(JSONMember(key: "isPreferred", value: .bool(true))) }
        members.append(JSONMember(key: "edit", value: .object(["changes": .object([uri: .array([edit])])])))
        return .object(members)
    }
}
