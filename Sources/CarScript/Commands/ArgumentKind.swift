import CarFactory

// Everything an argument kind means, in one place: how a word resolves to a value (and is
// checked, which is all `--check` does), what completes it, what it names for a completion
// list or a hover, and what a hint may skip. A new kind is a case of `ArgumentKind`; every
// switch below is exhaustive, so the compiler asks for each of these, and dispatch, `help`,
// completion, `--check` and the language server follow. A new kind of value is a case of
// `ArgumentValue` and its accessor on `Invocation`.

/// What an argument must be; the resolver, `help` and completion all read it.
///
/// Its payloads are small plain values (no `String`), so resolving walks the kinds of a
/// command's arguments without counting references, and switches over them cheaply.
package enum ArgumentKind: Sendable {
    case model
    /// A currency, only where the `expect` field at this index is an amount (`price`, `total`).
    case amountCurrency(fieldArgument: Int)
    case family
    /// An option of the family given by the argument at this index.
    case option(familyArgument: Int)
    case currency
    /// A currency other than the base (USD), whose rate is always 1: what `rate` sets.
    case foreignCurrency
    case count
    case lineNumber
    /// A positive decimal with at most `maximumRateDecimals` places (a currency's rate).
    case rate
    /// An amount of the base currency: a decimal with at most its minor digits.
    case amount
    case file
    case command
    /// A command's name, or a help topic that is not a command (`keys`).
    case helpTopic
    case field
    /// An option of a fixed family (`model ... floorplan OPTION`).
    case optionOf(PartFamily)
    /// This exact word, case-insensitively (`price`, `with`).
    case keyword(Keyword)
    /// A new name being defined: any non-empty word.
    case name
    /// A variable's name: a letter or `_`, then letters, digits and `_`.
    case variable
    /// Any text, usually quoted (`"Mazda MX-5"`).
    case text
    /// A whole number within the bounds its kind gives (`digits 2`, `exit 3`).
    case integer(WholeNumber)
    /// Every remaining word (`echo`).
    case words
}

/// The words a command takes literally (`model ... price AMOUNT`).
package enum Keyword: String, Sendable {
    case price, floorplan, suspension, drivetrain, digits, rate, with, `default`
    case minimal = "--minimal"
}

/// The whole numbers commands take, with their bounds and what the message calls them.
package enum WholeNumber: Sendable {
    /// `undo N`, `redo N`.
    case steps
    /// `exit STATUS`.
    case exitStatus
    /// A currency's minor digits.
    case minorDigits

    var low: Int {
        switch self {
        case .steps: 1
        case .exitStatus, .minorDigits: 0
        }
    }

    var high: Int {
        switch self {
        case .steps: HistoryCommands.mostSteps
        case .exitStatus: 255
        case .minorDigits: Currency.maximumDigits
        }
    }

    var what: String {
        switch self {
        case .steps: "a number of steps"
        case .exitStatus: "an exit status"
        case .minorDigits: "minor digits"
        }
    }
}

/// What a word of some kind names, for a completion list's descriptions and a hover.
package enum ArgumentSubject: Sendable {
    case model
    case family
    /// An option of the family the earlier words give (nil if they do not give one).
    case option(PartFamily?)
    case currency
    case command
    /// A command or a help topic.
    case helpTopic
    case variable
}

/// What an argument is, coarsely, for an editor's icons (LSP's completion item kinds).
package enum ArgumentCategory: Sendable {
    case model, family, option, currency, file, command, variable, field, keyword, value
}

extension ArgumentKind {
    /// Whether the argument takes every remaining word (`TEXT...`).
    package var takesRemainingWords: Bool {
        if case .words = self { true } else { false }
    }

    /// Whether the argument is the field of `expect`, whose remaining words are compared with it.
    package var isExpectField: Bool {
        if case .field = self { true } else { false }
    }

    /// Whether the argument names a file (completed from the file system).
    package var isFile: Bool {
        if case .file = self { true } else { false }
    }

    /// The coarse category an editor shows.
    package var category: ArgumentCategory {
        switch self {
        case .model: .model
        case .family: .family
        case .option, .optionOf: .option
        case .currency, .amountCurrency, .foreignCurrency: .currency
        case .file: .file
        case .command, .helpTopic: .command
        case .variable: .variable
        case .field: .field
        case .keyword: .keyword
        case .count, .lineNumber, .rate, .amount, .name, .text, .integer, .words: .value
        }
    }

    /// What a word of this kind names, given the command's earlier `words` (the command's
    /// name first); nil for a kind whose words name nothing to describe.
    package func subject(after words: [String], catalog: Catalog) -> ArgumentSubject? {
        switch self {
        case .model: .model
        case .family: .family
        case .option(let familyArgument):
            .option(familyArgument < words.count ? catalog.family(named: words[familyArgument]) : nil)
        case .optionOf(let family): .option(family)
        case .currency, .amountCurrency, .foreignCurrency: .currency
        case .command: .command
        case .helpTopic: .helpTopic
        case .variable: .variable
        case .count, .lineNumber, .rate, .amount, .file, .field, .keyword, .name, .text, .integer, .words: nil
        }
    }

    /// Whether the argument can stand after `words` at all: an `expect` CURRENCY only after a
    /// field that is an amount (or before any field is named).
    package func applies(after words: [String]) -> Bool {
        switch self {
        case .amountCurrency(let field):
            field >= words.count || ExpectField(rawValue: nameKey(words[field]))?.isAmount == true
        case .model, .family, .option, .optionOf, .currency, .foreignCurrency, .count, .lineNumber, .rate, .amount,
            .file, .command, .helpTopic, .field, .keyword, .name, .variable, .text, .integer, .words:
            true
        }
    }

    /// Whether `word` can stand as this argument, as far as a hint needs to know: an `expect`
    /// CURRENCY only after an amount field, and only a currency's code (or its start).
    func fits(_ word: String, after words: [String], catalog: Catalog) -> Bool {
        switch self {
        case .amountCurrency(let field):
            guard field < words.count, ExpectField(rawValue: nameKey(words[field]))?.isAmount == true else { return false }
            return catalog.currencies.contains { nameBegins($0.code, with: word) }
        case .model, .family, .option, .optionOf, .currency, .foreignCurrency, .count, .lineNumber, .rate, .amount,
            .file, .command, .helpTopic, .field, .keyword, .name, .variable, .text, .integer, .words:
            return true
        }
    }

    /// The names that can stand here, after the command's earlier `words` (files aside: see `isFile`).
    func candidates(after words: [String], catalog: Catalog, commands: CommandTable, variables: [String]) -> [String] {
        switch self {
        case .model: catalog.registry.factories.map(\.model)
        case .family: catalog.familyNames
        case .option(let familyArgument):
            if familyArgument < words.count, let family = catalog.family(named: words[familyArgument]) {
                catalog.options(of: family).allNames
            } else {
                []
            }
        case .optionOf(let family): catalog.options(of: family).allNames
        case .keyword(let keyword): [keyword.rawValue]
        case .currency, .amountCurrency: catalog.currencies.map(\.code)
        case .foreignCurrency: catalog.currencies.map(\.code).filter { $0 != Currency.base.code }
        case .command: commands.allNames
        case .helpTopic: commands.allNames + HelpPage.topics.map(\.name)
        case .field: ExpectCommand.forms(in: catalog)
        case .variable: variables
        case .count, .lineNumber, .rate, .amount, .words, .file, .name, .text, .integer: []
        }
    }
}

/// What resolving one word may read: the word, where it stands, and what it is looked up in.
struct ArgumentWord {
    let bytes: PaddedBytes
    /// Its token in the line.
    let token: Int
    /// One past the command's last token (for `words`).
    let end: Int
    let range: SourceRange
}

/// How the resolver reads a word of some kind: the kinds of the common commands (`car`, `set`,
/// `price`, `total`, `echo`) each by itself, the rest through `ArgumentKind.resolve`. A switch
/// over the kind itself jumps twice for a kind with no payload (on the case, then on the value
/// that tells those cases apart); over this byte, once (963.8 -> 959.0 instructions a command on
/// the benchmark mix, 947.9 -> 944.7 on set/show, callgrind, 10^5 commands; 10^6 commands of
/// the mix 87.2 -> 85.5 ms, the median of 25 interleaved runs).
enum ResolveCode: UInt8 {
    case model, family, option, currency, count, words, other
}

extension ArgumentKind {
    /// The resolver's code for this kind (see `ResolveCode`).
    var resolveCode: ResolveCode {
        switch self {
        case .model: .model
        case .family: .family
        case .option: .option
        case .currency: .currency
        case .count: .count
        case .words: .words
        case .amountCurrency, .foreignCurrency, .lineNumber, .rate, .amount, .file, .command, .helpTopic, .field, .optionOf,
            .keyword, .name, .variable, .text, .integer:
            .other
        }
    }

    /// The value of `word` as `step`'s kind, checked: the common kinds here, by their code,
    /// and any other through `resolve`.
    @inline(__always)
    static func resolve(
        _ step: ResolveStep, _ word: ArgumentWord, after resolved: ArgumentWriter, lexer: Lexer, index: CatalogIndex,
        in session: Session
    ) throws(ScriptError) -> ArgumentValue {
        try resolve(step.code, step.kind, word, after: resolved, lexer: lexer, index: index, in: session)
    }

    /// The value of `word` as `kind` (whose code is `code`), checked: the one place the common
    /// kinds are read, whether the resolver comes by their code or `resolve` by the kind.
    @inline(__always)
    private static func resolve(
        _ code: ResolveCode, _ kind: ArgumentKind, _ word: ArgumentWord, after resolved: ArgumentWriter, lexer: Lexer,
        index: CatalogIndex, in session: Session
    ) throws(ScriptError) -> ArgumentValue {
        switch code {
        case .model:
            guard let position = index.models.lookup(word.bytes) else { throw Self.unknownModel(word, index) }
            return .model(position)
        case .family:
            guard let position = index.families.lookupLonger(word.bytes) else { throw Self.unknownFamily(word, session.catalog) }
            return .family(PartFamily(index: position))
        case .option:
            // The table puts a family before each option that names it (`CommandTableTests`).
            guard case .option(let familyArgument) = kind, case .family(let family) = resolved.value(familyArgument) else {
                throw ScriptError(.reported, at: word.range)
            }
            return try Self.option(word, of: family, index: index, in: session)
        case .currency:
            guard let position = index.currencies.lookup(word.bytes) else { throw Self.unknownCurrency(word, index) }
            return .currency(position)
        case .count:
            return .count(try Self.integer(word, from: Int64(1), else: .notACount(Self.string(word))))
        case .words:
            return .words(from: word.token, to: word.end)
        case .other:
            return try kind.resolveOutOfLine(word, after: resolved, lexer: lexer, index: index, in: session)
        }
    }

    /// `resolve`, out of line: the kinds the common commands do not take.
    @inline(never)
    private func resolveOutOfLine(
        _ word: ArgumentWord, after resolved: ArgumentWriter, lexer: Lexer, index: CatalogIndex,
        in session: Session
    ) throws(ScriptError) -> ArgumentValue {
        try resolve(word, after: resolved, lexer: lexer, index: index, in: session)
    }

    /// The value of `word` as this kind, checked; `resolved` holds the arguments before it.
    /// Every kind: the common commands' kinds are read in one place, by their code (see
    /// `ResolveCode`), where the resolver reads them; it comes here out of line for the rest,
    /// as does a fitting test. The long cases are functions out of line of their own.
    @inline(__always)
    func resolve(
        _ word: ArgumentWord, after resolved: ArgumentWriter, lexer: Lexer, index: CatalogIndex,
        in session: Session
    ) throws(ScriptError) -> ArgumentValue {
        switch self {
        case .model, .family, .option, .currency, .count, .words:
            return try Self.resolve(resolveCode, self, word, after: resolved, lexer: lexer, index: index, in: session)
        case .optionOf(let family):
            return try Self.option(word, of: family, index: index, in: session)
        case .foreignCurrency: return try Self.foreignCurrency(word, index)
        case .lineNumber: return .lineNumber(try Self.integer(word, from: 1, else: .notALineNumber(Self.string(word))))
        case .amountCurrency(let fieldArgument):
            return try Self.amountCurrency(word, fieldArgument: fieldArgument, after: resolved, lexer: lexer, index: index)
        case .integer(let number): return try Self.integer(word, number)
        case .rate: return try Self.rate(word)
        case .amount: return try Self.amount(word)
        case .keyword(let keyword): return try Self.keyword(word, keyword)
        case .name:
            guard !word.bytes.bytes.isEmpty else { throw ScriptError(.emptyName, at: word.range) }
            return .word(word.token)
        case .variable:
            guard Lexer.isVariableName(word.bytes.bytes) else { throw ScriptError(.badVariableName(Self.string(word)), at: word.range) }
            return .word(word.token)
        case .file, .text:
            return .word(word.token)
        case .field: return try Self.field(word, session.catalog)
        case .command: return try Self.command(word, in: session.commands)
        case .helpTopic: return try Self.helpTopic(word, in: session.commands)
        }
    }

    @inline(never)
    private static func unknownModel(_ word: ArgumentWord, _ index: CatalogIndex) -> ScriptError {
        Session.unknown("model", string(word), index.factories.all.map(\.model), at: word.range)
    }

    @inline(never)
    private static func unknownFamily(_ word: ArgumentWord, _ catalog: Catalog) -> ScriptError {
        Session.unknown("family", string(word), catalog.familyNames, at: word.range)
    }

    @inline(never)
    private static func unknownCurrency(_ word: ArgumentWord, _ index: CatalogIndex) -> ScriptError {
        Session.unknownCurrency(string(word), index.valuations.all.map(\.currency.code), at: word.range)
    }

    private static func option(
        _ word: ArgumentWord, of family: PartFamily, index: CatalogIndex,
        in session: Session
    ) throws(ScriptError) -> ArgumentValue {
        guard let position = index.option(word.bytes, family: family.index) else {
            throw unknownOption(word, of: family, in: session)
        }
        return .option(family, position)
    }

    @inline(never)
    private static func unknownOption(_ word: ArgumentWord, of family: PartFamily, in session: Session) -> ScriptError {
        let table = session.catalog.options(of: family)
        return Session.unknown(
            "\(session.catalog.name(of: family)) option", string(word), table.parts.map(\.name), suggestFrom: table.allNames,
            at: word.range)
    }

    /// `rate`'s CURRENCY: any but the base currency, whose rate is fixed at 1.
    @inline(never)
    private static func foreignCurrency(_ word: ArgumentWord, _ index: CatalogIndex) throws(ScriptError) -> ArgumentValue {
        let codes = index.valuations.all.map(\.currency.code)
        guard let position = index.currencies.lookup(word.bytes) else {
            throw Session.unknownCurrency(string(word), codes.filter { $0 != Currency.base.code }, at: word.range)
        }
        guard codes[position] != Currency.base.code else {
            throw ScriptError(.domain(.baseRateIsFixed(codes[position])), at: word.range)
        }
        return .currency(position)
    }

    /// `expect`'s CURRENCY: only an amount is in a currency (`expect type EUR Boxster` names none).
    @inline(never)
    private static func amountCurrency(
        _ word: ArgumentWord, fieldArgument: Int,
        after resolved: ArgumentWriter, lexer: Lexer,
        index: CatalogIndex
    ) throws(ScriptError) -> ArgumentValue {
        guard case .word(let fieldToken) = resolved.value(fieldArgument),
            ExpectField(rawValue: nameKey(lexer.string(lexer.tokens[fieldToken])))?.isAmount == true
        else {
            throw ScriptError(.reported, at: word.range)
        }
        guard let position = index.currencies.lookup(word.bytes) else { throw unknownCurrency(word, index) }
        return .currency(position)
    }

    @inline(never)
    private static func integer(_ word: ArgumentWord, _ number: WholeNumber) throws(ScriptError) -> ArgumentValue {
        let value = try integer(word, from: 0, else: .notANumber(string(word)))
        guard value >= number.low && value <= number.high else {
            throw ScriptError(.outOfRange(number.what, low: number.low, high: number.high, value: value), at: word.range)
        }
        return .integer(value)
    }

    @inline(never)
    private static func rate(_ word: ArgumentWord) throws(ScriptError) -> ArgumentValue {
        let bytes = word.bytes.bytes
        let text = string(word)
        do throws(CarFactoryError) {
            if let point = bytes.firstIndex(of: UInt8(ascii: ".")), bytes.count - point - 1 > Session.maximumRateDecimals {
                throw .tooManyDecimals(text, allowed: Session.maximumRateDecimals)
            }
            let rate = try DecimalNumber(parsing: text)
            guard rate.significand > 0 else { throw .rateNotPositive(text) }
            return .decimal(rate)
        } catch {
            throw ScriptError(.domain(error), at: word.range)
        }
    }

    @inline(never)
    private static func amount(_ word: ArgumentWord) throws(ScriptError) -> ArgumentValue {
        do throws(CarFactoryError) {
            return .amount(try DecimalNumber(parsing: string(word)).minorUnits(digits: Currency.base.digits))
        } catch {
            throw ScriptError(.domain(error), at: word.range)
        }
    }

    @inline(never)
    private static func keyword(_ word: ArgumentWord, _ keyword: Keyword) throws(ScriptError) -> ArgumentValue {
        let text = string(word)
        let expected = keyword.rawValue
        guard nameKey(text) == expected else { throw ScriptError(.expectedKeyword(expected, found: text), at: word.range) }
        return .word(word.token)
    }

    @inline(never)
    private static func field(_ word: ArgumentWord, _ catalog: Catalog) throws(ScriptError) -> ArgumentValue {
        let text = string(word)
        let forms = ExpectCommand.forms(in: catalog)
        guard forms.contains(where: { nameKey($0) == nameKey(text) }) else {
            throw Session.unknown("field", text, forms, at: word.range)
        }
        return .word(word.token)
    }

    @inline(never)
    private static func command(_ word: ArgumentWord, in commands: CommandTable) throws(ScriptError) -> ArgumentValue {
        guard let position = commands.position(of: word.bytes) else {
            // Aliases are names too (`exit`): suggested as the first word of a line suggests them.
            throw Session.unknown("command", string(word), commands.allNames, at: word.range)
        }
        return .command(position)
    }

    @inline(never)
    private static func helpTopic(_ word: ArgumentWord, in commands: CommandTable) throws(ScriptError) -> ArgumentValue {
        if let position = commands.position(of: word.bytes) { return .command(position) }
        let text = string(word)
        guard HelpPage.topics.contains(where: { $0.name == nameKey(text) }) else {
            throw Session.unknown("help topic", text, commands.allNames + HelpPage.topics.map(\.name), at: word.range)
        }
        return .word(word.token)
    }

    private static func string(_ word: ArgumentWord) -> String {
        String(decoding: word.bytes.bytes, as: UTF8.self)
    }

    /// A whole number from `minimum`, in decimal digits only.
    @inline(__always)
    private static func integer<T: FixedWidthInteger>(
        _ word: ArgumentWord, from minimum: T,
        else error: @autoclosure () -> ScriptError.Kind
    ) throws(ScriptError) -> T {
        let bytes = word.bytes.bytes
        var value: T = 0
        guard !bytes.isEmpty else { throw ScriptError(error(), at: word.range) }
        for byte in bytes {
            guard byte >= 0x30 && byte <= 0x39 else { throw ScriptError(error(), at: word.range) }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = times10.addingReportingOverflow(T(byte - 0x30))
            if o1 || o2 { throw ScriptError(.domain(.numberTooLarge(string(word))), at: word.range) }
            value = next
        }
        guard value >= minimum else { throw ScriptError(error(), at: word.range) }
        return value
    }
}
