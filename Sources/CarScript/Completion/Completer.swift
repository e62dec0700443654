import CarFactory

/// What can complete the word being typed.
package struct Completion: Equatable, Sendable {
    /// The partial word before the cursor, as its name (without an opening quote).
    package var partial: String
    /// The names that can stand there, in catalog order.
    package var candidates: [String]
    /// The text before the cursor that a replacement replaces, as typed (`"my f` for `my f`).
    package var typed: String
    /// Whether candidates go in as they are (variable references), never quoted.
    package var verbatim = false
    /// What each candidate is, for the list (`+$2,500.00`, a command's summary); "" if nothing.
    package var descriptions: [String] = []
    /// Whether a rule forbids each candidate (an option for the current car): never completed silently.
    package var forbidden: [Bool] = []
    /// Each description in the columns a list lines up (a model's car type, then its price);
    /// one column for a description that is one piece of text.
    package var descriptionColumns: [[String]] = []
    /// Whether a stop request (Ctrl-C) cut the completion short: nothing is offered then.
    package var stopped = false

    /// Whether the candidates are shown as a list rather than completed: more than one, or
    /// only one that a rule forbids.
    package var needsList: Bool {
        candidates.count > 1 || (candidates.count == 1 && forbidden.first == true)
    }

    /// What can complete `partial`, typed as `typed` (the same unless it is opened by a quote).
    package init(partial: String, candidates: [String], typed: String? = nil, verbatim: Bool = false) {
        self.partial = partial
        self.candidates = candidates
        self.typed = typed ?? partial
        self.verbatim = verbatim
    }

    /// The text to put in place of `typed`: the only candidate (with a blank after it,
    /// unless it is a directory), or the longest prefix all candidates share. A name that
    /// holds a blank or another special character is quoted, as the language reads it.
    ///
    /// Every decision is made on Unicode scalars, as the lexer reads: a quote followed by a
    /// combining mark is one `Character` but still a quote to the lexer.
    package var replacement: String? {
        guard let first = candidates.first else { return nil }
        if candidates.count == 1 && forbidden.first == true { return nil }
        if verbatim {
            guard candidates.count > 1 else { return first }
            // Variable names are case-sensitive: so is what they share.
            let common = Self.commonStart(candidates, ignoringCase: false)
            return common.unicodeScalars.count > typed.unicodeScalars.count ? common : nil
        }
        let quoting = typed.utf8.first == UInt8(ascii: "\"") || candidates.contains { SessionScript.word($0) != $0 }
        if candidates.count == 1 {
            if first.utf8.last == UInt8(ascii: "/") { return quoting ? Self.leftOpen(SessionScript.quoted(first)) : first }
            return (quoting ? SessionScript.quoted(first) : first) + " "
        }
        let common = Self.commonStart(candidates, ignoringCase: true)
        guard common.unicodeScalars.count > partial.unicodeScalars.count else { return nil }
        // The shared start, its quote left open for the rest of the name.
        return quoting ? Self.leftOpen(SessionScript.quoted(common)) : common
    }

    /// A quoted word without its closing quote (its last scalar).
    private static func leftOpen(_ quoted: String) -> String {
        String(String.UnicodeScalarView(quoted.unicodeScalars.dropLast()))
    }

    /// The longest start all `names` share, in Unicode scalars (spelled as the first has it).
    private static func commonStart(_ names: [String], ignoringCase: Bool) -> String {
        guard let first = names.first else { return "" }
        var common = Array(first.unicodeScalars)
        for name in names.dropFirst() {
            let other = Array(name.unicodeScalars)
            var length = 0
            while length < common.count && length < other.count
                && (ignoringCase
                    ? common[length].properties.lowercaseMapping == other[length].properties.lowercaseMapping
                    : common[length] == other[length])
            {
                length += 1
            }
            common.removeLast(common.count - length)
        }
        return String(String.UnicodeScalarView(common))
    }
}

/// Tab completion from the command table: what each argument kind accepts, filtered by the typed prefix.
package struct Completer {
    /// The commands completed and whose arguments say what comes next.
    package let commands: CommandTable
    /// The catalog names come from.
    package let catalog: Catalog
    /// The directory relative file names are completed in.
    package let workingDirectory: String
    /// Whether file names are completed: not under `--safe`, where commands that take them are refused.
    package let completesFiles: Bool
    /// The variables defined, completed after `$` and `${`.
    package let variables: [String]
    /// The current car, whose options are listed with their price changes and rules.
    package let currentCar: Car?
    /// Each variable's value, for the list.
    package var variableValues: [String: String] = [:]
    /// The completer for the state the earlier commands of a line (the bytes up to its last
    /// separator) would leave, made without changing anything; nil completes every command
    /// against the state as it is.
    package var rehearse: (([UInt8]) -> Completer)?
    /// Where folders are listed for file names: none (no file names) unless a host is given.
    package var host: (any EngineHost)?
    /// The home folder a file name's leading `~/` stands for, as `source` and `save` read it
    /// (nil: `~/` is completed as nothing).
    package var home: String?
    /// Asked between candidates and inside their repair searches: a stop (Ctrl-C, a signal)
    /// abandons the completion, so that it is honoured at once, not when the list is done.
    package var stop: StopRequest?
    /// The search steps one completion may spend on repair prices, all its options together.
    package var repairSteps = Completer.repairStepBudget
    /// The budget those steps are counted in: a completion's copy session's, whose `fit`s
    /// spent from it first; nil: a budget of its own.
    var repairBudget: SearchBudget?

    /// The standard `repairSteps`: a tenth of an answer's (`SearchLimits.standard`), so Tab
    /// answers at once on any family; past it, options that need a repair show only the rule.
    package static let repairStepBudget = 100_000

    /// A completer over `commands` and `catalog`, completing file names in `workingDirectory` if `completesFiles`.
    package init(
        commands: CommandTable, catalog: Catalog, variables: [String] = [], currentCar: Car? = nil,
        workingDirectory: String = ".", completesFiles: Bool = true
    ) {
        self.commands = commands
        self.catalog = catalog
        self.variables = variables
        self.currentCar = currentCar
        self.workingDirectory = workingDirectory
        self.completesFiles = completesFiles
    }

    /// What can complete `line`, the text before the cursor.
    package func complete(_ line: String) -> Completion {
        let none = Completion(partial: "", candidates: [])
        let lexer = Lexer()
        var bytes = Array(line.utf8)
        if let rehearse, let end = Self.endOfEarlierCommands(bytes) {
            var later = rehearse(Array(bytes[..<end]))
            later.rehearse = nil
            return later.complete(line)
        }
        // A word opened by a quote is completed inside it (`source "my f`); a comment never is.
        var opened: [UInt8]?
        guard !Self.inComment(bytes) else { return none }
        if let reference = Self.openReference(bytes) { return completion(ofReference: reference) }
        guard var outcome = try? bytes.withUnsafeBufferPointer({ (buffer) throws(ScriptError) in try lexer.tokenize(buffer) })
        else { return none }
        if case .openQuote(let quote) = outcome {
            opened = Array(bytes[quote...])
            bytes.removeLast(bytes.count - quote)
            guard let before = try? bytes.withUnsafeBufferPointer({ (buffer) throws(ScriptError) in try lexer.tokenize(buffer) })
            else { return none }
            outcome = before
        }
        guard outcome == .complete else { return none }
        var tokens = lexer.tokens[...]
        if let separator = tokens.lastIndex(where: { $0.kind == .separator }) { tokens = tokens[(separator + 1)...] }
        // `try COMMAND` and `expect error ID COMMAND` complete COMMAND as if typed alone, once
        // the word being completed is in it (the word after a blank counts).
        let blank = Self.endsInBlank(bytes)
        while let first = tokens.first, let spec = commands.lookup(lexer.string(first)),
            let nested = nestedCommandStart(
                of: spec.name, from: 0, count: tokens.count + (blank ? 1 : 0),
                word: { [tokens] in lexer.string(tokens[tokens.startIndex + $0]) })
        {
            tokens = tokens.dropFirst(nested)
        }
        var words = tokens.map(lexer.string)
        if let opened {
            // The quote must begin a word of its own.
            guard Self.endsInBlank(bytes) || bytes.last == UInt8(ascii: ";") else { return none }
            // The name typed so far, its escapes read as the lexer reads them once the quote closes.
            guard let partial = Self.quotedName(opened) else { return none }
            return described(
                Completion(
                    partial: partial, candidates: candidates(after: words, partial: partial),
                    typed: String(decoding: opened, as: UTF8.self)), after: words)
        }
        var partial = ""
        var typed = ""
        if let last = tokens.last, last.range.end == bytes.count, !Self.endsInBlank(bytes) {
            partial = words.removeLast()
            typed = String(decoding: bytes[last.range.start...], as: UTF8.self)
            // A word already quoted and closed is not completed further.
            if typed != partial && typed.utf8.last == UInt8(ascii: "\"") { return none }
        }
        return described(
            Completion(partial: partial, candidates: candidates(after: words, partial: partial), typed: typed),
            after: words)
    }

    /// `completion` with what each candidate is: a command's summary, a model's car type and
    /// base price, a currency's symbol and rate, an option's price change for the current car
    /// (or the rule that forbids it), a variable's value.
    private func described(_ completion: Completion, after words: [String]) -> Completion {
        var completion = completion
        let spec = words.first.flatMap { commands.lookup($0) }
        let subject = spec.flatMap { spec in
            words.count - 1 < spec.arguments.count ? spec.arguments[words.count - 1].kind.subject(after: words, catalog: catalog) : nil
        }
        // The configurator commands' words: each candidate is what the reader says may come there.
        let reading = spec.flatMap { ConfiguratorWords.read($0.name, Array(words.dropFirst()), catalog: catalog) }
        // The configurator, the car in its terms and one budget of steps, made once for every
        // option that needs a repair.
        var pricing: RepairPricing?
        for name in completion.candidates {
            if stop?.isRequested == true { return Self.stopped(completion) }
            var description = ""
            var columns: [String]?
            var forbidden = false
            if words.isEmpty {
                description = commands.lookup(name)?.summary ?? ""
            } else if let subject = reading.map({ $0.subject(of: name, in: catalog) }) ?? subject {
                switch subject {
                case .model:
                    if let factory = try? catalog.registry.factory(named: name) {
                        columns = [factory.carType, "\(factory.basePrice)"]
                    }
                case .currency:
                    if let currency = try? catalog.currency(named: name) {
                        columns = [currency.symbol, "\(currency.rate)"]
                    }
                case .option(let family):
                    if let family, let part = try? catalog.option(named: name, in: family) {
                        let alias = part.name == name ? "" : "(\(part.name)) "
                        if let car = currentCar {
                            let advice = OptionAdvice(part, on: car, rules: catalog.ruleSet)
                            description = alias + advice.text(for: family)
                            if case .refused = advice {
                                // What `fit` would cost: the cheapest repair's price change, marked.
                                let repairs =
                                    pricing
                                    ?? RepairPricing(
                                        catalog: catalog, car: car, steps: repairSteps, budget: repairBudget ?? SearchBudget(), stop: stop)
                                pricing = repairs
                                switch repairs.cheapest(for: part) {
                                case .repair(let change):
                                    description = alias + "repair " + OptionAdvice.signed(change) + " " + advice.text(for: family)
                                case .stopped:
                                    return Self.stopped(completion)
                                case .none:
                                    break
                                }
                            }
                            if case .refused = advice { forbidden = true }
                            if case .unpriced = advice { forbidden = true }
                        } else {
                            description = alias + "\(part.listPrice)"
                        }
                    }
                case .command:
                    description = commands.lookup(name)?.summary ?? ""
                case .helpTopic:
                    description =
                        commands.lookup(name)?.summary
                        ?? HelpPage.topics.first { $0.name == nameKey(name) }?.summary ?? ""
                case .variable:
                    description = variableValues[name] ?? ""
                case .family:
                    break
                }
            }
            if let columns { description = columns.joined(separator: "  ") }
            completion.descriptions.append(description)
            completion.descriptionColumns.append(columns ?? [description])
            completion.forbidden.append(forbidden)
        }
        return completion
    }

    /// `completion` abandoned by a stop request: no candidates, marked stopped.
    private static func stopped(_ completion: Completion) -> Completion {
        var abandoned = Completion(partial: completion.partial, candidates: [], typed: completion.typed)
        abandoned.stopped = true
        return abandoned
    }

    /// What is left to type of the command the line ends in, as its usage line shows it: for
    /// `car` ` MODEL [COUNT]`, for `car suv ` `[COUNT]`; nil when there is nothing to show
    /// (a command not yet whole, all its arguments typed, inside a string or a comment).
    package func hint(for line: String) -> String? {
        let bytes = Array(line.utf8)
        guard !Self.inComment(bytes) else { return nil }
        let lexer = Lexer()
        guard let outcome = try? bytes.withUnsafeBufferPointer({ (buffer) throws(ScriptError) in try lexer.tokenize(buffer) }),
            outcome == .complete
        else { return nil }
        var tokens = lexer.tokens[...]
        if let separator = tokens.lastIndex(where: { $0.kind == .separator }) { tokens = tokens[(separator + 1)...] }
        // `try COMMAND`: once COMMAND is typed, the hint is its own.
        if tokens.count > 1, let first = tokens.first, nameKey(lexer.string(first)) == "try" { tokens = tokens.dropFirst() }
        guard let first = tokens.first, let spec = commands.lookup(lexer.string(first)) else { return nil }
        let blank = Self.endsInBlank(bytes)
        // The word being typed counts as given: the hint is what comes after it.
        let words = tokens.map(lexer.string)
        var argument = 0
        for word in words.dropFirst() {
            // An optional argument the word cannot be is left out (`expect drive 4WD` gives no CURRENCY).
            while argument < spec.arguments.count && spec.arguments[argument].optional
                && !spec.arguments[argument].kind.fits(word, after: words, catalog: catalog)
            {
                argument += 1
            }
            guard argument < spec.arguments.count else { return nil }
            // Words taken as TEXT... leave nothing after them.
            if spec.arguments[argument].kind.takesRemainingWords { return nil }
            argument += 1
        }
        var remaining: [String] = []
        for (index, placeholder) in spec.placeholders.enumerated() where index >= argument {
            // CURRENCY is shown only where the field named is an amount (or none is named yet).
            if !spec.arguments[index].kind.applies(after: words) { continue }
            remaining.append(placeholder)
        }
        guard !remaining.isEmpty else { return nil }
        return (blank ? "" : " ") + remaining.joined(separator: " ")
    }

    /// What the open quoted word `opened` (`"my f`, `"a\"b`) names so far; nil if it does not
    /// yet read as a whole word (an escape or a reference cut short).
    private static func quotedName(_ opened: [UInt8]) -> String? {
        let lexer = Lexer()
        let closed = opened + [UInt8(ascii: "\"")]
        guard let outcome = try? closed.withUnsafeBufferPointer({ (buffer) throws(ScriptError) in try lexer.tokenize(buffer) }),
            outcome == .complete, lexer.tokens.count == 1, lexer.references.isEmpty, let word = lexer.tokens.first
        else { return nil }
        return lexer.string(word)
    }

    /// Where the commands before the one the line ends in end: just after the last separator
    /// outside quotes and comments; nil if the line holds only one command, or does not lex.
    static func endOfEarlierCommands(_ bytes: [UInt8]) -> Int? {
        var bytes = bytes
        // What is being typed (a reference, a quoted word) is not lexed: it is not whole yet.
        if let reference = openReference(bytes) { bytes.removeLast(reference.utf8.count) }
        let lexer = Lexer()
        guard var outcome = try? bytes.withUnsafeBufferPointer({ (buffer) throws(ScriptError) in try lexer.tokenize(buffer) })
        else { return nil }
        if case .openQuote(let quote) = outcome {
            bytes.removeLast(bytes.count - quote)
            guard let before = try? bytes.withUnsafeBufferPointer({ (buffer) throws(ScriptError) in try lexer.tokenize(buffer) })
            else { return nil }
            outcome = before
        }
        guard outcome == .complete, !inComment(bytes),
            let separator = lexer.tokens.last(where: { $0.kind == .separator })
        else { return nil }
        return separator.range.end
    }

    /// The variable reference the line ends in, as typed (`$mo`, `${mo`, `$`), if it ends in one.
    private static func openReference(_ bytes: [UInt8]) -> String? {
        var start = bytes.count
        while start > 0,
            bytes[start - 1] == UInt8(ascii: "_")
                || (bytes[start - 1] | 0x20) >= UInt8(ascii: "a")
                    && (bytes[start - 1] | 0x20) <= UInt8(ascii: "z")
                || (bytes[start - 1] >= UInt8(ascii: "0") && bytes[start - 1] <= UInt8(ascii: "9"))
        {
            start -= 1
        }
        if start > 0 && bytes[start - 1] == UInt8(ascii: "{") { start -= 1 }
        guard start > 0, bytes[start - 1] == UInt8(ascii: "$") else { return nil }
        start -= 1
        // `\$` is a dollar sign, not a reference.
        if start > 0 && bytes[start - 1] == UInt8(ascii: "\\") { return nil }
        return String(decoding: bytes[start...], as: UTF8.self)
    }

    /// The variables that can complete `typed` (`$mo`, `${mo`), written as references.
    private func completion(ofReference typed: String) -> Completion {
        let braced = typed.hasPrefix("${")
        let partial = String(typed.dropFirst(braced ? 2 : 1))
        let names = variables.filter { $0.hasPrefix(partial) }
        var completion = Completion(
            partial: typed, candidates: names.map { braced ? "${\($0)}" : "$" + $0 }, typed: typed,
            verbatim: true)
        completion.descriptions = names.map { variableValues[$0] ?? "" }
        completion.descriptionColumns = completion.descriptions.map { [$0] }
        completion.forbidden = names.map { _ in false }
        return completion
    }

    /// Whether the end of `bytes` is inside a comment: a `#` outside quotes before it.
    private static func inComment(_ bytes: [UInt8]) -> Bool {
        var quoted = false
        var escaped = false
        for byte in bytes {
            if escaped {
                escaped = false
            } else if quoted && byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if byte == UInt8(ascii: "#") && !quoted {
                return true
            } else if byte == 0x0A && !quoted {
                return false
            }
        }
        return false
    }

    private static func endsInBlank(_ bytes: [UInt8]) -> Bool {
        guard let last = bytes.last else { return true }
        return last == 0x20 || last == 0x09
    }

    private func candidates(after words: [String], partial: String) -> [String] {
        guard let command = words.first else { return matching(commands.allNames, partial) }
        guard let spec = commands.lookup(command) else { return [] }
        // The configurator commands' words are read as the commands read them.
        if let reading = ConfiguratorWords.read(spec.name, Array(words.dropFirst()), catalog: catalog) {
            return matching(reading.nextNames(in: catalog), partial)
        }
        var kinds: [ArgumentKind] = []
        let position = words.count - 1
        if position < spec.arguments.count {
            kinds.append(spec.arguments[position].kind)
            // An optional argument may be left out: what follows it can stand here too.
            if spec.arguments[position].optional && position + 1 < spec.arguments.count {
                kinds.append(spec.arguments[position + 1].kind)
            }
        }
        if let first = kinds.first, !first.applies(after: words) { kinds.removeFirst() }
        var result: [String] = []
        // What is in `result` already: a search of the list per name made Tab on a family of
        // 60,000 options take seconds.
        var listed = Set<String>()
        for kind in kinds {
            if kind.isFile { return completesFiles ? files(matching: partial) : [] }
            var names = kind.candidates(after: words, catalog: catalog, commands: commands, variables: variables)
            // The words after an `expect` field are compared with that field: offer what it can be.
            if kind.takesRemainingWords, let field = spec.arguments.firstIndex(where: { $0.kind.isExpectField }),
                field + 1 < words.count,
                let named = ExpectCommand.Subject(words[field + 1], in: catalog)
            {
                switch named {
                case .field(let field): names = values(of: field)
                case .part(let family): names = catalog.options(of: family).allNames
                }
            }
            for name in matching(names, partial) where listed.insert(name).inserted {
                result.append(name)
            }
        }
        return result
    }

    /// What `field` can be in this catalog, for `expect`: option names for the suspension and
    /// the drivetrain, engine positions, car types; nothing for numbers and amounts.
    private func values(of field: ExpectField) -> [String] {
        var values: [String] = []
        var listed = Set<String>()
        func add(_ value: String) { if listed.insert(value).inserted { values.append(value) } }
        switch field {
        case .suspension: catalog.options(of: .suspension).allNames.forEach(add)
        case .drive: catalog.options(of: .drivetrain).allNames.forEach(add)
        case .engine:
            for part in catalog.options(of: .floorplan).parts {
                if let floorplan = part as? any Floorplan { add(floorplan.engine.rawValue) }
            }
        case .type: catalog.registry.factories.map(\.carType).forEach(add)
        case .count, .seats, .price, .total: break
        }
        return values
    }

    private func matching(_ names: [String], _ partial: String) -> [String] {
        names.filter { nameBegins($0, with: partial) }
    }

    /// Entries of the directory named by `partial` that start with its last component; directories end in `/`.
    private func files(matching partial: String) -> [String] {
        // Split on the last `/` byte: a `/` followed by a combining mark is still a separator.
        let bytes = Array(partial.utf8)
        // `~` alone is the home folder's name: completed to `~/`, as a shell does.
        if partial == "~", home != nil { return ["~/"] }
        let slash = bytes.lastIndex(of: UInt8(ascii: "/"))
        let directoryPart = slash.map { String(decoding: bytes[...$0], as: UTF8.self) } ?? ""
        let stem = slash.map { Array(bytes[($0 + 1)...]) } ?? bytes
        // A leading `~/` is the home folder, as running reads it; the name keeps its `~/`.
        var folder = directoryPart.isEmpty ? "." : directoryPart
        if folder.hasPrefix("~/") {
            guard let home else { return [] }
            folder = home + folder.dropFirst()
        }
        let base = resolvePath(folder, against: workingDirectory)
        guard let host, let entries = host.entries(ofFolder: Array(base.utf8)) else { return [] }
        var names: [String] = []
        for entry in entries {
            let name = String(decoding: entry.name, as: UTF8.self)
            guard name != ".", name != "..", name.utf8.starts(with: stem),
                stem.first == UInt8(ascii: ".") || name.utf8.first != UInt8(ascii: ".")
            else { continue }
            names.append(directoryPart + name + (entry.isFolder ? "/" : ""))
        }
        return names.sorted()
    }
}
