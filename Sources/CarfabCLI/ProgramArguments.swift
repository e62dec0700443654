import CarScript

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

/// The output format of results and errors (`tap` only for `--test`).
public enum OutputFormat: String, Sendable {
    case text, json, tap
}

/// `--var NAME=VALUE`.
public struct VariableSetting: Equatable, Sendable {
    /// The variable's name.
    public var name: String
    /// Its value.
    public var value: String
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
    public var format = OutputFormat.text
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
    /// `--init FILE`: run it first, whatever the mode, instead of the init file.
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
    public var completionShell: String?
    /// `--lsp`: serve the Language Server Protocol on standard input and output.
    public var languageServer = false
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

    /// Reads the arguments after the program name, as the bytes they are.
    public init(parsing arguments: [ArgumentBytes]) throws(UsageError) {
        var index = 0
        var onlyFiles = false
        func value(for option: String, inline: [UInt8]?) throws(UsageError) -> ArgumentBytes {
            if let inline { return ArgumentBytes(inline) }
            index += 1
            guard index < arguments.count else { throw UsageError(message: "option '\(option)' needs a value") }
            return arguments[index]
        }
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
            } else if (argument.starts(with: [dash, UInt8(ascii: "e")]) || argument.starts(with: [dash, UInt8(ascii: "j")]))
                        && argument.count > 2 {
                nameBytes = argument[..<2]
                inline = Array(argument[2...])
            }
            let name = String(decoding: nameBytes, as: UTF8.self)
            switch name {
            case "--": onlyFiles = true
            case "-e": inputs.append(.text(try value(for: "-e", inline: inline)))
            case "--catalog": catalogs.append(try value(for: name, inline: inline))
            case "--format":
                let text = try value(for: name, inline: inline).description
                guard let format = OutputFormat(rawValue: text) else {
                    throw UsageError(message: "unknown format '\(text)' (use text, json, or tap with --test)")
                }
                self.format = format
            case "--var":
                variables.append(try Self.variable(try value(for: name, inline: inline)))
            case "--init": initFile = try value(for: name, inline: inline)
            case "--junit": junit = try value(for: name, inline: inline)
            case "--generate-completion-script":
                let shell = try value(for: name, inline: inline).description
                guard CompletionScripts.shells.contains(shell) else {
                    throw UsageError(message: "no completion script for '\(shell)' (use bash, zsh or fish)")
                }
                completionShell = shell
            case "--timeout":
                let text = try value(for: name, inline: inline).description
                guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 1_000_000,
                      text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) else {
                    throw UsageError(message: "--timeout needs a number of seconds above 0 and at most 1000000, not '\(DisplayText.escaped(text))'")
                }
                timeout = seconds
            case "--filter": filters.append(try value(for: name, inline: inline))
            case "-j":
                let text = try value(for: name, inline: inline).description
                guard let count = Int(text), count >= 1, count <= 1024 else {
                    throw UsageError(message: "-j needs a number of jobs from 1 to 1024, not '\(text)'")
                }
                jobs = count
            case "--check", "--keep-going", "--safe", "--help", "-h", "--version", "-i", "--no-init", "--test", "--lsp", "--list":
                if inline != nil { throw UsageError(message: "option '\(name)' takes no value") }
                switch name {
                case "--check": checkOnly = true
                case "-i": interactive = true
                case "--keep-going": keepGoing = true
                case "--safe": safe = true
                case "--version": showVersion = true
                case "--no-init": noInit = true
                case "--test": test = true
                case "--lsp": languageServer = true
                case "--list": list = true
                default: showHelp = true
                }
            default:
                let options = ["-e", "--catalog", "--format", "--check", "--keep-going", "--safe", "--help", "--version",
                               "--var", "--init", "--no-init", "--test", "--junit", "--generate-completion-script", "--lsp",
                               "--timeout", "--filter", "--list"]
                // Only long options are worth a guess: every short one is one edit from another.
                let hint = !name.hasPrefix("--") ? "" : closestName(to: name, in: options).map { "; did you mean '\($0)'?" } ?? ""
                throw UsageError(message: "unknown option '\(name)'\(hint)")
            }
        }
        try checkCombinations()
    }

    /// Refuses options that mean nothing together.
    private func checkCombinations() throws(UsageError) {
        if initFile != nil && noInit { throw UsageError(message: "--init and --no-init cannot be used together") }
        if languageServer && (!inputs.isEmpty || test || checkOnly || interactive) {
            throw UsageError(message: "--lsp reads the protocol on standard input: it takes no files, -e, -i, --check or --test")
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
            if jobs != nil { throw UsageError(message: "-j is for --test") }
            if junit != nil { throw UsageError(message: "--junit is for --test") }
            if format == .tap { throw UsageError(message: "--format tap is for --test") }
            if timeout != nil { throw UsageError(message: "--timeout is for --test") }
            if !filters.isEmpty { throw UsageError(message: "--filter is for --test") }
            if list { throw UsageError(message: "--list is for --test") }
        }
        if list && (format != .text || junit != nil) {
            throw UsageError(message: "--list prints the test files and runs none; it cannot be used with \(junit != nil ? "--junit" : "--format")")
        }
        // The last --var of a name is the one that counts, as it replaces the others.
        var held: [String: Int] = [:]
        for setting in variables { held[setting.name] = setting.name.utf8.count + setting.value.utf8.count }
        if held.values.reduce(0, +) > maximumVariableStorage {
            throw UsageError(message: "the --var names and values hold more than \(maximumVariableStorage >> 20) MiB in all")
        }
        if junit?.bytes == [UInt8(ascii: "-")] {
            throw UsageError(message: "--junit needs a file name: the report on standard output would mix with the results")
        }
    }

    /// `NAME=VALUE` of `--var`.
    private static func variable(_ argument: ArgumentBytes) throws(UsageError) -> VariableSetting {
        let bytes = argument.bytes
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else {
            throw UsageError(message: "--var needs NAME=VALUE, not '\(argument.description)'")
        }
        let name = Array(bytes[..<equals])
        guard name.withUnsafeBufferPointer({ VariableSyntax.isName($0) }) else {
            throw UsageError(message: "'\(String(decoding: name, as: UTF8.self))' is not a variable name (letters, digits and '_', not starting with a digit)")
        }
        guard bytes.count - equals - 1 <= 1 << 20 else {
            throw UsageError(message: "the value of --var \(String(decoding: name, as: UTF8.self)) is longer than 1 MiB")
        }
        guard let value = String(validating: bytes[(equals + 1)...], as: UTF8.self) else {
            throw UsageError(message: "the value of --var \(String(decoding: name, as: UTF8.self)) is not valid UTF-8")
        }
        return VariableSetting(name: String(decoding: name, as: UTF8.self), value: value)
    }

    /// The `--help` text.
    public static let helpText = """
        carfab: a scriptable car-factory shell

        usage: carfab [OPTIONS] [FILE...]
               carfab --test [OPTIONS] PATH...

        Runs the FILEs and -e texts in the order given, in one session ('-' is
        standard input). With neither, reads commands from standard input: at a
        prompt with line editing, history and tab completion if it is a terminal,
        as a script if it is a pipe or file. Type 'help' for the language.

        options:
          -e TEXT           run TEXT as commands (repeatable)
          -i                then read commands at the prompt
          --catalog FILE    load catalog definitions from FILE first (repeatable)
          --format FORMAT   text (default), json, or tap (with --test)
          --check           parse and resolve names only; run nothing
          --keep-going      go on after a failed command; still exit 1
          --safe            refuse commands that touch files
          --var NAME=VALUE  set variable NAME ($NAME in commands; repeatable)
          --init FILE       run FILE first, instead of the init file, in any
                            mode (also for scripts and pipes)
          --no-init         run no init file (the prompt runs
                            $XDG_CONFIG_HOME/carfab/init.carfab first)
          --test            run each PATH (a file, or every *.carfab under a
                            folder) as a test in a fresh session; exit 1 if any fails
          -j N              with --test: run N test files at a time (default: cores)
          --junit FILE      with --test: also write a JUnit XML report to FILE
          --timeout SECONDS with --test: fail a test file still running after SECONDS
          --filter PATTERN  with --test: run only the test files whose path matches
                            PATTERN, a glob ('*' also matches '/'; repeatable)
          --list            with --test: print the test files that would run; run none
          --generate-completion-script SHELL
                            print a completion script for bash, zsh or fish
          --lsp             serve the Language Server Protocol on standard input
                            and output (for editors; see README)
          --version         print the version and exit
          -h, --help        print this help and exit

        exit status: 0 success; 1 a command or test failed, or output could not be
        written; 64 bad command line; 129, 130, 131, 143 stopped by SIGHUP, SIGINT,
        SIGQUIT, SIGTERM (128 + the signal); 'quit N' exits with N.
        """
}
