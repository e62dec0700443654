import CarFactory

// `try COMMAND`: runs one command as a what-if and shows what it would do, then takes all of
// it back. The command runs against the session as it stands (inside an open transaction,
// with that transaction's changes), but with an undo history of its own swapped in, so that
// what it changes is recorded there and nowhere else: taking it back leaves the session's own
// history, its open transactions and its redo steps exactly as they were. `try` is therefore
// never an undo step, and a `try` inside a transaction is not part of it.

/// How deeply `expect error COMMAND` and `try COMMAND` may hold one another.
package let maximumCommandNesting = 64

/// Where the command that the command named `name` at word `start` holds begins (`try
/// COMMAND`: one word on; `expect error ID COMMAND`: three), among a line's `count` words,
/// `word(i)` the i-th; nil if it holds none. The one reading of a level, for `--check` and
/// for an editor's index and hover.
package func nestedCommandStart(of name: String, from start: Int, count: Int, word: (Int) -> String) -> Int? {
    switch name {
    case "try" where count > start + 1: start + 1
    case "expect" where count > start + 3 && nameKey(word(start + 1)) == "error": start + 3
    default: nil
    }
}

extension Session {
    /// `try COMMAND...`: runs COMMAND, shows the change in cars and in total value (in the base
    /// currency), and leaves the session as it was. A failed COMMAND is `try`'s error.
    func whatIf(_ call: Invocation) throws(ScriptError) {
        guard case .words(let from, let to) = call.value(1), from < to else {
            let end = call.range(0).end
            throw ScriptError(.missingArgument("a COMMAND", usage: call.spec.usage), at: SourceRange(end, end + 1))
        }
        let lexer = call.lexerRef.takeUnretainedValue()
        let tokens = from..<to
        let nameToken = lexer.tokens[tokens.lowerBound]
        if let position = commands.position(of: lexer.word(nameToken)) {
            let spec = commands.specs[position]
            if spec.group == .history {
                throw ScriptError(
                    .refused(
                        "'try' tries a change, and '\(spec.name)' changes the history itself: to try several changes together, use 'begin' ... 'rollback'"
                    ),
                    at: nameToken.range)
            }
            // Ending the session is no change to show and take back (`try source FILE` may
            // quit: that ends only the file).
            if spec.name == "quit" {
                throw ScriptError(
                    .refused("'try' tries a change and takes it back, and 'quit' ends the session, which could not be taken back"),
                    at: nameToken.range)
            }
        }
        let carsBefore = stock.carCount
        let valueBefore = stock.valueMinorUnits
        let keptHistory = history
        let keptLedgerBytes = stock.journaledLedgerBytes
        let keptJournal = stock.journal
        let keptStepStart = stock.nextEntryStartsStep
        let keptDepth = historyDepth
        let keptQuit = (quitRequested, requestedExitStatus)
        let keptOutside = transactionOutsideWhatIf
        let failuresBefore = failureCount
        let unrunBefore = commandsPassedUnrun
        transactionOutsideWhatIf = keptOutside || keptHistory?.inTransaction == true
        startHistory(reserving: false)
        historyDepth = 0
        whatIfDepth += 1
        var failure: ScriptError?
        do {
            try nested(call) { () throws(ScriptError) in try execute(tokens, lexer: lexer) }
        } catch {
            failure = error
        }
        let carsAfter = stock.carCount
        let valueAfter = stock.valueMinorUnits
        // A tried file that ends with a transaction it opened still open (`source` leaves it
        // open for the lines after it) is warned of as the end of input is: the `try` ends
        // what it tried, that transaction with the rest.
        if let open = history?.savepoints.count, open > 0, failure == nil, failureCount == failuresBefore, let frame = frames.last {
            let what = open == 1 ? "a transaction" : "\(open) nested transactions"
            var warning = frame.diagnostic(
                ScriptError(.history("end of the tried file with \(what) open: rolled back with the rest"), at: call.range(0)),
                width: sink.sourceWindowWidth)
            warning.severity = .warning
            sink.receive(warning)
        }
        takeBackEverything()
        whatIfDepth -= 1
        history = keptHistory
        variablesLooks = VariablesLooks()
        // The ledgers journaled while trying (a `clear`) were taken back with the rest: not
        // counted to the step being made around the `try`. Counted, each `try clear` of a
        // large stock charged it to the history's bound for good, and a transaction after a
        // few failed with history-too-large (trial 9, 2: 12 of 200,000 lines).
        history?.ledgerBytesMark &+= stock.journaledLedgerBytes &- keptLedgerBytes
        historyDepth = keptDepth
        stock.journal = keptJournal
        stock.nextEntryStartsStep = keptStepStart
        (quitRequested, requestedExitStatus) = keptQuit
        // An analysis that passed its bound of refollowings stops for good (see `SourceFollowing.swift`).
        if analysisStopped { quitRequested = true }
        transactionOutsideWhatIf = keptOutside
        // An error reported inside COMMAND (in a sourced file, even one that went on after it
        // with --keep-going) is `try`'s failure too: no table of a state that was no outcome.
        if failure == nil && failureCount > failuresBefore { failure = ScriptError(.reported, at: call.range(0)) }
        // `--check`: COMMAND passed over a command it does not run, which may fail when run,
        // failing the `try` and rolling back the transactions open outside it (`try set
        // drivetrain rear` in a transaction: the check took back the next `var` with it on an
        // error of its own, where the run had rolled back already and kept it; check12's fuzz, seed 5848).
        if failure == nil && commandsPassedUnrun != unrunBefore { passUnrun() }
        if rollBackAfterWhatIf && !keptOutside {
            rollBackAfterWhatIf = false
            rollBackEverything()
        }
        if let failure { throw failure }
        // Checking runs COMMAND only as far as `--check` runs any command: there is no change to show.
        if options.checkOnly { return }
        emit(.table(Self.whatIfTable(cars: (carsBefore, carsAfter), value: (valueBefore, valueAfter))), call)
    }

    /// Before, after and the change, in cars and in value (the base currency).
    /// Runs `body`, a command inside `call` (`try` or `expect error`), one level deeper; past
    /// `maximumCommandNesting` levels an error at `call`, which every enclosing level passes on.
    func nested(_ call: Invocation, _ body: () throws(ScriptError) -> Void) throws(ScriptError) {
        // The flag is cleared as the outermost begins (not as it ends: its own `expect error`
        // reads it after).
        if commandNesting == 0 { commandNestingRefused = false }
        guard commandNesting < maximumCommandNesting else {
            commandNestingRefused = true
            throw Self.nestingRefusal(at: call.range(0))
        }
        commandNesting += 1
        defer { commandNesting -= 1 }
        try body()
    }

    /// The error of a level of `expect error` and `try` past `maximumCommandNesting`, at its name.
    static func nestingRefusal(at range: SourceRange) -> ScriptError {
        ScriptError(.refused("'expect error' and 'try' may hold one another at most \(maximumCommandNesting) deep"), at: range)
    }

    private static func whatIfTable(cars: (Int64, Int64), value: (Int64, Int64)) -> Table {
        var table = Table([
            .init("", key: "stock"), .init("cars", alignRight: true),
            .init("total value", alignRight: true)
        ])
        table.append([.text("before"), .integer(cars.0), .money(.base(value.0))])
        table.append([.text("after"), .integer(cars.1), .money(.base(value.1))])
        let carChange = cars.1 - cars.0
        let valueChange = value.1 - value.0
        table.append([.text("change"), .integerChange(carChange), .moneyChange(.base(valueChange))])
        return table
    }
}
