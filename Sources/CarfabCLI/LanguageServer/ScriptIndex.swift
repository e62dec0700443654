import CarFactory
import CarScript

/// What a name in a script stands for, as definition, references and rename match it.
struct SymbolKey: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        case model
        /// A part family, by its name (a defined family can be renamed; the book's three cannot).
        case family
        case option(PartFamily)
        case currency, variable, file
    }

    var kind: Kind
    /// The name as matched: catalog names case-folded (they are case-insensitive), an
    /// option by its own name (not the alias used), a variable as written, a file by its path.
    var name: String

    /// How a person calls such a thing; an option by its family's name in `catalog` (`paint option`).
    func noun(in catalog: Catalog) -> String {
        switch kind {
        case .model: "model"
        case .family: "family"
        case .option(let family): "\(catalog.name(of: family)) option"
        case .currency: "currency"
        case .variable: "variable"
        case .file: "file"
        }
    }

    /// How the name is shown in messages.
    var shown: String { kind == .variable ? "$\(name)" : name }
}

/// One place a symbol is named.
struct SymbolOccurrence: Sendable {
    var key: SymbolKey
    /// The file it is in (the document's URI, or a sourced file's).
    var uri: String
    /// The bytes of the name in that file (for a variable, its name without `$` or braces).
    var range: Range<Int>
    /// Whether this is where the symbol is defined (`model NAME`, an option's name or alias, `currency CODE`, `var NAME`).
    var isDefinition: Bool
    /// The name as written here, without quotes.
    var written: String
}

/// Every model, family, option, currency, variable and sourced file a document and the files it
/// sources name, and where: definition, references and rename read it. The words come from
/// the engine's lexer (`ScriptLines`) and each word's meaning from the command table's
/// argument kinds, the same the engine resolves them by.
struct ScriptIndex {
    private(set) var occurrences: [SymbolOccurrence] = []
    /// The text of each file indexed, by URI.
    private(set) var files: [String: TextDocument] = [:]
    /// The files sourced that are not indexed (as `source` names them), and why.
    private(set) var unsearched: [(file: String, reason: Unsearched)] = []

    /// Why a sourced file is not indexed.
    enum Unsearched {
        /// The analysis did not read it whole: it takes what is read through `source` past
        /// the bound of what the analysis reads (`ReplayFiles.largest` in all).
        case tooLarge
        /// It is sourced more than `maximumSourceDepth` deep, past where the engine sources.
        case tooDeep
        /// The analysis did not source it (a line that never ran it).
        case notRead
    }

    /// Indexes `analysis`'s document and, through `source`, the files it reads; `catalog` is
    /// the catalog after the whole document (it knows every option's other names).
    init(_ analysis: DocumentAnalysis, catalog: Catalog, commands: CommandTable) {
        index(analysis.document, path: analysis.path, catalog: catalog, commands: commands, depth: 0, analysis: analysis)
    }

    private mutating func index(
        _ document: TextDocument, path: String?, catalog: Catalog, commands: CommandTable,
        depth: Int, analysis: DocumentAnalysis
    ) {
        files[document.uri] = document
        let directory = path.map(directoryName) ?? analysis.directory
        for line in ScriptLines.each(document.bytes) {
            for words in line.commands {
                let roles = Self.roles(of: words, in: document.bytes, commands: commands, catalog: catalog)
                for (index, word) in words.enumerated() {
                    let raw = Array(document.bytes[word.range])
                    // Variables used anywhere in a word, quoted or not.
                    for (range, name) in Self.variableReferences(in: raw) {
                        let bytes = (word.range.lowerBound + range.lowerBound)..<(word.range.lowerBound + range.upperBound)
                        add(.init(kind: .variable, name: name), document.uri, bytes, definition: false, name)
                    }
                    guard raw.firstIndex(of: UInt8(ascii: "$")) == nil || index == 0 else { continue }
                    let range = Self.unquoted(word.range, raw)
                    switch roles[index] {
                    case .model(let defines):
                        add(.init(kind: .model, name: word.text.lowercased()), document.uri, range, definition: defines, word.text)
                    case .option(let family, let defines, let canonical):
                        guard let family else { break }
                        var name = word.text
                        if let canonical {
                            name = canonical
                        } else if !defines, let part = try? catalog.option(named: word.text, in: family) {
                            name = part.name
                        }
                        add(.init(kind: .option(family), name: name.lowercased()), document.uri, range, definition: defines, word.text)
                    case .family(let defines):
                        add(.init(kind: .family, name: word.text.lowercased()), document.uri, range, definition: defines, word.text)
                    case .currency(let defines):
                        add(.init(kind: .currency, name: word.text.lowercased()), document.uri, range, definition: defines, word.text)
                    case .variable:
                        add(.init(kind: .variable, name: word.text), document.uri, range, definition: true, word.text)
                    case .file:
                        // The path the engine opens, and keeps the file's text by (`ReplayFiles`).
                        let full = resolvePath(word.text, against: directory)
                        add(.init(kind: .file, name: full), document.uri, range, definition: false, word.text)
                        guard !analysis.settings.safe, files[DocumentURI.uri(of: full)] == nil else { break }
                        // The files are those the analysis read, as far as it read them: the index
                        // reads no file, and searches what the diagnostics checked (review of lsp6).
                        // A file left out is named, and a rename refused: it would miss places.
                        let there = { analysis.replay.files.kind(of: Array(full.utf8)) == .regular }
                        // No deeper than the engine sources (so no deeper than a stack can take).
                        guard depth + 1 < maximumSourceDepth else {
                            if there() { note(word.text, .tooDeep) }
                            break
                        }
                        guard let read = analysis.replay.files.file(full) else {
                            if there() { note(word.text, .notRead) }
                            break
                        }
                        guard read.whole else {
                            note(word.text, .tooLarge)
                            break
                        }
                        let sourced = TextDocument(
                            uri: DocumentURI.uri(of: full), version: 0,
                            text: String(decoding: read.text, as: UTF8.self))
                        self.index(sourced, path: full, catalog: catalog, commands: commands, depth: depth + 1, analysis: analysis)
                    case .keyword, .other:
                        break
                    }
                }
            }
        }
    }

    /// Names `file` (once) as not searched, for `reason`.
    private mutating func note(_ file: String, _ reason: Unsearched) {
        if !unsearched.contains(where: { $0.file == file }) { unsearched.append((file, reason)) }
    }

    private mutating func add(_ key: SymbolKey, _ uri: String, _ range: Range<Int>, definition: Bool, _ written: String) {
        occurrences.append(SymbolOccurrence(key: key, uri: uri, range: range, isDefinition: definition, written: written))
    }

    /// The occurrence at byte `offset` of the file `uri` (a cursor just after a name counts as on it).
    func occurrence(in uri: String, at offset: Int) -> SymbolOccurrence? {
        occurrences.first { $0.uri == uri && $0.range.lowerBound <= offset && offset <= $0.range.upperBound }
    }

    /// The occurrences of `key` that `include` takes, definitions first, in the order the files
    /// were read: the first `limit` of them, and how many there are (a name on each of 381,300
    /// lines made four copies of its occurrences, 184 MiB; trial 9, 1).
    func occurrences(
        of key: SymbolKey, where include: (SymbolOccurrence) -> Bool, keeping limit: Int
    ) -> (kept: [SymbolOccurrence], count: Int) {
        var kept: [SymbolOccurrence] = []
        var count = 0
        for definitions in [true, false] {
            for occurrence in occurrences where occurrence.isDefinition == definitions && occurrence.key == key && include(occurrence) {
                count += 1
                if kept.count < limit { kept.append(occurrence) }
            }
        }
        return (kept, count)
    }

    /// An LSP `Location` of `occurrence`.
    func location(_ occurrence: SymbolOccurrence) -> JSONValue {
        .object(["uri": .string(occurrence.uri), "range": range(occurrence)])
    }

    /// An LSP `Range` of `occurrence` in its file.
    func range(_ occurrence: SymbolOccurrence) -> JSONValue {
        guard let file = files[occurrence.uri] else { return .null }
        return .object([
            "start": file.position(of: occurrence.range.lowerBound).json,
            "end": file.position(of: occurrence.range.upperBound).json
        ])
    }

    /// What a word of a command stands for.
    enum Role: Equatable {
        /// A model; `defines`: the name a `model` command defines.
        case model(defines: Bool)
        /// An option of `family` (nil if the family word is not one); `canonical`: the option an alias names.
        case option(PartFamily?, defines: Bool, canonical: String?)
        case currency(defines: Bool)
        /// The name `var` sets.
        case variable
        /// The file `source` reads.
        case file
        /// A family; `defines`: the name a `family` command defines.
        case family(defines: Bool)
        /// A word the command takes as it is (`price`, `with`, `in`, `alias`).
        case keyword
        case other
    }

    /// The role of each of `words` (a command of `text`), from its argument kinds; the free-form tails
    /// (`set`'s further pairs, `option`'s `alias`) by their keywords; the configurator commands' words
    /// as `ConfiguratorWords` reads them.
    static func roles(of words: [LineWord], in text: [UInt8], commands: CommandTable, catalog: Catalog) -> [Role] {
        var roles = [Role](repeating: .other, count: words.count)
        // A command inside `try` or `expect error ID`: its words are read as the same command's
        // at the start of a line. The levels are walked by where each begins in `words` (one
        // copy of the innermost's words, not one of the rest of the line per level: a line of
        // 20,000 `try`s took 12.5 GB), and no deeper than the language lets them hold one
        // another: the words past the 64th level are what the interpreter refuses, and no role.
        var start = 0
        var level = 0
        while let spec = commands.lookup(words[start].text), let nested = nestedCommandStart(of: spec, words, from: start) {
            guard level < maximumCommandNesting else { return roles }
            if nested > start + 1 { roles[start + 1] = .keyword }
            start = nested
            level += 1
        }
        guard start == 0 else {
            roles.replaceSubrange(start..., with: Self.roles(of: Array(words[start...]), in: text, commands: commands, catalog: catalog))
            return roles
        }
        guard let spec = commands.lookup(words[0].text) else { return roles }
        // The configurator commands' words are read by the engine's one reader of them.
        // A word with a variable in it has no value here: the reader takes it as what may stand there.
        let values = words.dropFirst().map { text[$0.range].contains(UInt8(ascii: "$")) ? nil : $0.text }
        if let reading = ConfiguratorWords.read(spec.name, values, catalog: catalog) {
            for (index, role) in reading.roles.enumerated() {
                switch role {
                case .model: roles[index + 1] = .model(defines: false)
                case .family: roles[index + 1] = .family(defines: false)
                case .option(let family): roles[index + 1] = .option(family, defines: false, canonical: nil)
                case .in: roles[index + 1] = .keyword
                case .currency: roles[index + 1] = .currency(defines: false)
                case .unknown, .extra, .unresolved: break
                }
            }
            return roles
        }
        let family = { (index: Int) in index < words.count ? catalog.family(named: words[index].text) : nil }
        var index = 1
        var argument = 0
        while index < words.count && argument < spec.arguments.count {
            let kind = spec.arguments[argument].kind
            switch kind {
            case .model: roles[index] = .model(defines: false)
            case .family: roles[index] = .family(defines: false)
            case .keyword: roles[index] = .keyword
            case .field where catalog.family(named: words[index].text) != nil:
                // `expect paint red` names a family and its option, as `expect line 1 paint red`
                // does in its tail: read the same way (a rename missed them; trial 13, 3).
                tail(of: spec.name, words, from: index, catalog: catalog, into: &roles)
                return roles
            case .option(let familyArgument): roles[index] = .option(family(familyArgument), defines: false, canonical: nil)
            case .optionOf(let fixed): roles[index] = .option(fixed, defines: false, canonical: nil)
            case .currency, .foreignCurrency, .amountCurrency:
                // An optional currency may be left out: only a word that is one counts, and
                // `expect`'s only after an amount field (`expect type SUV` names no currency).
                let text = words[index].text.unicodeScalars
                let applies = kind.applies(after: words[..<index].map(\.text))
                if !spec.arguments[argument].optional
                    || (applies && text.count == 3 && text.allSatisfy { $0.properties.isAlphabetic })
                {
                    roles[index] = .currency(defines: false)
                } else {
                    argument += 1
                    continue
                }
            case .name:
                switch spec.name {
                case "model": roles[index] = .model(defines: true)
                case "option": roles[index] = .option(family(1), defines: true, canonical: nil)
                case "currency": roles[index] = .currency(defines: true)
                // `family NAME "SHOWN AS" default OPTION ...` defines the family and its first option.
                case "family" where argument == 0: roles[index] = .family(defines: true)
                case "family": roles[index] = .option(family(1), defines: true, canonical: nil)
                default: break
                }
            case .variable where spec.name == "var": roles[index] = .variable
            case .file where spec.name == "source": roles[index] = .file
            case .words:
                tail(of: spec.name, words, from: index, catalog: catalog, into: &roles)
                return roles
            default: break
            }
            index += 1
            argument += 1
        }
        return roles
    }

    /// Where the command that `spec` (`words[start]`) runs begins in `words`: `start + 1` for
    /// `try COMMAND`, `start + 3` for `expect error ID COMMAND`; nil for any other command.
    /// Index, hover and semantic tokens read the words from there as they read a command of its own.
    static func nestedCommandStart(of spec: CommandSpec, _ words: [LineWord], from start: Int = 0) -> Int? {
        CarScript.nestedCommandStart(of: spec.name, from: start, count: words.count) { words[$0].text }
    }

    /// Roles in a command's free-form tail: `set`'s and `model`'s further pairs, `option`'s
    /// `seats`, `engine` and `alias` (the configurator commands' words are read above).
    private static func tail(of command: String, _ words: [LineWord], from start: Int, catalog: Catalog, into roles: inout [Role]) {
        var index = start
        let lower = { (index: Int) in words[index].text.lowercased() }
        while index < words.count {
            let word = lower(index)
            if command == "option", word == "alias", index + 1 < words.count {
                roles[index] = .keyword
                roles[index + 1] = .option(
                    catalog.family(named: words[1].text), defines: true,
                    canonical: words.count > 2 ? words[2].text : nil)
                index += 2
            } else if command == "option", word == "seats" || word == "engine" {
                roles[index] = .keyword
                index += 1
            } else if command != "option", let family = catalog.family(named: word), index + 1 < words.count {
                roles[index] = .family(defines: false)
                roles[index + 1] = .option(family, defines: false, canonical: nil)
                index += 2
            } else {
                index += 1
            }
        }
    }

    /// The variables a word's raw text uses, `$NAME` or `${NAME}` (not `\$`, not `${env:NAME}`):
    /// each name's bytes in the word and the name.
    static func variableReferences(in raw: [UInt8]) -> [(Range<Int>, String)] {
        var found: [(Range<Int>, String)] = []
        var index = 0
        let isStart = { (byte: UInt8) in (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || byte == 0x5F }
        let continues = { (byte: UInt8) in isStart(byte) || (byte >= 0x30 && byte <= 0x39) }
        while index < raw.count {
            let byte = raw[index]
            if byte == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            guard byte == UInt8(ascii: "$"), index + 1 < raw.count else {
                index += 1
                continue
            }
            var start = index + 1
            let braced = raw[start] == UInt8(ascii: "{")
            if braced { start += 1 }
            var end = start
            guard end < raw.count, isStart(raw[end]) else {
                index += 1
                continue
            }
            while end < raw.count && continues(raw[end]) { end += 1 }
            if !braced || (end < raw.count && raw[end] == UInt8(ascii: "}")) {
                found.append((start..<end, String(decoding: raw[start..<end], as: UTF8.self)))
            }
            index = end
        }
        return found
    }

    /// A word's range without the quotes around it, if it is one quoted string.
    private static func unquoted(_ range: Range<Int>, _ raw: [UInt8]) -> Range<Int> {
        guard raw.count >= 2, raw.first == UInt8(ascii: "\""), raw.last == UInt8(ascii: "\"") else { return range }
        return (range.lowerBound + 1)..<(range.upperBound - 1)
    }
}
