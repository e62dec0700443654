/// `help` text, generated from the command table.
enum Help {
    static func text(for spec: CommandSpec?, in table: CommandTable) -> String {
        guard let spec else { return overview(table) }
        var lines = ["usage: \(spec.usage)", "", spec.details]
        if !spec.aliases.isEmpty { lines.append("Also: " + spec.aliases.joined(separator: ", ")) }
        lines.append("Example: \(spec.example)")
        return lines.joined(separator: "\n")
    }

    private static func overview(_ table: CommandTable) -> String {
        let width = table.specs.map(\.usage.count).max() ?? 0
        var lines: [String] = []
        for group in CommandGroup.allCases {
            let specs = table.specs.filter { $0.group == group }
            guard !specs.isEmpty else { continue }
            lines.append("\(group.rawValue):")
            for spec in specs {
                let usage = spec.usage
                lines.append("  " + usage + String(repeating: " ", count: width - usage.count + 2) + spec.summary)
            }
        }
        lines.append("Type 'help COMMAND' for details.")
        return lines.joined(separator: "\n")
    }
}
