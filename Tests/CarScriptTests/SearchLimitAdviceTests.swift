import CarFactory
import Testing

@testable import CarScript

/// A search stopped at its step limit: the error is the domain's, and the note says what
/// narrows it for the command that asked (before, every command got `cheapest`'s advice).
@Suite struct SearchLimitAdviceTests {
    @Test(
        arguments: [
            ("options", "ask about one family at a time: 'options FAMILY'"),
            ("options drivetrain in GBP", "ask about one option at a time: 'fit drivetrain OPTION' looks for its cheapest repair alone"),
            (
                "why drivetrain front",
                "'fit drivetrain front' looks for the cheapest repair alone; or choose the other changes yourself: 'set drivetrain front FAMILY OPTION ...' sets several parts in one step"
            ),
            (
                "fit drivetrain front",
                "choose the other changes yourself: 'set drivetrain front FAMILY OPTION ...' sets several parts in one step"
            ),
            ("cheapest drivetrain front", "fix more options to narrow it: 'cheapest MODEL FAMILY OPTION ...'")
        ])
    func each_command_gets_advice_that_fits_it(command: String, advice: String) {
        var options = EngineOptions()
        options.searchLimits = SearchLimits(steps: 1, repairs: 10)
        let run = Engine(options: options).evaluate("car sports; \(command)")
        #expect(run.diagnostics.count == 1)
        #expect(run.diagnostics.first?.id == "search-limit-reached")
        #expect(run.diagnostics.first?.message == "the search took more than 1 steps and was stopped")
        #expect(run.diagnostics.first?.notes.map(\.message) == [advice])
    }
}
