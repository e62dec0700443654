import CarFactory
import CarScript
import Testing

/// No car may cost below zero: a model's lowest price (its base price plus, per family, the
/// cheapest option's list price less its default's, the rules not counted) is checked at
/// every definition that can lower it, `model` and `option`; `family` cannot.
@Suite struct LowestPriceTests {
    /// The first diagnostic of `line` as `LINE:COLUMN-END id: message`, or "" for none.
    private func refusal(_ engine: Engine, _ line: String) -> String {
        guard let d = engine.evaluate(line).diagnostics.first else { return "" }
        return "\(d.line):\(d.column)-\(d.endColumn) \(d.id): \(d.message)"
    }

    /// Ten options at $0 under a $10,000 default, nine of them forbidden on every floorplan:
    /// the old search tried only the eight cheapest of a family and let such a model through.
    private static let ruled: String = {
        var script = "family f \"F\" default d \"D\" price 10000\n"
        for i in 0..<10 { script += "option f a\(i) \"A\" price 0\n" }
        for i in 0..<9 { for floorplan in ["short", "standard", "long"] { script += "forbid f a\(i) with floorplan \(floorplan)\n" } }
        return script
    }()

    @Test func a_model_is_refused_at_its_price_by_the_exact_bound_whatever_the_rules() {
        let engine = Engine()
        #expect(engine.evaluate(Self.ruled).diagnostics.isEmpty)
        let model = "model m \"M\" price 5000 floorplan standard suspension road drivetrain front f d"
        #expect(
            refusal(engine, model)
                == "1:19-23 model-could-cost-less-than-nothing: 'm' with short floorplan, a0 f would cost -$7,000.00: a price cannot be below zero"
        )
        #expect(engine.catalog.registry.factories.map(\.model) == ["compact", "sports", "suv"])
        // At $12,000 its lowest price is $0.00, which is allowed.
        #expect(refusal(engine, model.replacingOccurrences(of: "5000", with: "12000")) == "")
    }

    @Test func an_option_is_refused_at_its_price_when_it_would_take_a_model_below_zero() {
        let engine = Engine()
        #expect(engine.evaluate("family paint \"P\" default white \"W\" price 30000").diagnostics.isEmpty)
        #expect(
            refusal(engine, "option paint black \"B\" price 0")
                == "1:30-31 model-could-cost-less-than-nothing: 'compact' with short floorplan, black paint would cost -$4,005.00: a price cannot be below zero"
        )
        // Refused whole: the family has only its first option, and every car stays priced.
        #expect(engine.catalog.options(of: engine.catalog.family(named: "paint")!).parts.map(\.name) == ["white"])
        // An option at the lowest price that keeps every model at zero or more is taken, and
        // the next one is measured from it.
        #expect(refusal(engine, "option paint grey \"G\" price 4005") == "")
        #expect(
            refusal(engine, "option paint blue \"B\" price 4004.99")
                == "1:29-36 model-could-cost-less-than-nothing: 'compact' with short floorplan, blue paint would cost -$0.01: a price cannot be below zero"
        )
        #expect(engine.evaluate("car compact; set paint grey").diagnostics.isEmpty)
        #expect((try? engine.stock.currentPriceMinorUnits()) == 200_000)
    }

    @Test func a_family_cannot_lower_a_models_lowest_price() {
        let engine = Engine()
        // Its one option is every model's default: no model's lowest price changes.
        #expect(engine.evaluate("model zero \"Z\" price 6000 floorplan standard suspension road drivetrain 4wd").diagnostics.isEmpty)
        #expect(engine.evaluate("family paint \"P\" default white \"W\" price 30000").diagnostics.isEmpty)
        #expect(engine.evaluate("family trim \"T\" default plain \"P\"").diagnostics.isEmpty)
        // And the model at exactly zero takes no option cheaper than a default.
        #expect(refusal(engine, "option trim free \"F\" price 0") == "")
        #expect(
            refusal(engine, "option paint white2 \"W\" price 29999.99").hasSuffix(
                "'zero' with short floorplan, front drivetrain, white2 paint would cost -$0.01: a price cannot be below zero"))
    }

}
