#if canImport(Glibc)
import Glibc
#endif
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
        if parsed.languageServer { return serveLanguage(environment: environment, out: out, err: err) }
        return ProgramSession(arguments: parsed, environment: environment, out: out, err: err).run()
    }

    /// A command line that cannot be used: its error and the usage line, status 64.
    private static func refuse(_ error: UsageError, err: Output) -> Outcome {
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

    /// `--lsp`: the Language Server Protocol on standard input and output.
    private static func serveLanguage(environment: ProgramEnvironment, out: Output, err: Output) -> Outcome {
        let input: any ByteInput = environment.input.map { MemoryInput($0) } ?? DescriptorInput(fd: 0)
        let server = LanguageServer(input: input, out: out, err: err, environment: .reading(environment.variable))
        let status = server.run()
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
        // Colour only where terminfo says the terminal shows it: not with TERM unset, unknown
        // (libedit falls back to a dumb terminal), dumb (Emacs' shell, some CI logs) or a
        // terminal without colours (vt100), which would show the codes as text.
        let colors = !noColor && isatty(1) + isatty(2) > 0 && cf_terminal_colors(getenv("TERM")) >= 8
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
