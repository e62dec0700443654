import CarFactory
import Testing

@testable import CarScript

/// The words after `options`, `why`, `fit` and `cheapest`: what the command does with them and
/// what Tab offers after them agree, on the cases where they once read them differently.
@Suite struct ConfiguratorWordsTests {
    /// A catalog with a model named as a family (`paint`), a model named `in`, and options
    /// named `in` and `drivetrain`.
    private let definitions = """
        family paint "Paint" default white "White"
        option paint in "Indigo" price 700
        option paint drivetrain "Drive Blue" price 300
        model paint "Paint Shop Special" price 20000 floorplan short suspension road drivetrain rear
        model in "Inner City" price 18000 floorplan short suspension road drivetrain rear
        car sports
        """

    private func engine() -> Engine {
        let engine = Engine()
        let run = engine.evaluate(definitions)
        #expect(run.diagnostics.isEmpty)
        return engine
    }

    private func complete(_ engine: Engine, _ line: String) -> [String] {
        engine.completer().complete(line).candidates
    }

    /// The error's message, or the commands a `cheapest` printed.
    private func outcome(_ engine: Engine, _ command: String) -> String {
        let run = engine.evaluate(command)
        if let diagnostic = run.diagnostics.first { return "error: \(diagnostic.message)" }
        for result in run.results.reversed() {
            if case .text(let text) = result.result { return text }
        }
        return "?"
    }

    /// Before: the command read `paint` as the family (and wanted an option after it), Tab
    /// read it as the model (and offered families and `in` after it).
    @Test func a_word_that_is_both_a_model_and_a_family_is_read_one_way() {
        let engine = engine()
        #expect(outcome(engine, "cheapest paint") == "car paint")
        // Tab offers what may come after either: the families and `in`, and the paint options.
        #expect(complete(engine, "cheapest paint ") == ["floorplan", "suspension", "drivetrain", "paint", "in", "white"])
        // Followed by one of the family's options, it is the family.
        #expect(outcome(engine, "cheapest paint in") == "car in; set paint in")
        #expect(outcome(engine, "cheapest paint paint drivetrain") == "car paint; set paint drivetrain")
    }

    /// Before: `cheapest in` was `in` with no currency after it: the model named `in` could not
    /// be asked about.
    @Test func a_model_named_in_is_nameable_unless_one_word_follows() {
        let engine = engine()
        #expect(outcome(engine, "cheapest in") == "car in")
        #expect(outcome(engine, "cheapest in drivetrain 4wd") == "car in; set drivetrain 4wd")
        #expect(outcome(engine, "cheapest in in GBP").hasPrefix("car in"))
        // `in` and one word: the currency, for any model.
        #expect(outcome(engine, "cheapest in GBP") == "car in")
        #expect(complete(engine, "cheapest in ") == ["floorplan", "suspension", "drivetrain", "paint", "in", "USD", "GBP", "EUR", "JPY"])
    }

    /// Before: Tab after `cheapest paint in ` offered currencies, but the command reads `in`
    /// there as the paint option.
    @Test func an_option_named_in_is_the_option() {
        let engine = engine()
        #expect(complete(engine, "cheapest sports paint in ") == ["floorplan", "suspension", "drivetrain", "in"])
        #expect(outcome(engine, "cheapest sports paint in") == "car sports; set suspension road paint in")
        #expect(outcome(engine, "cheapest sports paint drivetrain") == "car sports; set suspension road paint drivetrain")
    }

    /// Before: Tab offered nothing after `why FAMILY OPTION` and after its `in`.
    @Test func why_and_fit_offer_in_and_then_a_currency() {
        let engine = engine()
        for command in ["why", "fit"] {
            #expect(complete(engine, "\(command) drivetrain front ") == ["in"])
            #expect(complete(engine, "\(command) drivetrain front in ") == ["USD", "GBP", "EUR", "JPY"])
            #expect(complete(engine, "\(command) drivetrain front in GBP ") == [])
        }
    }

    /// Before: Tab offered the next family after an option the command refuses.
    @Test func nothing_is_offered_after_a_word_the_command_refuses() {
        let engine = engine()
        #expect(outcome(engine, "cheapest drivetrain nosuch").hasPrefix("error: unknown drivetrain option 'nosuch'"))
        #expect(complete(engine, "cheapest drivetrain nosuch ") == [])
        #expect(complete(engine, "cheapest in GBP ") == [])
        #expect(complete(engine, "options paint in GBP ") == [])
    }

    /// A family named twice is named by its catalog name, however it was written.
    @Test func a_family_named_twice() {
        let engine = engine()
        #expect(outcome(engine, "cheapest drivetrain 4wd DRIVETRAIN front") == "error: drivetrain is named twice; name each family once")
        #expect(complete(engine, "cheapest drivetrain 4wd ") == ["floorplan", "suspension", "paint", "in"])
    }

    /// `in` with nothing after it: the command wants a currency, Tab offers them.
    @Test func in_at_the_end_wants_a_currency() {
        let engine = engine()
        #expect(outcome(engine, "options paint in").hasPrefix("error: missing a CURRENCY after 'in'"))
        #expect(outcome(engine, "why drivetrain front in").hasPrefix("error: missing a CURRENCY after 'in'"))
        #expect(outcome(engine, "cheapest sports in").hasPrefix("error: missing a CURRENCY after 'in'"))
        #expect(complete(engine, "options paint in ") == ["USD", "GBP", "EUR", "JPY"])
        #expect(complete(engine, "cheapest sports in ") == ["USD", "GBP", "EUR", "JPY"])
    }

    /// Before: Tab described `cheapest`'s and `options`' candidates with nothing (their word
    /// list has no argument kind); now as the same names are described elsewhere.
    @Test func candidates_are_described_as_what_the_reader_says_they_are() {
        let engine = engine()
        let completer = engine.completer()
        let described = { (line: String) in completer.complete(line).descriptions }
        #expect(described("cheapest s") == described("car s") + [""])
        #expect(described("cheapest sports drivetrain ") == described("why drivetrain "))
        #expect(described("cheapest sports in ") == described("total "))
        #expect(!described("cheapest s")[0].isEmpty)
    }
}
