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

/// The output format of results and errors.
public enum OutputFormat: String, Sendable {
    case text, json
}

/// A command line that cannot be used: exit status 64.
public struct UsageError: Error, Equatable, Sendable {
    /// What is wrong with it.
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
            } else if argument.starts(with: [dash, UInt8(ascii: "e")]) && argument.count > 2 {
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
                    throw UsageError(message: "unknown format '\(text)' (use text or json)")
                }
                self.format = format
            case "--check", "--keep-going", "--safe", "--help", "-h", "--version", "-i":
                if inline != nil { throw UsageError(message: "option '\(name)' takes no value") }
                switch name {
                case "--check": checkOnly = true
                case "-i": interactive = true
                case "--keep-going": keepGoing = true
                case "--safe": safe = true
                case "--version": showVersion = true
                default: showHelp = true
                }
            default:
                let options = ["-e", "--catalog", "--format", "--check", "--keep-going", "--safe", "--help", "--version"]
                // Only long options are worth a guess: every short one is one edit from another.
                let hint = !name.hasPrefix("--") ? "" : closestName(to: name, in: options).map { "; did you mean '\($0)'?" } ?? ""
                throw UsageError(message: "unknown option '\(name)'\(hint)")
            }
        }
    }

    /// The `--help` text.
    public static let helpText = """
        carfab: a scriptable car-factory shell

        usage: carfab [OPTIONS] [FILE...]

        Runs the FILEs and -e texts in the order given, in one session ('-' is
        standard input). With neither, reads commands from standard input: at a
        prompt with line editing, history and tab completion if it is a terminal,
        as a script if it is a pipe or file. Type 'help' for the language.

        options:
          -e TEXT           run TEXT as commands (repeatable)
          -i                then read commands at the prompt
          --catalog FILE    load catalog definitions from FILE first (repeatable)
          --format FORMAT   text (default) or json
          --check           parse and resolve names only; run nothing
          --keep-going      go on after a failed command; still exit 1
          --safe            refuse commands that touch files
          --version         print the version and exit
          -h, --help        print this help and exit

        exit status: 0 success; 1 a command failed or output could not be written;
        64 bad command line; 129, 130, 131, 143 stopped by SIGHUP, SIGINT, SIGQUIT,
        SIGTERM (128 + the signal); 'quit N' exits with N.
        """
}
