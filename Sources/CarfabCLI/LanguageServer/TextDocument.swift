/// A position as LSP counts it: a 0-based line, and UTF-16 code units into that line.
struct TextPosition: Equatable, Sendable {
    var line: Int
    var character: Int

    var json: JSONValue { .object(["line": .integer(line), "character": .integer(character)]) }

    /// The position an LSP `Position` object gives; nil if it is not one.
    init?(json: JSONValue?) {
        guard let line = json?["line"]?.int, let character = json?["character"]?.int, line >= 0, character >= 0 else {
            return nil
        }
        self.init(line: line, character: character)
    }

    init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }
}

/// An open document: its text as UTF-8 bytes, where each line starts, and its version.
///
/// LSP positions count UTF-16 code units; the engine counts bytes and characters. This is
/// the one place that converts: a character beyond U+FFFF is two units, a position inside
/// one (or past a line's end) is taken to the nearest whole character before it, and a
/// position past the last line is the end of the text, as the specification asks.
struct TextDocument {
    /// The document's `file:` URI (or whatever the client named it).
    let uri: String
    private(set) var version: Int
    private(set) var bytes: [UInt8]
    /// Byte offsets where each line starts as LSP counts lines: after each `\n`, `\r\n` and
    /// lone `\r` (3.17, "Text Documents"). carfab reads a lone CR as a blank, so its lines
    /// (`scriptLineStarts`) can be fewer; positions are the client's, or its edits land on
    /// other lines (trial 12, 4: a formatting edit joined two commands the client had apart).
    private(set) var lineStarts: [Int] = [0]
    /// Byte offsets where each of carfab's lines starts (after each `\n`): the lines its
    /// diagnostics number.
    private var scriptLineStarts: [Int] = [0]

    init(uri: String, version: Int, text: String) {
        self.uri = uri
        self.version = version
        bytes = Array(text.utf8)
        indexLines()
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }
    var lineCount: Int { lineStarts.count }

    private mutating func indexLines() {
        lineStarts = [0]
        scriptLineStarts = [0]
        for (index, byte) in bytes.enumerated() {
            if byte == 0x0A {
                lineStarts.append(index + 1)
                scriptLineStarts.append(index + 1)
            } else if byte == 0x0D && (index + 1 == bytes.count || bytes[index + 1] != 0x0A) {
                lineStarts.append(index + 1)
            }
        }
    }

    /// The bytes of line `line` (0-based), without its line break.
    func lineRange(_ line: Int) -> Range<Int> { Self.range(of: line, in: lineStarts, bytes) }

    /// The bytes of carfab's line `line` (0-based, as diagnostics number it less one), without its line break.
    func scriptLineRange(_ line: Int) -> Range<Int> { Self.range(of: line, in: scriptLineStarts, bytes) }

    /// Line `line` of those starting at `starts`, less its break (one byte, or the CR LF of one).
    private static func range(of line: Int, in starts: [Int], _ bytes: [UInt8]) -> Range<Int> {
        guard line < starts.count else { return bytes.count..<bytes.count }
        let last = line + 1 == starts.count
        var end = last ? bytes.count : starts[line + 1] - 1
        if end > starts[line] && bytes[end - 1] == 0x0D && (last || bytes[end] == 0x0A) { end -= 1 }
        return starts[line]..<end
    }

    /// The text of carfab's line `line` (0-based).
    func scriptLineText(_ line: Int) -> String {
        String(decoding: bytes[scriptLineRange(line)], as: UTF8.self)
    }

    /// The text from `start` to `end`.
    func text(from start: TextPosition, to end: TextPosition) -> String {
        let lower = offset(of: start)
        return String(decoding: bytes[lower..<max(lower, offset(of: end))], as: UTF8.self)
    }

    /// The byte offset of `position`.
    func offset(of position: TextPosition) -> Int {
        guard position.line < lineStarts.count else { return bytes.count }
        let range = lineRange(position.line)
        var offset = range.lowerBound
        var units = 0
        while offset < range.upperBound {
            let length = Self.sequenceLength(bytes[offset])
            let width = length == 4 ? 2 : 1
            if units + width > position.character { break }
            units += width
            offset = min(offset + length, range.upperBound)
        }
        return offset
    }

    /// The LSP position of byte `offset`.
    func position(of offset: Int) -> TextPosition {
        let offset = min(max(offset, 0), bytes.count)
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return TextPosition(line: low, character: Self.utf16Count(bytes[lineStarts[low]..<offset]))
    }

    /// The LSP position of byte `offset`, counted on from `known` (an offset at or before it and
    /// its position) when both are on one line: positions asked for in order along a line
    /// cost the bytes between them, not the line's start to each (a 200 KB line of 100,000
    /// numbers took 12 s for its semantic tokens).
    func position(of offset: Int, after known: (offset: Int, position: TextPosition)) -> TextPosition {
        let offset = min(max(offset, 0), bytes.count)
        let line = known.position.line
        guard known.offset <= offset, line < lineStarts.count, lineStarts[line] <= known.offset,
            line + 1 >= lineStarts.count || offset < lineStarts[line + 1]
        else { return position(of: offset) }
        return TextPosition(line: line, character: known.position.character + Self.utf16Count(bytes[known.offset..<offset]))
    }

    /// The LSP position of 1-based character `column` (in Unicode scalars, as diagnostics
    /// count) of carfab's 0-based `line`; a column past the line's end is its end.
    func position(line: Int, column: Int) -> TextPosition {
        guard line < scriptLineStarts.count else { return position(of: bytes.count) }
        let range = scriptLineRange(line)
        var offset = range.lowerBound
        var characters = 1
        // A byte-order mark the engine left out is a character the editor counts.
        if line == 0 && bytes[range].starts(with: [0xEF, 0xBB, 0xBF]) { offset += 3 }
        while characters < column && offset < range.upperBound {
            offset = min(offset + Self.sequenceLength(bytes[offset]), range.upperBound)
            characters += 1
        }
        return position(of: offset)
    }

    /// Applies one `contentChanges` entry: a range and its new text, or (no range) the whole text.
    mutating func apply(range: (start: TextPosition, end: TextPosition)?, text: String) {
        if let range {
            let start = offset(of: range.start)
            let end = max(offset(of: range.end), start)
            bytes.replaceSubrange(start..<end, with: Array(text.utf8))
        } else {
            bytes = Array(text.utf8)
        }
        indexLines()
    }

    mutating func setVersion(_ version: Int) { self.version = version }

    /// How many bytes the UTF-8 sequence led by `byte` takes (1 for a stray continuation byte).
    static func sequenceLength(_ byte: UInt8) -> Int {
        switch byte {
        case 0xF0...: 4
        case 0xE0...: 3
        case 0xC0...: 2
        default: 1
        }
    }

    /// How many UTF-16 code units `bytes` (valid UTF-8) make.
    static func utf16Count(_ bytes: ArraySlice<UInt8>) -> Int {
        var count = 0
        for byte in bytes where byte & 0xC0 != 0x80 { count += byte >= 0xF0 ? 2 : 1 }
        return count
    }
}
