/// A reported problem, positioned for a person: file, line and column, the source line and what to underline.
///
/// Diagnostics are data; the text and JSON renderers decide how they look.
public struct Diagnostic: Equatable, Sendable {
    /// The file name as given, `<stdin>` or `<command-line>`.
    public var file: String
    /// 1-based line number.
    public var line: Int
    /// 1-based column, in characters.
    public var column: Int
    /// What went wrong.
    public var message: String
    /// The physical source line, without its line break; a long line is cut to a window around the problem.
    public var sourceLine: String
    /// How many characters to underline (at least 1).
    public var width: Int
    /// The 1-based column in `sourceLine` where the underline starts (differs from `column` in a cut line).
    public var markerColumn: Int
    /// Where the file was included from, outermost first: `FILE:LINE`.
    public var includedFrom: [String]

    /// Makes a diagnostic.
    public init(file: String, line: Int, column: Int, message: String, sourceLine: String,
                width: Int, includedFrom: [String] = []) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.sourceLine = sourceLine
        self.width = width
        self.includedFrom = includedFrom
        markerColumn = column
    }
}

/// A logical line as read: its bytes, where each physical line starts, and the first line's number.
public struct SourceLines {
    /// The file name shown in diagnostics.
    public var file: String
    /// The logical line as read, reused from line to line.
    public let buffer = ByteBuffer()
    /// A one-line logical line where its source holds it, read in place instead of into `buffer`.
    var lent: UnsafeBufferPointer<UInt8>?
    /// The logical line: physical lines joined by `\n` (a copy; setting it replaces the line).
    public var bytes: [UInt8] {
        get { lent.map(Array.init) ?? buffer.array }
        set {
            lent = nil
            buffer.removeAll()
            buffer.append(newValue)
        }
    }
    /// Byte offsets where each physical line starts.
    public var lineStarts: [Int] = [0]
    /// The 1-based number of the first physical line.
    public var firstLine = 1

    /// An empty logical line of `file`.
    public init(file: String) { self.file = file }

    /// The 1-based physical line number of byte `offset`.
    public func lineNumber(at offset: Int) -> Int {
        var physical = 0
        while physical + 1 < lineStarts.count && lineStarts[physical + 1] <= offset { physical += 1 }
        return firstLine + physical
    }

    /// Positions an error of this line.
    public func diagnostic(_ error: ScriptError, includedFrom: [String] = []) -> Diagnostic {
        diagnostic(message: error.message, range: error.range, includedFrom: includedFrom)
    }

    /// Positions `message` at `range` of this line: line, column in characters, and width of the underline.
    public func diagnostic(message: String, range: SourceRange, includedFrom: [String] = []) -> Diagnostic {
        let bytes = self.bytes
        let start = min(max(range.start, 0), bytes.count)
        var physical = 0
        while physical + 1 < lineStarts.count && lineStarts[physical + 1] <= start { physical += 1 }
        let lineStart = lineStarts[physical]
        var lineEnd = physical + 1 < lineStarts.count ? lineStarts[physical + 1] - 1 : bytes.count
        if lineEnd > lineStart && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        let end = min(max(range.end, start), lineEnd)
        func text(_ range: Range<Int>) -> String {
            String(decoding: bytes[range], as: UTF8.self)
        }
        let prefix = text(lineStart..<min(start, lineEnd))
        let highlighted = start < end ? text(start..<end) : ""
        var diagnostic = Diagnostic(file: file, line: firstLine + physical, column: prefix.count + 1, message: message,
                                    sourceLine: "", width: max(1, highlighted.count), includedFrom: includedFrom)
        guard lineEnd - lineStart > Self.longLine else {
            diagnostic.sourceLine = text(lineStart..<lineEnd)
            return diagnostic
        }
        // A very long line is shown as a window around the problem, marked with "...".
        let before = String(prefix.suffix(Self.context))
        let shown = String(highlighted.prefix(Self.context))
        let after = String(text(end..<min(lineEnd, end + Self.context * 4)).prefix(Self.context))
        let cutBefore = before.count < prefix.count
        let cutWord = shown.count < highlighted.count
        let cutAfter = end + after.utf8.count < lineEnd
        diagnostic.sourceLine = (cutBefore ? "..." : "") + before + shown + (cutWord ? "..." : "") + after + (cutAfter ? "..." : "")
        diagnostic.markerColumn = before.count + (cutBefore ? 3 : 0) + 1
        diagnostic.width = max(1, shown.count)
        return diagnostic
    }

    /// Lines longer than this many bytes are shown cut around the problem.
    static let longLine = 240
    /// Characters kept on each side of the problem in a cut line.
    static let context = 60
}
