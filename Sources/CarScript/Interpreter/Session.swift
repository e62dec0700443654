import CarFactory

/// The most bytes a session's variables may hold in all, names and values (each value at
/// most 1 MiB, as long as a word may grow), each variable counted `variableOverhead` bytes
/// more.
package let maximumVariableStorage = 1 << 24

/// The bytes a variable counts beyond its name and value against `maximumVariableStorage`:
/// about what one takes in memory (its dictionary entry, its place in the names in order, two
/// string objects). Measured in a release build: 200,000 variables `var abcd ""` took 31 MiB
/// more than one did, 163 bytes each with the tables' spare room; without it, 4,194,304 such
/// variables (4 bytes counted each) took 484 MB before the bound stopped them.
package let variableOverhead = 128

/// What variable `name` holding `value` counts against `maximumVariableStorage`.
package func variableCost(_ name: String, _ value: String) -> Int {
    name.utf8.count + value.utf8.count + variableOverhead
}

/// One interpreter session: the catalog, the stock, and where results go. `Engine` is its
/// public face.
final class Session {
    // Three fields skip run-time exclusivity checks, where the optimizer keeps them and they
    // pay (callgrind, 10^5 commands of the benchmark mix, whose 1,397 instructions a command
    // would be 2,098 with no field of the engine unchecked); the others' checks it removes.
    // Measured together with `CatalogIndex.rules`: checked, these four cost 1,391 -> 1,611
    // instructions a command on the mix and 1,392 -> 1,634 on set/show.
    /// The catalog in force (built-in plus definitions); changed only through `changeCatalog`.
    private(set) var catalog: Catalog
    /// The catalog arranged for lookups from bytes: made with the session, then kept in step
    /// with the catalog. (A constant, so the command loop reads it without counting a reference.)
    let index: CatalogIndex
    /// Room for the arguments of running commands, one block per nesting depth, reused.
    let arguments = ArgumentSpace()
    /// The stock lines. Unchecked, with `configurations`: `car`, `set`, `price` and `total`
    /// read them through the session, 1.6 calls of swift_beginAccess a command checked (~100
    /// instructions).
    @exclusivity(unchecked) var stock = StockLedger()
    /// What `car` and `set` remember of configurations, by the stock's ids.
    @exclusivity(unchecked) var configurations = ConfigurationCache()
    /// The command table dispatch reads.
    let commands: CommandTable
    /// Where results and diagnostics go.
    let sink: any ResultSink
    /// Room to join `echo`'s words in.
    let scratch = ByteBuffer()
    /// How errors and files are handled.
    let options: EngineOptions
    /// Whether the options hold some commands back (`--check`, definitions only, an editor's
    /// questions, a rehearsal): one test a command where there were four.
    let restrictsCommands: Bool
    /// Asked for by a signal, a closed output, or `Engine.cancellation`: looked for between lines and commands.
    let stop: StopRequest
    /// How many errors have been reported.
    var failureCount = 0
    /// Whether any command has failed: the run's exit status is then 1.
    var hasFailed: Bool { failureCount > 0 }
    /// The scripts being run, outermost first (`source` nests them).
    var frames: [ScriptFrame] = []
    /// The scripts of the sessions loading this one for `diff`, outermost first (each file's
    /// name and host identity): they count towards `source`'s depth and cycles, so a file that
    /// compares itself, directly or through others, is an error rather than endless nesting.
    var enclosingScripts: [(file: String, identity: [UInt8]?)] = []
    /// How many sessions are loading this one for `diff`, one in another: bounded by
    /// `maximumComparisonDepth`.
    var comparisonDepth = 0
    /// Each currency's rate when the session began, in the catalog's order, so `save` writes
    /// only the rates changed since.
    private(set) var initialRates: [DecimalNumber]
    /// The catalog the session began with (built-in, then `--catalog` files, then what the
    /// init file defined): `diff` loads a saved session into a fresh one made from it.
    /// (Copied on write: it shares the storage.)
    private(set) var initialCatalog: Catalog
    /// How many of the catalog's definitions were made before the session began: `save`
    /// writes the ones after.
    private(set) var definitionsBefore: Int
    /// The variables (`var`, `--var`) by name, and their names in the order first defined.
    private(set) var variables: [String: String] = [:]
    private(set) var variableNames: [String] = []
    /// The bytes of the variables' names and values, against `maximumVariableStorage`.
    private(set) var variableStorage = 0

    /// What takes back the changes made, when kept (see `UndoHistory.swift`): nil keeps none.
    /// Unchecked: every command asks whether it is nil, one call of swift_beginAccess (63
    /// instructions) a command checked.
    @exclusivity(unchecked) var history: UndoHistory?
    /// How many times the catalog or a variable's value has changed: with the undo history's
    /// counts (`AnalysisMark`), an analysis follows a file it followed already only if that
    /// could find more (see `SourceFollowing.swift`).
    var stateChanges = 0
    /// The files an analysis has followed, by host identity (see `SourceFollowing.swift`);
    /// nil until the first (an empty table made with every session cost its start-up 4,000
    /// instructions, for the generic metadata of its type).
    var followedFiles: [[UInt8]: FollowedFile]?
    /// The files (by host identity) an analysis has followed at least once: each later following
    /// counts towards `maximumRefollowings`. Nil until the first, as `followedFiles`.
    var followedIdentities: Set<[UInt8]>?
    /// `--check`: the files the script has `save`d so far (see `SavedFiles.swift`); nil until
    /// the first, as `followedFiles`.
    var savedFiles: SavedFiles?
    /// `--check`: set once something the check could not follow may have changed the catalog
    /// or the variables when run (a `source` of a file the script saved, passed over; an
    /// `expect error` COMMAND not followed that the run may go on after): from then on it
    /// does not tell whether a definition or `var` as such a COMMAND succeeds (trial 11, 5).
    var effectsUnknown = false
    /// `--check --keep-going`: the variables set inside a transaction that the run may have
    /// rolled back, failing where the check could not tell (see `runMayHaveFailed`). The check
    /// keeps their values, the run may not have them: a command that refers to one is passed
    /// over, as one the check does not run, and a `var` doing so makes its own uncertain; a
    /// `var` that sets one makes it known again.
    var uncertainVariables: Set<String> = []
    /// An analysis: set once the run may have failed inside a transaction where the analysis
    /// did not (see `runMayHaveFailed`), and so rolled back what the analysis keeps.
    var runMayHaveDiverged = false
    /// `--check --keep-going`: set once the check made a definition the run may not have
    /// made (an `expect error` COMMAND it does not follow, see `ExpectCommand.mayHaveRun`): a
    /// definition refused later because its name or rule is there already may be accepted
    /// when run, and is not reported (`mayBeTheChecksAlone`).
    var definitionsUncertain = false
    /// `--check`: where the looks at the variables a rollback or an `undo` may take back
    /// stopped (see `UndoHistory.VariablesLook`), for the history the session has now: made
    /// anew with each history.
    struct VariablesLooks {
        var transactions: UndoHistory.VariablesLook?
        var undo: UndoHistory.VariablesLook?
    }
    var variablesLooks = VariablesLooks()
    /// How many times an analysis followed a file it had followed already (with the sessions
    /// `diff` loads while it checks: they share the bound).
    var refollowings = 0
    /// `--check`: how many commands it has passed over unrun (see `passUnrun`): a `try` whose
    /// COMMAND passed one may fail when run, which rolls back the transactions open outside it.
    var commandsPassedUnrun = 0
    /// Set when an analysis passed `maximumRefollowings`: it stops for good, a `try` that
    /// takes back its `quit` taking back no more than that.
    var analysisStopped = false
    /// How deeply commands are running inside other commands (`source`, `expect`) while a
    /// history is kept: only the outermost closes a step (a plain field: it changes around
    /// every command). Checked: the optimizer removes the checks (1,496 instructions a command
    /// with the history on, as unchecked).
    var historyDepth = 0
    /// A completion's copy (see `Rehearsal.swift`): the one budget of steps its `fit`s and the
    /// completion's repair prices share; nil elsewhere (each search has its own).
    var searchBudget: SearchBudget?
    /// A completion's copy: a search the line runs stopped at the budget's end, so the car
    /// the line makes is not known.
    var rehearsalLostCar = false
    /// How many `try`s are running: inside one, nothing is written to a file (see `WhatIf.swift`).
    var whatIfDepth = 0
    /// Whether a transaction of the session was open outside the innermost running `try`, and
    /// not yet due to be rolled back: an error reported inside it (in `try source FILE`) rolls
    /// that transaction back once the `try` ends, as an error outside it would.
    var transactionOutsideWhatIf = false
    /// Set when an error inside a `try` is to roll back the transaction open outside it.
    var rollBackAfterWhatIf = false
    /// How many commands are running inside another on its line (`expect error COMMAND`, `try
    /// COMMAND`), counted across `source` and into sessions `diff` loads: bounded by
    /// `maximumCommandNesting`, so a line of them nested thousands deep is an error, not a
    /// stack overflow.
    var commandNesting = 0
    /// Set when `commandNesting` refused a command, so that each enclosing `expect error`
    /// passes that error on rather than wrapping it in its own.
    var commandNestingRefused = false
    /// The depth of `frames` at which the innermost `expect error` runs its COMMAND: an error
    /// there shows only its id (and message, if unexpected), never its notes, so a refused `set`
    /// there skips its repair search (a file COMMAND sources reports its errors whole: deeper
    /// frames search). Nil outside `expect error`.
    var notesUnseenAtFrame: Int?

    /// Whether a refused `set` here adds the configurator's repair note: its search is run only
    /// where the note can be seen.
    var searchesRefusalRepair: Bool { options.searchesRefusals && notesUnseenAtFrame != frames.count }
    /// Set while the program runs its inputs (files, `-e` texts, the prompt) as one session:
    /// a transaction open as one ends stays open for the next, and the end of the last one
    /// (`Engine.endInputs`) is the end of input. Where the input last ended so stopped is kept
    /// for its warning (its place, not its frame, which holds the file open).
    var endsInputsTogether = false
    var lastInput: (file: String, line: Int)?

    /// Puts variable `name` back to `value` (nil: not set), as `undo` does; returns what it held.
    func restoreVariable(_ name: String, to value: String?) -> String? {
        stateChanges &+= 1
        let old = variables[name]
        variableStorage -= old.map { variableCost(name, $0) } ?? 0
        if let value {
            if variables.updateValue(value, forKey: name) == nil { variableNames.append(name) }
            variableStorage += variableCost(name, value)
        } else if old != nil {
            variables[name] = nil
            if let position = variableNames.lastIndex(of: name) { variableNames.remove(at: position) }
        }
        return old
    }

    /// Makes `change` to the catalog (`undo`, `redo`), keeping the index in step; returns its inverse.
    func undoCatalog(_ change: CatalogUndo) -> CatalogUndo {
        stateChanges &+= 1
        let families = catalog.familyNames.count
        let inverse: CatalogUndo
        switch change {
        case .truncate(let mark):
            inverse = .restore(catalog.truncate(to: mark))
        case .restore(let tail):
            inverse = .truncate(catalog.mark)
            catalog.restore(tail)
        case .currency(let position, let currency):
            inverse = .currency(position, catalog.replaceCurrency(at: position, with: currency))
        }
        index.sync(with: catalog)
        if catalog.familyNames.count != families { completeStock() }
        return inverse
    }

    /// Has the stock read its cars under the catalog's families: cars in stock take a new
    /// family's default (its first option, or their model's default of it), in time that does
    /// not depend on the stock.
    func completeStock() {
        stock.readConfigurations(under: catalog.ruleSet)
    }

    /// Takes `other`'s variables as they are (a copy of the session for completion).
    func takeVariables(of other: Session) {
        variables = other.variables
        variableNames = other.variableNames
        variableStorage = other.variableStorage
    }
    /// How many `expect` assertions have run (a test counts them).
    var expectationCount = 0
    /// Whether `quit` was given.
    var quitRequested = false
    /// The status `quit N` asked for.
    var requestedExitStatus: Int32?
    /// Where a script a stop request interrupted had got to (`FILE:LINE`), for the prompt to say.
    var interruptedAt: String?
    /// Whether the last stop came between two commands of one line, the rest of it not run:
    /// the prompt says so (a stop is checked after each command, not held to the line's end).
    var stoppedInLine = false

    init(catalog: Catalog, sink: any ResultSink, options: EngineOptions, commands: CommandTable = .standard) {
        self.catalog = catalog
        index = CatalogIndex(catalog)
        initialRates = catalog.currencies.map(\.rate)
        initialCatalog = catalog
        definitionsBefore = catalog.definitions.count
        self.sink = sink
        self.options = options
        restrictsCommands = options.checkOnly || options.definitionsOnly || options.checksQuestions || options.rehearsing
        stop = options.stop
        self.commands = commands
        stock.lineLimit = options.stockLineLimit
    }

    /// Takes the catalog as it is now for the one the session began with, as the init file
    /// leaves it: `save`, `save --minimal` and `diff` leave out its definitions and rates as
    /// they leave out a `--catalog` file's (a replay where the init file runs makes them
    /// again), and `undo` cannot take them back.
    func beginsHere() {
        initialCatalog = catalog
        initialRates = catalog.currencies.map(\.rate)
        definitionsBefore = catalog.definitions.count
        if history != nil {
            history = nil
            stock.journal = nil
        }
    }

    /// Whether the program should run no further input.
    var shouldStop: Bool {
        quitRequested || stop.isRequested || (hasFailed && !options.keepGoing)
    }

    /// The definitions made in this session, in order.
    var definitions: ArraySlice<CatalogDefinition> { catalog.definitions[definitionsBefore...] }

    /// Sets variable `name` (a valid name) to `value`, unless the name is longer than
    /// `maximumNameLength` (`save` writes it twice on a line of a long value's parts), the
    /// value longer than a word may be or the variables would then hold more than
    /// `maximumVariableStorage` bytes in all; refused, the variable keeps the value it had.
    func setVariable(_ name: String, to value: String) throws(ScriptError.Kind) {
        guard SessionScript.writes(name, quoted: false, within: maximumNameLength) else {
            throw .nameTooLong(limit: maximumNameLength)
        }
        guard value.utf8.count <= Lexer.longestExpansion else { throw .expansionTooLong(limit: Lexer.longestExpansion) }
        let old = variables[name].map { variableCost(name, $0) } ?? 0
        let total = variableStorage - old + variableCost(name, value)
        guard total <= maximumVariableStorage else { throw .variablesTooLarge(limit: maximumVariableStorage) }
        let replaced = variables.updateValue(value, forKey: name)
        // `--check`: known again. Set to the value the check has, it is a change all the same
        // (the run's value may have been another), kept so that a rollback the run may make
        // later is seen to take it back.
        let wasUncertain = !uncertainVariables.isEmpty && uncertainVariables.remove(name) != nil
        if replaced == nil { variableNames.append(name) }
        variableStorage = total
        // The same value again changes nothing an analysis reads (`var x 1` in a file sourced
        // twice), nor is it a step for `undo` (trial 12, L4: `var a 1; var a 1; undo` took
        // back the second and left a as it was).
        guard replaced != value || wasUncertain else { return }
        stateChanges &+= 1
        if history != nil { record(.variable(name, replaced)) }
    }

    /// Puts the values of the variables referred to in tokens `words` into their words, so
    /// names are resolved from the expanded text; an undefined one is an error at its `$`.
    ///
    /// Only the words the command reads are made: its name, as many words as it takes
    /// arguments, and one more (the first word too many, which its error names); `resolve`
    /// makes that one only if it gets there. The words past them are only checked to be
    /// defined, so a command given thousands of long words costs no more than its
    /// arguments, and reports what it reported when every word was made.
    @inline(never)
    func expandVariables(_ words: Range<Int>, lexer: Lexer) throws(ScriptError) {
        guard uncertainVariables.isEmpty else { return try expandCheckingUncertain(words, lexer: lexer) }
        try expandKnown(words, lexer: lexer)
    }

    /// `expandVariables` where some variables are uncertain: the command is passed over if it
    /// refers to one, and what it would have done is then not known (`passOverUncertain`).
    private func expandCheckingUncertain(_ words: Range<Int>, lexer: Lexer) throws(ScriptError) {
        do throws(ScriptError) {
            try expandKnown(words, lexer: lexer)
        } catch {
            if case .uncertainVariable = error.kind { passOverUncertain(words, lexer: lexer) }
            throw error
        }
    }

    /// `--check`: the command of `words` refers to an uncertain variable and is passed over;
    /// when run, it may have done what it does (`commandMayHaveRun`, its words not known).
    private func passOverUncertain(_ words: Range<Int>, lexer: Lexer) {
        commandMayHaveRun(words, lexer: lexer, known: false)
    }

    /// `--check`: the command of tokens `words` is passed over, and the run may have run it and
    /// gone on: it refers to an uncertain variable (`known` false), or it is the COMMAND of an
    /// `expect error` the check does not follow (see `ExpectCommand.mayHaveRun`). Levels of
    /// `expect error` it begins with are passed: with `--keep-going` the run goes on past each
    /// whether its COMMAND ran or not, so the innermost may have run at any depth (two deep, a
    /// definition was taken as not made: trial 13, 4). What it may have done is made uncertain,
    /// so that the check finds less than running, never more:
    /// - a command that may change something when run is a step for `undo` (`recordUnchecked`);
    /// - `undo` and `redo` are not followed from there (`undoNotFollowed`); a `redo` of known
    ///   words replays what the check can, which the lines after it may use (`undo` in `expect
    ///   error` after `var x nosuch` was taken as not made: `car $x` said `unknown model`);
    /// - after `begin`, `commit` or `rollback` the run may have a transaction more or fewer: a
    ///   `begin` of known words is made, and the run may have rolled back every transaction
    ///   (`runMayHaveFailed`), so none is claimed to be open, nor taken back, where it may not be;
    /// - a `var` of a name written out makes that variable uncertain;
    /// - a definition of known words is made, later definitions refused as already there are
    ///   not reported (`definitionsUncertain`; the definition may have run, or failed as expected);
    /// - anything else that may define names or set a variable (a definition or `begin` of
    ///   words not known, `source`, a `var` of a name from a variable, a command named by one)
    ///   stops the check: the lines after it may use what only the run made (it said
    ///   `unknown model 'm9'` after `model $n ...` where the run's `$n` was `m9`).
    func commandMayHaveRun(_ words: Range<Int>, lexer: Lexer, known: Bool) {
        let holdsReference = { (token: Int) in lexer.references.contains { $0.token == token } }
        let spec = { (token: Int) in
            holdsReference(token) ? nil : self.commands.position(of: lexer.word(lexer.tokens[token])).map { self.commands.specs[$0] }
        }
        var first = words.lowerBound
        while first + 3 < words.upperBound, spec(first)?.name == "expect", !holdsReference(first + 1),
            nameKey(lexer.string(lexer.tokens[first + 1])) == "error"
        {
            first += 3
        }
        guard let command = spec(first) else { return stopAnalysis() }
        let run = { () in _ = try? self.execute(first..<words.upperBound, lexer: lexer) }
        switch command.name {
        case "begin", "commit", "rollback":
            if command.name == "begin" {
                guard known else { return stopAnalysis() }
                run()
            }
            runMayHaveFailed()
        case "undo", "redo":
            guard history != nil else { return }
            if command.name == "redo" && known { run() }
            history?.stopFollowing()
            undoNotFollowed()
        default:
            if history != nil && Self.changesWhenRun(command) { recordUnchecked() }
        }
        if command.name == "var" {
            guard first + 1 < words.upperBound, !holdsReference(first + 1) else { return stopAnalysis() }
            uncertainVariables.insert(lexer.string(lexer.tokens[first + 1]))
        } else if command.definesCatalog && known {
            definitionsUncertain = true
            run()
        } else if command.definesCatalog || command.name == "source" {
            stopAnalysis()
        }
    }

    /// `--check`: what the run did from here is not known; the check stops, reporting nothing
    /// more (it may find less than running, never more). The run goes on, and may close the
    /// transactions open here: none is warned of at the end, nor rolled back as if it had been.
    func stopAnalysis() {
        runMayHaveFailed()
        runMayHaveDiverged = true
        quitRequested = true
        analysisStopped = true
    }

    private func expandKnown(_ words: Range<Int>, lexer: Lexer) throws(ScriptError) {
        let name = words.lowerBound
        try lexer.expand(name..<name + 1, value: value(of:))
        var read = name + 1
        if let position = commands.position(of: lexer.word(lexer.tokens[name])) {
            let most = commands.specs[position].mostArguments
            read = most >= words.count ? words.upperBound : name + 1 + most
        }
        try lexer.expand(name + 1..<read, value: value(of:))
        try lexer.check(read..<words.upperBound) { reference throws(ScriptError) in _ = try value(of: reference) }
    }

    /// Puts the values into word `token` (if it holds references): the first word past a
    /// command's arguments, made only to be named in the error.
    func expandVariables(inWord token: Int, lexer: Lexer) throws(ScriptError) {
        try lexer.expand(token..<token + 1, value: value(of:))
    }

    /// The value of the variable `reference` names; an undefined one is an error at its `$`.
    private func value(of reference: Lexer.Reference) throws(ScriptError) -> String {
        if reference.environment { return try environmentVariable(reference.name, at: reference.range) }
        if !uncertainVariables.isEmpty && uncertainVariables.contains(reference.name) {
            throw ScriptError(.uncertainVariable(reference.name), at: reference.range)
        }
        guard let value = variables[reference.name] else {
            // The suggestion is written as the reference was, so a fix-it replaces it whole.
            let suggestion = closestName(to: reference.name, in: variableNames).map { reference.braced ? "${\($0)}" : "$" + $0 }
            throw ScriptError(
                .unknownName("variable", reference.name, suggestion: suggestion, valid: variableNames),
                at: reference.range)
        }
        return value
    }

    /// The host's environment variable `name`, as `${env:NAME}` reads it.
    func environmentVariable(_ name: String, at range: SourceRange) throws(ScriptError) -> String {
        switch options.environment {
        case .refused(let reason):
            throw ScriptError(.refused("reading the environment is refused \(reason)"), at: range)
        case .reading(let value):
            guard let found = value(name) else { throw ScriptError(.environmentUnset(name), at: range) }
            // As `--var` and a script's own bytes: not guessed at (a U+FFFD in its place).
            guard let text = String(validating: found, as: UTF8.self) else {
                throw ScriptError(.environmentNotUTF8(name), at: range)
            }
            return text
        }
    }

    /// Where `call` stands: the file and line of the script running it.
    func place(of call: Invocation) -> (file: String, line: Int)? {
        guard let frame = frames.last else { return nil }
        return (frame.lines.file, frame.lines.lineNumber(at: call.range(0).start))
    }

    /// Passes a result of `command` on.
    func emit(_ result: CommandResult, _ invocation: Invocation) {
        invocation.specRef.borrow { sink.receive(result, from: $0) }
    }

    /// Passes an amount on (`price`), as itself: a sink that writes it at once makes no
    /// `CommandResult` of it. (A result made and copied to the text renderer, and copied again
    /// there to be taken apart, cost 44 instructions a command on the benchmark mix, 1,294 -> 1,250, and 1,283 -> 1,261 on set/show;
    /// callgrind, 10^5 commands.)
    func emit(amount minorUnits: Int64, in valuation: CurrencyValuation, _ invocation: Invocation) {
        invocation.specRef.borrow { sink.receive(amount: minorUnits, in: valuation, from: $0) }
    }

    /// Passes the stock's count and value on (`total`), as itself (see `emit(amount:in:_:)`).
    func emit(total count: Int64, value: Int64, in valuation: CurrencyValuation, _ invocation: Invocation) {
        invocation.specRef.borrow { sink.receive(total: count, value: value, in: valuation, from: $0) }
    }

    /// Passes the car `show` shows on, as itself (see `emit(amount:in:_:)`).
    func emit(car: Car, _ invocation: Invocation) {
        invocation.specRef.borrow { sink.receive(car: car, from: $0) }
    }

    /// Passes the words of argument `index` on, joined by single spaces (`echo`): lent from
    /// the lexer's text where they lie joined, else from the session's scratch buffer, so that
    /// a sink that writes them copies them once.
    ///
    /// (Joined in the buffer always, then copied again by the sink: 1,134 instructions an
    /// `echo "quote; N" done` line against 1,064, with memmove at 3% of the benchmark mix's
    /// time by `perf record -e cpu-clock`; callgrind, 3 x 10^4 lines.)
    func emitWords(_ invocation: Invocation, _ index: Int) {
        let text: UnsafeBufferPointer<UInt8>
        if let joined = invocation.joinedWords(index) {
            text = joined
        } else {
            scratch.removeAll()
            invocation.joinWords(index, into: scratch)
            text = scratch.bytes
        }
        invocation.specRef.borrow { sink.receive(echo: text.span, from: $0) }
    }
}

/// A change to a session's catalog.
enum CatalogChange {
    case family(FamilyDefinition)
    case option(OptionDefinition)
    case model(ModelDefinition)
    /// A rule of either kind, and where it is defined (`FILE:LINE`).
    case rule(Rule.Kind, PartChoice, PartChoice, file: String, line: Int)
    case currency(Currency)
    case rate(code: String, DecimalNumber)
}

extension Session {
    /// Makes `change` to the catalog, all or nothing, and keeps the index in step with it:
    /// the one way the catalog changes. (The catalog records each definition, which is what
    /// `save` writes.)
    func changeCatalog(_ change: CatalogChange) throws(CarFactoryError) {
        // What `undo` needs of a definition: where the catalog stood (see `Catalog.Mark`).
        let before = history == nil || definesSinceMark ? nil : catalog.mark
        switch change {
        case .family(let definition):
            let part = try catalog.define(definition)
            index.addFamily(definition.name, part)
            index.update(catalog.ruleSet)
            completeStock()
        case .option(let definition):
            let part = try catalog.define(definition)
            index.add(part)
        case .model(let definition):
            let factory = try catalog.define(definition)
            index.add(factory)
        case .rule(let kind, let first, let second, let file, let line):
            let rule = try catalog.rule(kind, first, with: second)
            if let line = stock.firstLine(breaking: rule) { throw .stockBreaksRule(line: line, rule) }
            try catalog.add(kind, first, with: second, file: file, line: line)
            index.update(catalog.ruleSet)
        case .currency(let currency):
            try catalog.define(currency)
            index.add(currency)
        case .rate(let code, let rate):
            let old = try? catalog.currency(named: code)
            let position = try catalog.setRate(of: code, to: rate)
            // The rate it has is no change, nor a step for `undo` (trial 12, L4).
            guard old != catalog.currencies[position] else { return }
            index.update(catalog.currencies[position], at: position)
            stateChanges &+= 1
            if let old, history != nil { record(.catalog(.currency(position, old))) }
            return
        }
        stateChanges &+= 1
        if let before { record(.catalog(.truncate(before))) }
    }

    /// Whether the step being made has kept a mark of the catalog and changed nothing since
    /// (a `source` of definitions): taking that one back takes back the later definitions too,
    /// so they keep nothing of their own.
    private var definesSinceMark: Bool {
        guard let history, let last = history.changes.last, case .catalog(.truncate) = last.change else { return false }
        let position = history.journalBase &+ stock.journalCount
        return last.journalPosition == position && position > history.openJournalStart
    }
}

/// A change to the catalog `undo` keeps to take back: making one gives its inverse.
enum CatalogUndo {
    /// Take the definitions made since the mark back off.
    case truncate(Catalog.Mark)
    /// Put definitions taken off back.
    case restore(Catalog.Tail)
    /// Put a currency back at the rate it had.
    case currency(Int, Currency)

    /// About how many bytes keeping it takes: a mark is a few words whatever the catalog,
    /// and the rule set it keeps (an object of about 100 bytes until a car is made under
    /// it: 4,000 rules, each a step of its own, peak at 9.2 MiB RSS against 8.2 with no
    /// history); the definitions a tail holds are what the catalog held.
    var storageEstimate: Int {
        switch self {
        case .truncate: 192
        case .currency: 64
        case .restore(let tail): 64 + 64 * tail.count
        }
    }
}
