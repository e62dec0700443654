import CarFactory

// Tab completion after earlier commands on the same line (`car sports; set suspension <Tab>`)
// must describe the car those commands would make, without making it: they run in a copy of
// the session that shares nothing it could change, prints nothing and touches nothing outside.

extension Session {
    /// A copy of this session in which `text` (whole commands, typed before the one being
    /// completed) has run. This session is not changed and nothing is printed; only commands
    /// whose whole effect is on the session's own state run in the copy (see `rehearses`),
    /// so no file, stream, pager or program is touched. `withHistory`: the copy has this
    /// session's undo history, and follows the line's `undo`, `redo`, `begin`, `commit` and
    /// `rollback` (see `movesHistory`).
    func rehearsal(of text: [UInt8], withHistory: Bool = false) -> Session {
        var options = EngineOptions()
        options.fileAccess = .refused(by: "while completing")
        options.environment = self.options.environment
        options.rehearsing = true
        // The line's `fit`s spend from the completion's one budget, as its repair prices do
        // (each had a command's 1,000,000 steps: four took 6.4 s of one Tab; trial 11, 6).
        options.searchLimits = SearchLimits(steps: Completer.repairStepBudget, repairs: SearchLimits.standard.repairs)
        // Nor does a refused `set` search the repair its note would name: no note is shown.
        options.searchesRefusals = false
        // A transaction the prompt has open stays open at the end of the text, as it does there.
        options.leavesTransactionOpen = true
        let silence = Silence()
        let copy = Session(catalog: catalog, sink: silence, options: options, commands: commands)
        copy.searchBudget = SearchBudget()
        copy.stock = stock
        if withHistory, let history {
            // Shared with this session's: the journal is copied at the copy's first change,
            // which only a line that takes something back pays for.
            copy.history = history
        } else {
            copy.stock.journal = nil
        }
        copy.takeVariables(of: self)
        copy.run(TextLineSource(bytes: text, name: "<completion>"))
        copy.rehearsalLostCar = silence.searchStopped
        return copy
    }

    /// What the earlier commands of a line do to the undo history: where the first `undo`,
    /// `redo` or `rollback` among them starts (nil if none is there), and whether a copy with
    /// the history follows them exactly: every command before the last of them runs in a
    /// rehearsal or moves the history. Otherwise one a rehearsal does not run (a `source`,
    /// `expect error ID COMMAND`) may have made a step that they would take back instead.
    static func historyMoves(in text: [UInt8], commands: CommandTable) -> (firstTakingBack: Int?, followed: Bool) {
        let lexer = Lexer()
        guard (try? text.withUnsafeBufferPointer({ (buffer) throws(ScriptError) in try lexer.tokenize(buffer) })) == .complete
        else { return (nil, true) }
        var first: Int?
        var unrehearsed = false
        var followed = true
        var startsCommand = true
        for token in lexer.tokens {
            if token.kind == .separator {
                startsCommand = true
                continue
            }
            defer { startsCommand = false }
            guard startsCommand, let spec = commands.lookup(lexer.string(token)) else { continue }
            if takesBack(spec) {
                first = first ?? token.range.start
                if unrehearsed { followed = false }
            } else if !rehearses(spec) && !movesHistory(spec) {
                unrehearsed = true
            }
        }
        return (first, followed)
    }

    /// Whether `spec` may take back what earlier commands did: `undo`, `redo`, `rollback`.
    private static func takesBack(_ spec: CommandSpec) -> Bool {
        spec.group == .history && ["undo", "redo", "rollback"].contains(spec.name)
    }

    /// Whether `spec` moves the undo history without running another command (not `try`): a
    /// rehearsal that has the history runs it.
    static func movesHistory(_ spec: CommandSpec) -> Bool {
        spec.group == .history && spec.name != "try"
    }

    /// Whether `spec` runs in a rehearsal: the commands that change the stock, the catalog
    /// or the variables and nothing else (`car`, `set`, `select`, definitions, `rate`, `var`).
    /// Reading files (`source`, even of standard input), writing them (`save`),
    /// `help`, `expect`, `quit`, the catalog listings and the host's commands do not.
    static func rehearses(_ spec: CommandSpec) -> Bool {
        switch spec.group {
        case .configure, .definition, .value: true
        case .script: spec.name == "var"
        case .catalog, .history, .system: false
        }
    }
}

/// A sink that drops everything: a rehearsal's results are never shown. It notes a search
/// stopped at the budget's end: the car a `fit` would have made is then not known.
private final class Silence: ResultSink {
    private(set) var searchStopped = false
    func receive(_ result: CommandResult, from command: CommandSpec) {}
    func receive(_ diagnostic: Diagnostic) {
        if diagnostic.id == "search-limit-reached" { searchStopped = true }
    }
}

extension Engine {
    /// The prompt's completer over this session as it stands. A command typed after others on
    /// the same line is completed against the state those would leave (run in a copy, see
    /// `Session.rehearsal(of:)`); this session never changes and nothing is printed.
    package func completer(workingDirectory: String = ".", completesFiles: Bool = true) -> Completer {
        Self.completer(for: session, workingDirectory: workingDirectory, completesFiles: completesFiles, rehearsing: true)
    }

    private static func completer(
        for session: Session, workingDirectory: String, completesFiles: Bool,
        rehearsing: Bool, knowsCar: Bool = true
    ) -> Completer {
        var completer = Completer(
            commands: session.commands, catalog: session.catalog, variables: session.variableNames,
            currentCar: knowsCar ? try? session.stock.currentLine().car : nil, workingDirectory: workingDirectory,
            completesFiles: completesFiles)
        completer.variableValues = session.variables
        completer.host = session.options.host
        // `~/` in a file name, as `source` and `save` read it (not where the environment is refused).
        if case .reading(let value) = session.options.environment, let home = value("HOME") {
            completer.home = String(validating: home, as: UTF8.self)
        }
        completer.stop = session.stop
        if rehearsing {
            let (host, home) = (completer.host, completer.home)
            completer.rehearse = { earlier in
                let (copy, knowsCar) = Self.rehearsal(of: earlier, in: session)
                var later = Self.completer(
                    for: copy, workingDirectory: workingDirectory, completesFiles: completesFiles, rehearsing: false,
                    knowsCar: knowsCar)
                later.repairBudget = copy.searchBudget
                // File names are listed from this session's host: the copy has none (it touches no file).
                (later.host, later.home) = (host, home)
                return later
            }
        }
        return completer
    }

    /// The state the whole commands `earlier`, typed before another on a line, leave: run in a
    /// copy of `session`; and whether the copy's car is known.
    private static func rehearsal(of earlier: [UInt8], in session: Session) -> (copy: Session, knowsCar: Bool) {
        // The line's `undo`, `redo` and `rollback` are followed in a copy that has the
        // history, so that names they take back are not offered (a model defined then
        // undone was). Where that copy cannot follow them (no history is kept, or a
        // command it does not run came first), the state past the first is not known:
        // options are listed without a car's prices, not with those of a car the line
        // took back, and names as the commands before it leave them.
        let moves = Session.historyMoves(in: earlier, commands: session.commands)
        let follows = moves.firstTakingBack != nil && moves.followed && session.history != nil
        let known = follows ? nil : moves.firstTakingBack
        let copy = session.rehearsal(of: Array(earlier[..<(known ?? earlier.count)]), withHistory: follows)
        // A `fit` past the budget leaves the car unknown: no prices of a car it did not make.
        return (copy, known == nil && !copy.rehearsalLostCar)
    }

    /// This session as the whole commands before byte `offset` of `line` leave it (run in a
    /// copy, as Tab completes a command typed after others), for what is said of a word there;
    /// itself where none comes before. `knowsCar` is false where that car is not known.
    package func state(on line: [UInt8], before offset: Int) -> (engine: Engine, knowsCar: Bool) {
        guard let end = Completer.endOfEarlierCommands(Array(line[..<min(offset, line.count)])) else { return (self, true) }
        let (copy, knowsCar) = Self.rehearsal(of: Array(line[..<end]), in: session)
        return (Engine(wrapping: copy), knowsCar)
    }
}
