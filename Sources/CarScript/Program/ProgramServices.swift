import CarFactory

/// Holds the catalog the session starts from; setting up loads it.
final class CatalogService: Service {
    let name = "catalog"
    private(set) var catalog = Catalog()

    func setUp() throws {
        catalog = Catalog.standard
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
