import CarFactory
import Testing

@testable import CarScript
@testable import CarfabCLI

/// How the prompt (libedit's list) lays out the engine's completions in columns.
@Suite struct CompletionLayoutTests {
    let completer = Completer(commands: .standard, catalog: Engine.builtInCatalog)

    @Test func a_list_of_models_lines_up_its_columns() {
        let models = completer.complete("car ")
        #expect(
            EditLineSource.rows(models.candidates, models.descriptionColumns, width: 100) == """
                compact  VW Golf            $27,995.00
                sports   Porsche Boxster    $68,300.00
                suv      Cadillac Escalade  $81,895.00

                """)
        let currencies = completer.complete("total ")
        #expect(
            EditLineSource.rows(currencies.candidates, currencies.descriptionColumns, width: 100) == """
                USD  $  1
                GBP  £  0.60338
                EUR  €  0.92
                JPY  ¥  151.5

                """)
    }

    @Test func completion_lists_pad_by_display_width() {
        // 東京東京 takes eight columns, as many as its four characters twice (issue 20 item 14).
        #expect(EditLineSource.columns(["東京東京", "abcdef", "x"], width: 30) == "東京東京  abcdef    x\n")
        #expect(
            EditLineSource.rows(["東京", "cafe\u{301}", "x"], [["a", "1"], ["b", "2"], ["c", "3"]], width: 80)
                == "東京  a  1\ncafe\u{301}  b  2\nx     c  3\n")
    }

    /// A list cut to the terminal's rows says how many it left out, in as many words as the
    /// width allows: never the number cut off (review of trial 9's finding 10).
    @Test(arguments: [
        (80, "... and 8 more: type more of the name to narrow the list"), (20, "... and 8 more"), (12, "+8")
    ])
    func a_cut_list_keeps_its_count_on_a_narrow_terminal(width: Int, said: String) {
        let names = (1...10).map { "o\($0)" }
        var completion = Completion(partial: "", candidates: names)
        completion.descriptions = names.map { _ in "+$1.00" }
        completion.descriptionColumns = names.map { _ in ["+$1.00"] }
        let listed = EditLineSource.list(completion, width: width, lines: 3)
        #expect(listed.split(separator: "\n").map(String.init) == ["o1  +$1.00", "o2  +$1.00", said], "\(listed)")
    }

    @Test func a_terminal_of_no_width_lays_out_for_80_columns() {
        // A pty whose size was never set reports 0 columns; the names ran together.
        let families = completer.complete("why ")
        #expect(EditLineSource.columns(families.candidates, width: 0) == EditLineSource.columns(families.candidates, width: 80))
        #expect(EditLineSource.columns(["floorplan", "suspension", "drivetrain"], width: 0) == "floorplan   suspension  drivetrain\n")
    }
}
