import CarFactory
import CarScript
import Testing

/// `save --minimal`: only what differs from the catalog the session began with and from each
/// model's defaults; replayed, it rebuilds the session, whose full `save` is the same bytes.
@Suite struct SaveMinimalTests {
    static func printed(_ engine: Engine, _ command: String) throws -> String {
        let run = engine.evaluate(command)
        try #require(run.diagnostics.isEmpty, "\(command) failed: \(run.diagnostics.map(\.message))")
        guard case .text(let text)? = run.results.last?.result else { return "" }
        return text + "\n"
    }

    @Test func only_what_differs_from_the_catalog_and_the_defaults() throws {
        let engine = Engine()
        engine.evaluate(
            """
            car sports; car suv 2; set drivetrain rear
            currency CHF "CHF " digits 2 rate 0.88; rate CHF 0.9; rate GBP 0.5; rate EUR 0.92; select 1
            """)
        #expect(
            try Self.printed(engine, "save --minimal -") == """
                currency CHF "CHF " digits 2 rate 0.88
                rate GBP 0.5
                rate CHF 0.9
                car sports
                car suv 2
                set drivetrain rear
                select 1

                """)
        // A session like a new one: nothing to write, nothing printed.
        #expect(Engine().evaluate("save --minimal -").results.isEmpty)
        #expect(Engine().evaluate("SAVE --MINIMAL -").diagnostics.isEmpty)
        let missing = Engine().evaluate("save --minimal")
        #expect(missing.diagnostics.map(\.message) == ["missing FILE; usage: save [--minimal] FILE"])
    }

    @Test func a_write_error_points_at_the_file() {
        let files = MemoryHost()
        files.folders = ["folder"]
        var options = EngineOptions()
        options.host = files
        let run = Engine(options: options).evaluate("save --minimal folder")
        #expect(run.diagnostics.map(\.column) == [16])
    }

    /// The generator of `SaveRoundTripTests` (hostile names and values through variables).
    @Test func replaying_the_minimal_save_rebuilds_what_the_full_save_writes() throws {
        var shorter = 0
        for round in 0..<1_500 {
            let engine = Engine()
            var maker = SessionMaker(random: SplitMix(seed: UInt64(0x4D1) &+ UInt64(round) &* 0x2545_F491_4F6C_DD1D))
            maker.make(in: engine, commands: 6 + round % 20)
            let full = try Self.printed(engine, "save -")
            let minimal = try Self.printed(engine, "save --minimal -")
            var options = EngineOptions()
            options.fileAccess = .refused(by: "a replay in the tests")
            let replayed = Engine(options: options)
            let replay = replayed.evaluate(minimal, name: "minimal")
            try #require(replay.diagnostics.isEmpty, "round \(round): \(replay.diagnostics.map(\.message))\n\(minimal.prefix(2_000))")
            #expect(replay.results.isEmpty, "round \(round)")
            #expect(try Self.printed(replayed, "save -") == full, "round \(round):\n\(minimal.prefix(2_000))")
            #expect(minimal.utf8.count <= full.utf8.count)
            if minimal.utf8.count < full.utf8.count { shorter += 1 }
        }
        #expect(shorter == 1_500)
    }
}
