import CarFactory
import CarScript

/// A catalog that failed to load; its diagnostics are already rendered.
struct CatalogLoadFailure: Error {}

/// Loads the catalog the session starts from: the built-in script, then `--catalog` files.
final class CatalogService: Service {
    let name = "catalog"
    private(set) var catalog = Catalog()
    private let files: [ArgumentBytes]
    private let renderer: any ResultRenderer
    private let options: EngineOptions

    init(files: [ArgumentBytes], renderer: any ResultRenderer, options: EngineOptions) {
        self.files = files
        self.renderer = renderer
        self.options = options
    }

    func setUp() throws {
        guard let loaded = Engine.catalog(files: files.map(\.bytes), reportingTo: renderer, options: options) else {
            throw CatalogLoadFailure()
        }
        catalog = loaded
    }

    func stop() {}
}

/// Standard output and error, buffered; stopping flushes them, on every way out.
final class OutputService: Service {
    let name = "output"
    let out: Output
    let err: Output

    init(out: Output, err: Output) {
        self.out = out
        self.err = err
    }

    func setUp() throws {}

    func stop() {
        out.flush()
        err.flush()
    }
}
