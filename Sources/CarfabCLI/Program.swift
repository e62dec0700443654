import CarScript
import CarfabPOSIX

#if canImport(Glibc)
import Glibc
#endif

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

    /// Runs carfab with `arguments` (without the program name), as the bytes they are: reads
    /// the command line, then does the one thing it asks for (a page of text, the tests, the
    /// language server, or a session).
    public static func run(_ arguments: [ArgumentBytes], environment: ProgramEnvironment = .current) -> Outcome {
        let out = environment.output ?? Output(fd: 1, eachResult: environment.standardOutputIsTerminal, stop: environment.stop)
        let err = environment.errorOutput ?? Output(fd: 2)
        let parsed: ProgramArguments
        do {
            parsed = try ProgramArguments(parsing: arguments)
        } catch {
            return refuse(error, err: err)
        }
        if let page = page(asked: parsed) {
            out.write(page)
            out.flush()
            return outcome(writing: out, to: err) ?? .exit(ExitStatus.success)
        }
        if parsed.test { return TestRunner.run(parsed, environment: environment, out: out, err: err) }
        if parsed.languageServer { return serveLanguage(parsed, environment: environment, out: out, err: err) }
        return ProgramSession(arguments: parsed, environment: environment, out: out, err: err).run()
    }

    /// A command line that cannot be used: its error and the usage line, status 64.
    static func refuse(_ error: UsageError, err: Output) -> Outcome {
        // The message quotes the command line as given: escaped here, as every diagnostic is,
        // so an argument cannot drive the terminal (`carfab $'--x\e]0;TITLE\a'`).
        err.write("carfab: error: \(DisplayText.escaped(error.message))\nusage: carfab [OPTIONS] [FILE...] (see 'carfab --help')\n")
        err.flush()
        return .exit(ExitStatus.usage)
    }

    /// What `--generate-completion-script`, `--help` or `--version` prints, if one is given.
    private static func page(asked parsed: ProgramArguments) -> String? {
        if let shell = parsed.completionShell { return CompletionScripts.script(for: shell) }
        if parsed.showHelp { return ProgramArguments.helpText + "\n" }
        if parsed.showVersion { return "carfab \(version)\n" }
        return nil
    }

    /// `--lsp`: the Language Server Protocol on standard input and output. `--catalog`,
    /// `--var` and `--safe` apply to every analysis, as they do to `--check`; a catalog that
    /// does not load is reported and the server does not start.
    private static func serveLanguage(_ parsed: ProgramArguments, environment: ProgramEnvironment, out: Output, err: Output) -> Outcome {
        let settings = AnalysisSettings(
            safe: parsed.safe, variables: parsed.variables.map { ($0.name, $0.value) },
            environment: parsed.safe ? .refused(by: "by --safe") : .reading(environment.variableBytes), stop: environment.stop)
        var catalog = Engine.builtInCatalog
        if !parsed.catalogs.isEmpty {
            var options = EngineOptions()
            options.host = POSIXHost()
            options.fileAccess = parsed.safe ? .refused(by: "by --safe") : .allowed
            options.environment = settings.environment
            options.stop = environment.stop
            // carfab's own commands are known here too: a catalog file's `services` is no definition, as in a session.
            ProgramCommands.add(to: &options, center: nil)
            guard
                let loaded = Engine.catalog(
                    files: parsed.catalogs.map(\.bytes), reportingTo: TextRenderer(out: err, err: err),
                    options: options)
            else {
                err.flush()
                return .exit(ExitStatus.failure)
            }
            catalog = loaded
        }
        // A server that cannot answer says so at once, not when the input ends.
        out.failUnlessWritable()
        if let failed = outcome(writing: out, to: err) { return failed }
        // Made here and handed whole to the server's reading thread.
        let input: any ByteInput
        if let bytes = environment.input {
            input = MemoryInput(bytes)
        } else {
            input = DescriptorInput(fd: 0, stop: environment.stop)
        }
        let server = LanguageServer(input: input, out: out, err: err, settings: settings, catalog: catalog)
        let status = server.run()
        if environment.stop.code > 0 { return .stoppedBy(signal: environment.stop.code) }
        return outcome(writing: out, to: err) ?? .exit(status)
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
