import CarFactory
@testable import CarScript

extension Catalog {
    /// The built-in catalog, loaded from its script as carfab loads it.
    static let builtIn: Catalog = Engine.builtInCatalog
}

/// The engine's own test host: a session whose results and diagnostics are kept as data, with
/// no renderer of the program's (engine tests import only the engine).
final class EngineHarness {
    let kept = Evaluation()
    let session: Session

    init(options: EngineOptions = EngineOptions()) {
        session = Session(catalog: .builtIn, sink: kept, options: options)
    }

    /// Runs `text` (named `t`) and returns the results and diagnostics it made.
    @discardableResult
    func run(_ text: String) -> (results: [CommandResult], diagnostics: [Diagnostic]) {
        let results = kept.results.count, diagnostics = kept.diagnostics.count
        session.run(text: text, name: "t")
        return (kept.results[results...].map(\.result), Array(kept.diagnostics[diagnostics...]))
    }
}
