import Testing

@testable import CarScript
@testable import CarfabCLI

/// How carfab's text renderer draws a diagnostic the engine made: caret, colour, escaping and
/// the 80-column window (the engine's own tests check the diagnostic as data).
@Suite struct RenderedDiagnosticTests {
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
        #expect(
            rendered(d) == """
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
}
