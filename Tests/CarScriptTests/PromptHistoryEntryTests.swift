import Testing

@testable import CarScript

/// A prompt of the test's own that types its lines and keeps what the engine hands its history.
private final class RecordingPrompt: LineSource {
    var lines: [[UInt8]]
    var recorded: [[UInt8]] = []
    init(_ lines: [[UInt8]]) { self.lines = lines }
    var name: String { "<prompt>" }
    var isInteractive: Bool { true }
    func readLine(continuation: Bool) throws(LineSourceFailure) -> [UInt8]? {
        lines.isEmpty ? nil : lines.removeFirst()
    }
    func record(_ command: [UInt8]) { recorded.append(command) }
}

/// What the prompt's history is handed: every command entered, as one line that means the
/// same, the lines the lexer refuses too (trial 13, 6: Up could not bring back a long line
/// with one bad escape, to mend it).
@Suite struct PromptHistoryEntryTests {
    private func recorded(_ lines: [[UInt8]]) -> [[UInt8]] {
        let prompt = RecordingPrompt(lines)
        Engine().evaluate(prompt)
        return prompt.recorded
    }

    @Test func a_line_the_lexer_refuses_is_handed_to_the_history_as_typed() {
        let lines: [[UInt8]] = [
            Array(#"model m "Mazda \x" price 31000"#.utf8),
            Array(#"echo "\u{d800}""#.utf8),
            Array("echo ${x".utf8),
            Array("echo a".utf8) + [0xFF] + Array("b".utf8),
            Array("echo c".utf8) + [0x00] + Array("d".utf8),
            Array("car nosuch".utf8)
        ]
        #expect(recorded(lines) == lines)
    }

    @Test func a_continued_command_refused_on_a_later_line_is_handed_over_whole() {
        let entries = recorded([
            Array(#"echo "one"#.utf8), Array(#"two\x""#.utf8),
            Array(#"echo three \"#.utf8), Array("${y".utf8)
        ])
        #expect(entries == [Array(#"echo "one\ntwo\x""#.utf8), Array("echo three  ${y".utf8)])
    }

    @Test func a_command_the_input_ends_inside_is_handed_over_once() {
        // The end of input after `\` or inside a string: the lines typed, each once (the
        // last was handed over twice, `echo one  echo one \`).
        #expect(recorded([Array(#"echo one \"#.utf8)]) == [Array(#"echo one \"#.utf8)])
        #expect(recorded([Array(#"echo "a"#.utf8), Array("b".utf8)]) == [Array(#"echo "a\nb"#.utf8)])
    }
}
