import CEditLine
import CarFactory
import CarScript
import CarfabPOSIX

#if canImport(Glibc)
import Glibc
#endif

/// A session of carfab's language, as the command line asks for one (neither `--test`,
/// `--lsp` nor a page of text): `run` is its steps in order, each a method below.
struct ProgramSession {
    let arguments: ProgramArguments
    let environment: ProgramEnvironment
    let out: Output
    let err: Output

    private var stop: StopRequest { environment.stop }

    /// A prompt only for a person: no inputs (or -i) and a terminal on standard input.
    private var prompts: Bool { (arguments.inputs.isEmpty || arguments.interactive) && environment.standardInputIsTerminal }

    /// Runs the session: services, catalogs, init file, inputs, prompt; then how it ended.
    func run() -> Program.Outcome {
        let renderer = makeRenderer()
        let center = ServiceCenter()
        let options = engineOptions(center: center)
        let catalog = CatalogService(files: arguments.catalogs, renderer: renderer, options: options)
        let history = registerServices(in: center, catalog: catalog)
        defer { center.stopAll() }
        if let ended = start(center) { return ended }

        let engine = Engine(catalog: catalog.catalog, options: options, sink: renderer)
        // A process that ends with its session leaves the engine to the exit: freeing it would
        // walk all it holds (each step of the undo history). A host's engine is freed.
        if !environment.isHosted { engineLeftToExit = engine }
        for setting in arguments.variables { engine.setVariable(setting.name, to: setting.value) }
        if let ended = runInitFile(engine, center: center) {
            // An init file that fails is trouble to --diff (2), not "different" (1).
            return arguments.diff && ended == .exit(Program.ExitStatus.failure) ? .exit(2) : ended
        }
        // What the init file defined is the catalog the session began with, as a --catalog
        // file's: a saved session is replayed where the init file runs again, and --diff
        // loads its two files on top of it, as `diff` in the session does (trial 11, 4).
        engine.beginSessionHere()
        if arguments.diff { return compare(engine) }
        // Files, -e texts and the prompt after them are one session: a transaction one opens
        // stays open for the next, and is rolled back only at the end of the last.
        engine.beginInputs()
        runInputs(engine)
        // What happens at a person's prompt does not change the exit status, as in sqlite3;
        // standard input read after -i from a pipe is a script like any other. A failed
        // script does not keep -i from its prompt (as `python -i`): that is what -i is for.
        var failures = engine.failureCount
        if (prompts || arguments.interactive) && !engine.quitRequested && !stop.isRequested {
            readAfterInputs(engine, history: history, renderer: renderer)
            if !prompts { failures = engine.failureCount }
        }
        engine.endInputs()
        center.stopAll()
        return finish(engine, failures: failures)
    }

    /// The renderer of the format asked for.
    private func makeRenderer() -> any ResultRenderer {
        switch arguments.format {
        case .json:
            return JSONRenderer(out: out, err: err)
        case .text, .tap:
            // (`tap` is refused outside --test: a session has no TAP form.)
            let text = TextRenderer(
                out: out, err: err, color: environment.colorOnStandardError,
                width: { [environment] in
                    // A terminal's own width, asked each time (it may be resized); else 80.
                    let columns = environment.standardOutputIsTerminal ? Int(cf_terminal_columns(1)) : 0
                    return columns > 0 ? columns : 80
                })
            // Long help pages go through the pager at a terminal; under --safe nothing runs.
            if environment.standardOutputIsTerminal && !environment.isHosted && !arguments.safe {
                let pager = Pager(environment: environment.variable)
                text.pager = { pager.page($0) }
            }
            return text
        }
    }

    /// What the engine may do: `--check`, `--keep-going` and `--safe` as given; carfab's own
    /// commands, `services` listing `center`'s services.
    private func engineOptions(center: ServiceCenter) -> EngineOptions {
        let fileAccess = arguments.safe ? FileAccess.refused(by: "by --safe") : .allowed
        let environmentAccess = arguments.safe ? EnvironmentAccess.refused(by: "by --safe") : .reading(environment.variableBytes)
        if arguments.checkOnly {
            return ScriptCheck.options(
                keepGoing: arguments.keepGoing, fileAccess: fileAccess, environment: environmentAccess,
                stop: stop, center: center)
        }
        var options = EngineOptions()
        options.host = POSIXHost()
        options.keepGoing = arguments.keepGoing
        options.fileAccess = fileAccess
        options.environment = environmentAccess
        options.stop = stop
        ProgramCommands.add(to: &options, center: center)
        return options
    }

    /// Registers the catalog, the output and, before a prompt, the history; returns the history.
    private func registerServices(in center: ServiceCenter, catalog: CatalogService) -> HistoryService? {
        center.register(catalog)
        center.register(OutputService(out: out, err: err))
        guard prompts else { return nil }
        let history = HistoryService(environment: environment.variable) { [err] message in
            err.write("carfab: warning: \(DisplayText.escaped(message))\n")
            err.flush()
        }
        center.register(history)
        return history
    }

    /// Starts the services (the catalog loads here); how the program ends if one fails.
    private func start(_ center: ServiceCenter) -> Program.Outcome? {
        do {
            try center.startAll()
            return nil
        } catch is CatalogLoadFailure {
            // A signal while a catalog file was opened or read (a FIFO) stops carfab as anywhere else.
            return stop.code > 0 ? .stoppedBy(signal: stop.code) : .exit(Program.ExitStatus.failure)
        } catch {
            err.write("carfab: error: \(error)\n")
            return .exit(Program.ExitStatus.failure)
        }
    }

    /// Runs the init file: the one --init names, in any mode; else the user's, only before a
    /// prompt. How the program ends if it fails: a broken init file is not passed over.
    private func runInitFile(_ engine: Engine, center: ServiceCenter) -> Program.Outcome? {
        let initFile =
            arguments.initFile?.bytes
            ?? ((prompts || arguments.interactive) && !arguments.noInit ? Self.defaultInitFile(environment.variable) : nil)
        guard let initFile else { return nil }
        do throws(LineSourceFailure) {
            // The user's own file must be a regular file: a FIFO there would hang the prompt
            // before it showed. (One named with --init may be anything, `<(...)` too.)
            if arguments.initFile == nil {
                var info = stat()
                if stat(String(decoding: initFile, as: UTF8.self), &info) == 0 && info.st_mode & S_IFMT != S_IFREG {
                    throw LineSourceFailure.unreadable(
                        "cannot read '\(DisplayText.escaped(String(decoding: initFile, as: UTF8.self)))': not a regular file")
                }
            }
            engine.evaluate(try openLineSource(.filePath(initFile), stop: stop))
        } catch .interrupted {
            return initFileStopped(engine)
        } catch {
            engine.report(unreadable: String(decoding: initFile, as: UTF8.self), error)
        }
        if engine.failureCount > 0 || stop.isRequested {
            center.stopAll()
            if stop.code > 0 { return initFileStopped(engine) }
            return Program.outcome(writing: out, to: err) ?? .exit(Program.ExitStatus.failure)
        }
        // The init file saw the command line's variables; the command line wins over it,
        // unless what the init file set leaves no room for them.
        for setting in arguments.variables where !engine.setVariable(setting.name, to: setting.value) {
            err.write(
                "carfab: error: --var \(setting.name): the variables would hold more than \(maximumVariableStorage >> 20) MiB in all (and \(variableOverhead) bytes each)\n"
            )
            return .exit(Program.ExitStatus.failure)
        }
        return nil
    }

    /// How the program ends when a stop signal came during the init file: with the signal's
    /// status, as it never starts without all of its init file. Ctrl-C before a prompt is
    /// said, as a stopped `source` at the prompt says it (it ended carfab silently).
    private func initFileStopped(_ engine: Engine) -> Program.Outcome {
        if prompts && stop.code == SIGINT {
            let place = engine.interruptedAt.map { " at \(DisplayText.escaped($0))" } ?? ""
            err.write("\ncarfab: init file interrupted\(place): carfab ends (it never starts without all of its init file)\n")
            err.flush()
        }
        return .stoppedBy(signal: stop.code)
    }

    /// Runs the files and -e texts in order (standard input as a script if there are none
    /// and no prompt).
    private func runInputs(_ engine: Engine) {
        let inputs = arguments.inputs.isEmpty && !prompts ? [ProgramInput.file("-")] : arguments.inputs
        // Several -e texts are told apart in messages: `<command-line 2>`.
        let texts = inputs.filter { if case .text = $0 { true } else { false } }.count
        var textNumber = 0
        for input in inputs {
            if engine.shouldStop { break }
            switch input {
            case .text(let text):
                textNumber += 1
                let name = texts > 1 ? "<command-line \(textNumber)>" : "<command-line>"
                engine.evaluate(openLineSource(text: text.bytes, name: name))
            case .file(let path) where path.bytes == [UInt8(ascii: "-")] && environment.input != nil:
                engine.evaluate(openLineSource(text: environment.input ?? [], name: "<stdin>"))
            case .file(let path):
                do {
                    engine.evaluate(try openLineSource(.filePath(path.bytes), stop: stop))
                } catch .interrupted {
                    break
                } catch {
                    engine.report(unreadable: path.description, error, notes: Self.commandNote(forMissing: path, in: engine.commands))
                }
            }
        }
    }

    /// `--diff A B`: the two files' sessions compared; diff(1)'s exit status (0 the same, 1
    /// different, 2 trouble, said on standard error).
    private func compare(_ engine: Engine) -> Program.Outcome {
        var sources: [any LineSource] = []
        for case .file(let path) in arguments.inputs {
            do {
                sources.append(try openLineSource(.filePath(path.bytes), stop: stop))
            } catch {
                if case .interrupted = error { break }
                engine.report(unreadable: path.description, error)
            }
        }
        let status: Int32 = sources.count == 2 ? engine.compare(sources[0], sources[1]) : 2
        if stop.code > 0 { return .stoppedBy(signal: stop.code) }
        // Written out now, so that a failed write is known and said here, with diff(1)'s status
        // for trouble: the differences that could not be shown are not "different" (1).
        out.flush()
        switch Program.outcome(writing: out, to: err) {
        case nil: return .exit(status)
        case .exit?: return .exit(2)
        case let ending?: return ending
        }
    }

    /// After the inputs: the prompt for a person, or (-i from a pipe) standard input as a script.
    private func readAfterInputs(_ engine: Engine, history: HistoryService?, renderer: any ResultRenderer) {
        // The prompt and the banner belong to the terminal, even with standard output
        // sent elsewhere (`carfab > out.txt`): results go to standard output.
        let terminal: Int32 = environment.standardOutputIsTerminal || !environment.standardErrorIsTerminal ? 1 : 2
        // With both sent to a file (`carfab > out.txt 2>&1`) there is no terminal to greet:
        // the file holds results and errors only (trial 12, 7).
        let toTerminal = terminal == 1 ? environment.standardOutputIsTerminal : environment.standardErrorIsTerminal
        if prompts && toTerminal {
            let banner = "carfab \(Program.version): a car-factory shell. Type 'help' for commands, Ctrl-D to leave.\n"
            if terminal == 1 {
                out.write(banner)
            } else {
                err.write(banner)
                err.flush()
            }
        }
        let safe = arguments.safe
        let prompt: (any LineSource)? =
            prompts
            ? EditLineSource.open(
                history: history, color: terminal == 1 ? environment.colorOnStandardOutput : environment.colorOnStandardError,
                terminal: terminal, stop: stop,
                completer: { engine.completer(completesFiles: !safe) },
                beforePrompt: { renderer.flush() }) : nil
        if let prompt {
            engine.evaluate(prompt)
        } else if let input = environment.input {
            engine.evaluate(openLineSource(text: input, name: "<stdin>"))
        } else {
            do {
                engine.evaluate(try openLineSource(.standardInput, stop: stop))
            } catch {
                engine.report(unreadable: "-", error)
            }
        }
    }

    /// How the program ends, the services stopped (so output is flushed).
    private func finish(_ engine: Engine, failures: Int) -> Program.Outcome {
        if stop.code > 0 { return .stoppedBy(signal: stop.code) }
        if let ended = Program.outcome(writing: out, to: err) { return ended }
        // One rule, which --test follows too: a failed command makes the status 1 even if
        // `quit 0` follows (under --keep-going); `quit N` with another N exits with N.
        if let status = engine.requestedExitStatus, status != 0 { return .exit(status) }
        return .exit(failures > 0 ? Program.ExitStatus.failure : Program.ExitStatus.success)
    }

    /// A note for a FILE that is not there and reads as commands (`carfab help`, `carfab 'car
    /// sports'`): its first word is a command, or it has a blank and looks like no file name
    /// (no `/`, no `.carfab`). Commands are given with `-e`.
    private static func commandNote(forMissing path: ArgumentBytes, in commands: CommandTable) -> [Diagnostic.Note] {
        var info = stat()
        guard lstat(cPath(path.bytes), &info) != 0 && errno == ENOENT else { return [] }
        let text = path.description
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let firstWord = text.split(whereSeparator: blank).first.map(String.init) ?? ""
        let looksLikeCommands =
            commands.lookup(firstWord) != nil
            || (text.contains(where: blank) && !text.contains("/") && !text.hasSuffix(".carfab"))
        guard looksLikeCommands else { return [] }
        let quoted = "'" + text.replacing("'", with: "'\\''") + "'"
        return [Diagnostic.Note("to run commands, use: carfab -e \(quoted)")]
    }

    /// `$XDG_CONFIG_HOME/carfab/init.carfab` (default `~/.config/carfab/init.carfab`), if it
    /// exists: a missing one is no error, an unreadable one is.
    private static func defaultInitFile(_ variable: (String) -> String?) -> [UInt8]? {
        let base: String
        if let config = variable("XDG_CONFIG_HOME"), config.hasPrefix("/") {
            base = config
        } else if let home = variable("HOME"), home.hasPrefix("/") {
            base = home + "/.config"
        } else {
            return nil
        }
        let path = base + "/carfab/init.carfab"
        var info = stat()
        guard stat(path, &info) == 0 || errno != ENOENT else { return nil }
        return Array(path.utf8)
    }
}

/// The engine of the session the process ends with, held so that it is never freed (see
/// `ProgramSession.run`): written once, by the process's one session, and never read.
nonisolated(unsafe) private var engineLeftToExit: Engine?
