import CarFactory

/// The built-in catalog, written in carfab's own language and compiled into the binary.
enum BuiltInCatalog {
    /// The name its script goes by in messages.
    static let name = "<built-in catalog>"

    /// The script: the tables of the brief, as definitions.
    static let script = """
        # The built-in catalog: options, rules, models and currencies, as any catalog file states them.
        option floorplan short "Short" price 0 seats 2 engine mid
        option floorplan standard "Standard" price 2000 seats 4 engine front
        option floorplan long "Long" price 6500 seats 8 engine front
        option suspension road "Standard" price 0 alias standard
        option suspension race "Firm" price 2400 alias sports alias firm
        option suspension offroad "Soft" price 1800 alias soft
        option drivetrain front "Front" price 0
        option drivetrain rear "Rear" price 1500
        option drivetrain 4wd "4WD" price 4000 alias all alias awd
        forbid suspension race with floorplan long
        forbid drivetrain front with floorplan short
        model compact "VW Golf" price 27995 floorplan standard suspension road drivetrain front
        model sports "Porsche Boxster" price 68300 floorplan short suspension race drivetrain rear
        model suv "Cadillac Escalade" price 81895 floorplan long suspension offroad drivetrain 4wd
        currency GBP "£" digits 2 rate 0.60338
        currency EUR "€" digits 2 rate 0.92
        currency JPY "¥" digits 0 rate 151.5

        """

}

extension Engine {
    /// The built-in catalog: the brief's models, options, rules and currencies, as its script defines them.
    public static let builtInCatalog: Catalog = {
        let problems = Evaluation()
        var options = EngineOptions()
        options.definitionsOnly = true
        let loader = Session(catalog: Catalog(), sink: problems, options: options)
        loader.run(buffered: TextLineSource(bytes: Array(BuiltInCatalog.script.utf8), name: BuiltInCatalog.name))
        precondition(problems.diagnostics.isEmpty, "the built-in catalog does not load: \(problems.diagnostics)")
        return loader.catalog
    }()

    /// `base` and the definitions of catalog files, each opened when its turn comes (a FIFO
    /// waits for its writer then); nil if any fails or a stop is asked for.
    package static func catalog(
        _ base: Catalog = builtInCatalog, files: [[UInt8]], reportingTo sink: any ResultSink,
        options: EngineOptions
    ) -> Catalog? {
        var options = options
        options.definitionsOnly = true
        // The host's commands are known (a file's `services` holds no definition, and is no
        // unknown command); with no file, there is nothing to look up.
        let loader = Session(catalog: base, sink: sink, options: options, commands: files.isEmpty ? .standard : options.commandTable)
        for path in files where !loader.shouldStop {
            do throws(LineSourceFailure) {
                guard let host = options.host else {
                    throw LineSourceFailure.unreadable("cannot read '\(String(decoding: path, as: UTF8.self))': no files without a host")
                }
                // `-` is standard input, as on carfab's command line.
                loader.run(
                    path == [UInt8(ascii: "-")]
                        ? try host.openStandardInput(stop: options.stop)
                        : try host.openFile(path, stop: options.stop))
            } catch .interrupted {
                return nil
            } catch {
                loader.reportUnreadable(path: String(decoding: path, as: UTF8.self), failure: error)
            }
        }
        return loader.hasFailed || loader.stop.isRequested ? nil : loader.catalog
    }
}
