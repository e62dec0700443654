import CarScript
import CarfabPOSIX

/// What `--check` is, in one place: `carfab --check` and the language server's diagnostics
/// both take their engine options from here, so that they report the same things.
enum ScriptCheck {
    /// Options that parse and resolve names and values, run definitions, `var` and `source`,
    /// and run nothing else (in particular never `save`).
    static func options(
        keepGoing: Bool, fileAccess: FileAccess, environment: EnvironmentAccess,
        stop: StopRequest = StopRequest(), center: ServiceCenter? = nil
    ) -> EngineOptions {
        var options = EngineOptions()
        options.host = POSIXHost()
        // The program's own commands are known, so a script that uses them checks clean.
        ProgramCommands.add(to: &options, center: center)
        options.checkOnly = true
        // A file sourced again is followed only where that could find more (trial 8, 1).
        options.boundsSourcing = true
        options.keepGoing = keepGoing
        options.fileAccess = fileAccess
        options.environment = environment
        options.stop = stop
        return options
    }
}
