import CarFactory

/// `expect`'s three forms: a field of the stock or of the current car (`expect drive 4WD`),
/// a field of stock line N (`expect line 2 drive 4WD`), and the error a command fails with
/// (`expect error rule-violation set drivetrain front`).
enum ExpectCommand {
    /// The words FIELD may be: a field, or `line` and `error`, which begin the other forms.
    static let forms = ExpectField.allCases.map(\.rawValue) + ["line", "error"]

    static func run(_ session: Session, _ call: Invocation) throws(ScriptError) {
        session.expectationCount += 1
        // The error form reads its ID alone: the rest of the line is its COMMAND, read as
        // that runs (its words made into strings at every level of a line of nested
        // `expect error`s took 225 bytes of memory per byte of the line; trial 4, 6).
        if nameKey(call.word(1)) == "error" {
            try expectError(session, call)
            return
        }
        let words = call.words(3)
        let ranges = call.wordRanges
        switch nameKey(call.word(1)) {
        case "line":
            // `line N FIELD [CURRENCY] VALUE...`
            let field = try lineForm(call, words: words, ranges: ranges)
            let number = try lineNumber(words[0], in: session, at: ranges[0])
            try expect(
                field, words: Array(words[2...]), ranges: Array(ranges[2...]), currency: nil, line: number, session,
                command: call.range(0))
        default:
            guard let field = ExpectField(rawValue: nameKey(call.word(1))) else { return }
            try expect(field, words: words, ranges: ranges, currency: call.currency(2), line: nil, session, command: call.range(0))
        }
    }

    /// `--check`: the words of `expect` read as running reads them, so that a VALUE that could
    /// never match (`expect count 1.0`) or a line number that is none is found without running;
    /// nothing is looked up in the stock, which checking does not make.
    static func check(_ session: Session, _ call: Invocation) throws(ScriptError) {
        guard session.options.checkOnly else { return }
        if nameKey(call.word(1)) == "error" {
            try checkNesting(session, call)
            return
        }
        let words = call.words(3)
        let ranges = call.wordRanges
        switch nameKey(call.word(1)) {
        case "line":
            let field = try lineForm(call, words: words, ranges: ranges)
            guard isLineNumber(words[0]) else { throw ScriptError(.notALineNumber(words[0]), at: ranges[0]) }
            _ = try expected(field, words: Array(words[2...]), ranges: Array(ranges[2...]), currency: nil, session)
        default:
            guard let field = ExpectField(rawValue: nameKey(call.word(1))) else { return }
            _ = try expected(field, words: words, ranges: ranges, currency: call.currency(2), session)
        }
    }

    /// The FIELD of `expect line N FIELD [CURRENCY] VALUE...`, once every part is there.
    private static func lineForm(_ call: Invocation, words: [String], ranges: [SourceRange]) throws(ScriptError) -> ExpectField {
        guard words.count >= 3 else {
            let end = ranges.last?.end ?? call.range(1).end
            let missing = words.count == 0 ? "a line number" : words.count == 1 ? "a FIELD" : "a VALUE"
            throw ScriptError(.missingArgument(missing, usage: "expect line N FIELD [CURRENCY] VALUE"), at: SourceRange(end, end + 1))
        }
        guard let field = ExpectField(rawValue: nameKey(words[1])) else {
            throw Session.unknown("field", words[1], ExpectField.allCases.map(\.rawValue), at: ranges[1])
        }
        return field
    }

    /// VALUE `words` of `field` as it is compared, which may begin with a currency for amounts
    /// (`expect price GBP 10`): the value, its currency, its text and where it stands.
    private static func expected(
        _ field: ExpectField, words: [String], ranges: [SourceRange], currency named: Currency?, _ session: Session
    ) throws(ScriptError) -> (value: ExpectField.Expected, currency: Currency, text: String, range: SourceRange) {
        var words = words
        var ranges = ranges
        var currency = named ?? .base
        if named == nil && field.isAmount && words.count == 2 {
            // `expect price GPB 10`: the first word is meant as a currency.
            let given = words.removeFirst()
            let givenRange = ranges.removeFirst()
            guard let found = try? session.catalog.currency(named: given) else {
                throw Session.unknown("currency", given, session.catalog.currencies.map(\.code), at: givenRange)
            }
            currency = found
        }
        let valueRange = SourceRange(ranges.first?.start ?? 0, ranges.last?.end ?? 0)
        let expected = words.joined(separator: " ")
        do throws(ScriptError.Kind) {
            return (try field.expected(expected, currency: currency), currency, expected, valueRange)
        } catch {
            throw ScriptError(error, at: valueRange)
        }
    }

    /// Checks `field` (of stock line `line`, or of the stock and current car) against VALUE
    /// `words`, which may begin with a currency for amounts (`expect price GBP 10`).
    private static func expect(
        _ field: ExpectField, words: [String], ranges: [SourceRange], currency named: Currency?,
        line: Int?, _ session: Session, command: SourceRange
    ) throws(ScriptError) {
        let (value, currency, expected, valueRange) = try self.expected(
            field, words: words, ranges: ranges, currency: named, session)
        let outcome: (actual: String, matches: Bool)
        do throws(CarFactoryError) {
            outcome = try field.check(value, currency: currency, line: line, in: session)
        } catch {
            // Nothing to check against (no current car): said at the command.
            throw ScriptError(.domain(error), at: command)
        }
        if !outcome.matches {
            let what = line.map { "line \($0) \(field.rawValue)" } ?? field.rawValue
            throw ScriptError(.expectationFailed(field: what, expected: expected, actual: outcome.actual), at: valueRange)
        }
    }

    /// Stock line `text`, which must exist.
    private static func lineNumber(_ text: String, in session: Session, at range: SourceRange) throws(ScriptError) -> Int {
        guard isLineNumber(text), let number = Int(text) else { throw ScriptError(.notALineNumber(text), at: range) }
        do throws(CarFactoryError) {
            _ = try session.stock.line(number)
        } catch {
            throw ScriptError(.domain(error), at: range)
        }
        return number
    }

    /// Whether `text` is written as a line number: decimal digits making a number from 1.
    private static func isLineNumber(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) && (Int(text).map { $0 >= 1 } ?? false)
    }

    /// `error ID COMMAND...`: runs COMMAND, which must fail with a diagnostic of id ID (as
    /// `--format json` shows it). The failure is expected, so it is not reported, and a failed
    /// command changes nothing; a command that succeeds has run, and the expectation fails.
    private static func expectError(_ session: Session, _ call: Invocation) throws(ScriptError) {
        let lexer = call.lexerRef.takeUnretainedValue()
        guard case .words(let from, let to) = call.value(3), to - from >= 2 else {
            var count = 0
            var end = call.range(1).end
            if case .words(let from, let to) = call.value(3), from < to {
                count = to - from
                end = lexer.tokens[to - 1].range.end
            }
            throw ScriptError(
                .missingArgument(count == 0 ? "an error id" : "a COMMAND", usage: "expect error ID COMMAND..."),
                at: SourceRange(end, end + 1))
        }
        let id = lexer.string(lexer.tokens[from])
        try refuseSource(at: from + 1, session, lexer)
        var actual = "no error: the command ran"
        // This form counts as one expectation, whatever COMMAND is (`expect error ID expect
        // ...`): what COMMAND counted is not counted again.
        let counted = session.expectationCount
        defer { session.expectationCount = counted }
        do {
            try session.nested(call) { () throws(ScriptError) in try session.execute(from + 1..<to, lexer: lexer) }
        } catch {
            // Nested too deep: said once, where it happened, not wrapped by every level.
            if session.commandNestingRefused { throw error }
            if error.id == id { return }
            actual = "\(error.id): \(error.message)"
        }
        throw ScriptError(.expectationFailed(field: "error", expected: id, actual: actual), at: call.range(3))
    }

    /// `source` as COMMAND is refused: a sourced file reports each error at its own line and
    /// keeps what ran before it, so no error id could be expected of the `source` itself and
    /// the file's changes would stay (trial 7, 5: only the internal id `reported` passed).
    private static func refuseSource(at token: Int, _ session: Session, _ lexer: Lexer) throws(ScriptError) {
        guard let position = session.commands.position(of: lexer.word(lexer.tokens[token])),
            session.commands.specs[position].name == "source"
        else { return }
        throw ScriptError(
            .refused(
                "'expect error' cannot run 'source': a file reports its errors at their own lines and keeps what ran before them; test a file with --test"
            ), at: lexer.tokens[token].range)
    }

    /// Whether `call` (an `expect`) is the form that runs a command, `expect error ID COMMAND...`.
    static func runsACommand(_ call: Invocation) -> Bool {
        call.spec.name == "expect" && call.count >= 1 && nameKey(call.word(1)) == "error"
    }

    /// `--check` of `expect error ID COMMAND...`: COMMAND is not run (its failure is expected),
    /// but the levels of `expect error` and `try` it begins with are counted as running counts
    /// them (`Session.nested`): past `maximumCommandNesting`, the error running gives, at the
    /// name of the level that passes it, whatever ID says. A `try` among them is checked as it
    /// is outside `expect error` (it refuses what running refuses; a file it sources is
    /// followed, its levels counted on from these), at the level running runs it: the run
    /// counts levels across files, so a file fine alone may pass the bound when sourced from
    /// deep levels (trial 5, 5). A `source` that is an inner `expect error`'s COMMAND is not
    /// followed: running refuses it there (`refuseSource`) and never reads the file. Only the
    /// bound's error is passed on: whether COMMAND fails as expected is running's to know
    /// (errors reported inside a file are reported, as running reports them).
    private static func checkNesting(_ session: Session, _ call: Invocation) throws(ScriptError) {
        let lexer = call.lexerRef.takeUnretainedValue()
        var level = session.commandNesting + 1
        var at = call.range(0)
        guard case .words(let from, let to) = call.value(3) else { return }
        if to - from >= 2 { try refuseSource(at: from + 1, session, lexer) }
        var index = from + 1
        while true {
            if level > maximumCommandNesting {
                session.commandNestingRefused = true
                throw Session.nestingRefusal(at: at)
            }
            guard index < to, let position = session.commands.position(of: lexer.word(lexer.tokens[index])) else { return }
            let name = session.commands.specs[position].name
            if name == "source" { return }
            if name == "try" {
                try checkRunning(index..<to, atLevel: level, session, lexer)
                return
            }
            guard let nested = nestedCommandStart(of: name, from: index, count: to, word: { lexer.string(lexer.tokens[$0]) })
            else { return }
            at = lexer.tokens[index].range
            index = nested
            level += 1
        }
    }

    /// Checks the command of tokens `words` (a `try` inside `expect error`) as
    /// if run `level` levels deep; passes on only the error of the levels' bound.
    private static func checkRunning(_ words: Range<Int>, atLevel level: Int, _ session: Session, _ lexer: Lexer) throws(ScriptError) {
        let kept = session.commandNesting
        session.commandNesting = level
        session.commandNestingRefused = false
        defer { session.commandNesting = kept }
        do {
            try session.execute(words, lexer: lexer)
        } catch {
            if session.commandNestingRefused { throw error }
        }
    }
}
