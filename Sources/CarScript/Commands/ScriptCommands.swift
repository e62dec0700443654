import CarFactory

/// `echo`, `help`, `services`, `quit`.
enum ScriptCommands {
    static let all: [CommandSpec] = [
        CommandSpec(
            name: "echo", aliases: [], group: .script,
            arguments: [.optional("TEXT", .words)],
            summary: "print the words, joined by single spaces",
            details: "Quote text to keep ';', '#' or several blanks in it.",
            example: "echo \"a;b\" c",
            run: { session, call throws(ScriptError) in
                session.emit(.text(call.words(1).joined(separator: " ")), call)
            }),
        CommandSpec(
            name: "help", aliases: [], group: .script,
            arguments: [.optional("COMMAND", .command)],
            summary: "list the commands, or describe COMMAND",
            details: "Without a command, lists every command with a one-line summary.",
            example: "help set",
            run: { session, call throws(ScriptError) in
                session.emit(.text(Help.text(for: call.command(1), in: session.commands)), call)
            }),
        CommandSpec(
            name: "services", aliases: [], group: .system,
            arguments: [],
            summary: "list the program's services and their states",
            details: "The services are set up and started in this order, and stopped in reverse on every way out.",
            example: "services",
            run: { session, call throws(ScriptError) in
                var table = Table([.init("service"), .init("state")])
                for (name, state) in session.services?.states ?? [] {
                    table.rows.append([.text(name), .text(state.rawValue)])
                }
                session.emit(.table(table), call)
            }),
        CommandSpec(
            name: "quit", aliases: ["exit"], group: .script,
            arguments: [],
            summary: "stop reading commands",
            details: "Ends the session; the exit status says whether any command failed.",
            example: "quit",
            run: { session, _ throws(ScriptError) in session.quitRequested = true }),
    ]
}
