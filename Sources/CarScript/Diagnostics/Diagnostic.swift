/// A reported problem, positioned for a person: file, line and columns, and the source line.
///
/// Diagnostics are data; the text and JSON renderers decide how they look (the text renderer
/// also shows control characters escaped, so a hostile script cannot drive the terminal).
public struct Diagnostic: Equatable, Sendable {
    /// How grave a diagnostic is.
    public enum Severity: String, Equatable, Sendable {
        /// The command failed and changed nothing.
        case error
        /// Something works but is likely a mistake.
        case warning
        /// More about the diagnostic before it.
        case note
    }

    /// More about a diagnostic, possibly at another place.
    public struct Note: Equatable, Sendable {
        /// What it says.
        public var message: String
        /// Where, if somewhere: `FILE:LINE`.
        public var place: String?

        /// A note saying `message`, at `place` if given.
        package init(_ message: String, at place: String? = nil) {
            self.message = message
            self.place = place
        }
    }

    /// A change that would put the problem right: `replacement` in place of columns
    /// `column..<endColumn` of the diagnostic's line (a did-you-mean name).
    public struct FixIt: Equatable, Sendable {
        /// The 1-based column of the first character replaced.
        public var column: Int
        /// The column just after the last character replaced.
        public var endColumn: Int
        /// The text to put there.
        public var replacement: String

        /// `replacement` for columns `column..<endColumn`.
        package init(column: Int, endColumn: Int, replacement: String) {
            self.column = column
            self.endColumn = endColumn
            self.replacement = replacement
        }
    }

    /// What kind of problem it is, stable from version to version (`unknown-model`,
    /// `rule-violation`): for programs that act on diagnostics.
    public var id: String
    /// How grave it is.
    public var severity: Severity
    /// The file name as given, `<stdin>` or `<command-line>`.
    public var file: String
    /// 1-based line number; 0 when the problem is with the file as a whole (it could not be read).
    public var line: Int
    /// 1-based column where the problem starts, in characters of the whole line.
    public var column: Int
    /// 1-based column just past the problem, on the same line (at least `column + 1`).
    public var endColumn: Int
    /// What went wrong.
    public var message: String
    /// The source line, or the part of a long one around the problem.
    public var source: SourceExcerpt?
    /// Where the file was included from, outermost first: `FILE:LINE`.
    public var includedFrom: [String]
    /// More about it.
    public var notes: [Note]
    /// Changes that would put it right.
    public var fixIts: [FixIt]

    /// Makes a diagnostic.
    package init(
        id: String, severity: Severity = .error, file: String, line: Int, column: Int, endColumn: Int? = nil,
        message: String, source: SourceExcerpt? = nil, includedFrom: [String] = [], notes: [Note] = [],
        fixIts: [FixIt] = []
    ) {
        self.id = id
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
        self.endColumn = max(endColumn ?? column + 1, column + 1)
        self.message = message
        self.source = source
        self.includedFrom = includedFrom
        self.notes = notes
        self.fixIts = fixIts
    }

    /// A problem with a whole file (it could not be opened or read): no line, no source.
    package static func file(_ file: String, _ message: String, includedFrom: [String] = []) -> Diagnostic {
        Diagnostic(id: "unreadable-file", file: file, line: 0, column: 0, message: message, includedFrom: includedFrom)
    }
}

/// A physical source line, whole or the window of a long one, as a diagnostic shows it.
public struct SourceExcerpt: Equatable, Sendable {
    /// The characters shown, as they are in the source (not escaped).
    public var text: String
    /// The 1-based column in the whole line of `text`'s first character.
    public var startColumn: Int
    /// Whether the line goes on before `text`.
    public var cutBefore: Bool
    /// Whether the line goes on after `text`.
    public var cutAfter: Bool

    /// An excerpt of `text` starting at column `startColumn`.
    package init(_ text: String, startColumn: Int = 1, cutBefore: Bool = false, cutAfter: Bool = false) {
        self.text = text
        self.startColumn = startColumn
        self.cutBefore = cutBefore
        self.cutAfter = cutAfter
    }
}

/// A logical line as read: its bytes, where each physical line starts, and the first line's number.
///
/// A one-line logical line that its source lends where it lies is not in `buffer`: its frame
/// passes it in (`in:`) when positioning an error, taken from the source then, so no pointer
/// into a source's memory is kept here.
struct SourceLines {
    /// The file name shown in diagnostics.
    var file: String
    /// The logical line as read, reused from line to line.
    let buffer = ByteBuffer()
    /// The logical line in `buffer`: physical lines joined by `\n` (a copy; setting it replaces the line).
    var bytes: [UInt8] {
        get { buffer.array }
        set {
            buffer.removeAll()
            buffer.append(newValue)
        }
    }
    /// Byte offsets where each physical line starts.
    var lineStarts: [Int] = [0] {
        didSet { columnCache = nil }
    }
    /// The 1-based number of the first physical line.
    var firstLine = 1 {
        didSet { columnCache = nil }
    }
    /// The last column worked out, so that many errors on one long line (`--keep-going`)
    /// count characters from the one before, not each from the start of the line.
    private var columnCache: (offset: Int, column: Int)?

    /// An empty logical line of `file`.
    init(file: String) { self.file = file }

    /// The 1-based physical line number of byte `offset`.
    func lineNumber(at offset: Int) -> Int {
        firstLine + physicalIndex(at: offset)
    }

    /// Which physical line holds byte `offset`: a binary search of the line starts.
    private func physicalIndex(at offset: Int) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Positions an error of this line: the bytes of `lent` if given (the line where its
    /// source lent it), else those in `buffer`.
    mutating func diagnostic(
        _ error: ScriptError, in lent: UnsafeBufferPointer<UInt8>? = nil, includedFrom: [String] = [],
        width: Int = defaultWidth
    ) -> Diagnostic {
        var diagnostic = diagnostic(
            message: error.message, range: error.range, in: lent, includedFrom: includedFrom, width: width)
        diagnostic.id = error.id
        diagnostic.notes = error.notes
        if let suggestion = error.suggestion {
            diagnostic.fixIts = [Diagnostic.FixIt(column: diagnostic.column, endColumn: diagnostic.endColumn, replacement: suggestion)]
        }
        return diagnostic
    }

    /// Positions `message` at `range` of this line: line, columns in characters, and the source
    /// line, or a window of a long one `width` columns wide (the sink's choice, see
    /// `ResultSink.sourceWindowWidth`). The work is proportional to the window and to the
    /// distance from the last error positioned, not to the length of the line.
    mutating func diagnostic(
        message: String, range: SourceRange, in lent: UnsafeBufferPointer<UInt8>? = nil, includedFrom: [String] = [],
        width: Int = defaultWidth
    ) -> Diagnostic {
        if let lent { return diagnostic(in: lent, message: message, range: range, includedFrom: includedFrom, width: width) }
        let bytes = buffer.bytes
        return diagnostic(in: bytes, message: message, range: range, includedFrom: includedFrom, width: width)
    }

    private mutating func diagnostic(
        in bytes: UnsafeBufferPointer<UInt8>, message: String, range: SourceRange,
        includedFrom: [String], width windowWidth: Int
    ) -> Diagnostic {
        let start = min(max(range.start, 0), bytes.count)
        let physical = physicalIndex(at: start)
        let lineStart = lineStarts[physical]
        var lineEnd = physical + 1 < lineStarts.count ? lineStarts[physical + 1] - 1 : bytes.count
        if lineEnd > lineStart && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        let markStart = min(start, lineEnd)
        let markEnd = min(max(range.end, markStart), lineEnd)

        // Columns count characters (UTF-8 lead bytes), from the last error's place when it is
        // earlier on this line.
        var column = 1
        var from = lineStart
        if let cache = columnCache, cache.offset >= lineStart, cache.offset <= markStart {
            column = cache.column
            from = cache.offset
        }
        column += Self.characters(bytes, from..<markStart)
        columnCache = (markStart, column)
        let width = max(Self.characters(bytes, markStart..<markEnd), 1)
        var diagnostic = Diagnostic(
            id: "error", file: file, line: firstLine + physical, column: column,
            endColumn: column + width, message: message, includedFrom: includedFrom)
        diagnostic.source = Self.excerpt(
            bytes, line: lineStart..<lineEnd, mark: markStart..<markEnd, column: column,
            width: max(windowWidth, Self.narrowestWidth))
        return diagnostic
    }

    /// The whole line if it fits in `maximumWidth` columns; else a window around the mark that does, "..." included.
    private static func excerpt(
        _ bytes: UnsafeBufferPointer<UInt8>, line: Range<Int>, mark: Range<Int>,
        column: Int, width maximumWidth: Int
    ) -> SourceExcerpt {
        // The marked text's share of the width, and the most shown before it (more near the
        // end of the line): 40 and 24 of 80 columns.
        let markWidth = maximumWidth / 2
        let contextBefore = maximumWidth * 3 / 10
        func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        if line.count <= maximumWidth * 4 {
            let whole = text(line)
            if DisplayText.width(whole) <= maximumWidth { return SourceExcerpt(whole) }
        }
        // The marked text, up to its share of the width; then what stands before it; then after it.
        let marked = prefix(bytes, mark, width: markWidth)
        let cutMark = marked.end < mark.upperBound
        var budget = maximumWidth - 6 - marked.width
        let before = suffix(bytes, line.lowerBound..<mark.lowerBound, width: min(budget, contextBefore))
        budget -= before.width
        var after = (end: mark.upperBound, width: 0)
        if !cutMark { after = prefix(bytes, mark.upperBound..<line.upperBound, width: budget) }
        // Near the end of the line, what is left goes before the mark instead.
        var start = before.start
        if !cutMark && after.end == line.upperBound && budget - after.width > 0 {
            start = suffix(bytes, line.lowerBound..<mark.lowerBound, width: before.width + budget - after.width).start
        }
        let shownBefore = characters(bytes, start..<mark.lowerBound)
        return SourceExcerpt(
            text(start..<(cutMark ? marked.end : after.end)), startColumn: column - shownBefore,
            cutBefore: start > line.lowerBound, cutAfter: (cutMark ? marked.end : after.end) < line.upperBound)
    }

    /// The end of the longest start of `range` that fits in `width` columns, and its width.
    private static func prefix(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, width: Int) -> (end: Int, width: Int) {
        var end = range.lowerBound
        var used = 0
        while end < range.upperBound {
            var next = end + 1
            while next < range.upperBound && bytes[next] & 0xC0 == 0x80 { next += 1 }
            let cost = DisplayText.width(String(decoding: UnsafeBufferPointer(rebasing: bytes[end..<next]), as: UTF8.self))
            if used + cost > width { break }
            used += cost
            end = next
        }
        return (end, used)
    }

    /// The start of the longest end of `range` that fits in `width` columns, and its width.
    private static func suffix(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, width: Int) -> (start: Int, width: Int) {
        var start = range.upperBound
        var used = 0
        while start > range.lowerBound {
            var previous = start - 1
            while previous > range.lowerBound && bytes[previous] & 0xC0 == 0x80 { previous -= 1 }
            let cost = DisplayText.width(String(decoding: UnsafeBufferPointer(rebasing: bytes[previous..<start]), as: UTF8.self))
            if used + cost > width { break }
            used += cost
            start = previous
        }
        return (start, used)
    }

    /// How many characters (UTF-8 lead bytes) `range` holds.
    private static func characters(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
        var count = 0
        for index in range where bytes[index] & 0xC0 != 0x80 { count += 1 }
        return count
    }

    /// The most columns a source line takes in a diagnostic unless its sink chooses: an
    /// 80-column terminal's.
    static let defaultWidth = 80
    /// The narrowest window: the "..." on both sides and a few columns of the line.
    static let narrowestWidth = 20
}
