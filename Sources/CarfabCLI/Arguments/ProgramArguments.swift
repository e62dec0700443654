import CarScript
import CarfabPOSIX

/// A command-line argument as the bytes it is: text and file names need not be UTF-8, and
/// are checked (text) or used (names) as given, not with invalid bytes replaced.
public struct ArgumentBytes: Equatable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The bytes.
    public let bytes: [UInt8]

    /// The argument holding `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The argument spelled by `value`.
    public init(stringLiteral value: String) { bytes = Array(value.utf8) }

    /// The argument as text to show (an invalid byte shown as U+FFFD).
    public var description: String { String(decoding: bytes, as: UTF8.self) }
}

/// One input to run, in command-line order.
public enum ProgramInput: Equatable, Sendable {
    /// `-e TEXT`.
    case text(ArgumentBytes)
    /// A file path, or `-` for standard input.
    case file(ArgumentBytes)
}

/// `--var NAME=VALUE`.
public struct VariableSetting: Equatable, Sendable {
    /// The variable's name.
    public var name: String
    /// Its value.
    public var value: String

    /// The setting `NAME=VALUE` of `--var`.
    init(argument: ArgumentBytes) throws(UsageError) {
        let bytes = argument.bytes
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else {
            throw UsageError(message: "--var needs NAME=VALUE, not '\(argument.description)'")
        }
        let name = Array(bytes[..<equals])
        guard name.withUnsafeBufferPointer({ VariableSyntax.isName($0) }) else {
            throw UsageError(
                message:
                    "'\(String(decoding: name, as: UTF8.self))' is not a variable name (ASCII letters, digits and '_', not starting with a digit)"
            )
        }
        guard name.count <= maximumNameLength else {
            throw UsageError(message: "a --var name is longer than \(maximumNameLength) bytes")
        }
        guard bytes.count - equals - 1 <= 1 << 20 else {
            throw UsageError(message: "the value of --var \(String(decoding: name, as: UTF8.self)) is longer than 1 MiB")
        }
        guard let value = String(validating: bytes[(equals + 1)...], as: UTF8.self) else {
            throw UsageError(message: "the value of --var \(String(decoding: name, as: UTF8.self)) is not valid UTF-8")
        }
        self.name = String(decoding: name, as: UTF8.self)
        self.value = value
    }
}

/// A command line that cannot be used: exit status 64.
public struct UsageError: Error, Equatable, Sendable {
    /// What is wrong with it, quoting the arguments as given (the printer escapes it).
    public let message: String
}

/// What the command line asked for.
public struct ProgramArguments: Equatable, Sendable {
    /// Scripts and `-e` texts, in order.
    public var inputs: [ProgramInput] = []
    /// Catalog files to load before the inputs.
    public var catalogs: [ArgumentBytes] = []
    /// Result format.
    public var format = OutputFormat.standard
    /// `-i`: read standard input at a prompt after the inputs.
    public var interactive = false
    /// `--check`.
    public var checkOnly = false
    /// `--keep-going`.
    public var keepGoing = false
    /// `--safe`.
    public var safe = false
    /// `--help`.
    public var showHelp = false
    /// `--version`.
    public var showVersion = false
    /// `--var NAME=VALUE`, in order.
    public var variables: [VariableSetting] = []
    /// `--init FILE`: run it first, whatever the mode (but `--lsp`), instead of the init file.
    public var initFile: ArgumentBytes?
    /// `--no-init`: do not run the init file before the prompt.
    public var noInit = false
    /// `--test`: the inputs are files and folders of tests.
    public var test = false
    /// `-j N`: how many test files run at a time (nil: one per core).
    public var jobs: Int?
    /// `--junit FILE`: where to write the tests' JUnit XML too.
    public var junit: ArgumentBytes?
    /// `--generate-completion-script SHELL`: print that shell's completion script.
    public var completionShell: CompletionShell?
    /// `--lsp`: serve the Language Server Protocol on standard input and output.
    public var languageServer = false
    /// `--diff`: compare the two sessions the two files save (`carfab --diff A B`).
    public var diff = false
    /// `--timeout SECONDS`: the most time a test file may take (nil: no limit).
    public var timeout: Double?
    /// `--filter PATTERN`, in order: run only the test files whose path one of them matches.
    public var filters: [ArgumentBytes] = []
    /// `--list`: print the test files that would run, and run none.
    public var list = false

    /// Reads the arguments after the program name.
    public init(parsing arguments: [String]) throws(UsageError) {
        try self.init(parsing: arguments.map { ArgumentBytes(Array($0.utf8)) })
    }

    /// Reads the arguments after the program name, as the bytes they are. What each option
    /// does is its entry in `ProgramOption.all`.
    public init(parsing arguments: [ArgumentBytes]) throws(UsageError) {
        var index = 0
        var onlyFiles = false
        var given: [ProgramOption] = []
        let dash = UInt8(ascii: "-")
        while index < arguments.count {
            let argument = arguments[index].bytes
            defer { index += 1 }
            if onlyFiles || argument == [dash] || argument.first != dash {
                inputs.append(.file(arguments[index]))
                continue
            }
            var nameBytes = argument[...]
            var inline: [UInt8]?
            if argument.starts(with: [dash, dash]), let equals = argument.firstIndex(of: UInt8(ascii: "=")) {
                nameBytes = argument[..<equals]
                inline = Array(argument[(equals + 1)...])
            } else if argument.count > 2 && argument[1] != dash,
                let short = ProgramOption.named(String(decoding: argument[..<2], as: UTF8.self)), short.value != nil
            {
                // A short option's value may be joined to it: `-etotal`, `-j4`.
                nameBytes = argument[..<2]
                inline = Array(argument[2...])
            }
            let name = String(decoding: nameBytes, as: UTF8.self)
            if name == "--" {
                onlyFiles = true
                continue
            }
            guard let option = ProgramOption.named(name) else {
                // Only long options are worth a guess: every short one is one edit from another.
                let names = ProgramOption.all.flatMap(\.names)
                let hint = !name.hasPrefix("--") ? "" : closestName(to: name, in: names).map { "; did you mean '\($0)'?" } ?? ""
                throw UsageError(message: "unknown option '\(name)'\(hint)")
            }
            switch option.effect {
            case .flag(let set):
                if inline != nil { throw UsageError(message: "option '\(name)' takes no value") }
                set(&self)
            case .value(_, let set):
                if let inline {
                    try set(&self, ArgumentBytes(inline))
                } else {
                    index += 1
                    guard index < arguments.count else { throw UsageError(message: "option '\(name)' needs a value") }
                    try set(&self, arguments[index])
                }
            }
            given.append(option)
        }
        try checkCombinations(given: given)
    }

    /// Refuses options that mean nothing together.
    private func checkCombinations(given: [ProgramOption]) throws(UsageError) {
        if initFile != nil && noInit { throw UsageError(message: "--init and --no-init cannot be used together") }
        if languageServer && (!inputs.isEmpty || test || checkOnly || interactive) {
            throw UsageError(message: "--lsp reads the protocol on standard input: it takes no files, -e, -i, --check or --test")
        }
        // The editor's analysis runs no init file (docs13: --init was taken and ignored):
        // what the server should know comes from --catalog and --var.
        if languageServer && initFile != nil {
            throw UsageError(
                message: "--init does not apply to --lsp: the editor's analysis runs no init file; "
                    + "give definitions with --catalog FILE and variables with --var NAME=VALUE")
        }
        // The protocol's messages are JSON-RPC whatever --format says: refused, not ignored.
        if languageServer && given.contains(where: { $0.name == "--format" }) {
            throw UsageError(message: "--format does not apply to --lsp: the protocol is JSON-RPC")
        }
        if diff {
            let files = inputs.filter { if case .file = $0 { true } else { false } }.count
            if files != 2 || files != inputs.count || test || languageServer || checkOnly || interactive {
                throw UsageError(message: "--diff compares two files: carfab --diff A B (no -e, -i, --check, --test or --lsp)")
            }
            // The first would read the stream to its end and leave the second nothing.
            if inputs.allSatisfy({ $0 == .file("-") }) {
                throw UsageError(message: "--diff reads standard input once: at most one of A and B may be '-'")
            }
        }
        if test {
            if inputs.isEmpty { throw UsageError(message: "--test needs a file or folder of tests") }
            if inputs.contains(where: { if case .text = $0 { true } else { false } }) {
                throw UsageError(message: "--test runs files; -e cannot be used with it")
            }
            if interactive || checkOnly {
                throw UsageError(message: "--test cannot be used with \(interactive ? "-i" : "--check")")
            }
        } else {
            for option in ProgramOption.all where option.mode == .test && given.contains(where: { $0.name == option.name }) {
                throw UsageError(message: "\(option.name) is for --test")
            }
            if format.isOnlyForTests { throw UsageError(message: "--format \(format) is for --test") }
        }
        if list && (format != .standard || junit != nil) {
            throw UsageError(
                message: "--list prints the test files and runs none; it cannot be used with \(junit != nil ? "--junit" : "--format")")
        }
        // The last --var of a name is the one that counts, as it replaces the others.
        var held: [String: Int] = [:]
        for setting in variables { held[setting.name] = variableCost(setting.name, setting.value) }
        if held.values.reduce(0, +) > maximumVariableStorage {
            throw UsageError(
                message:
                    "the --var names and values hold more than \(maximumVariableStorage >> 20) MiB in all (and \(variableOverhead) bytes each)"
            )
        }
        if junit?.bytes == [UInt8(ascii: "-")] {
            throw UsageError(message: "--junit needs a file name: the report on standard output would mix with the results")
        }
    }

    /// The `--help` text: its options from `ProgramOption.all`.
    public static let helpText = """
        carfab: a scriptable car-factory shell

        usage: carfab [OPTIONS] [FILE...]
               carfab --test [OPTIONS] PATH...

        Runs the FILEs and -e texts in the order given, in one session ('-' is
        standard input). With neither, reads commands from standard input: at a
        prompt with line editing, history and tab completion if it is a terminal,
        as a script if it is a pipe or file. Type 'help' for the language.

        options:
        \(ProgramOption.all.map(\.helpLines).joined(separator: "\n"))

        exit status: 0 success; 1 a command or test failed, or output could not be
        written; 64 bad command line; 129, 130, 131, 143 stopped by SIGHUP, SIGINT,
        SIGQUIT, SIGTERM (128 + the signal); 'quit N' exits with N.
        """
}

extension ProgramOption {
    /// The option's lines in `--help`: its names and value, then its help from column 21
    /// (on a line of its own when the names leave no room).
    var helpLines: String {
        let column = 20
        let indent = String(repeating: " ", count: column)
        var help = self.help
        if !help.isEmpty { help[0] = modeNote + help[0] }
        let left = "  " + names.joined(separator: ", ") + (value.map { " " + $0.placeholder } ?? "") + (operands.map { " " + $0 } ?? "")
        var lines =
            left.count < column
            ? [left + String(repeating: " ", count: column - left.count) + (help.first ?? "")]
            : [left, indent + (help.first ?? "")]
        lines += help.dropFirst().map { indent + $0 }
        return lines.joined(separator: "\n")
    }
}
