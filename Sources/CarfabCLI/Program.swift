#if canImport(Glibc)
import Glibc
#endif
import CarFactory
import CarScript
import CEditLine

/// The whole program behind the `carfab` executable: arguments in, exit status out.
public enum Program {
    /// The version `--version` prints.
    public static let version = Engine.version

    /// Exit statuses.
    public enum ExitStatus {
        public static let success: Int32 = 0
        public static let failure: Int32 = 1
        public static let usage: Int32 = 64
    }

    /// How the program ended.
    public enum Outcome: Equatable, Sendable {
        /// Exit with this status.
        case exit(Int32)
        /// Standard output's reader went away: end as a pipeline expects, by SIGPIPE.
        case brokenPipe
        /// A signal asked to stop: end with 128 + its number.
        case stoppedBy(signal: Int32)
    }

    /// Runs carfab with `arguments` (without the program name).
    public static func run(_ arguments: [String], environment: ProgramEnvironment = .current) -> Outcome {
        run(arguments.map { ArgumentBytes(Array($0.utf8)) }, environment: environment)
    }

    /// Runs carfab with `arguments` (without the program name), as the bytes they are.
    public static func run(_ arguments: [ArgumentBytes], environment: ProgramEnvironment = .current) -> Outcome {
        let stop = environment.stop
        let out = environment.output ?? Output(fd: 1, eachResult: environment.standardOutputIsTerminal, stop: stop)
        let err = environment.errorOutput ?? Output(fd: 2)
        let parsed: ProgramArguments
        do {
            parsed = try ProgramArguments(parsing: arguments)
        } catch {
            // The message quotes the command line as given: escaped here, as every diagnostic is,
            // so an argument cannot drive the terminal (`carfab $'--x\e]0;TITLE\a'`).
            err.write("carfab: error: \(DisplayText.escaped(error.message))\nusage: carfab [OPTIONS] [FILE...] (see 'carfab --help')\n")
            err.flush()
            return .exit(ExitStatus.usage)
        }
        if let shell = parsed.completionShell {
            out.write(CompletionScripts.script(for: shell))
            out.flush()
            return outcome(writing: out, to: err) ?? .exit(ExitStatus.success)
        }
        if parsed.showHelp || parsed.showVersion {
            out.write(parsed.showHelp ? ProgramArguments.helpText + "\n" : "carfab \(version)\n")
            out.flush()
            return outcome(writing: out, to: err) ?? .exit(ExitStatus.success)
        }

        if parsed.test { return TestRunner.run(parsed, environment: environment, out: out, err: err) }
        if parsed.languageServer {
            let input: any ByteInput = environment.input.map { MemoryInput($0) } ?? DescriptorInput(fd: 0)
            let server = LanguageServer(input: input, out: out, err: err, environment: .reading(environment.variable))
            let status = server.run()
            return outcome(writing: out, to: err) ?? .exit(status)
        }
        let renderer: any ResultRenderer
        if parsed.format == .json {
            renderer = JSONRenderer(out: out, err: err)
        } else {
            let text = TextRenderer(out: out, err: err, color: environment.colorOnStandardError, width: {
                // A terminal's own width, asked each time (it may be resized); else 80.
                let columns = environment.standardOutputIsTerminal ? Int(cf_terminal_columns(1)) : 0
                return columns > 0 ? columns : 80
            })
            // Long help pages go through the pager at a terminal; under --safe nothing runs.
            if environment.standardOutputIsTerminal && !environment.isHosted && !parsed.safe {
                let pager = Pager(environment: environment.variable)
                text.pager = { pager.page($0) }
            }
            renderer = text
        }
        let fileAccess = parsed.safe ? FileAccess.refused(by: "by --safe") : .allowed
        var options = EngineOptions()
        let environmentAccess = parsed.safe ? EnvironmentAccess.refused(by: "by --safe") : .reading(environment.variable)
        if parsed.checkOnly {
            options = ScriptCheck.options(keepGoing: parsed.keepGoing, fileAccess: fileAccess, environment: environmentAccess,
                                          stop: stop)
        } else {
            options.keepGoing = parsed.keepGoing
            options.fileAccess = fileAccess
            options.environment = environmentAccess
            options.stop = stop
        }

        let center = ServiceCenter()
        let catalogService = CatalogService(files: parsed.catalogs, renderer: renderer, options: options)
        let outputService = OutputService(out: out, err: err)
        center.register(catalogService)
        center.register(outputService)
        // A prompt only for a person: no inputs (or -i) and a terminal on standard input.
        let prompts = (parsed.inputs.isEmpty || parsed.interactive) && environment.standardInputIsTerminal
        var history: HistoryService?
        if prompts {
            let service = HistoryService(environment: environment.variable) { message in
                err.write("carfab: warning: \(DisplayText.escaped(message))\n")
                err.flush()
            }
            center.register(service)
            history = service
        }
        defer { center.stopAll() }
        do {
            try center.startAll()
        } catch is CatalogLoadFailure {
            // A signal while a catalog file was opened or read (a FIFO) stops carfab as anywhere else.
            return stop.code > 0 ? .stoppedBy(signal: stop.code) : .exit(ExitStatus.failure)
        } catch {
            err.write("carfab: error: \(error)\n")
            return .exit(ExitStatus.failure)
        }

        let engine = Engine(catalog: catalogService.catalog, options: options, sink: renderer, host: center)
        for setting in parsed.variables { engine.setVariable(setting.name, to: setting.value) }
        // The init file: the one --init names, in any mode; else the user's, only before a prompt.
        let initFile = parsed.initFile?.bytes
            ?? ((prompts || parsed.interactive) && !parsed.noInit ? defaultInitFile(environment.variable) : nil)
        if let initFile {
            do throws(LineSourceFailure) {
                // The user's own file must be a regular file: a FIFO there would hang the prompt
                // before it showed. (One named with --init may be anything, `<(...)` too.)
                if parsed.initFile == nil {
                    var info = stat()
                    if stat(String(decoding: initFile, as: UTF8.self), &info) == 0 && info.st_mode & S_IFMT != S_IFREG {
                        throw LineSourceFailure.unreadable(
                            "cannot read '\(DisplayText.escaped(String(decoding: initFile, as: UTF8.self)))': not a regular file")
                    }
                }
                engine.evaluate(try openLineSource(.filePath(initFile), stop: stop))
            } catch .interrupted {
                return .stoppedBy(signal: stop.code)
            } catch {
                engine.report(unreadable: String(decoding: initFile, as: UTF8.self), error)
            }
            // A broken init file is not passed over: nothing else runs.
            if engine.failureCount > 0 || stop.isRequested {
                center.stopAll()
                if stop.code > 0 { return .stoppedBy(signal: stop.code) }
                return outcome(writing: out, to: err) ?? .exit(ExitStatus.failure)
            }
            // The init file saw the command line's variables; the command line wins over it,
            // unless what the init file set leaves no room for them.
            for setting in parsed.variables where !engine.setVariable(setting.name, to: setting.value) {
                err.write("carfab: error: --var \(setting.name): the variables would hold more than \(maximumVariableStorage >> 20) MiB in all\n")
                return .exit(ExitStatus.failure)
            }
        }
        let inputs = parsed.inputs.isEmpty && !prompts ? [ProgramInput.file("-")] : parsed.inputs
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
                    engine.report(unreadable: path.description, error, notes: commandNote(forMissing: path, in: engine.commands))
                }
            }
        }
        // What happens at a person's prompt does not change the exit status, as in sqlite3;
        // standard input read after -i from a pipe is a script like any other. A failed
        // script does not keep -i from its prompt (as `python -i`): that is what -i is for.
        var failures = engine.failureCount
        if (prompts || parsed.interactive) && !engine.quitRequested && !stop.isRequested {
            // The prompt and the banner belong to the terminal, even with standard output
            // sent elsewhere (`carfab > out.txt`): results go to standard output.
            let terminal: Int32 = environment.standardOutputIsTerminal || !environment.standardErrorIsTerminal ? 1 : 2
            if prompts {
                let banner = "carfab \(version): a car-factory shell. Type 'help' for commands, Ctrl-D to leave.\n"
                if terminal == 1 { out.write(banner) } else { err.write(banner); err.flush() }
            }
            let prompt: (any LineSource)? = prompts ? EditLineSource.open(
                history: history, color: terminal == 1 ? environment.colorOnStandardOutput : environment.colorOnStandardError,
                terminal: terminal, stop: stop,
                completer: {
                    var completer = Completer(commands: engine.commands, catalog: engine.catalog,
                                              variables: engine.variables.map(\.name),
                                              currentCar: try? engine.stock.currentLine().car, completesFiles: !parsed.safe)
                    completer.variableValues = Dictionary(engine.variables.map { ($0.name, $0.value) }) { _, last in last }
                    return completer
                },
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
            if !prompts { failures = engine.failureCount }
        }
        center.stopAll()
        if stop.code > 0 { return .stoppedBy(signal: stop.code) }
        if let ended = outcome(writing: out, to: err) { return ended }
        // One rule, which --test follows too: a failed command makes the status 1 even if
        // `quit 0` follows (under --keep-going); `quit N` with another N exits with N.
        if let status = engine.requestedExitStatus, status != 0 { return .exit(status) }
        return .exit(failures > 0 ? ExitStatus.failure : ExitStatus.success)
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
        let looksLikeCommands = commands.lookup(firstWord) != nil
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

    /// How the program ends if standard output could not be written: quietly by SIGPIPE for a
    /// reader that went away, as `cat` does; otherwise (a full disk, a closed descriptor) with
    /// a one-line report and status 1, as coreutils do. Nil if every write succeeded.
    static func outcome(writing out: Output, to err: Output) -> Outcome? {
        guard out.failed else { return nil }
        if out.pipeClosed { return .brokenPipe }
        // If standard error fails too, the status still tells.
        err.write("carfab: write error: \(String(cString: strerror(out.failureCode)))\n")
        err.flush()
        return .exit(ExitStatus.failure)
    }
}

/// What the program needs to know about where it runs.
public struct ProgramEnvironment {
    /// Whether diagnostics may be coloured: standard error is a terminal that shows colour
    /// (not `TERM=dumb`) and `NO_COLOR` is unset or empty.
    public var colorOnStandardError: Bool
    /// Whether the prompt may be coloured: the same for standard output.
    public var colorOnStandardOutput: Bool
    /// Whether a person is typing on standard input.
    public var standardInputIsTerminal: Bool
    /// Whether standard output is a terminal (else the prompt goes to standard error's terminal).
    public var standardOutputIsTerminal: Bool
    /// Whether standard error is a terminal.
    public var standardErrorIsTerminal: Bool
    /// Reads an environment variable.
    public var variable: @Sendable (String) -> String?
    /// Where signals ask the program to stop: the one `main` installs its handlers for.
    public var stop: StopRequest
    /// Standard input's bytes, if given instead of the descriptor (a test running carfab in process).
    public var input: [UInt8]?
    /// Where results and errors go instead of descriptors 1 and 2 (a test running carfab in process).
    public var output: Output?
    public var errorOutput: Output?

    /// Whether carfab runs inside another program that captures its output (a test harness):
    /// then it starts no process of its own (no pager, no forked test workers).
    var isHosted: Bool { output != nil }

    /// The environment of this process.
    public static var current: ProgramEnvironment {
        let noColor = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
        // A dumb terminal (Emacs' shell, some CI logs) shows escape codes as text.
        let dumb = getenv("TERM").map { String(cString: $0) == "dumb" } ?? false
        let colors = !noColor && !dumb
        return ProgramEnvironment(colorOnStandardError: isatty(2) == 1 && colors,
                                  colorOnStandardOutput: isatty(1) == 1 && colors,
                                  standardInputIsTerminal: isatty(0) == 1,
                                  standardOutputIsTerminal: isatty(1) == 1,
                                  standardErrorIsTerminal: isatty(2) == 1,
                                  variable: { name in getenv(name).map { String(cString: $0) } },
                                  stop: programStop)
    }
}

/// Where the signal handlers `main` installs ask the program to stop: storing into it is all
/// a handler does.
public let programStop = StopRequest()
