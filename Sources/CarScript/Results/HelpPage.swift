/// What `help` shows, from the command table: every command's usage and summary by group, or
/// one command's page. Laid out for a width when it is rendered (the terminal's, or 80).
public enum HelpPage: Sendable {
    /// Each group's commands: usage and one-line summary.
    case overview([(group: String, entries: [(usage: String, summary: String)])])
    /// One command.
    case command(usage: String, details: String, aliases: [String], example: String)

    /// The page for `spec`, or the overview of `table`.
    static func page(for spec: CommandSpec?, in table: CommandTable) -> HelpPage {
        guard let spec else {
            return .overview(CommandGroup.allCases.compactMap { group in
                let specs = table.specs.filter { $0.group == group }
                return specs.isEmpty ? nil : (group.rawValue, specs.map { ($0.usage, $0.summary) })
            })
        }
        return .command(usage: spec.usage, details: spec.details, aliases: spec.aliases, example: spec.example)
    }

    /// The page as lines no wider than `width` columns (but for single words longer than that).
    public func text(width: Int) -> String {
        let width = max(width, 40)
        var lines: [String] = []
        switch self {
        case .overview(let groups):
            // Summaries start in one column; a usage too long for it stands on lines of its own.
            let column = min(groups.flatMap { $0.entries.map(\.usage.count) }.max() ?? 0, Self.usageColumn) + 4
            for (group, entries) in groups {
                lines.append("\(group):")
                for (usage, summary) in entries {
                    var summaryLines = Self.wrap(summary, width: width - column)
                    if usage.count + 4 <= column {
                        let first = summaryLines.isEmpty ? "" : summaryLines.removeFirst()
                        lines.append(("  " + usage + String(repeating: " ", count: column - usage.count - 2) + first).trimmingBlanks)
                    } else {
                        lines += Self.wrap(usage, width: width - 2, continuation: 4).map { "  " + $0 }
                    }
                    lines += summaryLines.map { String(repeating: " ", count: column) + $0 }
                }
            }
            lines.append("Type 'help COMMAND' for details.")
        case .command(let usage, let details, let aliases, let example):
            lines += Self.wrap("usage: " + usage, width: width, continuation: 7)
            lines.append("")
            lines += Self.wrap(details, width: width)
            if !aliases.isEmpty { lines += Self.wrap("Also: " + aliases.joined(separator: ", "), width: width) }
            lines += Self.wrap("Example: " + example, width: width, continuation: 9)
        }
        return lines.joined(separator: "\n")
    }

    /// The widest usage that the overview keeps on the line of its summary.
    static let usageColumn = 26

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
