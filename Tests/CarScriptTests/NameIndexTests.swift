import Testing

@testable import CarScript

@Suite struct NameIndexTests {
    func lookup(_ index: NameIndex, _ word: String) -> Int? {
        var word = word
        return word.withUTF8 { index.lookup($0) }
    }

    @Test func names_are_found_in_any_case_and_others_are_not() {
        let index = NameIndex(["compact", "Sports", "SUV", "4wd"])
        #expect(lookup(index, "COMPACT") == 0 && lookup(index, "sports") == 1 && lookup(index, "suv") == 2 && lookup(index, "4WD") == 3)
        #expect(lookup(index, "sport") == nil && lookup(index, "sportsx") == nil && lookup(index, "") == nil)
    }

    @Test func many_names_grow_the_table_and_the_first_entry_wins() {
        var index = NameIndex(capacity: 2)
        for number in 0..<500 { index.insert("name\(number)", value: number) }
        index.insert("NAME7", value: 9_999)
        for number in 0..<500 { #expect(lookup(index, "Name\(number)") == number) }
        #expect(lookup(index, "name500") == nil)
    }

    @Test func non_ascii_names_fold_like_strings() {
        let index = NameIndex(["Élan", "ŽIGULI"])
        #expect(lookup(index, "élan") == 0 && lookup(index, "ÉLAN") == 0 && lookup(index, "žiguli") == 1)
    }

    @Test func lexed_words_are_found_at_every_length_like_strings() throws {
        // Lengths around the key's two eight-byte words and past them, ASCII and not.
        var names: [String] = []
        for length in 1...40 {
            let letters: [UInt8] = (0..<length).map { offset in UInt8(0x61 + (offset * 7 + length) % 26) }
            names.append(String(decoding: letters, as: UTF8.self))
        }
        names += ["élan", "grün-über-öfen-und-noch-mehr"]
        let index = NameIndex(names)
        let lexer = Lexer()
        for (position, name) in names.enumerated() {
            // The name as typed in capitals, and two near misses: one byte longer, one changed at the end.
            let line = Array("\(name.uppercased()) \(name)x \(name.dropLast())~".utf8)
            _ = try line.withUnsafeBufferPointer { (bytes) throws(ScriptError) in try lexer.tokenize(bytes) }
            let found = lexer.tokens.map { index.lookup(lexer.word($0)) }
            #expect(found[0] == position, "\(name)")
            #expect(found[1] == nil && found[2] == nil, "\(name)")
        }
    }

    @Test func a_copy_keeps_its_own_names() {
        var original = NameIndex(["a"])
        let copy = original
        original.insert("b", value: 1)
        #expect(lookup(original, "b") == 1)
        #expect(lookup(copy, "b") == nil && lookup(copy, "a") == 0)
    }
}
