import CarFactory
import Testing

@testable import CarScript

/// Sessions checked as data (results, diagnostics, stock) through the engine's own test host;
/// how carfab prints them is `RenderedSessionTests` in the program's tier.
@Suite struct SessionTests {
    @Test func every_command_of_the_table_runs_its_example() {
        for spec in CommandTable.standard.specs where spec.name != "quit" {
            let h = EngineHarness(files: MemoryHost(["Scripts/examples/quote.carfab": "car sports\nset drivetrain 4wd\n", "dev/null": ""]))
            h.run("car sports; car suv")
            #expect(h.run(spec.example).diagnostics.isEmpty, "\(spec.name): \(spec.example)")
        }
    }

    @Test func errors_name_the_problem_and_change_nothing() {
        let h = EngineHarness(
            options: {
                var o = EngineOptions()
                o.keepGoing = true
                return o
            }())
        h.run("car sports 3")
        for bad in [
            "set floorplan long", "select 9", "remove 0", "car sports 9999999999999999", "rate usd 2",
            "rate gbp 0", "rate gbp -1", "rate gbp 1e3", "show 2", "car", "car sports 2 3", "set drivetrain"
        ] {
            let run = h.run(bad)
            #expect(run.results.isEmpty && run.diagnostics.count == 1, "\(bad)")
            #expect(run.diagnostics.first?.severity == .error && run.diagnostics.first?.file == "t", "\(bad)")
        }
        #expect(h.session.stock.carCount == 3 && h.session.stock.lineCount == 1)
        guard case .total(let count, let value, let valuation) = h.run("total").results.first else {
            Issue.record("no total")
            return
        }
        #expect(count == 3 && valuation.money(value).description == "$204,900.00")
    }

    @Test func a_count_too_large_for_the_stock_value_is_said_of_the_count() {
        let h = EngineHarness()
        // It was `money-overflow`, "amount too large", at a word that is no amount.
        #expect(h.run("car suv 112615000000000").diagnostics.first?.id == "count-too-large")
        #expect(h.run("expect error count-too-large car suv 112615000000000").diagnostics.isEmpty)
        #expect(h.run("expect count 0").diagnostics.isEmpty)
    }

    @Test(arguments: [
        ("select 3", 8, "no stock line 3: there is 1 line"),
        ("select x", 8, "'x' is not a line number (a whole number from 1)"),
        ("car sports 0", 12, "'0' is not a count (a whole number from 1)"),
        ("car", 4, "missing MODEL; usage: car MODEL [COUNT]"),
        ("total GBP USD", 11, "unexpected argument 'USD'; usage: total [CURRENCY]"),
        ("price GPB", 7, "unknown currency 'GPB'; did you mean 'GBP'?"),
        ("set drivetrian 4wd", 5, "unknown family 'drivetrian'; did you mean 'drivetrain'?"),
        ("rate USD 2", 6, "USD is the base currency; its rate is always 1"),
        (
            "car suv 112615000000000", 9,
            "count too large: 112615000000000 cars would take the stock's value past the largest amount, $92,233,720,368,547,758.07"
        )
    ])
    func diagnostics_carry_their_message_and_position(line: String, column: Int, message: String) {
        let h = EngineHarness()
        h.run("car sports")
        let problem = h.run(line).diagnostics.first
        #expect(problem?.message == message)
        #expect(problem?.line == 1 && problem?.column == column, "\(String(describing: problem))")
    }
}
