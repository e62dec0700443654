/// A script's text read as an editor needs it: each logical line's commands as words (with
/// where they stand in the text) and its comment, lexed by the engine's own lexer, so that an
/// editor's outline, colours and formatting see the words the engine runs.
package struct ScriptLine: Equatable, Sendable {
    /// The line's bytes in the text: every physical line it spans, without the last line break.
    package var range: Range<Int>
    /// How many physical lines it spans (more than 1 after a `\` or inside a string).
    package var physicalLines: Int
    /// Its commands' words, ranges in bytes of the whole text; empty commands left out.
    package var commands: [[LineWord]]
    /// Its comment, `#` to the end of the line, in bytes of the whole text.
    package var comment: Range<Int>?
    /// Whether the lexer refused it (invalid UTF-8, a bad escape): then it has no commands.
    package var unreadable: Bool
}

/// Reads a whole text into `ScriptLine`s.
package enum ScriptLines {
    /// The logical lines of `text`, in order; the first physical line is 0.
    package static func read(_ text: [UInt8]) -> [ScriptLine] {
        Array(each(text))
    }

    /// The logical lines of `text`, as `read` gives them, one at a time: a pass over a large text
    /// keeps one line's words at once, not every line's (some 200 bytes a line; trial 9, 1).
    package static func each(_ text: [UInt8]) -> Reading { Reading(text) }

    /// The lines of a text, read as they are asked for.
    package struct Reading: Sequence, IteratorProtocol {
        private let text: [UInt8]
        private let lexer = Lexer()
        private var start: Int

        init(_ text: [UInt8]) {
            self.text = text
            // A byte-order mark at the start is not part of the script.
            start = text.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        }

        package mutating func next() -> ScriptLine? {
            guard start < text.count else { return nil }
            let (lexer, start) = (self.lexer, self.start)
            let line = text.withUnsafeBufferPointer { ScriptLines.line(in: $0, from: start, lexer: lexer) }
            self.start = line.range.upperBound + 1
            return line
        }
    }

    /// The logical line of `text` that begins at `start`.
    private static func line(in text: UnsafeBufferPointer<UInt8>, from start: Int, lexer: Lexer) -> ScriptLine {
        var end = Self.physicalEnd(text, from: start)
        var physical = 1
        var outcome: Lexer.Outcome = .complete
        var failed = false
        do throws(ScriptError) {
            outcome = try lexer.tokenize(UnsafeBufferPointer(rebasing: text[start..<end]), atEnd: end >= text.count)
            // A line continued by `\` or by an open string takes the next physical line with it.
            while outcome != .complete {
                guard end < text.count else { break }
                end = Self.physicalEnd(text, from: end + 1)
                physical += 1
                outcome = try lexer.resume(UnsafeBufferPointer(rebasing: text[start..<end]), atEnd: end >= text.count)
            }
        } catch {
            failed = true
            // A line that cannot be lexed still spans the lines its open string or `\` takes.
            while outcome != .complete && end < text.count {
                end = Self.physicalEnd(text, from: end + 1)
                physical += 1
            }
        }
        var commands: [[LineWord]] = []
        var words: [LineWord] = []
        var lastEnd = start
        if !failed {
            for token in lexer.tokens {
                lastEnd = max(lastEnd, start + token.range.end)
                if token.kind == .separator {
                    if !words.isEmpty { commands.append(words) }
                    words.removeAll()
                    continue
                }
                words.append(LineWord(range: (start + token.range.start)..<(start + token.range.end), text: lexer.string(token)))
            }
            if !words.isEmpty { commands.append(words) }
        }
        var comment: Range<Int>?
        if !failed, let hash = text[lastEnd..<end].firstIndex(of: UInt8(ascii: "#")) {
            var commentEnd = end
            if commentEnd > hash && text[commentEnd - 1] == 0x0D { commentEnd -= 1 }
            comment = hash..<commentEnd
        }
        return ScriptLine(
            range: start..<end, physicalLines: physical, commands: commands, comment: comment,
            unreadable: failed)
    }

    /// Where the physical line from `start` ends: its line feed, or the end of the text.
    private static func physicalEnd(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        text[start...].firstIndex(of: 0x0A) ?? text.count
    }
}
