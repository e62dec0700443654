import CarFactory
import Testing
@testable import CarScript
@testable import CarfabCLI

/// The direct path must be invisible: every script prints and reports exactly what it would
/// through the general path. These run the same scripts both ways through carfab's text
/// renderer and compare the bytes, on mixes that change rules, options, rates and the stock
/// between the commands the direct path remembers things about.
@Suite struct DirectPathTests {
    /// Runs `script` through an engine and carfab's text renderer; stdout and stderr bytes.
    private func run(_ script: String, direct: Bool) -> (out: String, err: String, stock: StockLedger) {
        let out = Output.memory()
        let err = Output.memory()
        var options = EngineOptions()
        options.keepGoing = true
        options.directPath = direct
        let engine = Engine(options: options, sink: TextRenderer(out: out, err: err))
        engine.evaluate(script, name: "mix.carfab")
        return (String(decoding: out.buffer, as: UTF8.self), String(decoding: err.buffer, as: UTF8.self), engine.stock)
    }

    private func expectSame(_ script: String, sourceLocation: SourceLocation = #_sourceLocation) -> StockLedger {
        let direct = run(script, direct: true)
        let general = run(script, direct: false)
        #expect(direct.out == general.out, sourceLocation: sourceLocation)
        #expect(direct.err == general.err, sourceLocation: sourceLocation)
        #expect(!direct.out.isEmpty, sourceLocation: sourceLocation)
        return direct.stock
    }

    /// A small deterministic generator, so a failure names a seed that reproduces it.
    private struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func random_mixes_print_the_same_both_ways(seed: UInt64) {
        var random = SplitMix(state: seed)
        let models = ["compact", "sports", "suv", "SUV", "roadster", "nosuch"]
        let changes = ["floorplan short", "floorplan standard", "floorplan long", "suspension road", "suspension race",
                       "suspension soft", "drivetrain front", "drivetrain rear", "drivetrain 4wd", "drivetrain AWD",
                       "drivetrain hybrid", "drivetrain nosuch", "colour red", "drivetrain"]
        let currencies = ["", " USD", " GBP", " eur", " JPY", " XYZ", " CHF", " GBP extra"]
        // Definitions and rule changes now and then, between the commands the direct path remembers.
        let events = [
            "forbid drivetrain rear with suspension offroad",
            "forbid drivetrain 4wd with floorplan standard",
            "option drivetrain hybrid \"Hybrid\" price 6500 alias electric",
            "model roadster \"Mazda MX-5\" price 31000 floorplan short suspension race drivetrain rear",
            "currency CHF \"Fr.\" digits 2 rate 0.88",
            "rate GBP 0.5", "rate JPY 1000000000", "remove", "remove 1", "select 1", "list",
        ]
        var lines: [String] = []
        for _ in 0..<600 {
            var commands: [String] = []
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let roll = Int.random(in: 0..<100, using: &random)
                switch roll {
                case 0..<20:
                    let count = ["", " 1", " 3", " 0", " -1", " 9223372036854775807", " x"].randomElement(using: &random)!
                    commands.append("car " + models.randomElement(using: &random)! + count)
                case 20..<50: commands.append("set " + changes.randomElement(using: &random)!)
                case 50..<62: commands.append("price" + currencies.randomElement(using: &random)!)
                case 62..<74: commands.append("total" + currencies.randomElement(using: &random)!)
                case 74..<82: commands.append(["show", "show 1", "show extra"].randomElement(using: &random)!)
                case 82..<88: commands.append("echo \"it's; \\\"here\\\"\" and  there")
                case 88..<91: commands.append("clear")
                case 91..<93: commands.append(["clear now", "echo", "price EUR EUR"].randomElement(using: &random)!)
                default: commands.append(events.randomElement(using: &random)!)
                }
            }
            lines.append(commands.joined(separator: "; "))
        }
        _ = expectSame(lines.joined(separator: "\n") + "\ntotal\nlist\n")
    }

    @Test func a_rule_made_after_a_change_was_remembered_still_refuses_it() {
        let script = """
            car suv; set drivetrain rear; price
            clear
            forbid drivetrain rear with floorplan long
            car suv; set drivetrain rear; price
            car compact; set floorplan long; show
            """
        _ = expectSame(script)
        #expect(run(script, direct: true).err.contains("mix.carfab:4:"))
    }

    @Test func configurations_no_line_holds_are_dropped_and_the_rest_renumbered() {
        // 70 x 70 configurations of one line, more than the stock keeps before dropping the
        // ones no line holds; lines added between keep theirs.
        var script = (1...70).map { "option drivetrain d\($0) \"D\($0)\" price \($0 * 10)" }
        script += (1...70).map { "option suspension s\($0) \"S\($0)\" price \($0 * 1000)" }
        script.append("car compact 2")
        for d in 1...70 {
            var line = ["car suv"]
            for s in 1...70 { line.append("set suspension s\(s); set drivetrain d\(d)") }
            line.append(d % 10 == 0 ? "show; price GBP" : "remove")
            script.append(line.joined(separator: "; "))
        }
        script += ["list", "total EUR", "select 1", "show", "set drivetrain d3", "show"]
        let stock = expectSame(script.joined(separator: "\n") + "\n")
        #expect(stock.generation > 0, "the stock never dropped a configuration: the test did not reach it")
        #expect(stock.lineCount == 8)
    }

    @Test func long_show_texts_and_clears_of_many_configurations_print_the_same() {
        // A car type longer than the cache keeps, shows of more texts than it holds, and a
        // clear after thousands of configurations (which drops them and renumbers).
        var script = (1...70).map { "option drivetrain d\($0) \"D\($0)\" price \($0 * 10)" }
        script += (1...70).map { "option suspension s\($0) \"S\($0)\" price \($0 * 1000)" }
        script.append("model big \"\(String(repeating: "B", count: 5000))\" price 100000 floorplan short suspension race drivetrain rear")
        for d in 1...70 {
            var line = ["car big"]
            for s in 1...70 { line.append("set suspension s\(s); set drivetrain d\(d); show") }
            line.append(d % 20 == 0 ? "clear; car sports; show" : "car suv; show; price")
            script.append(line.joined(separator: "; "))
        }
        script += ["clear", "car big; show; total"]
        let stock = expectSame(script.joined(separator: "\n") + "\n")
        #expect(stock.generation > 0)
        #expect(stock.lineCount == 1)
    }
}
