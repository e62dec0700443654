import CarScript
import Testing

/// Definitions taken back by `undo` or `rollback` leave a catalog that behaves as one that never
/// had them, and `redo` one that behaves as one that always did: not only what `save` writes,
/// but every table a later definition or the configurator looks in (duplicates, the pairs a
/// rule or a model's defaults hold, each family's cheapest options, names and aliases).
@Suite struct CatalogUndoTests {
    typealias SplitMix = SessionStateDifferentialTests.SplitMix

    /// Definitions of every kind over a few names, so that many are refused as duplicates or
    /// as breaking a rule or a model's defaults, mixed with cars, rates and a few failing commands.
    static func command(_ random: inout SplitMix) -> String {
        func pick(_ words: [String]) -> String { words[Int.random(in: 0..<words.count, using: &random)] }
        let number = Int.random(in: 0..<12, using: &random)
        let family = pick(["drivetrain", "paint", "trim"])
        let option = family == "drivetrain" ? pick(["d\(number)", "rear", "front"]) : pick(["\(family)\(number)", "\(family)0"])
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<8:
            return "family \(pick(["paint", "trim"])) \"F\" default \(pick(["paint", "trim"]))0 \"X\" price \(number * 100)"
        case 8..<30:
            return "option \(family) \(option) \"O\" price \(pick(["0", "50", "700", "1200"]))"
                + pick(["", " alias a\(number)"])
        case 30..<38:
            return "model m\(number % 4) \"M\" price \(20_000 + number) floorplan short suspension race drivetrain "
                + pick(["rear", "d1", "d2"]) + pick(["", " paint paint1", " trim trim0"])
        case 38..<58:
            return pick(["forbid", "forbid", "require"]) + " \(family) \(option) with "
                + pick(["floorplan short", "floorplan long", "suspension race", "paint paint1", "trim trim2", "drivetrain d3"])
        case 58..<62: return "currency C\(pick(["AA", "BB"])) \"c \" digits 2 rate 1.5"
        case 62..<68: return "rate " + pick(["EUR", "CAA", "CBB"]) + " " + pick(["0.5", "2"])
        case 68..<80: return "car " + pick(["sports", "compact", "m0", "m1", "m2"])
        case 80..<90: return "set \(family) \(option)"
        default: return pick(["remove", "var v \(number)", "select 1"])
        }
    }

    /// What an engine answers to `probes`: results and errors, command by command, then `save -`.
    static func answers(_ engine: Engine, _ probes: [String]) -> [String] {
        var answers: [String] = []
        for probe in probes {
            let run = engine.evaluate(probe)
            answers.append("\(probe) => \(run.results.map { "\($0.result)" }) \(run.diagnostics.map(\.message))")
        }
        return answers + [UndoHistoryTests.saved(engine)]
    }

    /// The questions asked of both catalogs: the configurator over each family, then
    /// `commands` again (each definition taken back can be made again, one kept is a
    /// duplicate) and more of their kind, then the configurator again.
    static func probes(_ random: inout SplitMix, _ commands: [String]) -> [String] {
        let questions = [
            "cheapest", "cheapest sports", "options drivetrain", "options paint", "options trim", "models",
            "why drivetrain d1", "car sports", "set drivetrain a1", "set paint paint1"
        ]
        return questions + commands + (0..<60).map { _ in command(&random) } + questions
    }

    /// An engine keeping a history (as at the prompt) that reads `files`.
    static func engine(_ files: [String: String]) -> Engine {
        var options = EngineOptions()
        options.keepGoing = true
        options.keepsUndoHistory = true
        options.host = MemoryHost(files)
        return Engine(options: options)
    }

    @Test(arguments: Array(1...30) as [UInt64])
    func definitions_taken_back_leave_the_catalog_that_never_had_them(seed: UInt64) {
        var random = SplitMix(state: seed)
        let prefix = (0..<Int.random(in: 0...40, using: &random)).map { _ in Self.command(&random) }
        // A first change no later one takes back: every state after it shows it in `save`.
        let suffix = ["var marker set"] + (0..<Int.random(in: 1...80, using: &random)).map { _ in Self.command(&random) }
        let probes = Self.probes(&random, suffix)
        let files = ["suffix.carfab": suffix.joined(separator: "\n") + "\n"]
        func engine(running commands: [String]) -> Engine {
            let engine = Self.engine(files)
            for command in commands { engine.evaluate(command) }
            return engine
        }
        let never = engine(running: prefix)
        let start = UndoHistoryTests.saved(never)
        let expected = Self.answers(never, probes)
        let expectedAfter = Self.answers(engine(running: prefix + suffix), probes)
        let expectedAfterSource = Self.answers(engine(running: prefix + ["source suffix.carfab"]), probes)

        // Step by step: undone back to the start, then all redone.
        let stepwise = engine(running: prefix + suffix)
        while UndoHistoryTests.saved(stepwise) != start, stepwise.evaluate("undo").diagnostics.isEmpty {}
        let redone = engine(running: prefix + suffix)
        while UndoHistoryTests.saved(redone) != start, redone.evaluate("undo").diagnostics.isEmpty {}
        while redone.evaluate("redo").diagnostics.isEmpty {}
        #expect(Self.answers(stepwise, probes) == expected, "seed \(seed), undone")
        #expect(Self.answers(redone, probes) == expectedAfter, "seed \(seed), redone")

        // As one step (a `source`, whose definitions share one mark).
        let sourced = engine(running: prefix + ["source suffix.carfab", "undo"])
        #expect(Self.answers(sourced, probes) == expected, "seed \(seed), source undone")
        let resourced = engine(running: prefix + ["source suffix.carfab", "undo", "redo"])
        #expect(Self.answers(resourced, probes) == expectedAfterSource, "seed \(seed), source redone")
    }
}
