import CarFactory

/// The built-in catalog, written in carfab's own language and compiled into the binary.
public enum BuiltInCatalog {
    /// The script: the tables of the brief, as definitions.
    public static let script = """
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

    /// The catalog the script defines, or nil (with the diagnostics rendered) if it or a catalog file fails.
    public static func load(files: [ArgumentBytes] = [], renderer: any ResultRenderer, keepGoing: Bool = false) -> Catalog? {
        var options = SessionOptions()
        options.definitionsOnly = true
        options.keepGoing = keepGoing
        let loader = Session(catalog: Catalog(), renderer: renderer, options: options)
        loader.run(text: script, name: "<built-in catalog>")
        for file in files where !loader.shouldStop {
            do {
                loader.run(try openLineSource(.filePath(file.bytes)))
            } catch .interrupted {
                return nil
            } catch {
                loader.reportUnreadable(path: file.description, failure: error)
            }
        }
        return loader.hasFailed || stopRequested ? nil : loader.catalog
    }
}
