import CarScript

/// `textDocument/formatting`: one canonical spacing. Each logical line on one physical line
/// becomes its commands' words as written, one blank between words, `; ` between commands
/// (empty ones dropped), then ` ` and its comment; no indentation and no trailing blanks.
/// Words are kept byte for byte, so the lexer reads the same words from the result: the
/// script means what it meant. A line continued by `\` or by a string is left as it is, and so
/// is one the lexer refuses, and one whose last word ends in `\`: without the blanks after it,
/// that `\` would continue the line into the next.
enum ScriptFormatter {
    /// The line-by-line replacements that format `document`: (bytes replaced, new text).
    static func edits(for bytes: [UInt8]) -> [(range: Range<Int>, text: String)] {
        var edits: [(range: Range<Int>, text: String)] = []
        for line in ScriptLines.each(bytes) where line.physicalLines == 1 && !line.unreadable {
            var end = line.range.upperBound
            if end > line.range.lowerBound && bytes[end - 1] == 0x0D { end -= 1 }
            var text = line.commands.map { words in
                words.map { String(decoding: bytes[$0.range], as: UTF8.self) }.joined(separator: " ")
            }.joined(separator: "; ")
            if let comment = line.comment {
                text += (text.isEmpty ? "" : " ") + String(decoding: bytes[comment], as: UTF8.self)
            }
            if text.utf8.last == UInt8(ascii: "\\") { continue }
            if !bytes[line.range.lowerBound..<end].elementsEqual(text.utf8) {
                edits.append((line.range.lowerBound..<end, text))
            }
        }
        return edits
    }

    /// `bytes` formatted.
    static func format(_ bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        for edit in edits(for: bytes).reversed() { result.replaceSubrange(edit.range, with: Array(edit.text.utf8)) }
        return result
    }

    /// The `TextEdit`s that format `document`.
    static func textEdits(for document: TextDocument) -> JSONValue {
        .array(
            edits(for: document.bytes).map { edit in
                .object([
                    "range": .object([
                        "start": document.position(of: edit.range.lowerBound).json,
                        "end": document.position(of: edit.range.upperBound).json
                    ]),
                    "newText": .string(edit.text)
                ])
            })
    }
}
