import CarFactory
import Testing

@testable import CarScript

@Suite struct LexerTests {
    /// The words of `line`, with `;` for separators.
    func words(_ line: String, atEnd: Bool = false) throws -> (outcome: Lexer.Outcome, words: [String]) {
        let lexer = Lexer()
        let bytes = Array(line.utf8)
        let outcome = try bytes.withUnsafeBufferPointer { (buffer) throws(ScriptError) in try lexer.tokenize(buffer, atEnd: atEnd) }
        return (outcome, lexer.tokens.map { $0.kind == .separator ? ";" : lexer.string($0) })
    }

    func error(_ line: [UInt8], atEnd: Bool = true) -> ScriptError? {
        let lexer = Lexer()
        do {
            _ = try line.withUnsafeBufferPointer { (buffer) throws(ScriptError) in try lexer.tokenize(buffer, atEnd: atEnd) }
            return nil
        } catch {
            return error
        }
    }

    /// The runner takes a line's commands from the separators' places, which the lexer lists
    /// whichever way it lexed them (plain words, strings, comments, continued lines), the
    /// line's end (its token count) after them.
    @Test func separators_are_listed_where_they_stand_among_the_tokens() throws {
        let lexer = Lexer()
        func listed() -> [Int] {
            let ends = lexer.commandEnds()
            #expect(ends.last == lexer.tokens.count)
            let separators = Array(ends.dropLast())
            #expect(separators.allSatisfy { lexer.tokens[$0].kind == .separator })
            #expect(lexer.tokens.filter { $0.kind == .separator }.count == separators.count)
            return separators
        }
        func separators(_ line: String) throws -> [Int] {
            let bytes = Array(line.utf8)
            _ = try bytes.withUnsafeBufferPointer { (buffer) throws(ScriptError) in try lexer.tokenize(buffer) }
            return listed()
        }
        #expect(try separators("car suv") == [])
        #expect(try separators("car suv; set drivetrain 4wd;;total") == [2, 6, 7])
        #expect(try separators("echo \"a;b\"; price # x; y") == [2])
        #expect(try separators("; echo $x\nshow") == [0, 3])
        let continued = Array("car suv; \\".utf8)
        _ = try continued.withUnsafeBufferPointer { (buffer) throws(ScriptError) in try lexer.tokenize(buffer) }
        let whole = continued + Array("\nshow; total".utf8)
        _ = try whole.withUnsafeBufferPointer { (buffer) throws(ScriptError) in try lexer.resume(buffer) }
        #expect(listed() == [2, 4])
    }

    @Test func words_are_separated_by_blanks_and_commands_by_semicolons() throws {
        #expect(try words("car  sports\t2;set drivetrain 4wd").words == ["car", "sports", "2", ";", "set", "drivetrain", "4wd"])
        #expect(try words("a;;b").words == ["a", ";", ";", "b"])
        #expect(try words("   ").words == [])
        #expect(try words("car suv\r").words == ["car", "suv"])
    }

    /// Words are read eight bytes at a time, and the last few bytes of a line from its last
    /// eight: every length of line and of its last word, with the word ending at the line's
    /// end or before a byte that ends it, reads as the words written.
    @Test func words_of_every_length_near_the_end_of_a_line() throws {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        for lead in 0..<18 {
            for last in 1..<18 {
                let first = String(letters.prefix(lead))
                let word = String(letters.suffix(last))
                let expected = (lead > 0 ? [first] : []) + [word]
                let line = (lead > 0 ? first + " " : "") + word
                #expect(try words(line).words == expected, "\(line)")
                #expect(try words(line + ";").words == expected + [";"], "\(line);")
                #expect(try words(line + " #c").words == expected, "\(line) #c")
                #expect(try words(line + "\"q\"").words == (lead > 0 ? [first] : []) + [word + "q"], "\(line)\"q\"")
                #expect(try words(line + "$").words == (lead > 0 ? [first] : []) + [word + "$"], "\(line)$")
            }
        }
    }

    /// `echo` writes its words from the lexer's text where they lie there joined by single
    /// blanks (each word's text is followed by one), whatever stands between them in the line;
    /// a word made again by expanding a variable is not there, and the words are then joined
    /// by the caller.
    @Test func words_lie_joined_by_single_blanks_in_the_text() throws {
        let lexer = Lexer()
        func joined(_ line: String, _ words: Range<Int>) throws -> String? {
            let bytes = Array(line.utf8)
            _ = try bytes.withUnsafeBufferPointer { (buffer) throws(ScriptError) in try lexer.tokenize(buffer, atEnd: true) }
            return lexer.joined(words).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(try joined("echo a  b\tc", 1..<4) == "a b c")
        #expect(try joined("echo a\\\n  b", 1..<3) == "a b")
        #expect(try joined("echo \"quote; 6\"   done", 1..<3) == "quote; 6 done")
        #expect(try joined("echo pre\"x\"post \"\" z;echo w", 1..<4) == "prexpost  z")
        #expect(try joined("echo a # b c", 1..<2) == "a")
        #expect(try joined("echo", 1..<1) == "")
        #expect(try joined("echo a", 1..<3) == nil)
        // `$x` made again at the end of the text: not joined there.
        _ = try Array("echo $x b".utf8).withUnsafeBufferPointer { (buffer) throws(ScriptError) in try lexer.tokenize(buffer) }
        try lexer.expand(1..<2) { _ throws(ScriptError) in "value" }
        #expect(lexer.joined(1..<3) == nil)
        #expect(lexer.string(lexer.tokens[1]) == "value")
    }

    /// Lines of plain words, blanks and separators are lexed on a path of their own, which hands
    /// the rest of a line to the general one at its first other byte: every token (kind, place
    /// in the line, text) is as a plain splitting of the line gives it, and stays so with a
    /// string, a reference or a comment after it.
    @Test func plain_lines_keep_every_token_place_whatever_follows() throws {
        // Seeded, so that a failure runs again as it was (a reviewer's finding).
        var generator = SplitMix64(state: 2_026_112_5)
        let alphabet: [UInt8] = Array("ab9-".utf8) + [0x20, 0x20, 0x09, 0x0B, 0x0C, 0x0D, 0x3B, 0x0A]
        for _ in 0..<2_000 {
            let line = (0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            // The plain splitting: words between blanks, `;` and line breaks; a separator each.
            var expected: [Token] = []
            var start: Int?
            var text = 0
            for (index, byte) in line.enumerated().map({ ($0.offset, $0.element) }) + [(line.count, UInt8(0x20))] {
                let ends = byte == 0x20 || byte == 0x3B || byte == 0x0A || (0x09...0x0D).contains(byte)
                if ends, let first = start {
                    expected.append(Token(kind: .word, range: SourceRange(first, index), text: text - (index - first)..<text))
                    // Each word's text is followed by one blank (see `Lexer.joined`).
                    text += 1
                    start = nil
                }
                if byte == 0x3B || byte == 0x0A {
                    expected.append(Token(kind: .separator, range: SourceRange(index, index + 1), text: text..<text))
                }
                if !ends {
                    if start == nil { start = index }
                    text += 1
                }
            }
            for tail in ["", " \"q\" x", "\"q\"", "$v", " # c", "\u{E9}", "\\;"] {
                let lexer = Lexer()
                let bytes = line + Array(tail.utf8)
                _ = try bytes.withUnsafeBufferPointer { (buffer) throws(ScriptError) in try lexer.tokenize(buffer, atEnd: true) }
                let tokens = Array(lexer.tokens)
                // A word at the line's end runs on into a tail that does not begin with a blank;
                // a separator there stays what it is.
                let kept =
                    tail.isEmpty || tail.hasPrefix(" ") ? expected : expected.filter { $0.kind != .word || $0.range.end < line.count }
                #expect(Array(tokens.prefix(kept.count)) == kept, "\(bytes) then \(tail)")
                for token in tokens.prefix(kept.count) where token.kind == .word {
                    #expect(Array(lexer.bytes(token)) == Array(bytes[token.range.start..<token.range.end]))
                }
            }
        }
    }

    @Test func comments_run_to_the_end_of_the_line_outside_quotes() throws {
        #expect(try words("echo a # b; c").words == ["echo", "a"])
        #expect(try words("echo \"a # b\" c#d").words == ["echo", "a # b", "c"])
        #expect(try words("#!/usr/bin/env carfab").words == [])
    }

    @Test func quoted_strings_take_four_escapes() throws {
        #expect(try words(#"echo "a;b" "\"x\" \\ \n \t""#).words == ["echo", "a;b", "\"x\" \\ \n \t"])
        #expect(try words(#"echo pre"quoted part"post"#).words == ["echo", "prequoted partpost"])
        #expect(try words(#"echo """#).words == ["echo", ""])
        #expect(try words("echo £é").words == ["echo", "£é"])
    }

    @Test func strings_of_every_length_stop_at_each_special_byte_wherever_it_stands() throws {
        // The string's scan reads eight bytes at a time: an escape, a character that is not
        // ASCII, a NUL or the closing quote at every place in and around the first words.
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let specials: [(written: String, decoded: String)] = [(#"\""#, "\""), (#"\n"#, "\n"), ("é", "é"), (#"\\"#, "\\"), ("'", "'")]
        for length in 0..<20 {
            let plain = String(letters.prefix(length))
            #expect(try words("echo \"\(plain)\" x").words == ["echo", plain, "x"], "\(plain)")
            #expect(try words("echo \"\(plain)").outcome == .openQuote(at: 5), "\(plain)")
            for at in 0...length {
                let before = String(letters.prefix(at))
                let after = String(letters.prefix(length).dropFirst(at))
                for special in specials {
                    let line = "echo \"\(before)\(special.written)\(after)\";x"
                    #expect(try words(line).words == ["echo", before + special.decoded + after, ";", "x"], "\(line)")
                }
                let nul = Array("echo \"\(before)".utf8) + [0] + Array("\(after)\"".utf8)
                #expect(error(nul)?.range == SourceRange(6 + at, 7 + at), "\(before) NUL \(after)")
            }
        }
    }

    @Test func token_ranges_cover_the_word_with_its_quotes() throws {
        let lexer = Lexer()
        let bytes = Array(#"car "sports" 2"#.utf8)
        _ = try bytes.withUnsafeBufferPointer { (b) throws(ScriptError) in try lexer.tokenize(b) }
        #expect(lexer.tokens.map(\.range) == [SourceRange(0, 3), SourceRange(4, 12), SourceRange(13, 14)])
    }

    @Test func an_open_quote_or_trailing_backslash_asks_for_more() throws {
        #expect(try words("echo \"abc").outcome == .openQuote(at: 5))
        #expect(try words("car \\").outcome == .continued)
        #expect(try words("car \\\r").outcome == .continued)
        #expect(try words("car \\\n  suv").words == ["car", "suv"])
        #expect(try words("car \\\r\nsuv").words == ["car", "suv"])
        #expect(try words("echo \"a\nb\"").words == ["echo", "a\nb"])
        #expect(try words("echo \"a\\\nb\"").words == ["echo", "ab"])
        #expect(try words("car suv \\", atEnd: true) == (.complete, ["car", "suv"]))
        #expect(try words("echo a\\b").words == ["echo", "a\\b"])
    }

    @Test func bad_input_is_an_error_at_its_byte() {
        #expect(error(Array(#"echo "a\qb""#.utf8)) == ScriptError(.unknownEscape("\\q"), at: SourceRange(7, 9)))
        #expect(error(Array("echo \"abc".utf8)) == ScriptError(.unterminatedString, at: SourceRange(5, 6)))
        #expect(error([0x61, 0x00, 0x62]) == ScriptError(.nulByte, at: SourceRange(1, 2)))
        #expect(error([0x61, 0x20, 0xFF]) == ScriptError(.invalidUTF8(0xFF), at: SourceRange(2, 3)))
        #expect(error([0xC3]) == ScriptError(.invalidUTF8(0xC3), at: SourceRange(0, 1)))  // truncated
        #expect(error([0xE0, 0x80, 0x80]) == ScriptError(.invalidUTF8(0xE0), at: SourceRange(0, 1)))  // overlong
        #expect(error([0xED, 0xA0, 0x80]) == ScriptError(.invalidUTF8(0xED), at: SourceRange(0, 1)))  // surrogate
        #expect(error([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22]) == ScriptError(.invalidUTF8(0xF4), at: SourceRange(1, 2)))
        #expect(error(Array("ok \u{10FFFF} \u{7FF}".utf8)) == nil)
    }

    @Test func a_byte_that_is_not_utf8_inside_braces_is_reported_where_it_stands() {
        // `echo ${a<FF>b}`: the byte, not a bad name (issue 19 item 18).
        #expect(error(Array("echo ${a".utf8) + [0xFF] + Array("b}".utf8)) == ScriptError(.invalidUTF8(0xFF), at: SourceRange(8, 9)))
        #expect(error(Array("echo \"${".utf8) + [0xC3, 0x41] + Array("}\"".utf8)) == ScriptError(.invalidUTF8(0xC3), at: SourceRange(8, 9)))
        // With no closing brace too, and a NUL where the name stops.
        #expect(error(Array("echo ${ab".utf8) + [0xFF]) == ScriptError(.invalidUTF8(0xFF), at: SourceRange(9, 10)))
        #expect(error(Array("echo ${ab".utf8) + [0x00] + Array("}".utf8)) == ScriptError(.nulByte, at: SourceRange(9, 10)))
        // A name that is bad but valid UTF-8 is still a bad name.
        #expect(error(Array("echo ${a-b}".utf8))?.kind == .badVariableName("a-b"))
    }
}
