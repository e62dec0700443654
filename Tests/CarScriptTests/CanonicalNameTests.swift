import CarScript
import Testing

/// Names that are canonically equivalent are one name (trial finding 12): a name defined with
/// `é` as one character (NFC) is used as `e` and a combining accent (NFD), and the other way
/// round; defining it again in the other form is "already defined", as in the same form.
@Suite struct CanonicalNameTests {
    static let forms = [("caf\u{E9}", "cafe\u{301}"), ("cafe\u{301}", "caf\u{E9}")]

    private func messages(_ script: String) -> [String] {
        Engine().evaluate(script).diagnostics.map(\.message)
    }

    @Test(arguments: forms)
    func a_model_is_used_and_redefined_in_either_form(defined: String, typed: String) {
        let model = "model \"\(defined)\" \"F\" price 90000 floorplan short suspension race drivetrain rear"
        let engine = Engine()
        let run = engine.evaluate("\(model); car \"\(typed)\" 2; car \"\(typed.uppercased())\"; total")
        #expect(run.diagnostics.isEmpty, "\(run.diagnostics.map(\.message))")
        guard case .total(let count, let value, _) = run.results.last?.result else {
            Issue.record("no total: \(run.results.map(\.result))")
            return
        }
        #expect(count == 3 && value == 270_000_00)
        #expect(
            messages("\(model); model \"\(typed)\" \"G\" price 1 floorplan short suspension race drivetrain rear")
                == ["model '\(typed)' is already defined"])
    }

    @Test(arguments: forms)
    func an_option_is_set_and_redefined_in_either_form(defined: String, typed: String) {
        let option = "option drivetrain \"\(defined)\" \"Cafe drive\" price 9"
        let run = Engine().evaluate("\(option); car sports; set drivetrain \"\(typed)\"; expect drive \"\(typed)\"")
        #expect(run.diagnostics.isEmpty, "\(run.diagnostics.map(\.message))")
        #expect(
            messages("\(option); option drivetrain \"\(typed)\" \"Other\" price 1")
                == ["drivetrain option '\(typed)' is already defined"])
        // An alias is a name of the option like any other.
        let alias = Engine().evaluate("option drivetrain x \"X\" price 1 alias \"\(defined)\"; car suv; set drivetrain \"\(typed)\"")
        #expect(alias.diagnostics.isEmpty, "\(alias.diagnostics.map(\.message))")
    }

    @Test(arguments: forms)
    func a_family_is_used_and_redefined_in_either_form(defined: String, typed: String) {
        let family = "family \"\(defined)\" \"Paint\" default white \"White\""
        let run = Engine().evaluate(
            "\(family); option \"\(typed)\" red \"Red\" price 500; car sports; set \"\(typed)\" red; show")
        #expect(run.diagnostics.isEmpty, "\(run.diagnostics.map(\.message))")
        #expect(messages("\(family); family \"\(typed)\" \"Q\" default x \"X\"") == ["family '\(typed)' is already defined"])
    }

    @Test func a_currency_code_is_found_in_any_form_of_its_letters() {
        // A code is three ASCII letters; U+212A KELVIN SIGN is canonically `K`, so `\u{212A}RW` is `KRW`.
        let run = Engine().evaluate("currency KRW \"W\" digits 0 rate 1300; car sports; price \u{212A}RW; total \u{212A}rw")
        #expect(run.diagnostics.isEmpty, "\(run.diagnostics.map(\.message))")
        #expect(run.results.count == 2, "\(run.results.map(\.result))")
        #expect(
            messages("currency KRW \"W\" digits 0 rate 1300; currency \u{212A}RW \"V\" digits 0 rate 1")
                == ["'\u{212A}RW' is not a currency code (three letters, like CHF)"])
    }

    @Test func a_name_never_defined_is_still_unknown_in_either_form() {
        #expect(
            messages("model \"caf\u{E9}\" \"F\" price 90000 floorplan short suspension race drivetrain rear; car \"cafe\u{300}\"")
                .first?.hasPrefix("unknown model 'cafe\u{300}'; valid models:") == true)
    }
}
