import CarFactory
import Testing

@testable import CarScript

/// What a sink is handed: `price` and `total` give their numbers to a sink that takes them
/// as they are (as carfab's text renderer does), and owned results to one that does not.
@Suite struct ResultSinkTests {
    /// A sink that takes amounts and totals as numbers, and keeps every result otherwise.
    final class NumberSink: ResultSink {
        var amounts: [(Int64, String, String)] = []
        var totals: [(Int64, Int64, String, String)] = []
        var results: [CommandResult] = []
        func receive(_ result: CommandResult, from command: CommandSpec) { results.append(result) }
        func receive(_ diagnostic: Diagnostic) {}
        func receive(amount minorUnits: Int64, in valuation: CurrencyValuation, from command: CommandSpec) {
            amounts.append((minorUnits, valuation.currency.code, command.name))
        }
        func receive(total count: Int64, value: Int64, in valuation: CurrencyValuation, from command: CommandSpec) {
            totals.append((count, value, valuation.currency.code, command.name))
        }
    }

    /// A sink that takes `show`'s car as it is.
    final class CarSink: ResultSink {
        var cars: [(String, String)] = []
        var results: [CommandResult] = []
        func receive(_ result: CommandResult, from command: CommandSpec) { results.append(result) }
        func receive(_ diagnostic: Diagnostic) {}
        func receive(car: Car, from command: CommandSpec) { cars.append((car.carType, command.name)) }
    }

    @Test func price_and_total_hand_their_numbers_to_a_sink_that_takes_them() {
        let sink = NumberSink()
        Engine(sink: sink).evaluate("car sports 2; price; total GBP; show")
        #expect(sink.amounts.count == 1)
        #expect(sink.amounts.first?.1 == "USD" && sink.amounts.first?.2 == "price")
        #expect(sink.totals.count == 1)
        #expect(sink.totals.first?.0 == 2 && sink.totals.first?.2 == "GBP" && sink.totals.first?.3 == "total")
        // Only `show` made a result.
        #expect(sink.results.count == 1)
    }

    @Test func show_hands_its_car_to_a_sink_that_takes_it_and_an_owned_result_to_one_that_does_not() {
        let sink = CarSink()
        Engine(sink: sink).evaluate("car sports 2; show; car suv; show 1; price")
        #expect(sink.cars.map(\.0) == ["Porsche Boxster", "Porsche Boxster"] && sink.cars.allSatisfy { $0.1 == "show" })
        // `price` made its result (the default hands the amount on as one), `show` none.
        #expect(sink.results.count == 1)
        let run = Engine().evaluate("car sports 2; show; car suv; show 1")
        let owned = run.results.compactMap { if case .car(let car) = $0.result { car.carType } else { nil } }
        #expect(owned == sink.cars.map(\.0))
    }

    @Test func a_sink_that_does_not_take_them_gets_the_same_as_owned_results() throws {
        let numbers = NumberSink()
        Engine(sink: numbers).evaluate("car sports 2; price EUR; total GBP")
        let run = Engine().evaluate("car sports 2; price EUR; total GBP")
        #expect(run.results.map(\.command) == ["price", "total"])
        guard case .amount(let price, let priceValuation) = run.results[0].result,
            case .total(let count, let value, let totalValuation) = run.results[1].result
        else {
            Issue.record("expected an amount and a total, got \(run.results)")
            return
        }
        let amount = try #require(numbers.amounts.first)
        let total = try #require(numbers.totals.first)
        #expect(price == amount.0 && priceValuation.currency.code == amount.1)
        #expect(count == total.0 && value == total.1 && totalValuation.currency.code == total.2)
    }
}
