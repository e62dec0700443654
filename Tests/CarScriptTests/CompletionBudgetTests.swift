import CarFactory
import Testing

@testable import CarScript

// Tab after `set FAMILY ` prices the cheapest repair of each option a rule refuses: one search
// each, all of them from one budget of steps, and a stop request ends the completion.
@Suite struct CompletionBudgetTests {
    /// The sports car (short floorplan) and `count` more drivetrains that the short floorplan forbids.
    static func engine(options count: Int) throws -> (Engine, Car) {
        let engine = Engine()
        var script = "car sports\n"
        for i in 0..<count { script += "option drivetrain d\(i) \"D\" price \(i % 97)\n" }
        for i in 0..<count { script += "forbid drivetrain d\(i) with floorplan short\n" }
        engine.evaluate(script)
        return (engine, try #require(try? engine.stock.currentLine().car))
    }

    @Test func past_the_budget_the_options_show_their_rule_without_a_price() throws {
        let (engine, car) = try Self.engine(options: 3_000)
        var completer = Completer(commands: .standard, catalog: engine.catalog, currentCar: car)
        let whole = completer.complete("set drivetrain ")
        #expect(whole.candidates.count == 3_000 + 5)
        // Each search's start counts a step per 64 options of each family (47 + 3 here), so
        // the standard budget prices some 1,900 of the 3,001 that need a repair.
        let priced = whole.descriptions.filter { $0.hasPrefix("repair ") }.count
        #expect(priced > 1_000 && priced < 3_001, "\(priced)")
        // Priced in catalog order: the options after the last priced show only the rule (the
        // names after them, all and awd, are 4wd's).
        let last = try #require(whole.descriptions.lastIndex { $0.hasPrefix("repair ") })
        let after = (last + 1)..<whole.candidates.count
        #expect(
            after.filter { whole.candidates[$0].hasPrefix("d") }.allSatisfy { whole.descriptions[$0] == "(not with the short floorplan)" })
        #expect(whole.candidates.suffix(2) == ["all", "awd"])
        // The price is `fit`'s: d2 ($2.00 for rear's $1,500.00) with a standard floorplan (+$2,000.00).
        let d2 = try #require(whole.candidates.firstIndex(of: "d2"))
        #expect(whole.descriptions[d2] == "repair +$502.00 (not with the short floorplan)")
        let d2999 = try #require(whole.candidates.firstIndex(of: "d2999"))
        #expect(d2999 > last && whole.forbidden[d2] && whole.forbidden[d2999])
        // A smaller budget prices fewer: 100 steps is one search (front's, the first listed) and no more.
        completer.repairSteps = 100
        let small = completer.complete("set drivetrain ")
        #expect(small.candidates == whole.candidates)
        #expect(small.descriptions.filter { $0.hasPrefix("repair ") } == ["repair +$500.00 (not with the short floorplan)"])
    }

    @Test func a_stop_request_abandons_the_completion() throws {
        let (engine, car) = try Self.engine(options: 50)
        var completer = Completer(commands: .standard, catalog: engine.catalog, currentCar: car)
        let stop = StopRequest()
        completer.stop = stop
        #expect(!completer.complete("set drivetrain ").stopped)
        stop.request(2)
        let stopped = completer.complete("set drivetrain ")
        #expect(stopped.stopped)
        #expect(stopped.candidates.isEmpty && stopped.replacement == nil)
    }

    @Test func the_prompts_completer_asks_the_sessions_stop_request() throws {
        let engine = Engine()
        engine.evaluate("car sports")
        #expect(engine.completer().stop === engine.session.stop)
    }
}
