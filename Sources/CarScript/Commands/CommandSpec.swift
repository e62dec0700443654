import CarFactory

/// What an argument must be; the resolver, `help` and completion all read it.
package enum ArgumentKind: Sendable, Equatable {
    case model
    /// A currency, only where the `expect` field at this index is an amount (`price`, `total`).
    case amountCurrency(fieldArgument: Int)
    case family
    /// An option of the family given by the argument at this index.
    case option(familyArgument: Int)
    case currency
    /// A currency other than the base (USD), whose rate is always 1: what `rate` sets.
    case foreignCurrency
    case count
    case lineNumber
    /// A positive decimal with at most `maximumRateDecimals` places (a currency's rate).
    case rate
    /// An amount of the base currency: a decimal with at most its minor digits.
    case amount
    case file
    case command
    /// A command's name, or a help topic that is not a command (`keys`).
    case helpTopic
    case field
    /// An option of a fixed family (`model ... floorplan OPTION`).
    case optionOf(PartFamily)
    /// This exact word, case-insensitively (`price`, `with`).
    case keyword(String)
    /// A new name being defined: any non-empty word.
    case name
    /// A variable's name: a letter or `_`, then letters, digits and `_`.
    case variable
    /// Any text, usually quoted (`"Mazda MX-5"`).
    case text
    /// A whole number from `low` to `high`; `what` names it in the message (`digits 2`, `exit 3`).
    case integer(low: Int, high: Int, what: String)
    /// Every remaining word (`echo`).
    case words
}

/// An argument kind as the resolver walks it: `ArgumentKind` without its one string payload.
struct ResolveStep {
    enum Kind: Equatable {
        case model, family, option(familyArgument: Int), optionOf(PartFamily), currency, foreignCurrency
        case amountCurrency(fieldArgument: Int)
        case count, lineNumber
        case rate, amount, file, command, helpTopic, field, keyword, name, variable, text, integer, words
    }

    let kind: Kind
    let optional: Bool

    init(kind: ArgumentKind, optional: Bool) {
        self.optional = optional
        self.kind = switch kind {
        case .model: .model
        case .family: .family
        case .option(let familyArgument): .option(familyArgument: familyArgument)
        case .optionOf(let family): .optionOf(family)
        case .currency: .currency
        case .foreignCurrency: .foreignCurrency
        case .amountCurrency(let fieldArgument): .amountCurrency(fieldArgument: fieldArgument)
        case .count: .count
        case .lineNumber: .lineNumber
        case .rate: .rate
        case .amount: .amount
        case .file: .file
        case .command: .command
        case .helpTopic: .helpTopic
        case .field: .field
        case .keyword: .keyword
        case .name: .name
        case .variable: .variable
        case .text: .text
        case .integer: .integer
        case .words: .words
        }
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
    package static func keyword(_ word: String) -> ArgumentSpec {
        ArgumentSpec(name: word, kind: .keyword(word), optional: false)
    }
}

/// The groups `help` lists commands under.
package enum CommandGroup: String, CaseIterable, Sendable {
    case configure, value, catalog, definition, history, script
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

    init(name: String, aliases: [String], group: CommandGroup, arguments: [ArgumentSpec], summary: String,
         details: String, example: String, runsWhenChecking: Bool = false,
         check: Run? = nil,
         run: @escaping @Sendable (Session, Invocation) throws(ScriptError) -> Void) {
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
        mostArguments = arguments.contains { $0.kind == .words } ? Int.max : arguments.count
        steps = arguments.map { ResolveStep(kind: $0.kind, optional: $0.optional) }
    }

    /// How many arguments must be given.
    let requiredCount: Int
    /// How many words may follow the command's name (`Int.max` for one that takes every
    /// remaining word): the words past them are an error and are never expanded.
    let mostArguments: Int
    /// Each argument's kind and whether it may be left out, as plain values (no names, no
    /// keyword strings) so resolving walks them without touching reference counts.
    let steps: [ResolveStep]

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
            let word = spec.kind == .words ? spec.name + "..." : spec.name
            return spec.optional ? "[\(word)]" : word
        }
    }
}
