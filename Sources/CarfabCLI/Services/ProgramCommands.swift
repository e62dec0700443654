import CarScript

/// The commands carfab adds to the language as its engine's host, in one place: every engine
/// the program makes (a session, `--check`, the language server, `--test`) is given these, so
/// each knows them alike. The engine knows nothing of what they do.
enum ProgramCommands {
    /// Adds carfab's commands to `options`: `services` lists `center`'s services (none where no
    /// service center runs: `--check` and the language server, which run none of these, and a
    /// `--test` file's session, whose results are not shown).
    static func add(to options: inout EngineOptions, center: ServiceCenter?) {
        options.addCommand(services(center))
    }

    /// `services`: the service center's services in start order, and their states.
    static func services(_ center: ServiceCenter?) -> HostCommand {
        let board = center?.board
        return HostCommand(
            name: "services", summary: "list the program's services and their states",
            details:
                "One row per service of carfab's service center, in the order they are set up and started (they are stopped in reverse on every way out): catalog (the built-in catalog and --catalog files), output (standard output and error, flushed when it stops) and, at the prompt, history (the prompt's history file, saved when it stops). While a command runs, each is running, but the history is off when it has no file (no HOME) or leaves its file alone (carfab warns why as it starts: a symbolic link, not a regular file, not a history file, a folder it cannot make); this session's commands are still recalled.",
            run: { _ in
                var table = Table([.init("service"), .init("state")], emptyMessage: "No services.")
                for (name, state) in board?.states ?? [] { table.append([.text(name), .text(state.rawValue)]) }
                return .table(table)
            })
    }
}
