import CEditLine
import CarScript

#if canImport(Glibc)
import Glibc
#endif

// The POSIX side of the program: what it learns of the process it runs in (terminals,
// colour, environment variables) and where the signal handlers ask it to stop.

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
    /// Reads an environment variable's bytes, as the environment holds them (`${env:NAME}`
    /// refuses a value that is not UTF-8 rather than guess at it).
    public var variableBytes: @Sendable (String) -> [UInt8]?
    /// Reads an environment variable as text (bytes that are not UTF-8 repaired), or sets
    /// where both read from (a test's environment).
    public var variable: @Sendable (String) -> String? {
        get { { [variableBytes] name in variableBytes(name).map { String(decoding: $0, as: UTF8.self) } } }
        set { variableBytes = { name in newValue(name).map { Array($0.utf8) } } }
    }
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
        return ProgramEnvironment(
            colorOnStandardError: isatty(2) == 1 && colors,
            colorOnStandardOutput: isatty(1) == 1 && colors,
            standardInputIsTerminal: isatty(0) == 1,
            standardOutputIsTerminal: isatty(1) == 1,
            standardErrorIsTerminal: isatty(2) == 1,
            // The C string's bytes as they are, up to its NUL (copied at once: getenv's storage
            // is the process's).
            variableBytes: { name in getenv(name).map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } },
            stop: programStop)
    }
}

/// Where the signal handlers `main` installs ask the program to stop: storing into it is all
/// a handler does.
public let programStop = StopRequest()
