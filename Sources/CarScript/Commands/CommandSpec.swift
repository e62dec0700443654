import CarFactory

/// An argument as the resolver walks it: its kind and what the resolver does with a word
/// for it, worked out once when the command is made, as plain values (no placeholder
/// string), so resolving touches no reference counts and tests one flag where it worked
/// the rule out per word.
struct ResolveStep {
    let kind: ArgumentKind
    /// How the resolver reads a word for it (`kind.resolveCode`).
    let code: ResolveCode
    /// May be left out: with no word left it is absent.
    let optional: Bool
    /// Optional before a required one: it takes a word only if the word fits, so that the
    /// required ones after it keep theirs (`expect price GBP` lacks its VALUE).
    let takesOnlyWhatFits: Bool
    /// Takes every remaining word (`TEXT...`).
    let takesRemainingWords: Bool

    /// What fills the steps past a command's last (never read).
    static var unused: ResolveStep {
        ResolveStep(kind: .text, code: .other, optional: true, takesOnlyWhatFits: false, takesRemainingWords: false)
    }
}

/// One argument of a command: its placeholder in the usage line, its kind, and whether it may be left out.
package struct ArgumentSpec: Sendable {
    /// The placeholder, e.g. `MODEL`.
    package let name: String
    /// What the word must be.
    package let kind: ArgumentKind
    /// Whether it may be left out.
    package let optional: Bool

    /// A required argument.
    package static func required(_ name: String, _ kind: ArgumentKind) -> ArgumentSpec {
        ArgumentSpec(name: name, kind: kind, optional: false)
    }

    /// An optional argument.
    package static func optional(_ name: String, _ kind: ArgumentKind) -> ArgumentSpec {
        ArgumentSpec(name: name, kind: kind, optional: true)
    }

    /// A literal keyword, shown as itself in the usage line.
    package static func keyword(_ word: Keyword) -> ArgumentSpec {
        ArgumentSpec(name: word.rawValue, kind: .keyword(word), optional: false)
    }
}

/// The groups `help` lists commands under; `system` holds the commands the host adds (`HostCommand`).
package enum CommandGroup: String, CaseIterable, Sendable {
    case configure, value, catalog, definition, history, script, system
}

/// One command: the single entry that dispatch, `help`, completion and `--check` all read.
///
/// A shared immutable class: dispatch hands out a reference, never a copy of its fields.
public final class CommandSpec: Sendable {
    /// The name typed.
    public let name: String
    /// Other names for it (`exit` for `quit`).
    package let aliases: [String]
    /// Its group in `help`.
    package let group: CommandGroup
    /// Its arguments, in order.
    package let arguments: [ArgumentSpec]
    /// One line for `help`.
    public let summary: String
    /// A longer description for `help COMMAND`.
    package let details: String
    /// An example line.
    package let example: String
    /// Whether `--check` runs it too (`source`: checking follows it into the file).
    package let runsWhenChecking: Bool
    /// How a command runs.
    typealias Run = @Sendable (Session, Invocation) throws(ScriptError) -> Void
    /// Runs the command; only called once every argument has resolved.
    let run: Run
    /// Checks that join several arguments (`rate` of the base currency), made after they
    /// resolve whether the command then runs or is only checked (`--check`).
    let check: Run?

    init(
        name: String, aliases: [String], group: CommandGroup, arguments: [ArgumentSpec], summary: String,
        details: String, example: String, runsWhenChecking: Bool = false,
        check: Run? = nil,
        run: @escaping @Sendable (Session, Invocation) throws(ScriptError) -> Void
    ) {
        self.name = name
        self.aliases = aliases
        self.group = group
        self.arguments = arguments
        self.summary = summary
        self.details = details
        self.example = example
        self.runsWhenChecking = runsWhenChecking
        self.check = check
        self.run = run
        requiredCount = arguments.filter { !$0.optional }.count
        mostArguments = arguments.contains { $0.kind.takesRemainingWords } ? Int.max : arguments.count
        // The resolver writes each argument to a slot of a block without a check of its own:
        // the bound is this one, held for every command.
        precondition(arguments.count <= ArgumentSpace.capacity, "'\(name)' takes more than \(ArgumentSpace.capacity) arguments")
        // 16 is `ArgumentSpace.capacity`, the bound just held (a generic count must be a literal).
        var steps = InlineArray<16, ResolveStep>(repeating: .unused)
        for position in arguments.indices {
            let argument = arguments[position]
            steps[position] = ResolveStep(
                kind: argument.kind, code: argument.kind.resolveCode, optional: argument.optional,
                takesOnlyWhatFits: argument.optional && arguments[(position + 1)...].contains { !$0.optional },
                takesRemainingWords: argument.kind.takesRemainingWords)
        }
        self.steps = steps
        stepCount = arguments.count
    }

    /// How many arguments must be given.
    let requiredCount: Int
    /// How many words may follow the command's name (`Int.max` for one that takes every
    /// remaining word): the words past them are an error and are never expanded.
    let mostArguments: Int
    /// Each argument's kind and whether it may be left out, as plain values (no names, no
    /// keyword strings) so resolving walks them without touching reference counts; the first
    /// `stepCount` are the command's. Held in the spec itself (`ArgumentSpace.capacity` of
    /// them), not in an array of its own: dispatch then reads a step one load after the
    /// spec, where the array's buffer was one more load, waited for by every command.
    let steps: InlineArray<16, ResolveStep>
    /// How many of `steps` are the command's: one per argument.
    let stepCount: Int

    /// Whether the command only answers a question: it changes no stock, catalog, variable,
    /// transaction or file, and what it shows is all it does (see `EngineOptions.checksQuestions`).
    /// A command the host added counts as one: it can change nothing of the session, and an
    /// editor's analysis is to run nothing of the host's.
    package var answersOnly: Bool {
        if group == .system { return true }
        return switch name {
        case "options", "why", "cheapest", "show", "list", "models", "parts", "currencies", "total", "price", "vars",
            "echo", "help", "save", "diff":
            true
        default: false
        }
    }

    /// Whether the command is a question that the session's state alone answers, in constant
    /// work, and that may fail on that state once its words are resolved (`show 2` with no line
    /// 2, `price` with no car, `total` in a currency the stock's value overflows): one an
    /// editor's analysis runs (see `EngineOptions.checksQuestions`), since whether it fails
    /// decides what a transaction keeps.
    package var answersFromStateAlone: Bool {
        guard group != .system else { return false }
        return switch name {
        case "show", "total", "price": true
        default: false
        }
    }

    /// Whether the command is a question that cannot fail once its words are resolved (the
    /// listings, `vars`, `echo`, `help`): an analysis neither runs it (`list` of a large stock
    /// at every keystroke) nor loses track of the run at it.
    package var neverFailsOnceResolved: Bool {
        guard group != .system else { return false }
        return switch name {
        case "list", "models", "parts", "currencies", "vars", "echo", "help": true
        default: false
        }
    }

    /// Whether the command defines catalog entries (the only commands a catalog file may hold).
    package var definesCatalog: Bool { group == .definition }

    /// `car MODEL [COUNT]`.
    package var usage: String {
        ([name] + placeholders).joined(separator: " ")
    }

    /// Each argument as the usage line shows it: `MODEL`, `[COUNT]`, `TEXT...`.
    package var placeholders: [String] {
        arguments.map { spec in
            // A placeholder already in brackets (`[seats N ...]...`) is shown as written.
            if spec.name.hasPrefix("[") { return spec.name }
            let word = spec.kind.takesRemainingWords ? spec.name + "..." : spec.name
            return spec.optional ? "[\(word)]" : word
        }
    }
}
