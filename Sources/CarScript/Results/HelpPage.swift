/// What `help` shows, from the command table: every command's usage and summary by group, or
/// one command's page. Laid out for a width when it is rendered (the terminal's, or 80).
public enum HelpPage: Sendable {
    /// Each group's commands: usage and one-line summary.
    case overview([(group: String, entries: [(usage: String, summary: String)])])
    /// One command.
    case command(usage: String, details: String, aliases: [String], example: String)
    /// A topic that is not a command: an introduction, then a table of entries and what each does.
    case topic(introduction: String, entries: [(key: String, meaning: String)], closing: String)

    /// The pages `help NAME` shows besides the commands', each with its one-line summary.
    package static let topics: [(name: String, summary: String, page: HelpPage)] = [
        ("keys", "the keys that edit a line at the prompt", keys)
    ]

    /// The keys libedit's emacs bindings give carfab's prompt (as `bind` lists them), and Tab.
    static let keys = HelpPage.topic(
        introduction: "Keys that edit the line at the prompt (libedit's emacs bindings; Esc x is Alt-x or Esc then x):",
        entries: [
            ("Tab", "complete the word: commands, names, options with their prices, files"),
            ("Ctrl-A, Home", "go to the start of the line"),
            ("Ctrl-E, End", "go to the end of the line"),
            ("Ctrl-B, Left", "go back one character"),
            ("Ctrl-F, Right", "go forward one character"),
            ("Esc b, Esc f", "go back, forward one word"),
            ("Backspace, Ctrl-H", "delete the character before the cursor"),
            ("Delete", "delete the character under the cursor"),
            ("Ctrl-W, Esc Backspace", "delete the word before the cursor"),
            ("Esc d", "delete the word after the cursor"),
            ("Ctrl-K", "cut from the cursor to the end of the line"),
            ("Ctrl-U", "cut the whole line"),
            ("Ctrl-Y", "paste what was cut last"),
            ("Ctrl-T", "swap two characters at the cursor"),
            ("Esc u, Esc l, Esc c", "make the next word upper case, lower case, capitalized"),
            ("Ctrl-P, Up", "the previous command in the history"),
            ("Ctrl-N, Down", "the next command in the history"),
            ("Ctrl-R", "search the history backwards as you type (Ctrl-R again: the next match)"),
            ("Esc p, Esc n", "the previous, next command that starts as the line does"),
            ("Ctrl-V", "insert the next key as it is"),
            ("Ctrl-L", "clear the screen"),
            ("Ctrl-C", "abandon the line (or stop what is running)"),
            ("Ctrl-D", "leave carfab on an empty line; else delete the character under the cursor")
        ],
        closing:
            "Keys can be changed in ~/.editrc (or the file $EDITRC names), read at start, as editrc(5) describes: 'bind KEY FUNCTION' for every libedit program, 'carfab:bind KEY FUNCTION' for carfab alone, 'bind -v' for vi's keys. Completion is the function carfab-complete ('carfab:bind ^N carfab-complete')."
    )

    /// The page for `spec`, or the overview of `table`.
    static func page(for spec: CommandSpec?, in table: CommandTable) -> HelpPage {
        guard let spec else {
            return .overview(
                CommandGroup.allCases.compactMap { group in
                    let specs = table.specs.filter { $0.group == group }
                    return specs.isEmpty ? nil : (group.rawValue, specs.map { ($0.usage, $0.summary) })
                })
        }
        return .command(usage: spec.usage, details: spec.details, aliases: spec.aliases, example: spec.example)
    }

    /// The page as lines no wider than `width` columns (but for single words longer than that).
    /// Below `sideBySide` columns, each summary or meaning stands under its usage or key.
    public func text(width: Int) -> String {
        let width = max(width, Self.narrowest)
        let narrow = width < Self.sideBySide
        var lines: [String] = []
        switch self {
        case .overview(let groups):
            // Summaries start in one column; a usage too long for it stands on lines of its own.
            let column =
                narrow ? 4 : min(groups.flatMap { $0.entries.map(\.usage.count) }.max() ?? 0, Self.usageColumn) + 4
            for (group, entries) in groups {
                lines.append("\(group):")
                for (usage, summary) in entries {
                    var summaryLines = Self.wrap(summary, width: width - column)
                    if usage.count + 4 <= column && !narrow {
                        let first = summaryLines.isEmpty ? "" : summaryLines.removeFirst()
                        lines.append(("  " + usage + String(repeating: " ", count: column - usage.count - 2) + first).trimmingBlanks)
                    } else {
                        lines += Self.wrap(usage, width: width - 2, continuation: 4).map { "  " + $0 }
                    }
                    lines += summaryLines.map { String(repeating: " ", count: column) + $0 }
                }
            }
            lines += Self.wrap("Type 'help COMMAND' for details.", width: width)
            lines += Self.topics.flatMap { Self.wrap("Type 'help \($0.name)' for \($0.summary).", width: width) }
        case .command(let usage, let details, let aliases, let example):
            lines += Self.wrap("usage: " + usage, width: width, continuation: 7)
            lines.append("")
            lines += Self.wrap(details, width: width)
            if !aliases.isEmpty { lines += Self.wrap("Also: " + aliases.joined(separator: ", "), width: width) }
            lines += Self.wrapCommand(example, after: "Example: ", width: width)
        case .topic(let introduction, let entries, let closing):
            lines += Self.wrap(introduction, width: width)
            let column = narrow ? 4 : (entries.map(\.key.count).max() ?? 0) + 4
            for (key, meaning) in entries {
                let meaningLines = Self.wrap(meaning, width: width - column)
                if narrow {
                    lines += Self.wrap(key, width: width - 2).map { "  " + $0 }
                    lines += meaningLines.map { String(repeating: " ", count: column) + $0 }
                    continue
                }
                lines.append(
                    ("  " + key + String(repeating: " ", count: column - key.count - 2) + (meaningLines.first ?? "")).trimmingBlanks)
                lines += meaningLines.dropFirst().map { String(repeating: " ", count: column) + $0 }
            }
            lines.append("")
            lines += Self.wrap(closing, width: width)
        }
        return lines.joined(separator: "\n")
    }

    /// The widest usage that the overview keeps on the line of its summary.
    static let usageColumn = 26
    /// The narrowest width a page is laid out for (a terminal narrower still folds its lines).
    static let narrowest = 10
    /// The width from which summaries stand beside their usages: narrower, the 30-column
    /// usage column would leave them too little room.
    static let sideBySide = 60

    /// The command line `command` after `label`, as it can be copied and run: filled into lines
    /// of at most `width` columns (less the ` \` that continues each but the last, as a script's
    /// `\` at a line's end does), never broken inside quotes; lines after the first are indented
    /// under the command. (Wrapped as text, `help model`'s example ran as two commands, the
    /// second an error: trial 11.)
    static func wrapCommand(_ command: String, after label: String, width: Int) -> [String] {
        // Words as the lexer splits them at blanks outside quotes (an escaped quote stays inside).
        var words: [String] = []
        var word = ""
        var quoted = false
        var escaped = false
        for character in command {
            if character == " " && !quoted {
                if !word.isEmpty { words.append(word) }
                word = ""
                continue
            }
            word.append(character)
            if escaped {
                escaped = false
            } else if character == "\\" && quoted {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            }
        }
        if !word.isEmpty { words.append(word) }
        var lines: [String] = []
        var line = label
        // Too narrow for the label and the first word: the command starts on a line of its own.
        if let first = words.first, label.count + first.count + (words.count > 1 ? 2 : 0) > width {
            lines.append(label.trimmingBlanks)
            line = "  "
        }
        let indent = String(repeating: " ", count: line.count)
        var lineHasWord = false
        for word in words {
            // Room for the word and, as the line may go on, the ` \` that continues it.
            if lineHasWord && line.count + 1 + word.count + 2 > width {
                lines.append(line + " \\")
                line = indent + word
            } else {
                line += lineHasWord ? " " + word : word
            }
            lineHasWord = true
        }
        lines.append(line)
        return lines
    }

    /// `text`'s words filled into lines of at most `width` columns; lines after the first are
    /// indented by `continuation` blanks.
    static func wrap(_ text: String, width: Int, continuation: Int = 0) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let indent = lines.isEmpty ? 0 : continuation
            if !line.isEmpty && indent + line.count + 1 + word.count > width {
                lines.append(String(repeating: " ", count: indent) + line)
                line = String(word)
            } else {
                line += line.isEmpty ? String(word) : " " + word
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(String(repeating: " ", count: lines.isEmpty ? 0 : continuation) + line) }
        return lines
    }
}

extension String {
    fileprivate var trimmingBlanks: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
