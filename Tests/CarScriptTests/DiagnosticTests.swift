import Testing
@testable import CarScript
@testable import CarfabCLI

@Suite struct DiagnosticTests {
    func diagnostic(_ text: String, _ range: SourceRange, starts: [Int] = [0], first: Int = 1) -> Diagnostic {
        var lines = SourceLines(file: "f.carfab")
        lines.bytes = Array(text.utf8)
        lines.lineStarts = starts
        lines.firstLine = first
        return lines.diagnostic(message: "m", range: range)
    }

    func rendered(_ diagnostic: Diagnostic, color: Bool = false) -> String {
        let err = Output.memory()
        TextRenderer(out: .memory(), err: err, color: color).render(diagnostic)
        return String(decoding: err.buffer, as: UTF8.self)
    }

    @Test func columns_count_characters_not_bytes() {
        let d = diagnostic("echo £é; car sprots", SourceRange(15, 21))
        #expect(d.line == 1 && d.column == 14 && d.endColumn == 20)
        #expect(d.source == SourceExcerpt("echo £é; car sprots"))
    }

    @Test func continued_lines_point_into_the_right_physical_line() {
        let d = diagnostic("car \\\n  sprots 2", SourceRange(8, 14), starts: [0, 6], first: 7)
        #expect(d.line == 8 && d.column == 3 && d.endColumn == 9 && d.source?.text == "  sprots 2")
    }

    @Test func the_caret_is_drawn_under_the_word_keeping_tabs() {
        let d = diagnostic("\tset\tdrivetrain hover", SourceRange(16, 21))
        #expect(rendered(d) == "f.carfab:1:17: error: m\n\tset\tdrivetrain hover\n\t   \t           ^~~~~\n")
    }

    @Test func colour_only_when_asked() {
        #expect(rendered(diagnostic("x", SourceRange(0, 1)), color: true).contains("\u{1B}[31merror:"))
        #expect(!rendered(diagnostic("x", SourceRange(0, 1))).contains("\u{1B}"))
    }

    @Test func control_characters_are_escaped_and_the_caret_still_lines_up() {
        var d = diagnostic("car \u{1B}[31mred\u{202E} x", SourceRange(4, 15))
        d.message = "unknown model '\u{1B}[31mred\u{202E}'\nsecond line\u{0}"
        #expect(rendered(d) == """
            f.carfab:1:5: error: unknown model '\\e[31mred\\u{202E}'\\nsecond line\\x00
            car \\e[31mred\\u{202E} x
                ^~~~~~~~~~~~~~~~~

            """)
        #expect(DisplayText.escaped("tab\tstays; £ too") == "tab\tstays; £ too")
    }

    @Test func a_long_line_is_shown_as_a_window_of_at_most_80_columns() {
        let line = String(repeating: "echo x; ", count: 200) + "car sprots; " + String(repeating: "echo y; ", count: 200)
        let start = 1600 + 4
        let d = diagnostic(line, SourceRange(start, start + 6))
        #expect(d.column == start + 1 && d.endColumn == start + 7)
        let text = rendered(d).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(text[1].count <= 80 && text[1].hasPrefix("...") && text[1].hasSuffix("..."))
        #expect(text[1].contains("car sprots; echo y"))
        // The caret stands under the word in the window, and the window's own column is given.
        let caret = text[2].firstIndex(of: "^").map { text[2].distance(from: text[2].startIndex, to: $0) }
        let word = text[1].range(of: "sprots").map { text[1].distance(from: text[1].startIndex, to: $0.lowerBound) }
        #expect(caret == word)
        #expect(d.source.map { d.column - $0.startColumn } == word.map { $0 - 3 })
    }

    @Test func a_very_long_word_is_cut_in_the_window() {
        let word = String(repeating: "z", count: 500)
        let d = diagnostic("car " + word, SourceRange(4, 504))
        let text = rendered(d).split(separator: "\n")
        #expect(text[1] == "car " + String(repeating: "z", count: 40) + "...")
        #expect(text[2] == "    ^" + String(repeating: "~", count: 39))
        #expect(d.endColumn == 505)
    }

    @Test func many_errors_on_one_line_are_positioned_in_order() {
        var lines = SourceLines(file: "f")
        lines.bytes = Array(String(repeating: "ab £ ", count: 1000).utf8)
        var columns: [Int] = []
        for index in stride(from: 0, to: 6000, by: 600) {
            columns.append(lines.diagnostic(message: "m", range: SourceRange(index, index + 1)).column)
        }
        // Every 600 bytes is 100 repetitions of 6 bytes, 5 characters.
        #expect(columns == stride(from: 0, to: 10, by: 1).map { $0 * 500 + 1 })
        // And one before the last still counts from the start.
        #expect(lines.diagnostic(message: "m", range: SourceRange(6, 7)).column == 6)
    }

    @Test func suggestions_by_edit_distance() {
        #expect(closestName(to: "sprots", in: ["compact", "sports", "suv"]) == "sports")
        #expect(closestName(to: "SUB", in: ["compact", "sports", "suv"]) == "suv")
        #expect(closestName(to: "cra", in: ["car", "clear"]) == "car")
        #expect(closestName(to: "xyz", in: ["compact", "sports", "suv"]) == nil)
        #expect(closestName(to: "drivetrian", in: ["floorplan", "suspension", "drivetrain"]) == "drivetrain")
        #expect(closestName(to: "racing", in: ["road", "race", "offroad"]) == nil)
    }
}
