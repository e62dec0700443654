// Splits a logical line into words and separators, one pass over its bytes.
//
// Input stays bytes until a word is known; decoded word text goes into one reusable
// buffer, so lexing allocates nothing once the buffers have grown.

/// A word or a `;` separator, with where it stands in the line and where its text is.
public struct Token: Equatable, Sendable {
    /// A word or a command separator.
    public enum Kind: Equatable, Sendable { case word, separator }
    /// What the token is.
    public var kind: Kind
    /// Where it stands in the line, quotes included.
    public var range: SourceRange
    /// Where its decoded text is in `Lexer.text`.
    public var text: Range<Int>
}

/// Tokenizes logical lines; keep one and reuse it.
public struct Lexer: Sendable {
    /// How far a line got.
    public enum Outcome: Equatable, Sendable {
        /// The line is whole.
        case complete
        /// The line ends inside a string opened at this byte: it needs the next line.
        case openQuote(at: Int)
        /// The line ends with `\`: it needs the next line.
        case continued
    }

    /// The tokens of the last line.
    public private(set) var tokens: [Token] = []
    /// The decoded text of the last line's words.
    public private(set) var text: [UInt8] = []

    /// A lexer with empty buffers.
    public init() {}

    /// The decoded text of `token`.
    public func string(_ token: Token) -> String {
        text.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[token.text]), as: UTF8.self) }
    }

    /// Tokenizes `line`; at the end of input a trailing `\` is dropped instead of continuing.
    public mutating func tokenize(_ line: UnsafeBufferPointer<UInt8>, atEnd: Bool = false) throws(ScriptError) -> Outcome {
        tokens.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
        let count = line.count
        var i = 0
        var wordStart = -1
        var textStart = 0

        func endWord(at end: Int) {
            if wordStart >= 0 {
                tokens.append(Token(kind: .word, range: SourceRange(wordStart, end), text: textStart..<text.count))
                wordStart = -1
            }
        }
        func beginWord(at position: Int) {
            if wordStart < 0 {
                wordStart = position
                textStart = text.count
            }
        }

        while i < count {
            let byte = line[i]
            switch byte {
            case 0x20, 0x09, 0x0D, 0x0B, 0x0C:
                endWord(at: i)
                i += 1
            case 0x0A, UInt8(ascii: ";"):
                endWord(at: i)
                tokens.append(Token(kind: .separator, range: SourceRange(i, i + 1), text: text.count..<text.count))
                i += 1
            case UInt8(ascii: "#"):
                endWord(at: i)
                // A comment runs to the end of its physical line.
                while i < count && line[i] != 0x0A { i += 1 }
            case UInt8(ascii: "\\"):
                // A backslash ending a physical line (before LF or CR LF) joins the next one, as a blank.
                var next = i + 1
                if next < count && line[next] == 0x0D { next += 1 }
                if next < count && line[next] == 0x0A {
                    endWord(at: i)
                    i = next + 1
                } else if next == count {
                    endWord(at: i)
                    if !atEnd { return .continued }
                    i = count
                } else {
                    beginWord(at: i)
                    text.append(byte)
                    i += 1
                }
            case UInt8(ascii: "\""):
                beginWord(at: i)
                let quote = i
                i += 1
                var closed = false
                while i < count {
                    let c = line[i]
                    if c == UInt8(ascii: "\"") {
                        closed = true
                        i += 1
                        break
                    }
                    if c == UInt8(ascii: "\\") {
                        guard i + 1 < count else { break }
                        switch line[i + 1] {
                        case UInt8(ascii: "\""): text.append(UInt8(ascii: "\""))
                        case UInt8(ascii: "\\"): text.append(UInt8(ascii: "\\"))
                        case UInt8(ascii: "n"): text.append(0x0A)
                        case UInt8(ascii: "t"): text.append(0x09)
                        case 0x0A: break
                        default:
                            let end = try Self.scalarEnd(line, from: i + 1)
                            throw ScriptError(.unknownEscape(Self.decode(line, i..<end)), at: SourceRange(i, end))
                        }
                        i += 2
                        continue
                    }
                    i = try copyChecked(line, from: i)
                }
                if !closed {
                    if atEnd { throw ScriptError(.unterminatedString, at: SourceRange(quote, quote + 1)) }
                    return .openQuote(at: quote)
                }
            default:
                beginWord(at: i)
                // A run of plain bytes is copied in one go; only bytes >= 0x80 need checking.
                let start = i
                scan: while i < count {
                    switch line[i] {
                    case 0x20, 0x09, 0x0D, 0x0B, 0x0C, 0x0A, UInt8(ascii: ";"), UInt8(ascii: "#"),
                         UInt8(ascii: "\\"), UInt8(ascii: "\""):
                        break scan
                    case 0:
                        throw ScriptError(.nulByte, at: SourceRange(i, i + 1))
                    case 0x80...:
                        i = try Self.scalarEnd(line, from: i)
                    default:
                        i += 1
                    }
                }
                text.append(contentsOf: UnsafeBufferPointer(rebasing: line[start..<i]))
            }
        }
        endWord(at: count)
        return .complete
    }

    /// Appends one character starting at `i` to `text`, rejecting NUL and invalid UTF-8; returns the next position.
    private mutating func copyChecked(_ line: UnsafeBufferPointer<UInt8>, from i: Int) throws(ScriptError) -> Int {
        let byte = line[i]
        if byte == 0 { throw ScriptError(.nulByte, at: SourceRange(i, i + 1)) }
        if byte < 0x80 {
            text.append(byte)
            return i + 1
        }
        let end = try Self.scalarEnd(line, from: i)
        for j in i..<end { text.append(line[j]) }
        return end
    }

    /// The end of the UTF-8 sequence starting at `i`, or an error if it is not valid UTF-8.
    static func scalarEnd(_ line: UnsafeBufferPointer<UInt8>, from i: Int) throws(ScriptError) -> Int {
        let lead = line[i]
        if lead == 0 { throw ScriptError(.nulByte, at: SourceRange(i, i + 1)) }
        if lead < 0x80 { return i + 1 }
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: throw ScriptError(.invalidUTF8(lead), at: SourceRange(i, i + 1))
        }
        guard i + length <= line.count else { throw ScriptError(.invalidUTF8(lead), at: SourceRange(i, i + 1)) }
        for j in 1..<length {
            let c = line[i + j]
            let (lo, hi) = j == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
            guard c >= lo && c <= hi else { throw ScriptError(.invalidUTF8(lead), at: SourceRange(i, i + 1)) }
        }
        return i + length
    }

    private static func decode(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: line[range]), as: UTF8.self)
    }
}
