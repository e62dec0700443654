import CarFactory
import CarfabPOSIX
import Testing

@testable import CarScript
@testable import CarfabCLI

/// A session with its output kept in memory, rendered as carfab renders it (text or JSON).
final class Harness {
    let out = Output.memory()
    let err = Output.memory()
    let session: Session

    /// `options` with carfab's POSIX host unless they give one.
    init(options: EngineOptions = EngineOptions(), json: Bool = false) {
        let renderer: any ResultRenderer = json ? JSONRenderer(out: out, err: err) : TextRenderer(out: out, err: err)
        var options = options
        if options.host == nil { options.host = POSIXHost() }
        session = Session(catalog: Engine.builtInCatalog, sink: renderer, options: options)
    }

    @discardableResult
    func run(_ text: String) -> (out: String, err: String) {
        out.buffer.removeAll()
        err.buffer.removeAll()
        session.run(text: text, name: "t")
        return (String(decoding: out.buffer, as: UTF8.self), String(decoding: err.buffer, as: UTF8.self))
    }
}

@Suite struct RenderedSessionTests {
    @Test func every_command_of_the_table_has_help_and_a_working_example() {
        for spec in CommandTable.standard.specs where spec.name != "quit" {
            let h = Harness()
            h.run("car sports; car suv")
            let result = h.run(spec.example)
            #expect(result.err == "", "\(spec.name): \(spec.example)")
            // Wrapped to 80 columns: the usage is the same words.
            let page = Harness().run("help \(spec.name)").out
            let usage = page.components(separatedBy: "\n\n")[0].split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(usage == "usage: \(spec.usage)")
            #expect(page.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(spec.name)")
        }
    }

    @Test func help_lists_every_command_once_within_80_columns() {
        let text = Harness().run("help").out
        let lines = text.split(separator: "\n")
        for spec in CommandTable.standard.specs {
            // A usage too long for the column stands on lines of its own, wrapped.
            #expect(lines.filter { $0.hasPrefix("  \(spec.name) ") || $0 == "  \(spec.name)" }.count == 1, "\(spec.name)")
            #expect(text.contains(spec.summary.split(separator: " ").prefix(3).joined(separator: " ")), "\(spec.name)")
        }
        #expect(lines.allSatisfy { $0.count <= 80 })
    }

    @Test func show_and_list_follow_selection_and_removal() {
        let h = Harness()
        h.run("car compact; car sports 2; car suv")
        #expect(h.run("show 2").out.hasPrefix("Car type: Porsche Boxster\n"))
        h.run("select 1; set drivetrain rear")
        #expect(h.run("price").out == "$29,495.00\n")
        h.run("remove 2")
        #expect(
            h.run("list").out == """
                   #  model    car type           floorplan  suspension  drivetrain  count  unit price
                *  1  compact  VW Golf            standard   road        rear            1  $29,495.00
                   2  suv      Cadillac Escalade  long       offroad     4wd             1  $81,895.00

                """)
        h.run("clear")
        #expect(h.run("list").out == "The stock is empty.\n")
        #expect(h.run("total").out == "0 Cars in Stock. Total Value: $0.00\n")
    }

    /// `show` texts are kept per configuration (`CarTexts`) and copied after: with more
    /// configurations than it has slots, shown again in another order, each show is the text
    /// made for it the first time.
    @Test func show_of_many_configurations_again_in_another_order_is_the_same_text() {
        let h = Harness()
        var definitions = "family paint \"Paint\" default p0 \"Paint 0\"\n"
        for n in 1..<100 { definitions += "option paint p\(n) \"Paint \(n)\" price \(n)\n" }
        #expect(h.run(definitions).err == "")
        let cars = ["compact", "sports", "suv"].flatMap { model in (0..<100).map { "car \(model); set paint p\($0)" } }
        var first: [String: String] = [:]
        for car in cars {
            let shown = h.run("\(car); show")
            #expect(shown.err == "")
            first[car] = shown.out
        }
        #expect(Set(first.values).count == cars.count)
        // Every seventh, round and round (7 and 300 have no common factor), then backwards.
        let stepped = cars.indices.map { cars[$0 * 7 % cars.count] }
        for car in stepped + cars.reversed() {
            #expect(h.run("\(car); show").out == first[car], "\(car)")
        }
    }

    @Test func errors_name_the_problem_and_change_nothing() {
        let h = Harness(
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
            #expect(h.run(bad).err != "", "\(bad)")
        }
        #expect(h.run("total; price GBP").out == "3 Cars in Stock. Total Value: $204,900.00\n£41,210.85\n")
    }

    @Test(arguments: [
        ("select 3", "no stock line 3: there is 1 line"),
        ("select x", "'x' is not a line number (a whole number from 1)"),
        ("car sports 0", "'0' is not a count (a whole number from 1)"),
        ("car sports -1", "'-1' is not a count (a whole number from 1)"),
        ("car", "missing MODEL; usage: car MODEL [COUNT]"),
        ("total GBP USD", "unexpected argument 'USD'; usage: total [CURRENCY]"),
        ("total CHF", "unknown currency 'CHF'; valid currencies: USD, GBP, EUR, JPY"),
        ("price GPB", "unknown currency 'GPB'; did you mean 'GBP'?"),
        ("set drivetrian 4wd", "unknown family 'drivetrian'; did you mean 'drivetrain'?"),
        ("set suspension sprots", "unknown suspension option 'sprots'; did you mean 'sports'?"),
        ("rate GBP 0", "rate '0' is not a positive decimal"),
        ("rate GBP abc", "'abc' is not a decimal number"),
        ("rate USD 2", "USD is the base currency; its rate is always 1"),
        (
            "help nope",
            "unknown help topic 'nope'; valid help topics: car, set, show, list, select, remove, clear, options, why, fit, cheapest, total, price, rate, models, parts, currencies, family, option, model, forbid, require, currency, undo, redo, begin, commit, rollback, try, source, save, diff and 8 more"
        ),
        // An alias is a help topic and a command too, and suggested as one (docs13: nothing was).
        ("help exti", "unknown help topic 'exti'; did you mean 'exit'?"),
        ("try exti", "unknown command 'exti'; did you mean 'exit'?"),
        (
            "car suv 112615000000000",
            "count too large: 112615000000000 cars would take the stock's value past the largest amount, $92,233,720,368,547,758.07"
        )
    ])
    func error_messages(line: String, message: String) {
        let h = Harness()
        h.run("car sports")
        let err = h.run(line).err
        #expect(err.hasPrefix("t:1:"), "\(err)")
        #expect(err.contains(": error: \(message)\n"), "\(err)")
    }

    @Test func totals_overflowing_in_a_currency_are_errors() {
        let h = Harness()
        h.run("car suv 1000000000000")
        #expect(h.run("total").out == "1000000000000 Cars in Stock. Total Value: $81,895,000,000,000,000.00\n")
        #expect(h.run("total JPY").err.contains("error: amount too large"))
    }

    @Test func json_results_carry_raw_and_formatted_amounts() {
        let h = Harness(json: true)
        #expect(
            h.run("car sports; set drivetrain 4wd; price JPY").out
                == #"{"type":"result","command":"price","amount":{"currency":"JPY","minor_units":10726200,"amount":"10726200","formatted":"¥10,726,200"}}"#
                + "\n")
        #expect(h.run("echo \"quote\\\" tab\\t\"").out == #"{"type":"result","command":"echo","text":"quote\" tab\t"}"# + "\n")
        #expect(
            h.run("parts drivetrain").out.hasPrefix(
                #"{"type":"result","command":"parts","rows":[{"family":"drivetrain","option":"front","shown_as":"Front","other_names":[],"list_price":{"currency":"USD","minor_units":0,"amount":"0.00","formatted":"$0.00"},"seats":null,"engine":null}"#
            ))
    }
}

/// The text renderer remembers, by formatter, whether a currency's symbol needs escaping:
/// what it remembers must never stand for another currency's symbol.
@Suite struct CurrencySymbolEscapingTests {
    @Test func each_currency_keeps_its_own_escaping_past_the_remembered_few() {
        let h = Harness()
        let letters = Array("ABCDEFGHIJKLMNOPQRST")
        // Twenty currencies (more than the renderer once remembered; each valuation now says
        // whether its symbol needs an escape): even ones plain, odd ones with an escape character.
        var script = ""
        var expected = ""
        for (number, letter) in letters.enumerated() {
            // Each ends in `:`: a symbol may not end with a digit.
            let symbol = number % 2 == 0 ? "P\(number):" : "\u{1B}\(number):"
            script += "currency QQ\(letter) \"\(symbol)\" digits 2 rate 1\n"
        }
        for _ in 0..<2 {
            for (number, letter) in letters.enumerated() {
                script += "total QQ\(letter)\n"
                expected += "0 Cars in Stock. Total Value: " + (number % 2 == 0 ? "P\(number):" : "\\e\(number):") + "0.00\n"
            }
        }
        let result = h.run(script)
        #expect(result.err == "")
        #expect(result.out == expected)
    }
}
