import CarFactory
import CarScript

/// `textDocument/hover`: what the word under the cursor is, from the command table and the
/// catalog as it stands at that line (definitions made above it included).
enum HoverProvider {
    /// A `Hover` for `position` in `analysis`'s document, or null where there is nothing to say.
    static func hover(in analysis: DocumentAnalysis, at position: TextPosition, catalog: Catalog) -> JSONValue {
        let document = analysis.document
        guard position.line < document.lineCount else { return .null }
        let lineRange = document.lineRange(position.line)
        let line = Array(document.bytes[lineRange])
        let offset = document.offset(of: position) - lineRange.lowerBound
        guard var (words, index) = Completer.command(in: line, at: offset) else { return .null }
        // After the commands before it on its line, as Tab sees it (trial 12, 2: `$v` after
        // `var v 1; echo ` was "not set here").
        let (engine, knowsCar) = analysis.state(before: position.line, catalog: catalog).state(on: line, before: offset)
        // Inside `try COMMAND` or `expect error ID COMMAND`: the command tried, read as one of its
        // own. Its start is found first and its words taken once (not the rest of the line per
        // level), and at most as deep as the language lets them hold one another.
        var start = 0
        var level = 0
        while level < maximumCommandNesting, let spec = engine.commands.lookup(words[start].text),
            let nested = ScriptIndex.nestedCommandStart(of: spec, words, from: start), index >= nested
        {
            start = nested
            level += 1
        }
        if start > 0 {
            words = Array(words[start...])
            index -= start
        }
        let variables = Dictionary(engine.variables.map { ($0.name, $0.value) }) { _, last in last }
        let word = words[index]
        // A word's text has its variables taken out (they are replaced when it runs): read them as written.
        let written = { (word: LineWord) in String(decoding: line[word.range], as: UTF8.self) }
        var text: String?
        if let name = reference(in: written(word)) {
            text = variables[name].map { "`$\(name)` is \(code($0)) here" } ?? "`$\(name)` is not set here"
        } else if index == 0 {
            text = engine.commands.lookup(word.text).map(commandText)
            // On a line that configures a car, the price the script has reached after it (as its inlay hint says).
            let offset = lineRange.lowerBound
            if let spec = engine.commands.lookup(word.text), spec.name == "car" || spec.name == "set",
                let price = analysis.lines(catalog: catalog).first(where: {
                    $0.range.contains(offset) || $0.range.upperBound == offset
                })?.price
            {
                text = (text ?? "") + "\n\nThe current car's price after this line: \(Money.base(price))"
            }
        } else if let spec = engine.commands.lookup(words[0].text) {
            // A variable stands for its value; an optional argument may be left out, so the next kind may fit.
            let value = { (word: LineWord) in reference(in: written(word)).flatMap { variables[$0] } ?? word.text }
            var kinds = [ArgumentKind]()
            let car = knowsCar ? try? engine.stock.currentLine().car : nil
            if let reading = ConfiguratorWords.read(spec.name, words.dropFirst().map(value), catalog: engine.catalog) {
                // The configurator commands' words: as the engine's one reader of them reads them.
                let subject: ArgumentSubject? =
                    switch reading.roles[index - 1] {
                    case .model: .model
                    case .family: .family
                    case .option(let family): .option(family)
                    case .currency: .currency
                    case .in, .unknown, .extra, .unresolved: nil
                    }
                text = subject.flatMap { describe(value(word), as: $0, catalog: engine.catalog, commands: engine.commands, car: car) }
            } else if index - 1 < spec.arguments.count {
                kinds.append(spec.arguments[index - 1].kind)
                if spec.arguments[index - 1].optional && index < spec.arguments.count { kinds.append(spec.arguments[index].kind) }
            }
            for kind in kinds where text == nil {
                text = kind.subject(after: words.map(value), catalog: engine.catalog).flatMap {
                    describe(value(word), as: $0, catalog: engine.catalog, commands: engine.commands, car: car)
                }
            }
        }
        guard let text else { return .null }
        return .object([
            "contents": .object(["kind": .string("markdown"), "value": .string(text)]),
            "range": .object([
                "start": document.position(of: lineRange.lowerBound + word.range.lowerBound).json,
                "end": document.position(of: lineRange.lowerBound + word.range.upperBound).json
            ])
        ])
    }

    /// The variable `$NAME` or `${NAME}` is, if it is one whole.
    private static func reference(in word: String) -> String? {
        var name = Substring(word)
        guard name.hasPrefix("$") else { return nil }
        name = name.dropFirst()
        if name.hasPrefix("{") {
            guard name.hasSuffix("}") else { return nil }
            name = name.dropFirst().dropLast()
        }
        func isLetter(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
        }
        guard let first = name.unicodeScalars.first, isLetter(first),
            name.unicodeScalars.allSatisfy({ isLetter($0) || ("0"..."9").contains($0) })
        else { return nil }
        return String(name)
    }

    /// `text` from a script or catalog as markdown that shows it as written: its control and
    /// invisible characters escaped as messages show them (a line break cannot start a line of
    /// the hover's own), then every ASCII punctuation mark but quotes, commas and parentheses
    /// backslash-escaped, so that a name makes no link, HTML, heading, emphasis or code span
    /// (trial 3, T9).
    static func plain(_ text: String) -> String {
        var result = ""
        for scalar in DisplayText.escaped(text).unicodeScalars {
            // Quotes, commas and parentheses mean nothing in markdown (a link needs its brackets): they stay as they are.
            let punctuation = [0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E].contains { $0.contains(scalar.value) }
            if punctuation && !"\"',()".unicodeScalars.contains(scalar) {
                result.unicodeScalars.append("\\")
            }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// `text` (escaped as `plain` escapes it) as a markdown code span: fenced by more backticks
    /// than it holds in a row, so that none of them ends the span early.
    static func code(_ text: String) -> String {
        let shown = DisplayText.escaped(text)
        var longest = 0
        var run = 0
        for scalar in shown.unicodeScalars {
            run = scalar == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        // A span that starts or ends with a backtick, or with blanks on both sides, is padded (CommonMark drops one blank each side).
        let padded = shown.hasPrefix("`") || shown.hasSuffix("`") || (shown.hasPrefix(" ") && shown.hasSuffix(" "))
        return padded ? "\(fence) \(shown) \(fence)" : "\(fence)\(shown)\(fence)"
    }

    /// A command's usage line, summary, details, other names and example.
    static func commandText(_ spec: CommandSpec) -> String {
        var text = "```\n\(spec.usage)\n```\n\(spec.summary)\n\n\(spec.details)"
        if !spec.aliases.isEmpty { text += "\n\nAlso: " + spec.aliases.joined(separator: ", ") }
        text += "\n\nExample: `\(spec.example)`"
        return text
    }

    /// `name` read as what `subject` says it is, described; nil if it is not one.
    private static func describe(
        _ name: String, as subject: ArgumentSubject, catalog: Catalog,
        commands: CommandTable, car: Car?
    ) -> String? {
        switch subject {
        case .model:
            guard let factory = try? catalog.registry.factory(named: name) else { return nil }
            let defaults = catalog.families.map { "\(catalog.name(of: $0)) \(catalog.defaultPart(of: $0, for: factory).name)" }.joined(
                separator: ", ")
            return
                "**\(plain(factory.model))**: \(plain(factory.carType))\n\nBase price: \(factory.basePrice)\n\nDefaults: \(plain(defaults))"
        case .family:
            guard let family = catalog.family(named: name) else { return nil }
            return "**\(plain(catalog.name(of: family)))** options: "
                + plain(catalog.options(of: family).parts.map(\.name).joined(separator: ", "))
        case .option(let family):
            guard let family else { return nil }
            return option(name, of: family, catalog: catalog, car: car)
        case .currency:
            guard let currency = try? catalog.currency(named: name) else { return nil }
            // The symbol in quotes, as a definition writes it: a blank at its end is seen.
            return
                "**\(plain(currency.code))**: symbol \(plain("\"\(currency.symbol)\"")), \(currency.digits) minor digits, rate \(currency.rate) per \(plain(Currency.base.code))"
        case .command:
            return commands.lookup(name).map(commandText)
        case .helpTopic, .variable:
            // A variable is described by its value above; a help topic by `help` itself.
            return nil
        }
    }

    /// An option's family, shown name, other names, list price, what it would do to the current car, and the rules on it.
    private static func option(_ name: String, of family: PartFamily, catalog: Catalog, car: Car?) -> String? {
        guard let part = try? catalog.option(named: name, in: family) else { return nil }
        var text = "**\(plain(part.name))**: \(plain(part.familyName)) option, shown as \(plain(part.shownAs))"
        if !part.otherNames.isEmpty { text += "\n\nOther names: " + plain(part.otherNames.joined(separator: ", ")) }
        text += "\n\nList price: \(part.listPrice)"
        if let car {
            text += "\n\nOn the current car: " + plain(OptionAdvice(part, on: car, rules: catalog.ruleSet).text(for: family))
        }
        let rules = catalog.ruleSet.rules.filter { $0.first.matches(part) || $0.second.matches(part) }
        if !rules.isEmpty { text += "\n\nRules: " + rules.map { code("\($0)") }.joined(separator: ", ") }
        return text
    }
}
