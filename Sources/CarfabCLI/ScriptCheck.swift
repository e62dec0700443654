import CarScript
import CarfabPOSIX

/// What `--check` is, in one place: `carfab --check` and the language server's diagnostics
/// both take their engine options from here, so that they report the same things.
enum ScriptCheck {
    /// Options that parse and resolve names and values, run definitions, `var` and `source`,
    /// and run nothing else (in particular never `save`).
    static func options(
        keepGoing: Bool, fileAccess: FileAccess, environment: EnvironmentAccess,
        stop: StopRequest = StopRequest()
    ) -> EngineOptions {
        var options = EngineOptions()
        options.host = POSIXHost()
        options.checkOnly = true
        options.keepGoing = keepGoing
        options.fileAccess = fileAccess
        options.environment = environment
        options.stop = stop
        return options
    }
}
