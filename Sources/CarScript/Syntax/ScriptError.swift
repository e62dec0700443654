import CarFactory

/// A byte range in a logical line: where an error points.
struct SourceRange: Equatable, Sendable {
    /// First byte.
    var start: Int
    /// One past the last byte.
    var end: Int

    /// The bytes `start..<end`.
    init(_ start: Int, _ end: Int) {
        self.start = start
        self.end = end
    }
}

/// Everything the language can refuse, with where it happened; the renderer adds file, line and column.
struct ScriptError: Error, Equatable, Sendable {
    /// What went wrong.
    enum Kind: Error, Equatable, Sendable {
        case nulByte
        case invalidUTF8(UInt8)
        case unknownEscape(String)
        /// `\u{...}` that does not name a Unicode scalar (or names NUL).
        case badUnicodeEscape(String)
        case unterminatedString
        /// `${...}` whose inside is not a variable's name.
        case badVariableName(String)
        /// `${` with no `}` after the name.
        case unclosedBrace
        /// `${env:NAME}` of a variable the environment does not have.
        case environmentUnset(String)
        /// `${env:NAME}` of a variable whose value is not valid UTF-8.
        case environmentNotUTF8(String)
        /// A word longer than `limit` bytes once its variables' values are in it.
        case expansionTooLong(limit: Int)
        /// The words of one logical line over `limit` bytes in all once their variables' values are in them.
        case lineExpansionTooLong(limit: Int)
        /// Variables that would hold more than `limit` bytes in all, names and values.
        case variablesTooLarge(limit: Int)
        /// `--check`: a reference to a variable whose value the run may have taken back (see
        /// `Session.uncertainVariables`); never reported, the command is passed over.
        case uncertainVariable(String)
        /// A catalog name or text (a model's, an option's, a currency's) or a variable's name
        /// that `save` would write in more than `limit` bytes.
        case nameTooLong(limit: Int)
        /// A definition whose line `save` would write in more than `limit` bytes (an option of many aliases).
        case definitionTooLong(limit: Int)
        case lineTooLong(limit: Int)
        case unknownCommand(String, suggestion: String?)
        case unknownName(String, String, suggestion: String?, valid: [String])
        /// A number where a currency is wanted (`price -100`), and the currencies there are.
        case numberForCurrency(String, valid: [String])
        /// `expect price 3500 USD`: a currency after the amount it is for, which comes first.
        case currencyAfterAmount(currency: String, amount: String)
        case missingArgument(String, usage: String)
        case unexpectedArgument(String, usage: String)
        case notACount(String)
        case notALineNumber(String)
        case notANumber(String)
        /// An `expect` VALUE that is no amount in the currency: how to write one there.
        case notAnAmount(String, currency: String, shown: String, plain: String)
        case outOfRange(String, low: Int, high: Int, value: Int)
        case expectedKeyword(String, found: String)
        case emptyName
        case onlyDefinitions(String)
        case domain(CarFactoryError)
        case io(String)
        /// `diff`: a session to compare failed to load, with its first error's id (`source-cycle`,
        /// `unknown-model`): that error is `diff`'s, so `expect error` sees its id, not `io`.
        case loadFailed(id: String, message: String)
        /// `source` (or `diff`) of files nested more than `maximumSourceDepth` deep: the chain.
        case sourceDepth(String)
        /// `source` (or `diff`) of a file already running: the chain.
        case sourceCycle(String)
        /// An analysis (`--check`, an editor's) followed files already followed as often as it
        /// may (`maximumRefollowings`): a warning, where it stops.
        case sourceRepeats(String)
        case refused(String)
        /// A command the host added (`HostCommand`) failed: its id and message, as the host gave them.
        case host(id: String, message: String)
        /// `undo`, `redo` or a transaction command with nothing to act on.
        case history(String)
        /// The undo history cannot hold a step within its bound (see `UndoHistory`).
        case historyTooLarge(limit: Int)
        /// A `begin` inside `limit` open transactions and savepoints.
        case transactionDepth(limit: Int)
        case expectationFailed(field: String, expected: String, actual: String)
        /// Already reported where it happened (inside a sourced file): only stops the line.
        case reported
    }

    /// What went wrong.
    let kind: Kind
    /// The offending bytes of the logical line.
    let range: SourceRange
    /// More about it: where a rule that refused a change comes from, what is allowed instead.
    var notes: [Diagnostic.Note] = []

    /// An error of `kind` at `range`.
    init(_ kind: Kind, at range: SourceRange) {
        self.kind = kind
        self.range = range
    }

    /// The commands a catalog file may hold, from the table (so a new definition is listed):
    /// `family, option, model, forbid, require, currency`.
    static let definitionNames = CommandTable.standard.specs.filter(\.definesCatalog).map(\.name).joined(separator: ", ")

    /// A word as quoted in a message: a very long one is cut.
    static func shown(_ word: String) -> String { DisplayText.quotedName(word) }

    /// The did-you-mean name, if the message suggests one.
    var suggestion: String? {
        switch kind {
        case .unknownCommand(_, let suggestion), .unknownName(_, _, let suggestion, _): suggestion
        default: nil
        }
    }

    /// The diagnostic's stable id.
    var id: String {
        switch kind {
        case .nulByte: "nul-byte"
        case .invalidUTF8: "invalid-utf8"
        case .unknownEscape: "unknown-escape"
        case .badUnicodeEscape: "bad-unicode-escape"
        case .unterminatedString: "unterminated-string"
        case .badVariableName: "bad-variable-name"
        case .unclosedBrace: "unclosed-brace"
        case .environmentUnset: "unset-environment-variable"
        case .environmentNotUTF8: "invalid-utf8"
        case .expansionTooLong: "expansion-too-long"
        case .lineExpansionTooLong: "line-expansion-too-long"
        case .variablesTooLarge: "variables-too-large"
        case .uncertainVariable: "uncertain-variable"
        case .nameTooLong: "name-too-long"
        case .definitionTooLong: "definition-too-long"
        case .lineTooLong: "line-too-long"
        case .unknownCommand: "unknown-command"
        case .unknownName(let what, _, _, _): "unknown-" + (what.hasSuffix(" option") ? "option" : what.replacingBlanks)
        case .numberForCurrency: "unknown-currency"
        case .currencyAfterAmount: "currency-after-amount"
        case .missingArgument: "missing-argument"
        case .unexpectedArgument: "unexpected-argument"
        case .notACount: "not-a-count"
        case .notALineNumber: "not-a-line-number"
        case .notANumber: "not-a-number"
        case .notAnAmount: "not-an-amount"
        case .outOfRange: "out-of-range"
        case .expectedKeyword: "expected-keyword"
        case .emptyName: "empty-name"
        case .onlyDefinitions: "only-definitions"
        case .domain(let error): error.id
        case .io: "io"
        case .loadFailed(let id, _): id
        case .sourceDepth: "source-depth"
        case .sourceCycle: "source-cycle"
        case .sourceRepeats: "source-repeats"
        case .refused: "refused"
        case .host(let id, _): id
        case .history: "history"
        case .historyTooLarge: "history-too-large"
        case .transactionDepth: "transaction-depth"
        case .expectationFailed: "expectation-failed"
        case .reported: "reported"
        }
    }

    /// The message, without position.
    var message: String {
        switch kind {
        case .nulByte: "NUL byte in input"
        case .invalidUTF8(let byte): "invalid UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true)))"
        case .unknownEscape(let text): "unknown escape '\(text)' (use \\\", \\\\, \\n, \\t, \\r, \\$ or \\u{HEX})"
        case .badUnicodeEscape(let text):
            "'\(Self.shown(text))' is not a Unicode escape (\\u{ and one to six hex digits naming a character other than NUL, then })"
        case .unterminatedString: "unterminated string: missing closing '\"'"
        case .badVariableName(let text):
            "'\(Self.shown(text))' is not a variable name (ASCII letters, digits and '_', not starting with a digit)"
        case .unclosedBrace: "'${' without a closing '}'"
        case .environmentUnset(let name): "environment variable '\(Self.shown(name))' is not set"
        case .environmentNotUTF8(let name): "environment variable '\(Self.shown(name))' is not valid UTF-8"
        case .expansionTooLong(let limit): "a word longer than \(limit / 1_048_576) MiB once its variables are put in"
        case .lineExpansionTooLong(let limit):
            "the words of this line grow past \(limit / 1_048_576) MiB in all once their variables are put in"
        case .variablesTooLarge(let limit):
            "the variables would hold more than \(limit / 1_048_576) MiB in all (names and values, and \(variableOverhead) bytes each); the variable is left as it was"
        case .uncertainVariable(let name): "the value of '\(Self.shown(name))' depends on whether the run failed before this"
        case .nameTooLong(let limit):
            "a name or text longer than \(limit / 1024) KiB (\(limit) bytes) as save writes it (quotes and escapes counted: \\u{1} is 5 bytes for one character)"
        case .definitionTooLong(let limit):
            "this option's names would make the line save writes for it longer than \(limit / 1024) KiB (\(limit) bytes); fewer or shorter aliases fit"
        case .lineTooLong(let limit): "line longer than the limit of \(limit / 1024) KiB (\(limit) bytes); it is skipped"
        case .unknownCommand(let name, let suggestion):
            "unknown command '\(Self.shown(name))'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "; type 'help' for the list")
        case .unknownName(let what, let name, let suggestion, let valid):
            "unknown \(what) '\(Self.shown(name))'" + Self.hint(suggestion, valid, what)
        case .numberForCurrency(let text, let valid):
            "a currency is wanted here, not the number '\(Self.shown(text))'" + Self.hint(nil, valid, "currency")
        case .currencyAfterAmount(let currency, let amount):
            "the currency comes before the amount: write '\(Self.shown(currency)) \(Self.shown(amount))'"
        case .missingArgument(let name, let usage): "missing \(name); usage: \(usage)"
        case .unexpectedArgument(let word, let usage): "unexpected argument '\(Self.shown(word))'; usage: \(usage)"
        case .notACount(let text): "'\(Self.shown(text))' is not a count (a whole number from 1)"
        case .notALineNumber(let text): "'\(Self.shown(text))' is not a line number (a whole number from 1)"
        case .notANumber(let text): "'\(Self.shown(text))' is not a whole number"
        case .notAnAmount(let text, let currency, let shown, let plain):
            "'\(Self.shown(text))' is not an amount in \(currency); write one as price and total print it (\(shown)), "
                + "without the symbol, or as a plain number (\(plain))"
        case .outOfRange(let what, let low, let high, let value): "\(what) must be from \(low) to \(high), not \(value)"
        case .expectedKeyword(let keyword, let found): "expected '\(keyword)', not '\(Self.shown(found))'"
        case .emptyName: "a name cannot be empty"
        case .onlyDefinitions(let command): "a catalog file holds only definitions (\(Self.definitionNames)), not '\(command)'"
        case .domain(let error): error.description
        case .io(let text), .sourceDepth(let text), .sourceCycle(let text), .sourceRepeats(let text): text
        case .loadFailed(_, let message): message
        case .refused(let text): text
        case .host(_, let message): message
        case .history(let text): text
        case .historyTooLarge(let limit):
            "the undo history cannot hold this change within its bound of \(limit >> 20) MiB (an open transaction's steps are never forgotten): the step it belongs to is taken back"
        case .transactionDepth(let limit): "transactions and savepoints nest at most \(limit) deep: nothing is opened"
        case .expectationFailed(let field, let expected, let actual): "expected \(field) \(Self.shown(expected)), got \(actual)"
        case .reported: "failed in a sourced file"
        }
    }

    private static func hint(_ suggestion: String?, _ valid: [String], _ what: String) -> String {
        if let suggestion { return "; did you mean '\(shown(suggestion))'?" }
        // "model or family" lists "models or families".
        let noun = what.split(separator: " or ").map { $0.hasSuffix("y") ? $0.dropLast() + "ies" : $0 + "s" }.joined(separator: " or ")
        guard !valid.isEmpty else { return "" }
        // A catalog of thousands of names gets a few of them, not a line of all.
        let listed = valid.prefix(listedNames).map(shown).joined(separator: ", ")
        let more = valid.count > listedNames ? " and \(valid.count - listedNames) more" : ""
        return "; valid \(noun): " + listed + more
    }

    /// The most valid names an unknown-name message lists.
    static let listedNames = 32
}

extension String {
    /// `engine position` as `engine-position`.
    fileprivate var replacingBlanks: String { split(separator: " ").joined(separator: "-") }
}
