import Testing

@testable import CarScript

@Suite struct DiagnosticTests {
    func diagnostic(_ text: String, _ range: SourceRange, starts: [Int] = [0], first: Int = 1) -> Diagnostic {
        var lines = SourceLines(file: "f.carfab")
        lines.bytes = Array(text.utf8)
        lines.lineStarts = starts
        lines.firstLine = first
        return lines.diagnostic(message: "m", range: range)
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
