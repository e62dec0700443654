// Splits a logical line into words and separators, one pass over its bytes.
//
// Input stays bytes until a word is known; decoded word text goes into one reusable
// buffer, each word's text followed by one blank, so that words written one after another
// lie there joined as `echo` prints them (see `Lexer.joined`). Tokens and text live in raw
// storage sized from the line before lexing starts (a line of n bytes has at most n tokens
// and n + 1 bytes of text: every word but the line's last ends at a byte that makes no
// text), so the loop writes through pointers with no growth checks, and lexing allocates
// nothing once warm.

/// What a variable's name is made of: a letter or `_`, then letters, digits and `_`.
package enum VariableSyntax {
    /// Whether `bytes` are a variable's name.
    package static func isName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, beginsName(first) else { return false }
        return bytes.dropFirst().allSatisfy(continuesName)
    }

    static func beginsName(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "_")
    }

    static func continuesName(_ byte: UInt8) -> Bool {
        beginsName(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
}

/// A word or a `;` separator, with where it stands in the line and where its text is.
struct Token: Equatable, Sendable {
    /// A word or a command separator.
    enum Kind: Equatable, Sendable { case word, separator }
    /// What the token is.
    var kind: Kind
    /// Where it stands in the line, quotes included.
    var range: SourceRange
    /// Where its decoded text is in `Lexer.text`.
    var text: Range<Int>
}

/// A word's bytes that may be read `readable` bytes from their start, beyond their end:
/// name lookups load them eight at a time instead of byte by byte.
struct PaddedBytes {
    static let readable = 16
    let bytes: UnsafeBufferPointer<UInt8>

    fileprivate init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }
}

/// Tokenizes logical lines; keep one and reuse it. Its tokens and text stay valid until the next line.
final class Lexer {
    /// How far a line got.
    enum Outcome: Equatable, Sendable {
        /// The line is whole.
        case complete
        /// The line ends inside a string opened at this byte: it needs the next line.
        case openQuote(at: Int)
        /// The line ends with `\`: it needs the next line.
        case continued
    }

    private var tokenStorage: UnsafeMutablePointer<Token>
    /// Where each separator token stands among the tokens, in order (`separatorCount` of them):
    /// the runner takes a line's commands from here instead of testing every token's kind (see
    /// `Session.executeLine`). As many as there are tokens at most, so it has their capacity.
    private var separatorStorage: UnsafeMutablePointer<Int>
    private var textStorage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var textCapacity: Int
    private var tokenCount = 0
    private var textCount = 0
    /// How many separators (`;`, a line break inside the logical line) the line has: with
    /// none, the line is one command, which the runner takes whole without looking for its
    /// end token by token (see `Session.executeLine`).
    private(set) var separatorCount = 0
    /// 1 for bytes that may stand anywhere in an unquoted word with no special meaning
    /// (every byte from `%` to DEL except `;` and `\`): one load tells. Indexed only by a
    /// byte's value, so always in range (no check needed).
    private let plain: UnsafeMutablePointer<UInt8>

    /// A lexer with empty buffers.
    init() {
        capacity = 256
        textCapacity = 256
        tokenStorage = .allocate(capacity: capacity)
        separatorStorage = .allocate(capacity: capacity)
        textStorage = Self.allocateText(textCapacity)
        // Set in ranges, not byte by byte (a loop of 256 tests was ~5,600 instructions of each
        // start-up).
        plain = .allocate(capacity: 256)
        plain.initialize(repeating: 0, count: 256)
        (plain + 0x25).update(repeating: 1, count: 0x80 - 0x25)
        plain[0x3B] = 0
        plain[0x5C] = 0
    }

    deinit {
        tokenStorage.deallocate()
        separatorStorage.deallocate()
        textStorage.deallocate()
        plain.deallocate()
    }

    /// The tokens of the last line.
    var tokens: UnsafeBufferPointer<Token> { UnsafeBufferPointer(start: tokenStorage, count: tokenCount) }
    /// Where each command of the last line ends among its tokens, in order: at each separator,
    /// and the last at the line's end (the token count, put after the separators here: there
    /// is room, as a line has fewer separators than the tokens it has room for). One list, so
    /// the runner's loop over a line's commands tests once per command whether it is the
    /// last, where with the separators alone it also tested whether a separator was left.
    func commandEnds() -> UnsafeBufferPointer<Int> {
        separatorStorage[separatorCount] = tokenCount
        return UnsafeBufferPointer(start: separatorStorage, count: separatorCount &+ 1)
    }
    /// The decoded text of the last line's words.
    var text: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: textStorage, count: textCount) }

    /// The decoded bytes of `token`.
    func bytes(_ token: Token) -> UnsafeBufferPointer<UInt8> {
        // The count without an overflow check: a token's text lies inside the storage.
        UnsafeBufferPointer(start: textStorage + token.text.lowerBound, count: token.text.upperBound &- token.text.lowerBound)
    }

    /// The decoded bytes of `token`, which may be read 16 bytes past their start (see `PaddedBytes`).
    func word(_ token: Token) -> PaddedBytes {
        PaddedBytes(bytes(token))
    }

    /// Text storage for `capacity` bytes and 16 more, zeroed, so that reading 16 bytes from
    /// any word's start stays inside it.
    private static func allocateText(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        RawStorage.allocate(capacity, filler: 0, padding: PaddedBytes.readable)
    }

    /// The text of words `words` joined by single blanks, where it lies so in the text
    /// storage (each word's text one blank past the last's, as the lexer writes them): lent in
    /// place, for `echo` to write with no copy made first. Nil where it does not (a word
    /// expanded, whose text was made again at the end): the caller joins them itself.
    @inline(__always)
    func joined(_ words: Range<Int>) -> UnsafeBufferPointer<UInt8>? {
        guard words.lowerBound >= 0 && words.upperBound <= tokenCount else { return nil }
        guard !words.isEmpty else { return UnsafeBufferPointer(start: textStorage, count: 0) }
        let start = tokenStorage[words.lowerBound].text.lowerBound
        var end = tokenStorage[words.lowerBound].text.upperBound
        var token = words.lowerBound &+ 1
        while token < words.upperBound {
            let text = tokenStorage[token].text
            guard text.lowerBound == end &+ 1 && textStorage[end] == 0x20 else { return nil }
            end = text.upperBound
            token &+= 1
        }
        return UnsafeBufferPointer(start: textStorage + start, count: end &- start)
    }

    /// The decoded text of `token`.
    func string(_ token: Token) -> String {
        String(decoding: bytes(token), as: UTF8.self)
    }

    /// Makes room for a line of `count` bytes: at most one token and one text byte per byte,
    /// plus one. What the storage holds is kept (a resumed line goes on from it), and it
    /// grows by doubling, so a line fed in many pieces costs time in proportion to its length.
    ///
    /// Its test is inlined into every line's lexing and the growth kept out of line: called
    /// whole, it cost 17 more instructions a command (1,250 against 1,233 on the benchmark mix,
    /// 1,261 against 1,244 on set/show; callgrind, 10^5 commands).
    @inline(__always)
    private func reserve(_ count: Int) {
        guard count &+ 1 > capacity || count &+ 1 > textCapacity else { return }
        grow(toHold: count)
    }

    @inline(never)
    private func grow(toHold count: Int) {
        reserveText(count)
        guard count + 1 > capacity else { return }
        (separatorStorage, _) = RawStorage.grow(separatorStorage, capacity: capacity, moving: separatorCount, toHold: count + 1)
        (tokenStorage, capacity) = RawStorage.grow(tokenStorage, capacity: capacity, moving: tokenCount, toHold: count + 1)
    }

    /// Makes room for `count` bytes of text. Only the text moves: expanding variables grows
    /// it while the line's tokens are being run, which must stay where they are.
    private func reserveText(_ count: Int) {
        guard count + 1 > textCapacity else { return }
        // Zeroed past the text, as `allocateText` leaves it.
        (textStorage, textCapacity) = RawStorage.grow(
            textStorage, capacity: textCapacity, moving: textCount, toHold: count + 1, filler: 0,
            padding: PaddedBytes.readable)
    }

    /// Where lexing of an unfinished logical line stopped, so the next physical line goes on
    /// from there instead of lexing the whole logical line again.
    private struct Pending {
        /// The byte to go on from: a trailing `\`, or the end of the line inside a string.
        var position: Int
        /// Where the open string's `"` stands, if the line ended inside one.
        var quote: Int?
        /// Where the word being lexed began, and where its text began.
        var wordStart: Int
        var textStart: Int
    }

    private var pending: Pending?

    /// A variable reference (`$name`, `${name}`) in a word: its value goes into the word's
    /// text at `textOffset` when the command runs (so `var x 1; echo $x` sees the new value).
    struct Reference {
        /// The token of the word it stands in.
        var token: Int
        /// Where in the text the value goes.
        var textOffset: Int
        /// The `$...` in the line.
        var range: SourceRange
        var name: String
        /// Written `${name}`.
        var braced: Bool
        /// Written `${env:NAME}`: the host's environment variable NAME, not a script variable.
        var environment = false
    }

    /// The longest a word may grow to with the values put in it: as long as a line may be.
    static let longestExpansion = 1 << 20

    /// The most bytes the words of one logical line may hold in all once values are put in
    /// them (the words with references, of every command of the line together): what
    /// expanding may add to the line's memory, whatever the values and however many
    /// references. The same as the line limit.
    static let lineExpansionBudget = 1 << 20

    /// The last line's variable references, in order (empty for nearly every line). Unchecked:
    /// read by every line and every command, it is the one field of the lexer whose
    /// exclusivity check the optimizer keeps (1.6 calls of swift_beginAccess a command on the
    /// benchmark mix, ~100 of its 1,397 instructions; callgrind, 10^5 commands).
    @exclusivity(unchecked) private(set) var references: [Reference] = []
    /// How many of them have been expanded (commands run left to right).
    private var expanded = 0
    /// How many bytes of expanded words the line has made so far (against `lineExpansionBudget`).
    private var expandedBytes = 0

    /// Puts each reference's `value` into tokens `words`: a word's new text is made at the end
    /// of the text storage and the token pointed at it. Each reference is expanded once.
    ///
    /// A word's length is known before any of it is copied: a word over `longestExpansion`
    /// (the text after its last reference included) or a line over `lineExpansionBudget` is
    /// an error at the reference that takes it over, and nothing of it is made.
    func expand(_ words: Range<Int>, value: (Reference) throws(ScriptError) -> String) throws(ScriptError) {
        while expanded < references.count && references[expanded].token < words.lowerBound { expanded += 1 }
        var values: [String] = []
        while expanded < references.count && references[expanded].token < words.upperBound {
            let token = references[expanded].token
            let old = tokenStorage[token].text
            let first = expanded
            values.removeAll(keepingCapacity: true)
            var added = 0
            while expanded < references.count && references[expanded].token == token {
                let reference = references[expanded]
                let text = try value(reference)
                added += text.utf8.count
                // Values made of values (`var v $v$v`) could double a word without end.
                try checkLength(reference.textOffset - old.lowerBound + added, of: reference)
                values.append(text)
                expanded += 1
            }
            let length = old.count + added
            try checkLength(length, of: references[expanded - 1])
            // Room for the new text past the old (tokens keep offsets into it, not addresses).
            reserveText(textCount + length)
            var to = textStorage + textCount
            var from = old.lowerBound
            for (reference, text) in zip(references[first..<expanded], values) {
                to.update(from: textStorage + from, count: reference.textOffset - from)
                to += reference.textOffset - from
                var text = text
                text.withUTF8 { bytes in
                    if let base = bytes.baseAddress { to.update(from: base, count: bytes.count) }
                }
                to += text.utf8.count
                from = reference.textOffset
            }
            to.update(from: textStorage + from, count: old.upperBound - from)
            tokenStorage[token].text = textCount..<textCount + length
            textCount += length
            expandedBytes += length
        }
    }

    /// Refuses a word of `length` bytes made by putting in values up to `reference`: longer
    /// than a word may be, or more than what is left of the line's budget.
    private func checkLength(_ length: Int, of reference: Reference) throws(ScriptError) {
        if length > Self.longestExpansion {
            throw ScriptError(.expansionTooLong(limit: Self.longestExpansion), at: reference.range)
        }
        if expandedBytes + length > Self.lineExpansionBudget {
            throw ScriptError(.lineExpansionTooLong(limit: Self.lineExpansionBudget), at: reference.range)
        }
    }

    /// Passes each reference in tokens `words` that is still to be expanded to `check`, without
    /// putting any value in: the words past what a command reads are checked (a variable
    /// never set is an error there too) but never made. They stay for `expand` to take.
    func check(_ words: Range<Int>, _ check: (Reference) throws(ScriptError) -> Void) throws(ScriptError) {
        var next = expanded
        while next < references.count && references[next].token < words.lowerBound { next += 1 }
        while next < references.count && references[next].token < words.upperBound {
            try check(references[next])
            next += 1
        }
    }

    /// Where lexing stopped in an unfinished line: a `\` that continues it (outside or inside
    /// a string), or its end inside a string.
    var pendingPosition: Int? { pending?.position }

    /// Tokenizes `line`; at the end of input a trailing `\` is dropped instead of continuing.
    func tokenize(_ line: UnsafeBufferPointer<UInt8>, atEnd: Bool = false) throws(ScriptError) -> Outcome {
        tokenCount = 0
        textCount = 0
        separatorCount = 0
        pending = nil
        // A new line: references of the last one, expanded or not (a failed command leaves
        // some), are gone with it.
        if !references.isEmpty {
            references.removeAll(keepingCapacity: references.capacity <= 1024)
            // Only a line with references spends the budget.
            expandedBytes = 0
        }
        expanded = 0
        return try lexPlain(line, from: 0, atEnd: atEnd)
    }

    /// Goes on lexing after `tokenize` or `resume` asked for more: `line` is the logical line
    /// so far, the bytes already lexed first, unchanged, then a line break and the next
    /// physical line. Only the new bytes are lexed.
    func resume(_ line: UnsafeBufferPointer<UInt8>, atEnd: Bool = false) throws(ScriptError) -> Outcome {
        guard let state = pending else { return try tokenize(line, atEnd: atEnd) }
        pending = nil
        return try lex(line, from: state, atEnd: atEnd)
    }

    /// Where lexing stands in a line: a value the scanning loop changes in place. (Kept in a
    /// struct rather than in locals that nested functions capture: captured locals would be
    /// checked for exclusive access at run time on every byte.)
    private struct Cursor {
        let input: UnsafePointer<UInt8>
        let count: Int
        let tokens: UnsafeMutablePointer<Token>
        let text: UnsafeMutablePointer<UInt8>
        var i: Int
        var tokenIndex: Int
        var textIndex: Int
        var wordStart: Int
        var textStart: Int

        @inline(__always)
        mutating func endWord(at end: Int) {
            if wordStart >= 0 {
                (tokens + tokenIndex).initialize(
                    to: Token(
                        kind: .word, range: SourceRange(wordStart, end),
                        text: textStart..<textIndex))
                tokenIndex += 1
                wordStart = -1
                append(0x20)
            }
        }

        @inline(__always)
        mutating func beginWord(at position: Int) {
            if wordStart < 0 {
                wordStart = position
                textStart = textIndex
            }
        }

        @inline(__always)
        mutating func append(_ byte: UInt8) {
            text[textIndex] = byte
            textIndex += 1
        }

        mutating func separator() {
            (tokens + tokenIndex).initialize(
                to: Token(
                    kind: .separator, range: SourceRange(i, i + 1),
                    text: textIndex..<textIndex))
            tokenIndex += 1
        }

        /// How the rest of an open string ended.
        enum QuoteEnd { case closed, lineEnded, dollar }

        /// The rest of an open string, from `i`, up to its closing quote, the end of the line,
        /// or a `$` (left at `i` for the lexer to read the reference, then to go on).
        mutating func quoted(_ line: UnsafeBufferPointer<UInt8>) throws(ScriptError) -> QuoteEnd {
            while i < count {
                // Eight bytes at a time while they hold no quote, `$`, backslash, NUL or byte
                // that is not ASCII: copied, then as many kept as lead up to the first that is
                // one (as the word scan does; text is never ahead of the input here, so eight
                // bytes stored at its end stay inside its storage). Byte by byte, the benchmark mix
                // (a tenth of it `echo` with a quoted string) cost 1,113 instructions a command
                // against 1,094, set/show 1,112 against 1,102; start-up, whose catalog strings
                // are short, 1,281.7k against 1,285.9k (callgrind, 10^5 commands).
                _ = Lexer.copyEights(input, count, text, &i, &textIndex, stops: Lexer.notStringText)
                if i == count { break }
                let c = input[i]
                if c == UInt8(ascii: "\"") {
                    i += 1
                    return .closed
                }
                if c == UInt8(ascii: "$") { return .dollar }
                if c == UInt8(ascii: "\\") {
                    guard i + 1 < count else { return .lineEnded }
                    switch input[i + 1] {
                    case UInt8(ascii: "\""): append(UInt8(ascii: "\""))
                    case UInt8(ascii: "$"): append(UInt8(ascii: "$"))
                    case UInt8(ascii: "\\"): append(UInt8(ascii: "\\"))
                    case UInt8(ascii: "n"): append(0x0A)
                    case UInt8(ascii: "t"): append(0x09)
                    case UInt8(ascii: "r"): append(0x0D)
                    case UInt8(ascii: "u"):
                        i = try unicodeEscape(line)
                        continue
                    case 0x0A: break
                    case 0x0D where i + 2 >= count || input[i + 2] == 0x0A:
                        // `\` before a CR LF line break: both go, as before LF.
                        guard i + 2 < count else { return .lineEnded }
                        i += 1
                    default:
                        let end = try Lexer.scalarEnd(line, from: i + 1)
                        throw ScriptError(.unknownEscape(Lexer.decode(line, i..<end)), at: SourceRange(i, end))
                    }
                    i += 2
                    continue
                }
                if c == 0 { throw ScriptError(.nulByte, at: SourceRange(i, i + 1)) }
                if c < 0x80 {
                    append(c)
                    i += 1
                    continue
                }
                let end = try Lexer.scalarEnd(line, from: i)
                (text + textIndex).update(from: input + i, count: end - i)
                textIndex += end - i
                i = end
            }
            return .lineEnded
        }

        /// Reads `\u{HEX}` at `i` (one to six hex digits naming a Unicode scalar other than NUL)
        /// into the text as UTF-8; returns where the escape ends.
        mutating func unicodeEscape(_ line: UnsafeBufferPointer<UInt8>) throws(ScriptError) -> Int {
            var end = i + 2
            var value: UInt32 = 0
            var digits = 0
            var closed = false
            if end < count && input[end] == UInt8(ascii: "{") {
                end += 1
                while end < count && digits <= 6 {
                    let byte = input[end]
                    if byte == UInt8(ascii: "}") {
                        closed = true
                        end += 1
                        break
                    }
                    guard let digit = Lexer.hexDigit(byte) else { break }
                    value = value &* 16 &+ UInt32(digit)
                    digits += 1
                    end += 1
                }
            }
            guard closed, (1...6).contains(digits), value != 0, let scalar = Unicode.Scalar(value) else {
                // The escape as far as it goes: to its `}`, or with the first byte that cannot be in it.
                let shownEnd = closed || end >= count ? end : try Lexer.scalarEnd(line, from: end)
                throw ScriptError(.badUnicodeEscape(Lexer.decode(line, i..<shownEnd)), at: SourceRange(i, shownEnd))
            }
            UTF8.encode(scalar) { append($0) }
            return end
        }
    }

    /// Lexes `line` from `state`: the common lines here, on local variables the optimizer keeps
    /// in registers: words of plain bytes, separated by blanks, `;` and line breaks, with no
    /// word left open between bytes. At the first byte of any other kind (a quote, `$`, `#`,
    /// `\\`, a control byte, UTF-8) the rest of the line goes to `lexAll`, which lexes anything.
    /// (With every line in `lexAll`'s one loop, 1,093.4 instructions a command on set/show
    /// against 1,089.5; the benchmark mix, whose `echo` lines with a string go on in `lexAll`,
    /// 1,080.8 against 1,082.3. With the cursor `lexAll` takes made for every line, 1,028.5
    /// against 1,025.2 on set/show; callgrind, 10^5 commands.)
    private func lex(_ line: UnsafeBufferPointer<UInt8>, from state: Pending, atEnd: Bool) throws(ScriptError) -> Outcome {
        guard state.quote == nil && state.wordStart < 0 else {
            reserve(line.count)
            guard line.baseAddress != nil else { return .complete }
            return try lexAll(line, from: state, tokenIndex: tokenCount, textIndex: textCount, atEnd: atEnd)
        }
        return try lexPlain(line, from: state.position, atEnd: atEnd)
    }

    /// `lex` from `position`, outside any word or string: where every line starts. Called with
    /// the position alone, as a new line is: a state made for each line and passed in memory
    /// cost 959.0 instructions a command on the benchmark mix against 956.3, 944.7 against
    /// 941.6 on set/show (callgrind, 10^5 commands; in time within the noise, 84.8 against
    /// 85.8 ms for 10^6 commands of the mix, the median of 25 interleaved runs). Inlined where
    /// a line is tokenized: called, its frame was made and its registers saved for every line
    /// (920.1 -> 917.8 instructions a command on the mix, 907.4 -> 905.3 on set/show; start-up
    /// 1,334k -> 1,322k; callgrind, 10^5 commands; in time within the noise).
    @inline(__always)
    private func lexPlain(_ line: UnsafeBufferPointer<UInt8>, from position: Int, atEnd: Bool) throws(ScriptError) -> Outcome {
        let count = line.count
        reserve(count)
        guard let input = line.baseAddress else { return .complete }
        let plain = self.plain
        let text = textStorage
        let tokens = tokenStorage
        var i = position
        var textIndex = textCount
        var tokenIndex = tokenCount
        while i < count {
            let byte = input[i]
            if plain[Int(byte)] != 0 {
                let wordStart = i
                let textStart = textIndex
                // Eight bytes at a time while eight are left, then the last few (see `copyEights`
                // and `copyPlainRest`).
                if !Self.copyEights(input, count, text, &i, &textIndex, stops: Self.notPlain) {
                    Self.copyPlainRest(input, count, text, &i, &textIndex, plain: plain)
                }
                // The word ends at a blank, a separator or the line's end; a byte of any other
                // kind goes on with it, in `scanAll`.
                // A space after it, the commonest end, is passed over here and now.
                var blank = 0
                if i < count {
                    let stop = input[i]
                    if stop == 0x20 {
                        blank = 1
                    } else if stop != UInt8(ascii: ";") && (stop &- 0x09) > 4 {
                        return try lexAll(
                            line, from: Pending(position: i, quote: nil, wordStart: wordStart, textStart: textStart),
                            tokenIndex: tokenIndex, textIndex: textIndex, atEnd: atEnd)
                    }
                }
                (tokens + tokenIndex).initialize(
                    to: Token(
                        kind: .word, range: SourceRange(wordStart, i),
                        text: Range(uncheckedBounds: (textStart, textIndex))))
                tokenIndex &+= 1
                // The blank after the word's text (see `joined`).
                text[textIndex] = 0x20
                textIndex &+= 1
                i &+= blank
                continue
            }
            if byte == UInt8(ascii: ";") || byte == 0x0A {
                (tokens + tokenIndex).initialize(
                    to: Token(
                        kind: .separator, range: SourceRange(i, i &+ 1),
                        text: Range(uncheckedBounds: (textIndex, textIndex))))
                separatorStorage[separatorCount] = tokenIndex
                tokenIndex &+= 1
                separatorCount &+= 1
                // And the space that usually follows (`total; show`).
                if i &+ 1 < count && input[i &+ 1] == 0x20 { i &+= 1 }
            } else if byte != 0x20 && (byte &- 0x09) > 4 {
                return try lexAll(
                    line, from: Pending(position: i, quote: nil, wordStart: -1, textStart: textIndex), tokenIndex: tokenIndex,
                    textIndex: textIndex, atEnd: atEnd)
            }
            i &+= 1
        }
        tokenCount = tokenIndex
        textCount = textIndex
        return .complete
    }

    /// Lexes any line from `state`, on a cursor, the line's tokens and text so far ending at
    /// `tokenIndex` and `textIndex` (which it stores as the counts on every way out). Given as
    /// arguments, not read back from the counts `lexPlain` would have stored just before: the
    /// cursor's one 16-byte load of both stalled on those two 8-byte stores (16% of this
    /// function's time by `perf record -e cpu-clock`, 0.6% of the benchmark mix's).
    @inline(never)
    private func lexAll(
        _ line: UnsafeBufferPointer<UInt8>, from state: Pending, tokenIndex: Int, textIndex: Int, atEnd: Bool
    ) throws(ScriptError) -> Outcome {
        guard let input = line.baseAddress else {
            tokenCount = tokenIndex
            textCount = textIndex
            return .complete
        }
        var c = Cursor(
            input: input, count: line.count, tokens: tokenStorage, text: textStorage, i: state.position,
            tokenIndex: tokenIndex, textIndex: textIndex, wordStart: state.wordStart, textStart: state.textStart)
        do {
            let outcome = try scanAll(line, &c, from: state, atEnd: atEnd, plain: plain)
            tokenCount = c.tokenIndex
            textCount = c.textIndex
            return outcome
        } catch {
            // Keep the counts current on every way out, thrown or returned.
            tokenCount = c.tokenIndex
            textCount = c.textIndex
            throw error
        }
    }

    /// Lexes any line, from where `c` stands.
    @inline(__always)
    private func scanAll(
        _ line: UnsafeBufferPointer<UInt8>, _ c: inout Cursor, from state: Pending, atEnd: Bool,
        plain: UnsafeMutablePointer<UInt8>
    ) throws(ScriptError) -> Outcome {
        let input = c.input
        let count = c.count
        let text = c.text
        func openQuote(_ quote: Int, _ c: Cursor) throws(ScriptError) -> Outcome {
            if atEnd { throw ScriptError(.unterminatedString, at: SourceRange(quote, quote + 1)) }
            pending = Pending(position: c.i, quote: quote, wordStart: c.wordStart, textStart: c.textStart)
            return .openQuote(at: quote)
        }

        if let quote = state.quote, try !string(line, &c) { return try openQuote(quote, c) }
        while c.i < count {
            let byte = input[c.i]
            // Plain word bytes, the common case: everything above `#` up to DEL except `;` and `\`.
            if plain[Int(byte)] != 0 {
                c.beginWord(at: c.i)
                // Eight bytes at a time while eight are left, then the last few (see `copyEights`
                // and `copyPlainRest`).
                if !Self.copyEights(input, count, text, &c.i, &c.textIndex, stops: Self.notPlain) {
                    Self.copyPlainRest(input, count, text, &c.i, &c.textIndex, plain: plain)
                }
                continue
            }
            switch byte {
            case 0x20, 0x09, 0x0D, 0x0B, 0x0C:
                c.endWord(at: c.i)
                c.i += 1
            case 0x0A, UInt8(ascii: ";"):
                c.endWord(at: c.i)
                separatorStorage[separatorCount] = c.tokenIndex
                c.separator()
                separatorCount &+= 1
                c.i += 1
            case UInt8(ascii: "#"):
                c.endWord(at: c.i)
                // A comment runs to the end of its physical line, and is UTF-8 like the rest:
                // eight bytes at a time while they hold no line break, NUL or non-ASCII byte.
                while c.i &+ 8 <= count {
                    let eight = UInt64(littleEndian: UnsafeRawPointer(input + c.i).loadUnaligned(as: UInt64.self))
                    if Self.notCommentText(eight) != 0 { break }
                    c.i &+= 8
                }
                while c.i < count {
                    let b = input[c.i]
                    if b == 0x0A { break }
                    if b == 0 { throw ScriptError(.nulByte, at: SourceRange(c.i, c.i + 1)) }
                    c.i = b < 0x80 ? c.i + 1 : try Self.scalarEnd(line, from: c.i)
                }
            case UInt8(ascii: "\\"):
                // A backslash ending a physical line (before LF or CR LF) joins the next one, as a blank.
                var next = c.i + 1
                if next < count && input[next] == 0x0D { next += 1 }
                if next < count && input[next] == 0x0A {
                    c.endWord(at: c.i)
                    c.i = next + 1
                } else if next < count && input[next] == UInt8(ascii: "$") && next == c.i + 1 {
                    // `\$`: a dollar sign, not a variable.
                    c.beginWord(at: c.i)
                    c.append(UInt8(ascii: "$"))
                    c.i += 2
                } else if next == count {
                    c.endWord(at: c.i)
                    if !atEnd {
                        pending = Pending(position: c.i, quote: nil, wordStart: -1, textStart: c.textIndex)
                        return .continued
                    }
                    c.i = count
                } else {
                    c.beginWord(at: c.i)
                    c.append(byte)
                    c.i += 1
                }
            case UInt8(ascii: "\""):
                c.beginWord(at: c.i)
                let quote = c.i
                c.i += 1
                if try !string(line, &c) { return try openQuote(quote, c) }
            case UInt8(ascii: "$"):
                c.beginWord(at: c.i)
                try reference(line, &c)
            default:
                // Control bytes, `!`, `"`-free punctuation below `#`, and UTF-8: checked one character at a time.
                c.beginWord(at: c.i)
                let start = c.i
                scan: while c.i < count {
                    switch input[c.i] {
                    case 0x20, 0x09, 0x0D, 0x0B, 0x0C, 0x0A, UInt8(ascii: ";"), UInt8(ascii: "#"),
                        UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "$"):
                        break scan
                    case 0:
                        throw ScriptError(.nulByte, at: SourceRange(c.i, c.i + 1))
                    case 0x80...:
                        c.i = try Self.scalarEnd(line, from: c.i)
                    default:
                        c.i += 1
                    }
                }
                (text + c.textIndex).update(from: input + start, count: c.i - start)
                c.textIndex += c.i - start
            }
        }
        c.endWord(at: count)
        return .complete
    }

    /// Non-zero if any of eight packed bytes is a line break, NUL or not ASCII: a comment's
    /// bytes are checked one by one from there.
    @inline(__always)
    private static func notCommentText(_ eight: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high = 0x80 &* ones
        let lineBreaks = eight ^ (0x0A &* ones)
        let hasNUL = (eight &- ones) & ~eight & high
        let hasLineBreak = (lineBreaks &- ones) & ~lineBreaks & high
        return hasNUL | hasLineBreak | (eight & high)
    }

    /// Copies `input[i...]` to `text[textIndex...]` eight bytes at a time while eight are left
    /// and `stops` marks none of them (the high bit of each byte it finds), then keeps as many
    /// as lead up to the first it marks: the one copy loop of words and strings. Indices stay
    /// below `count`, so they cannot overflow; text is never ahead of the input where a word
    /// or string is copied (the blank after a word's text is at most one byte ahead, until
    /// the byte that ended the word is passed), and its storage has 16 bytes to spare, so
    /// eight bytes stored at its end stay inside it. The
    /// callers take the last few bytes one at a time: with the line's last eight bytes loaded
    /// and shifted instead, the loop's values no longer fitted in registers (set/show 1,089.5
    /// -> 1,053.2 instructions a command, the benchmark mix 1,082.3 -> 1,048.4; callgrind,
    /// 10^5 commands).
    @inline(__always)
    static func copyEights(
        _ input: UnsafePointer<UInt8>, _ count: Int, _ text: UnsafeMutablePointer<UInt8>, _ i: inout Int, _ textIndex: inout Int,
        stops: (UInt64) -> UInt64
    ) -> Bool {
        while i &+ 8 <= count {
            let eight = UInt64(littleEndian: UnsafeRawPointer(input + i).loadUnaligned(as: UInt64.self))
            UnsafeMutableRawPointer(text + textIndex).storeBytes(of: eight.littleEndian, as: UInt64.self)
            let found = stops(eight)
            if found == 0 {
                i &+= 8
                textIndex &+= 8
                continue
            }
            let kept = found.trailingZeroBitCount >> 3
            i &+= kept
            textIndex &+= kept
            return true
        }
        return false
    }

    /// The rest of a plain word once `copyEights` has run out of eight-byte windows (fewer
    /// than eight bytes are left): from the line's last eight bytes, shifted down so that the
    /// rest comes first and zeros (not plain) follow it, copied and kept up to the first byte
    /// that is not plain. A line shorter than eight bytes goes byte by byte. (Byte by byte
    /// always, the loop's exit, at a different count for each word, was where the lexer spent
    /// a quarter of its time: `perf record -e cpu-clock`, 10^6 commands of the benchmark mix.)
    @inline(__always)
    static func copyPlainRest(
        _ input: UnsafePointer<UInt8>, _ count: Int, _ text: UnsafeMutablePointer<UInt8>, _ i: inout Int, _ textIndex: inout Int,
        plain: UnsafeMutablePointer<UInt8>
    ) {
        let rest = count &- i
        if rest <= 0 { return }
        if count >= 8 {
            let last = UInt64(littleEndian: UnsafeRawPointer(input + (count &- 8)).loadUnaligned(as: UInt64.self))
            let eight = last &>> UInt64(truncatingIfNeeded: (8 &- rest) &* 8)
            UnsafeMutableRawPointer(text + textIndex).storeBytes(of: eight.littleEndian, as: UInt64.self)
            let kept = notPlain(eight).trailingZeroBitCount >> 3
            i &+= kept
            textIndex &+= kept
            return
        }
        while i < count && plain[Int(input[i])] != 0 {
            text[textIndex] = input[i]
            textIndex &+= 1
            i &+= 1
        }
    }

    /// A mark (top bit) on each of eight packed bytes that a string's scan stops at: `"`, `$`,
    /// the backslash, NUL, or not ASCII. The lowest mark is exact (borrows only run towards
    /// higher bytes), which is all the scan needs.
    @inline(__always)
    fileprivate static func notStringText(_ eight: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high = 0x80 &* ones
        let quotes = eight ^ (0x22 &* ones)
        let dollars = eight ^ (0x24 &* ones)
        let backslashes = eight ^ (0x5C &* ones)
        let isNUL = (eight &- ones) & ~eight
        let isQuote = (quotes &- ones) & ~quotes
        let isDollar = (dollars &- ones) & ~dollars
        let isBackslash = (backslashes &- ones) & ~backslashes
        return (isNUL | isQuote | isDollar | isBackslash | eight) & high
    }

    /// A mark (top bit) on each of eight packed bytes that is not plain: `$` or below, `;`, the
    /// backslash, or not ASCII. The lowest mark is exact (borrows only run towards higher bytes), which
    /// is all the scan needs.
    @inline(__always)
    private static func notPlain(_ eight: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high = 0x80 &* ones
        let below = (eight &- 0x25 &* ones) & ~eight & high
        let semicolons = eight ^ (0x3B &* ones)
        let backslashes = eight ^ (0x5C &* ones)
        let isSemicolon = (semicolons &- ones) & ~semicolons & high
        let isBackslash = (backslashes &- ones) & ~backslashes & high
        return below | isSemicolon | isBackslash | (eight & high)
    }

    /// The rest of a string, from `c.i`, with the references in it; false if the line ends inside it.
    private func string(_ line: UnsafeBufferPointer<UInt8>, _ c: inout Cursor) throws(ScriptError) -> Bool {
        while true {
            switch try c.quoted(line) {
            case .closed: return true
            case .lineEnded: return false
            case .dollar: try reference(line, &c)
            }
        }
    }

    /// Reads the reference (`$name` or `${name}`) at `c.i` into the word being lexed, or the
    /// dollar sign it is if no name follows.
    @inline(never)
    private func reference(_ line: UnsafeBufferPointer<UInt8>, _ c: inout Cursor) throws(ScriptError) {
        let start = c.i
        let input = c.input
        var nameStart = start + 1
        var nameEnd: Int
        let end: Int
        var environment = false
        if nameStart < c.count && input[nameStart] == UInt8(ascii: "{") {
            nameStart += 1
            nameEnd = nameStart
            // The name runs to `}`; a blank, `;`, a quote or the line's end first means no `}`.
            while nameEnd < c.count, input[nameEnd] != UInt8(ascii: "}"), input[nameEnd] > 0x20,
                input[nameEnd] != UInt8(ascii: ";"), input[nameEnd] != UInt8(ascii: "\"")
            {
                nameEnd += 1
            }
            guard nameEnd < c.count && input[nameEnd] == UInt8(ascii: "}") else {
                // A NUL or a byte that is not UTF-8 is reported where it stands, as everywhere else.
                var i = nameStart
                while i <= nameEnd && i < c.count { i = try Self.scalarEnd(line, from: i) }
                throw ScriptError(.unclosedBrace, at: SourceRange(start, start + 2))
            }
            end = nameEnd + 1
            // `${env:NAME}` reads the environment; NAME is spelled as a variable's name.
            let inside = nameStart
            if line[nameStart..<nameEnd].starts(with: "env:".utf8) {
                environment = true
                nameStart += 4
            }
            let name = UnsafeBufferPointer(rebasing: line[nameStart..<nameEnd])
            guard Self.isVariableName(name) else {
                var i = inside
                while i < nameEnd { i = try Self.scalarEnd(line, from: i) }
                throw ScriptError(.badVariableName(Self.decode(line, inside..<nameEnd)), at: SourceRange(start, end))
            }
        } else {
            guard nameStart < c.count, Self.beginsName(input[nameStart]) else {
                // A `$` before anything but a name or `{` is a dollar sign (`$70,800.00`).
                c.append(UInt8(ascii: "$"))
                c.i += 1
                return
            }
            nameEnd = nameStart + 1
            while nameEnd < c.count && Self.continuesName(input[nameEnd]) { nameEnd += 1 }
            end = nameEnd
        }
        references.append(
            Reference(
                token: c.tokenIndex, textOffset: c.textIndex, range: SourceRange(start, end),
                name: Self.decode(line, nameStart..<nameEnd), braced: input[start + 1] == UInt8(ascii: "{"),
                environment: environment))
        c.i = end
    }

    /// The value of hex digit `byte`, either case.
    fileprivate static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Whether `bytes` are a variable's name.
    static func isVariableName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { VariableSyntax.isName(bytes) }

    private static func beginsName(_ byte: UInt8) -> Bool { VariableSyntax.beginsName(byte) }

    private static func continuesName(_ byte: UInt8) -> Bool { VariableSyntax.continuesName(byte) }

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
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
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

    fileprivate static func decode(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: line[range]), as: UTF8.self)
    }
}
