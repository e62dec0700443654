import Testing

@testable import CarScript

/// `ScriptLines`: a whole text as an editor reads it, by the engine's lexer.
@Suite struct ScriptLinesTests {
    private func read(_ text: String) -> [ScriptLine] { ScriptLines.read(Array(text.utf8)) }

    @Test func commands_words_and_comments_with_their_places_in_the_text() {
        let text = "car sports; set drivetrain 4wd # note\n\n;;echo \"a;b\"\n"
        let lines = read(text)
        #expect(lines.count == 3)
        #expect(lines[0].commands.map { $0.map(\.text) } == [["car", "sports"], ["set", "drivetrain", "4wd"]])
        #expect(lines[0].comment == 31..<37)
        #expect(lines[1].range == 38..<38 && lines[1].commands.isEmpty)
        #expect(lines[2].commands.map { $0.map(\.text) } == [["echo", "a;b"]])
        #expect(lines[2].commands[0][1].range == 46..<51)
    }

    @Test func a_continued_line_and_a_string_over_lines_are_one_line_each() {
        let lines = read("echo a \\\n  b\necho \"x\ny\" # c\ncar suv")
        #expect(lines.map(\.physicalLines) == [2, 2, 1])
        #expect(lines.map { $0.commands.map { $0.map(\.text) } } == [[["echo", "a", "b"]], [["echo", "x\ny"]], [["car", "suv"]]])
        #expect(lines[1].comment != nil)
    }

    @Test func a_byte_order_mark_is_left_out_and_a_bad_line_is_unreadable_alone() {
        let lines = ScriptLines.read([0xEF, 0xBB, 0xBF] + Array("car suv\necho \"\\q\"\nshow\n".utf8))
        #expect(lines[0].range.lowerBound == 3)
        #expect(lines.map(\.unreadable) == [false, true, false])
        #expect(lines[2].commands.map { $0.map(\.text) } == [["show"]])
    }
}
