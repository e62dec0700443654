import CarFactory
import Testing

@testable import CarScript

// Tab after `fit ...; set FAMILY ` runs the line's `fit` in a copy of the session: from the
// completion's one budget of steps, not a command's whole 1,000,000 each (trial 11, 6).
@Suite struct CompletionFitBudgetTests {
    /// Pigeons: `count` families p0... whose option `z` needs gate `off`, and `count - 1` holes
    /// h1... no two families may share. The car (all `z`, gate `off`) is valid; `fit g on`
    /// must find every family a hole of its own, which there is not: the search is long.
    static func engine(pigeons count: Int) -> Engine {
        let engine = Engine()
        var script = "family g \"G\" default off \"Off\"\noption g on \"On\" price 1\n"
        for p in 0..<count {
            script += "family p\(p) \"P\" default z \"Z\"\n"
            for h in 1..<count { script += "option p\(p) h\(h) \"H\" price \(h)\n" }
            script += "require p\(p) z with g off\n"
        }
        for h in 1..<count {
            for p in 0..<count {
                for q in (p + 1)..<count { script += "forbid p\(p) h\(h) with p\(q) h\(h)\n" }
            }
        }
        script += "car sports\n"
        engine.evaluate(script)
        return engine
    }

    /// A `fit` past the completion's budget leaves the car unknown: the options after it are
    /// listed with their list prices, as with no car. (Ten pigeons: the command's search ends
    /// in no-valid-car within its 1,000,000 steps, 0.76 s, well past the completion's 100,000.)
    @Test func a_fit_past_the_budget_leaves_the_car_unknown() throws {
        let engine = Self.engine(pigeons: 10)
        #expect(engine.failureCount == 0)
        let asIfNoCar = Completer(commands: .standard, catalog: engine.catalog).complete("set p0 ")
        let known = engine.completer().complete("set p0 ")
        #expect(known.descriptions != asIfNoCar.descriptions)
        let afterFit = engine.completer().complete("fit g on; set p0 ")
        #expect(afterFit.candidates == asIfNoCar.candidates)
        #expect(afterFit.descriptions == asIfNoCar.descriptions)
    }

    /// The copy's searches have the completion's limit and spend from its one budget, which
    /// the repair prices then share; it asks no questions (`why` there is not run).
    @Test func the_copys_searches_spend_the_completions_budget() throws {
        let engine = Engine()
        engine.evaluate("car sports")
        let copy = engine.session.rehearsal(of: Array("fit drivetrain front; why drivetrain 4wd".utf8))
        #expect(copy.options.searchLimits.steps == Completer.repairStepBudget)
        let spent = try #require(copy.searchBudget).spent
        #expect(spent > 0)
        let fitOnly = engine.session.rehearsal(of: Array("fit drivetrain front".utf8))
        #expect(try #require(fitOnly.searchBudget).spent == spent)
        #expect(try copy.stock.currentLine().car.priceMinorUnits == fitOnly.stock.currentLine().car.priceMinorUnits)
    }
}
