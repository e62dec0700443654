import CarScript

/// One option of carfab's command line. `ProgramOption.all` is the only list of them:
/// parsing, `--help`, the did-you-mean of an unknown option and the completion scripts read
/// it, and a test holds the man page to it, so a new option is one entry here.
struct ProgramOption: Sendable {
    /// What an option's value is: its placeholder in `--help` and what completion offers.
    enum Value: CaseIterable, Sendable {
        case text, file, format, shell, jobs, seconds, pattern, variable

        /// As `--help` names it (`--catalog FILE`).
        var placeholder: String {
            switch self {
            case .text: "TEXT"
            case .file: "FILE"
            case .format: "FORMAT"
            case .shell: "SHELL"
            case .jobs: "N"
            case .seconds: "SECONDS"
            case .pattern: "PATTERN"
            case .variable: "NAME=VALUE"
            }
        }
    }

    /// The runs an option means something in.
    enum Mode: Sendable {
        /// Any run.
        case any
        /// Only `--test`: elsewhere the option is refused ("-j is for --test").
        case test
    }

    /// How an option sets `ProgramArguments`.
    enum Effect: Sendable {
        /// An option without a value (`--safe=1` is refused).
        case flag(@Sendable (inout ProgramArguments) -> Void)
        /// An option with a value of this kind, given as the next argument, after `=` of a
        /// long name, or joined to a short one (`-etotal`).
        case value(Value, @Sendable (inout ProgramArguments, ArgumentBytes) throws(UsageError) -> Void)
    }

    /// `--catalog`, if it has a long name.
    let long: String?
    /// `-e`, if it has a short name.
    let short: String?
    /// What giving it does.
    let effect: Effect
    /// Whether it may be given more than once, each adding to the last.
    var repeatable = false
    /// Where it may be used.
    var mode = Mode.any
    /// The operands it takes after the other options, as `--help` names them (`--diff A B`).
    var operands: String?
    /// One line, for the completion scripts' descriptions.
    let summary: String
    /// Its lines in `--help`, beside its names; more than one when they do not fit.
    let help: [String]

    /// `with --test: ` before its help and summary if it is only for tests.
    var modeNote: String {
        switch mode {
        case .any: ""
        case .test: "with --test: "
        }
    }

    /// Its names, the short one first, as `--help` shows them (`-h, --help`).
    var names: [String] { [short, long].compactMap { $0 } }

    /// Its name in messages: the long one if it has one.
    var name: String { long ?? short ?? "" }

    /// Its value's kind; nil for a flag.
    var value: Value? {
        if case .value(let kind, _) = effect { kind } else { nil }
    }

    /// The option named `name` (`-e`, `--format`), if there is one.
    static func named(_ name: String) -> ProgramOption? {
        all.first { $0.long == name || $0.short == name }
    }

    /// Every option, in the order `--help` lists them.
    static let all: [ProgramOption] = [
        ProgramOption(
            long: nil, short: "-e", effect: .value(.text) { $0.inputs.append(.text($1)) }, repeatable: true,
            summary: "run TEXT as commands", help: ["run TEXT as commands (repeatable)"]),
        ProgramOption(
            long: nil, short: "-i", effect: .flag { $0.interactive = true },
            summary: "then read commands at the prompt", help: ["then read commands at the prompt"]),
        ProgramOption(
            long: "--catalog", short: nil, effect: .value(.file) { $0.catalogs.append($1) }, repeatable: true,
            summary: "load catalog definitions from FILE first",
            help: ["load catalog definitions from FILE first (repeatable)"]),
        ProgramOption(
            long: "--format", short: nil,
            effect: .value(.format) { arguments, value throws(UsageError) in
                arguments.format = try OutputFormat(argument: value.description)
            },
            summary: OutputFormat.choices(default: false), help: [OutputFormat.choices(default: true)]),
        ProgramOption(
            long: "--check", short: nil, effect: .flag { $0.checkOnly = true },
            summary: "parse and resolve names only; run nothing", help: ["parse and resolve names only; run nothing"]),
        ProgramOption(
            long: "--keep-going", short: nil, effect: .flag { $0.keepGoing = true },
            summary: "go on after a failed command", help: ["go on after a failed command; still exit 1"]),
        ProgramOption(
            long: "--safe", short: nil, effect: .flag { $0.safe = true },
            summary: "refuse commands that touch files", help: ["refuse commands that touch files"]),
        ProgramOption(
            long: "--var", short: nil,
            effect: .value(.variable) { arguments, value throws(UsageError) in
                arguments.variables.append(try VariableSetting(argument: value))
            },
            repeatable: true,
            summary: "set variable NAME", help: ["set variable NAME ($NAME in commands; repeatable)"]),
        ProgramOption(
            long: "--init", short: nil, effect: .value(.file) { $0.initFile = $1 },
            summary: "run FILE first",
            help: ["run FILE first, instead of the init file, in any", "mode but --lsp (also for scripts and pipes)"]),
        ProgramOption(
            long: "--no-init", short: nil, effect: .flag { $0.noInit = true },
            summary: "skip the init file",
            help: ["run no init file (the prompt runs", "$XDG_CONFIG_HOME/carfab/init.carfab first)"]),
        ProgramOption(
            long: "--test", short: nil, effect: .flag { $0.test = true },
            summary: "run files and folders of tests",
            help: [
                "run each PATH (a file, or every *.carfab under a",
                "folder) as a test in a fresh session; exit 1 if any fails"
            ]),
        ProgramOption(
            long: nil, short: "-j",
            effect: .value(.jobs) { arguments, value throws(UsageError) in
                let text = value.description
                guard let count = Int(text), count >= 1, count <= 1024 else {
                    throw UsageError(message: "-j needs a number of jobs from 1 to 1024, not '\(text)'")
                }
                arguments.jobs = count
            },
            mode: .test, summary: "test files at a time", help: ["run N test files at a time (default: cores)"]),
        ProgramOption(
            long: "--junit", short: nil, effect: .value(.file) { $0.junit = $1 }, mode: .test,
            summary: "write a JUnit XML report", help: ["also write a JUnit XML report to FILE"]),
        ProgramOption(
            long: "--timeout", short: nil,
            effect: .value(.seconds) { arguments, value throws(UsageError) in
                let text = value.description
                guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 1_000_000,
                    text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") })
                else {
                    throw UsageError(
                        message: "--timeout needs a number of seconds above 0 and at most 1000000, not '\(DisplayText.escaped(text))'")
                }
                arguments.timeout = seconds
            },
            mode: .test, summary: "seconds a test file may take",
            help: ["fail a test file still running after SECONDS"]),
        ProgramOption(
            long: "--filter", short: nil, effect: .value(.pattern) { $0.filters.append($1) }, repeatable: true,
            mode: .test, summary: "run the test files matching a glob",
            help: [
                "run only the test files whose path matches",
                "PATTERN, a glob ('*' also matches '/'; repeatable)"
            ]),
        ProgramOption(
            long: "--list", short: nil, effect: .flag { $0.list = true }, mode: .test,
            summary: "list the test files, run none", help: ["print the test files that would run; run none"]),
        ProgramOption(
            long: "--generate-completion-script", short: nil,
            effect: .value(.shell) { arguments, value throws(UsageError) in
                arguments.completionShell = try CompletionShell(argument: value.description)
            },
            summary: "print a completion script",
            help: ["print a completion script for \(listed(CompletionShell.allCases.map(\.rawValue), serialComma: false))"]),
        ProgramOption(
            long: "--diff", short: nil, effect: .flag { $0.diff = true }, operands: "A B",
            summary: "compare two saved sessions by meaning",
            help: [
                "compare the sessions files A and B save, by meaning;",
                "exit 0 if the same, 1 if not, 2 on trouble"
            ]),
        ProgramOption(
            long: "--lsp", short: nil, effect: .flag { $0.languageServer = true },
            summary: "serve the Language Server Protocol",
            help: ["serve the Language Server Protocol on standard input", "and output (for editors; see README)"]),
        ProgramOption(
            long: "--version", short: nil, effect: .flag { $0.showVersion = true },
            summary: "print the version", help: ["print the version and exit"]),
        ProgramOption(
            long: "--help", short: "-h", effect: .flag { $0.showHelp = true },
            summary: "print the help", help: ["print this help and exit"])
    ]
}

/// `a, b or c` (`a, b, or c` with `serialComma`).
func listed(_ words: [String], serialComma: Bool) -> String {
    guard let last = words.last else { return "" }
    guard words.count > 1 else { return last }
    // Joined by hand: `dropLast().joined(separator:)` ran the stdlib's unspecialized generic,
    // whose first-time associated-type lookups cost ~120k instructions at every start-up.
    var text = words[0]
    for word in words[1..<(words.count - 1)] { text += ", " + word }
    return text + (serialComma && words.count > 2 ? ", or " : " or ") + last
}
