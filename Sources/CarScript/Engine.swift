import CarFactory

/// How an engine treats errors and files.
public struct EngineOptions: Sendable {
    /// Go on after a failed command (the evaluation still fails).
    public var keepGoing = false
    /// Parse and resolve names and values only; run nothing (definitions and `source` do run).
    public var checkOnly = false
    /// The platform's files, standard input and folders; none by default, and then no command
    /// touches a file or standard input (carfab gives its POSIX host, `CarfabPOSIX`'s).
    public var host: (any EngineHost)?
    /// Whether commands may read and write the host's files (`source`, `save`); `save -`,
    /// standard output, is always allowed.
    public var fileAccess = FileAccess.allowed
    /// What `${env:NAME}` and a leading `~` in a file name read: refused unless the host gives
    /// its environment (carfab does, but not with `--safe`).
    public var environment = EnvironmentAccess.refused(by: "by the program running the engine")
    /// Where a stop is asked for; share one to stop the engine from a signal handler.
    public var stop = StopRequest()
    /// Whether scripts keep an undo history from their start (the prompt always does; a
    /// script otherwise starts keeping one at its first `begin`): see `UndoHistory`.
    public var keepsUndoHistory = false
    /// The commands the program added to the language (``addCommand(_:)``), as table entries:
    /// kept so, an engine's start makes nothing more of them than its table's list.
    private(set) var hostCommands: [CommandSpec] = []
    /// What one answer of `options`, `why`, `fit` or `cheapest` may spend (tests make it small).
    package var searchLimits = SearchLimits.standard
    /// The most lines the stock holds (`StockLedger.maximumLines`; tests make it small).
    package var stockLineLimit = StockLedger.maximumLines
    /// Leave a transaction open at the end of input, as the session that goes on past it
    /// would have it (an editor's view of a line inside a `begin` the document has not closed).
    package var leavesTransactionOpen = false
    /// `diff` checks the files it names as `--check` does and compares nothing: an editor's
    /// analysis, which shows no output and whose state a comparison never changes, would
    /// otherwise run both sessions of every `diff` line on every replay (trial 2, F6).
    package var checksComparisons = false
    /// The commands that only answer a question (`answersOnly`: `cheapest`, `why`, `options`,
    /// `save`, `diff`) are checked as `--check` checks them and not run: an editor's
    /// analysis shows none of their output, while one `cheapest` over a large catalog could
    /// keep it searching for seconds (trial 3, T6). Those the state alone answers
    /// and may fail on it (`answersFromStateAlone`: `show`, `price`, `total`) are run, their
    /// output dropped: failing, they roll back an open transaction; those that cannot fail
    /// (the listings, `echo`, `help`: `neverFailsOnceResolved`) are not. One not run inside a transaction
    /// may fail when run and roll it back: from there `runMayHaveDiverged` is set.
    package var checksQuestions = false
    /// A refused `set` names the cheapest repair in a note, which takes a search; an editor's
    /// analysis, which shows no such note (its diagnostics are `--check`'s), searches none: 30
    /// refused `set`s took 18 s of every keystroke's analysis for notes never shown (trial 4, 7).
    package var searchesRefusals = true
    /// An analysis (`--check`, an editor's): `source` of a file followed already is followed
    /// again only where that could find more, and at most `maximumRefollowings` times in all;
    /// past that the analysis stops there, with a warning (see `SourceFollowing.swift`).
    package var boundsSourcing = false
    /// Accept only catalog definitions (a catalog file).
    var definitionsOnly = false
    /// Run only the commands that change the session's own state (a what-if copy for completion).
    var rehearsing = false

    /// The defaults: stop at the first error, run everything, no host (so no files).
    public init() {}

    /// Adds `command` to the language of the engines made with these options, after the
    /// language's own commands and those added before it: `help` lists it under "system".
    public mutating func addCommand(_ command: HostCommand) {
        hostCommands.append(CommandSpec(host: command))
    }

    /// The command table these options make: the language's commands, then the host's.
    var commandTable: CommandTable {
        hostCommands.isEmpty ? .standard : CommandTable(.standard, adding: hostCommands)
    }
}

/// Whether an engine may read its host's environment variables, and how.
public enum EnvironmentAccess: Sendable {
    /// Refused, for the reason the message gives: `by --safe`.
    case refused(by: String)
    /// Read through `value`, which gives a variable's bytes or nil if it is not set (a value
    /// that is not UTF-8 is an error where it is read).
    case reading(_ value: @Sendable (String) -> [UInt8]?)
}

/// Whether an engine may touch files: every command that does asks this one gate.
public enum FileAccess: Equatable, Sendable {
    /// Files may be read and written.
    case allowed
    /// Refused, for the reason the message gives: `by --safe`.
    case refused(by: String)
    /// Regular files may be read (`source`); writing, and reading standard input or
    /// anything but a regular file (a FIFO would wait), are refused for the reason given.
    /// An editor's analysis runs so: it must never change a file nor wait for one.
    case readOnly(otherwiseRefusedBy: String)
}

/// carfab's language as a library: an engine holds one session (a catalog, a stock, rates)
/// and evaluates text or line sources in it; results and diagnostics come back as owned
/// values. An engine belongs to the thread that uses it (it is not `Sendable`); to stop it from
/// another thread, hand that thread its ``cancellation``, which is.
///
/// ```swift
/// let engine = Engine()
/// let run = engine.evaluate("car sports; set drivetrain 4wd; total GBP")
/// // run.results[0].result is .total(count: 1, value: 4271930, GBP)
/// ```
public final class Engine {
    /// carfab's version, which `save` writes into the scripts it makes.
    public static let version = "0.1.0"

    let session: Session
    /// Passes results on to the sink given at creation, or to the evaluation under way.
    private let relay: Relay

    /// An engine over `catalog` (the built-in one by default). Results and diagnostics go to
    /// `sink` as they are made, if one is given; else `evaluate` returns them.
    public init(
        catalog: Catalog = Engine.builtInCatalog, options: EngineOptions = EngineOptions(),
        sink: (any ResultSink)? = nil
    ) {
        relay = Relay(sink)
        session = Session(catalog: catalog, sink: sink ?? relay, options: options, commands: options.commandTable)
    }

    /// An engine over `session`, whose sink is its own (a rehearsal's, which drops everything).
    init(wrapping session: Session) {
        relay = Relay(nil)
        self.session = session
    }

    /// Evaluates `text` (named `name` in diagnostics) and returns what it made (empty if the
    /// engine has a sink of its own, which gets them instead).
    @discardableResult
    public func evaluate(_ text: String, name: String = "<input>") -> Evaluation {
        let run = Evaluation()
        relay.target = run
        defer { relay.target = nil }
        session.run(buffered: TextLineSource(bytes: Array(text.utf8), name: name))
        return run
    }

    /// Evaluates every line of `source` until it ends, `quit`, a stop, or (unless going on) an error.
    public func evaluate(_ source: any LineSource) {
        session.run(source)
    }

    /// Evaluates one of the engine's own sources (`openLineSource`), known to be one without a cast.
    package func evaluate(_ source: any BufferedLineSource) {
        session.run(buffered: source)
    }

    /// From now, each source evaluated goes on the input of the ones before it: a transaction
    /// left open at the end of one stays open for the next, until `endInputs()` (the program's
    /// files, `-e` texts and prompt are one session's input).
    package func beginInputs() {
        session.endsInputsTogether = true
    }

    /// Ends the input the sources evaluated since `beginInputs()` made: a transaction still
    /// open is rolled back, with the warning of the end of input, at the last line read.
    package func endInputs() {
        session.endsInputsTogether = false
        if let last = session.lastInput { session.endOfInput(at: last) }
        session.lastInput = nil
    }

    /// The engine's stop request, to hand to another thread, a task or a signal handler: its
    /// `request()` stops the evaluation under way (or the next) between lines and commands.
    /// It is the `stop` of the options the engine was made with.
    public var cancellation: StopRequest { session.stop }

    /// Takes the catalog as it is now (an init file run) for the one the session began with:
    /// `save` and `diff` treat its definitions and rates as a catalog file's.
    package func beginSessionHere() {
        session.beginsHere()
    }

    /// Sets variable `name` to `value`, as `var NAME VALUE` does; false (and nothing set) if
    /// `name` is not a variable's name (a letter or `_`, then letters, digits and `_`) or is
    /// longer than 4,096 bytes, if `value` is longer than 1 MiB, or if the variables would hold
    /// more than 16 MiB in all.
    @discardableResult
    public func setVariable(_ name: String, to value: String) -> Bool {
        var name = name
        guard name.withUTF8({ Lexer.isVariableName($0) }) else { return false }
        do throws(ScriptError.Kind) {
            try session.setVariable(name, to: value)
        } catch {
            return false
        }
        return true
    }

    /// The variables, in the order first set.
    public var variables: [(name: String, value: String)] {
        session.variableNames.map { ($0, session.variables[$0] ?? "") }
    }

    /// How many `expect` assertions have run.
    package var expectationCount: Int { session.expectationCount }
    /// Where a stop (Ctrl-C, a signal) ended a script that is not a prompt: `FILE:LINE`, and
    /// `, part of its line run` if it came between two commands of that line; nil if none did.
    package var interruptedAt: String? { session.interruptedAt }

    /// The catalog in force: the one it began with and the definitions made since.
    public var catalog: Catalog { session.catalog }
    /// The stock.
    public var stock: StockLedger { session.stock }
    /// The commands it knows.
    package var commands: CommandTable { session.commands }
    /// How many problems have been reported.
    public var failureCount: Int { session.failureCount }
    /// An analysis (`checksQuestions`, `--check`): whether the run may have failed where the
    /// analysis did not, rolling back transactions the analysis keeps open: the stock, the
    /// catalog and the variables the analysis has from then on may not be the run's.
    package var runMayHaveDiverged: Bool { session.runMayHaveDiverged }
    /// Whether `quit` (or `exit`) was given: later evaluations run nothing.
    public var quitRequested: Bool { session.quitRequested }
    /// The status `quit N` asked for.
    public var requestedExitStatus: Int32? { session.requestedExitStatus }
    /// Whether no more input should be evaluated: `quit`, a stop, or (unless going on) an error.
    public var shouldStop: Bool { session.shouldStop }

    /// Reports a file that could not be opened or read (a problem with the file as a whole),
    /// with `notes` on what may have been meant.
    package func report(unreadable path: String, _ failure: LineSourceFailure, notes: [Diagnostic.Note] = []) {
        session.reportUnreadable(path: path, failure: failure, notes: notes)
    }

    /// `carfab --diff A B`: loads each source as `diff` loads a file, and sends their
    /// comparison on as the result of `diff`; returns diff(1)'s status: 0 the same, 1
    /// different, 2 a source that could not be loaded (its first error is reported).
    package func compare(_ first: any LineSource, _ second: any LineSource) -> Int32 {
        do throws(LoadFailure) {
            let a = try session.load(first)
            let b = try session.load(second)
            // A file that leaves a transaction open is compared as its end leaves it, rolled
            // back, with the warning running it gives.
            for warning in [a.endOfInputWarning, b.endOfInputWarning] {
                if let warning { session.sink.receive(warning) }
            }
            let table = SessionComparison.table(a, b, stop: session.stop)
            // Stopped: the program ends by the signal, with no partial table shown.
            if session.stop.isRequested { return 2 }
            if let spec = session.commands.lookup("diff") { session.sink.receive(.table(table), from: spec) }
            return table.rowCount == 0 ? 0 : 1
        } catch {
            session.failureCount += 1
            session.sink.receive(error.diagnostic)
            return 2
        }
    }
}

/// The engine's own sink when none is given: hands each value to the evaluation under way.
private final class Relay: ResultSink {
    let sink: (any ResultSink)?
    var target: Evaluation?

    init(_ sink: (any ResultSink)?) { self.sink = sink }

    func receive(_ result: CommandResult, from command: CommandSpec) {
        (sink ?? target)?.receive(result, from: command)
    }

    func receive(_ diagnostic: Diagnostic) {
        (sink ?? target)?.receive(diagnostic)
    }

    func flush() { sink?.flush() }

    var sourceWindowWidth: Int { (sink ?? target)?.sourceWindowWidth ?? SourceLines.defaultWidth }
}
