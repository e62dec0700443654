import Testing
@testable import CarScript

@Suite struct DiagnosticTests {
    func lines(_ text: String, starts: [Int] = [0], first: Int = 1) -> SourceLines {
        var lines = SourceLines(file: "f.carfab")
        lines.bytes = Array(text.utf8)
        lines.lineStarts = starts
        lines.firstLine = first
        return lines
    }

    @Test func columns_count_characters_not_bytes() {
        let d = lines("echo £é; car sprots").diagnostic(message: "m", range: SourceRange(15, 21))
        #expect(d.line == 1 && d.column == 14 && d.width == 6)
        #expect(d.sourceLine == "echo £é; car sprots")
    }

    @Test func continued_lines_point_into_the_right_physical_line() {
        let text = "car \\\n  sprots 2"
        let d = lines(text, starts: [0, 6], first: 7).diagnostic(message: "m", range: SourceRange(8, 14))
        #expect(d.line == 8 && d.column == 3 && d.width == 6 && d.sourceLine == "  sprots 2")
    }

    @Test func the_caret_is_drawn_under_the_word_keeping_tabs() {
        let out = Output.memory()
        let err = Output.memory()
        let d = lines("\tset\tdrivetrain hover").diagnostic(message: "unknown", range: SourceRange(16, 21))
        TextRenderer(out: out, err: err).render(d)
        #expect(String(decoding: err.buffer, as: UTF8.self) == "f.carfab:1:17: error: unknown\n\tset\tdrivetrain hover\n\t   \t           ^~~~~\n")
    }

    @Test func colour_only_when_asked() {
        let err = Output.memory()
        TextRenderer(out: .memory(), err: err, color: true).render(lines("x").diagnostic(message: "m", range: SourceRange(0, 1)))
        #expect(String(decoding: err.buffer, as: UTF8.self).contains("\u{1B}[31merror:"))
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
