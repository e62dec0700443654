import CarFactory

/// `expect`'s three forms: a field of the stock or of the current car (`expect drive 4WD`),
/// a field of stock line N (`expect line 2 drive 4WD`), and the error a command fails with
/// (`expect error rule-violation set drivetrain front`).
enum ExpectCommand {
    /// The words FIELD may be in `catalog`: a field, a family (`expect paint red`; a field of
    /// the same name is the field), or `line` and `error`, which begin the other forms.
    static func forms(in catalog: Catalog) -> [String] {
        let fields = ExpectField.allCases.map(\.rawValue)
        let families = catalog.familyNames.filter { name in !fields.contains(nameKey(name)) && !["line", "error"].contains(nameKey(name)) }
        return fields + families + ["line", "error"]
    }

    /// What an `expect` checks: one of its fields, or the car's part of a family, which it
    /// compares as `suspension` and `drive` compare theirs (every view of a car knows every
    /// family: trial 7, `expect paint red` was an unknown field).
    enum Subject {
        case field(ExpectField)
        case part(PartFamily)

        /// The subject FIELD `word` names in `catalog`, if any.
        init?(_ word: String, in catalog: Catalog) {
            if let field = ExpectField(rawValue: nameKey(word)) {
                self = .field(field)
            } else if let family = catalog.family(named: word) {
                self = .part(family)
            } else {
                return nil
            }
        }

        /// Whether the subject is an amount, which may name a currency.
        var isAmount: Bool { if case .field(let field) = self { field.isAmount } else { false } }
    }

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
            let field = try lineForm(call, words: words, ranges: ranges, session)
            let number = try lineNumber(words[0], in: session, at: ranges[0])
            try expect(
                field, words: Array(words[2...]), ranges: Array(ranges[2...]), currency: nil, line: number, session,
                command: call.range(0))
        default:
            guard let field = Subject(call.word(1), in: session.catalog) else { return }
            try expect(field, words: words, ranges: ranges, currency: call.currency(2), line: nil, session, command: call.range(0))
        }
    }

    /// `--check`: the words of `expect` read as running reads them, so that a VALUE that could
    /// never match (`expect count 1.0`) or a line number that is none is found without running;
    /// nothing is looked up in the stock, which checking does not make.
    static func check(_ session: Session, _ call: Invocation) throws(ScriptError) {
        guard session.options.checkOnly else { return }
        if nameKey(call.word(1)) == "error" {
            try checkError(session, call)
            return
        }
        let words = call.words(3)
        let ranges = call.wordRanges
        switch nameKey(call.word(1)) {
        case "line":
            let field = try lineForm(call, words: words, ranges: ranges, session)
            guard isLineNumber(words[0]) else { throw ScriptError(.notALineNumber(words[0]), at: ranges[0]) }
            _ = try expected(field, words: Array(words[2...]), ranges: Array(ranges[2...]), currency: nil, session)
        default:
            guard let field = Subject(call.word(1), in: session.catalog) else { return }
            _ = try expected(field, words: words, ranges: ranges, currency: call.currency(2), session)
        }
    }

    /// The FIELD of `expect line N FIELD [CURRENCY] VALUE...`, once every part is there.
    private static func lineForm(
        _ call: Invocation, words: [String], ranges: [SourceRange], _ session: Session
    ) throws(ScriptError) -> Subject {
        guard words.count >= 3 else {
            let end = ranges.last?.end ?? call.range(1).end
            let missing = words.count == 0 ? "a line number" : words.count == 1 ? "a FIELD" : "a VALUE"
            throw ScriptError(.missingArgument(missing, usage: "expect line N FIELD [CURRENCY] VALUE"), at: SourceRange(end, end + 1))
        }
        guard let field = Subject(words[1], in: session.catalog) else {
            let fields = forms(in: session.catalog).filter { $0 != "line" && $0 != "error" }
            throw Session.unknown("field", words[1], fields, at: ranges[1])
        }
        return field
    }

    /// VALUE `words` of `field` as it is compared, which may begin with a currency for amounts
    /// (`expect price GBP 10`): the value, its currency, its text and where it stands.
    private static func expected(
        _ field: Subject, words: [String], ranges: [SourceRange], currency named: Currency?, _ session: Session
    ) throws(ScriptError) -> (value: ExpectField.Expected, currency: Currency, text: String, range: SourceRange) {
        var words = words
        var ranges = ranges
        var currency = named ?? .base
        if named == nil && field.isAmount && words.count == 2 {
            // `expect price GPB 10`: the first word is meant as a currency.
            let given = words.removeFirst()
            let givenRange = ranges.removeFirst()
            guard let found = try? session.catalog.currency(named: given) else {
                // `expect price 3500 USD`: the grammar puts CURRENCY first; say how to write it.
                if let after = try? session.catalog.currency(named: words[0]) {
                    throw ScriptError(.currencyAfterAmount(currency: after.code, amount: given), at: ranges[0])
                }
                throw Session.unknownCurrency(given, session.catalog.currencies.map(\.code), at: givenRange)
            }
            currency = found
        }
        let valueRange = SourceRange(ranges.first?.start ?? 0, ranges.last?.end ?? 0)
        let expected = words.joined(separator: " ")
        do throws(ScriptError.Kind) {
            guard case .field(let field) = field else { return (.name(expected), currency, expected, valueRange) }
            return (try field.expected(expected, currency: currency), currency, expected, valueRange)
        } catch {
            throw ScriptError(error, at: valueRange)
        }
    }

    /// Checks `field` (of stock line `line`, or of the stock and current car) against VALUE
    /// `words`, which may begin with a currency for amounts (`expect price GBP 10`).
    private static func expect(
        _ field: Subject, words: [String], ranges: [SourceRange], currency named: Currency?,
        line: Int?, _ session: Session, command: SourceRange
    ) throws(ScriptError) {
        let (value, currency, expected, valueRange) = try self.expected(
            field, words: words, ranges: ranges, currency: named, session)
        let outcome: (actual: String, matches: Bool)
        let name: String
        do throws(CarFactoryError) {
            switch field {
            case .field(let field):
                name = field.rawValue
                outcome = try field.check(value, currency: currency, line: line, in: session)
            case .part(let family):
                name = session.catalog.name(of: family)
                let car = if let line { try session.stock.line(line).car } else { try session.stock.currentLine().car }
                outcome = ExpectField.check(session.catalog.part(of: family, on: car), against: expected)
            }
        } catch {
            // Nothing to check against (no current car): said at the command.
            throw ScriptError(.domain(error), at: command)
        }
        if !outcome.matches {
            let what = line.map { "line \($0) \(name)" } ?? name
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
        let unseen = session.notesUnseenAtFrame
        session.notesUnseenAtFrame = session.frames.count
        defer {
            session.expectationCount = counted
            session.notesUnseenAtFrame = unseen
        }
        do {
            try session.nested(call) { () throws(ScriptError) in try session.execute(from + 1..<to, lexer: lexer) }
        } catch {
            // Nested too deep: said once, where it happened, not wrapped by every level.
            if session.commandNestingRefused { throw error }
            if error.id == id { return }
            // An error inside a file COMMAND ran (`try source FILE`) was reported at its line.
            actual =
                error.kind == .reported
                ? "the error reported at its own line in the file, whose id cannot be expected here (test a file with --test)"
                : "\(error.id): \(error.message)"
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

    /// `--check`, which does not run COMMAND: whether `call`, `expect error ID COMMAND...`, may
    /// leave a step for `undo` in a run that goes on after it. Its COMMAND is a step only if it
    /// does not fail, and then the expectation fails: the script stops there, unless with
    /// `--keep-going`. So a run that reaches the next command has had COMMAND fail, which
    /// changed nothing, unless COMMAND is an `expect` in turn, whose own COMMAND may have run
    /// and failed only the inner expectation (`expect error expectation-failed expect error
    /// ID var b 1` keeps `b`). Counting a step for every `expect error` made the check follow
    /// no `undo` after one, so it missed the run's `only 1 step to undo` (trial 7).
    /// With `--keep-going`, only a COMMAND the check neither follows nor checks alone (see
    /// `checkedForm`) is such a step here: the others made their own steps, as running makes them.
    static func mayLeaveAStep(_ session: Session, _ call: Invocation) -> Bool {
        guard runsACommand(call) else { return false }
        if session.options.keepGoing { return checkedForm(session, call) == .unknown }
        guard case .words(let from, let to) = call.value(3), to - from >= 2 else { return false }
        let lexer = call.lexerRef.takeUnretainedValue()
        return nameKey(lexer.string(lexer.tokens[from + 1])) == "expect"
    }

    /// How `--check` takes the COMMAND of `expect error ID COMMAND...` (trial 11, 5).
    enum CheckedForm {
        /// Run as running runs it: the check knows whether it succeeds, and so whether the
        /// expectation fails, and what it changed for the lines after it.
        case followed
        /// A command the check does not run (`car`, `save` ...), with `--keep-going`: checked as
        /// alone on its line (a `save` notes its file, `car` is a step for `undo`), since the
        /// run may go on after it succeeded; whether it does is running's to know.
        case alone
        /// Not run: whether it fails is running's to know (see `checkNesting`). The run goes on
        /// past it only if it failed, but with `--keep-going` or as an inner `expect error`,
        /// what it changed is not known to the check from here (`Session.effectsUnknown`).
        case unknown
    }

    /// The commands whose outcome as COMMAND the check knows, as it follows them: the
    /// definitions the stock cannot refuse (a `forbid` or `require` a car in stock breaks is
    /// refused), `var`, and `begin`, `commit` and `rollback`.
    private static let followedCommands: Set<String> = ["family", "option", "model", "currency", "var", "begin", "commit", "rollback"]

    /// How the check takes the COMMAND of `call` (`expect error ID COMMAND...`): followed only
    /// where it knows the session as the run has it: undo history followed and no rollback the
    /// run may have made without it, and for a definition or `var`, no effect it could not know
    /// (a file the script saved, passed over).
    static func checkedForm(_ session: Session, _ call: Invocation) -> CheckedForm {
        let lexer = call.lexerRef.takeUnretainedValue()
        guard case .words(let from, let to) = call.value(3), to - from >= 2,
            let position = session.commands.position(of: lexer.word(lexer.tokens[from + 1]))
        else { return .unknown }
        let name = session.commands.specs[position].name
        if followedCommands.contains(name) {
            let historyKnown = session.history.map { $0.unfollowedBelow == nil && !$0.runMayHaveRolledBack } ?? true
            let group = session.commands.specs[position].group
            return historyKnown && (group == .history || !session.effectsUnknown) ? .followed : .unknown
        }
        if session.options.keepGoing && !session.commands.specs[position].runsWhenChecking && name != "expect" { return .alone }
        return .unknown
    }

    /// `--check` of `expect error ID COMMAND...`, as `checkedForm` takes COMMAND.
    private static func checkError(_ session: Session, _ call: Invocation) throws(ScriptError) {
        switch checkedForm(session, call) {
        case .followed:
            try expectError(session, call)
        case .alone:
            try checkNesting(session, call)
            guard case .words(let from, let to) = call.value(3) else { return }
            let lexer = call.lexerRef.takeUnretainedValue()
            // Its errors are running's too: there they may be the one expected.
            do {
                try session.nested(call) { () throws(ScriptError) in try session.execute(from + 1..<to, lexer: lexer) }
            } catch {
                if session.commandNestingRefused { throw error }
            }
        case .unknown:
            try checkNesting(session, call)
            guard session.options.keepGoing || mayLeaveAStep(session, call) else { return }
            session.effectsUnknown = true
            mayHaveRun(session, call)
        }
    }

    /// `--check`, COMMAND not followed, where the run goes on whether it failed as expected or
    /// ran (the expectation failed): with `--keep-going`, or as an inner `expect error`'s. What
    /// it may have done is made uncertain in the one place a command passed over is taken
    /// (`Session.commandMayHaveRun`): the check then finds less, never more (it said `unknown
    /// model 'm9'` of a model the run had defined, trial 12, L2; `nothing to redo` after an
    /// `undo` that ran, trial 13, 4).
    private static func mayHaveRun(_ session: Session, _ call: Invocation) {
        let lexer = call.lexerRef.takeUnretainedValue()
        guard case .words(let from, let to) = call.value(3), to - from >= 2 else { return }
        try? session.nested(call) { () throws(ScriptError) in session.commandMayHaveRun(from + 1..<to, lexer: lexer, known: true) }
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
    /// (errors reported inside a file are reported, as running reports them). A `quit` among
    /// them is run as `try` is: it ends the check where it ends the run (trial 9, 8).
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
            // `quit` whose STATUS reads ends the run there, the expectation failed or not: so
            // the check, which must not check lines the run never reaches (trial 9, 8).
            if name == "try" || name == "quit" {
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

    /// Checks the command of tokens `words` (a `try` or `quit` inside `expect error`) as
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
