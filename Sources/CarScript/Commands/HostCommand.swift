import CarFactory

// The one way a program adds a command to the language it runs (carfab's `services`): the
// engine turns each into one more entry of its command table, under the `system` group, so
// dispatch, `help`, completion, `--check` and an editor's analysis read it as they read the
// language's own commands. The engine knows nothing of what it does: it resolves the
// arguments, calls `run` and hands the result to the sink.

/// A command the program around the engine adds to the language, with
/// ``EngineOptions/addCommand(_:)``: `help` lists it under "system" and `help NAME` shows its page,
/// completion offers it, and a check (``EngineOptions/checkOnly``) resolves its arguments
/// without running it.
///
/// ```swift
/// let uptime = HostCommand(
///     name: "uptime", summary: "how long the program has run",
///     details: "The time since the program started, in whole seconds.") { _ in
///     .text("\(seconds) s")
/// }
/// var options = EngineOptions()
/// options.addCommand(uptime)
/// ```
public struct HostCommand: Sendable {
    /// What an argument's word must be; a word that is not is an error at the word.
    public enum Kind: Sendable {
        /// Any one word.
        case word
        /// Every remaining word (the last argument only).
        case words
        /// A model of the catalog, in any case (a did-you-mean otherwise).
        case model
        /// A currency of the catalog, by its code.
        case currency
        /// A whole number from 1.
        case count
    }

    /// One argument: its placeholder in the usage line (`MODEL`), its kind, and whether it may be left out.
    public struct Argument: Sendable {
        /// The placeholder `help` shows.
        public let placeholder: String
        /// What the word must be.
        public let kind: Kind
        /// Whether it may be left out (only after the required ones).
        public let isOptional: Bool

        /// An argument that must be given.
        public static func required(_ placeholder: String, _ kind: Kind) -> Argument {
            Argument(placeholder: placeholder, kind: kind, isOptional: false)
        }

        /// An argument that may be left out.
        public static func optional(_ placeholder: String, _ kind: Kind) -> Argument {
            Argument(placeholder: placeholder, kind: kind, isOptional: true)
        }
    }

    /// A resolved argument, as the command's ``run`` gets it.
    public enum Value: Sendable {
        /// An optional argument left out.
        case absent
        /// A ``Kind/word``.
        case word(String)
        /// A ``Kind/words`` list (empty if none were given).
        case words([String])
        /// A ``Kind/model``: the model's name as the catalog has it.
        case model(String)
        /// A ``Kind/currency``.
        case currency(Currency)
        /// A ``Kind/count``.
        case count(Int64)
    }

    /// What ``run`` is given: the arguments, resolved and checked, one value per ``Argument``.
    public struct Call: Sendable {
        /// One value per argument of the command, in order.
        public let arguments: [Value]
    }

    /// Why a host command failed: reported as any command's error, at the command's name or
    /// at one of its arguments, with the id JSON output and `expect error` use.
    public struct Failure: Error, Sendable {
        /// What went wrong, in a sentence.
        public let message: String
        /// Where to point: 0 is the command's name, 1 its first argument, and so on.
        public let argument: Int
        /// The diagnostic's id (`command-failed` unless given).
        public let id: String

        /// A failure that says `message`, pointing at `argument` (0: the command's name).
        public init(_ message: String, argument: Int = 0, id: String = "command-failed") {
            self.message = message
            self.argument = argument
            self.id = id
        }
    }

    /// The name typed: a letter, then letters, digits, `-` and `_` (looked up in any case).
    public let name: String
    /// One line for `help`'s list and completion.
    public let summary: String
    /// What `help NAME` says of it.
    public let details: String
    /// An example line for `help NAME` (the name alone unless given).
    public let example: String
    /// Its arguments, in order.
    public let arguments: [Argument]
    /// Runs the command: a result for the sink (the renderers' own kinds: a table, text, ...),
    /// or nil for none.
    public let run: @Sendable (Call) throws(Failure) -> CommandResult?

    /// A command called `name`. Its name must be one the language does not have already:
    /// an engine given a taken name, or one that is not a letter and then letters, digits,
    /// `-` and `_`, stops the program (a programming error, as a dictionary's duplicate key is).
    public init(
        name: String, summary: String, details: String, example: String? = nil, arguments: [Argument] = [],
        run: @escaping @Sendable (Call) throws(Failure) -> CommandResult?
    ) {
        self.name = name
        self.summary = summary
        self.details = details
        self.example = example ?? name
        self.arguments = arguments
        self.run = run
    }

    /// Whether `name` can be typed as a command: a letter, then ASCII letters, digits, `-`, `_`.
    static func isCommandName(_ name: String) -> Bool {
        guard let first = name.utf8.first, (first | 0x20) >= UInt8(ascii: "a") && (first | 0x20) <= UInt8(ascii: "z") else {
            return false
        }
        return name.utf8.allSatisfy { byte in
            let letter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            return letter || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_")
        }
    }
}

extension HostCommand.Kind {
    /// The engine's kind of argument it stands for.
    var argumentKind: ArgumentKind {
        switch self {
        case .word: .text
        case .words: .words
        case .model: .model
        case .currency: .currency
        case .count: .count
        }
    }
}

extension CommandSpec {
    /// `command` as an entry of the command table, in the `system` group.
    convenience init(host command: HostCommand) {
        precondition(HostCommand.isCommandName(command.name), "'\(command.name)' is not a command's name")
        // What the argument kinds document, checked where the host adds the command, not found
        // by a user as a trap (more than the argument space holds) or as a required argument
        // read as left out (after a `.words` one).
        let arguments = command.arguments
        precondition(arguments.count < ArgumentSpace.capacity, "'\(command.name)' has more arguments than a command may have")
        precondition(
            !arguments.dropLast().contains { if case .words = $0.kind { true } else { false } },
            "'\(command.name)': only the last argument may take every remaining word")
        precondition(
            !arguments.indices.contains { $0 > 0 && arguments[$0 - 1].isOptional && !arguments[$0].isOptional },
            "'\(command.name)': a required argument follows an optional one")
        let kinds = command.arguments.map(\.kind)
        self.init(
            name: command.name, aliases: [], group: .system,
            arguments: command.arguments.map {
                $0.isOptional ? .optional($0.placeholder, $0.kind.argumentKind) : .required($0.placeholder, $0.kind.argumentKind)
            },
            summary: command.summary, details: command.details, example: command.example,
            run: { session, call throws(ScriptError) in
                let values = kinds.indices.map { index in Self.hostValue(call, index + 1, kinds[index]) }
                let result: CommandResult?
                do throws(HostCommand.Failure) {
                    result = try command.run(HostCommand.Call(arguments: values))
                } catch {
                    throw ScriptError(.host(id: error.id, message: error.message), at: call.range(error.argument))
                }
                if let result { session.emit(result, call) }
            })
    }

    /// Argument `index` of `call` as the host sees it.
    private static func hostValue(_ call: Invocation, _ index: Int, _ kind: HostCommand.Kind) -> HostCommand.Value {
        guard index <= call.count, case let value = call.value(index), !value.isAbsent else {
            return kind == .words ? .words([]) : .absent
        }
        switch kind {
        case .word: return .word(call.word(index))
        case .words: return .words(call.words(index))
        case .model: return .model(call.model(index).model)
        case .currency: return call.currency(index).map { .currency($0) } ?? .absent
        case .count: return call.count(index).map { .count($0) } ?? .absent
        }
    }
}

extension ArgumentValue {
    /// Whether it stands for an argument left out.
    fileprivate var isAbsent: Bool {
        if case .absent = self { true } else { false }
    }
}
