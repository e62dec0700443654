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

    @Test func names_alike_but_for_bit_5_of_a_symbol_are_found_and_leave_the_table_small() {
        // `[` and `{` (and `\\` `|`, `^` `~`) differ only in bit 5, which the hash leaves out so
        // that it needs no fold: no seed parts such names. Arranging grew the table to its limit
        // (1,024 slots) and then tried 16 seeds again at every name added.
        var index = NameIndex(capacity: 4)
        let names = ["a[1", "a{1", "b", "c", "x^y", "x~y"] + (0..<40).map { "n\($0)" }
        for (value, name) in names.enumerated() {
            index.insert(name, value: value)
            index.arrange()
        }
        for (value, name) in names.enumerated() { #expect(lookup(index, name.uppercased()) == value) }
        #expect(lookup(index, "a]1") == nil && lookup(index, "a}1") == nil)
        #expect(index.slotCount <= 128, "\(index.slotCount) slots")
        // Taken out, the rest are arranged again.
        index.removeInPlace(from: 1)
        index.insert("zz", value: 1)
        index.arrange()
        #expect(lookup(index, "a[1") == 0 && lookup(index, "zz") == 1 && lookup(index, "a{1") == nil)
    }

    @Test func names_that_share_their_first_sixteen_bytes_and_length_hash_apart() {
        // Product codes (trial 7, 12): the key held only the first sixteen bytes and the
        // length, so all of these took one slot and a lookup compared them one by one.
        let names = (0..<4_000).map { "interior-leather-" + String(100_000 + $0).dropFirst() }
        let hashes = Set(
            names.map { name in
                var name = name
                return name.withUTF8 { NameIndex.Key(folded: $0).hash(seed: 0) }
            })
        #expect(hashes.count == names.count)
        let index = NameIndex(names)
        for (position, name) in names.enumerated() { #expect(lookup(index, name.uppercased()) == position) }
        #expect(lookup(index, "interior-leather-99999") == nil)
        #expect(lookup(index, "interior-leather-0000") == nil)
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
            // Both inlined lookups: the one for short words and the one for names up to 16 bytes.
            for found in [lexer.tokens.map { index.lookup(lexer.word($0)) }, lexer.tokens.map { index.lookupLonger(lexer.word($0)) }] {
                #expect(found[0] == position, "\(name)")
                #expect(found[1] == nil && found[2] == nil, "\(name)")
            }
        }
    }

    @Test func lexed_short_words_are_found_past_their_first_slot_in_a_large_table() throws {
        // Over the size that is made collision-free: some names are not in their first slot,
        // and a lexed word of at most eight bytes finds them after the inlined first look.
        let names = (0..<3_000).map { "n\($0)" }
        let index = NameIndex(names)
        let lexer = Lexer()
        let line = Array((names.map { $0.uppercased() }.joined(separator: " ") + " n3000 n12345678").utf8)
        _ = try line.withUnsafeBufferPointer { (bytes) throws(ScriptError) in try lexer.tokenize(bytes) }
        let found = lexer.tokens.map { index.lookup(lexer.word($0)) }
        #expect(found == names.indices.map { $0 } + [nil, nil])
        #expect(lexer.tokens.map { index.lookupLonger(lexer.word($0)) } == found)
    }

    @Test func lexed_words_of_nine_to_sixteen_bytes_are_found_past_their_first_slot_in_a_large_table() throws {
        // As above, for the longer names `lookupLonger` looks up inline.
        let names = (0..<3_000).map { "family-\($0)" }
        let index = NameIndex(names)
        let lexer = Lexer()
        let line = Array((names.map { $0.uppercased() }.joined(separator: " ") + " family-3000 family-123456789").utf8)
        _ = try line.withUnsafeBufferPointer { (bytes) throws(ScriptError) in try lexer.tokenize(bytes) }
        #expect(lexer.tokens.map { index.lookupLonger(lexer.word($0)) } == names.indices.map { $0 } + [nil, nil])
    }

    @Test func a_copy_keeps_its_own_names() {
        var original = NameIndex(["a"])
        let copy = original
        original.insert("b", value: 1)
        #expect(lookup(original, "b") == 1)
        #expect(lookup(copy, "b") == nil && lookup(copy, "a") == 0)
    }
}

/// Canonically equivalent names are one name (trial finding 12): `é` as one character (NFC)
/// and as `e` and a combining acute accent (NFD) find each other, both as bytes and as lexed words.
@Suite struct CanonicalNameIndexTests {
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    func lookup(_ index: NameIndex, _ word: String) -> Int? {
        var word = word
        return word.withUTF8 { index.lookup($0) }
    }

    func lexedLookup(_ index: NameIndex, _ word: String) throws -> Int? {
        let lexer = Lexer()
        let line = Array(word.utf8)
        _ = try line.withUnsafeBufferPointer { (bytes) throws(ScriptError) in try lexer.tokenize(bytes) }
        return index.lookup(lexer.word(lexer.tokens[0]))
    }

    @Test(arguments: [(composed, decomposed), (decomposed, composed)])
    func a_name_is_found_in_the_other_normal_form(defined: String, typed: String) throws {
        let index = NameIndex(["sports", defined])
        #expect(lookup(index, typed) == 1 && lookup(index, typed.uppercased()) == 1)
        #expect(try lexedLookup(index, typed) == 1 && lexedLookup(index, typed.uppercased()) == 1)
        #expect(lookup(index, "cafe") == nil && lookup(index, "caf\u{E8}") == nil && lookup(index, "cafe\u{300}") == nil)
    }

    @Test func the_first_of_two_equivalent_names_wins() {
        var index = NameIndex(["x", Self.composed])
        index.insert(Self.decomposed, value: 7)
        #expect(lookup(index, Self.decomposed) == 1)
    }

    @Test func ascii_names_and_characters_that_stand_for_ascii_ones_are_one_name() throws {
        // U+037E GREEK QUESTION MARK is canonically `;`, U+212A KELVIN SIGN is `K`.
        let index = NameIndex(["a;b", "kw", "c\u{37E}d"])
        #expect(lookup(index, "a\u{37E}b") == 0 && lookup(index, "A\u{37E}B") == 0)
        #expect(lookup(index, "\u{212A}w") == 1 && lookup(index, "\u{212A}W") == 1)
        #expect(lookup(index, "c;d") == 2 && lookup(index, "C;D") == 2)
        #expect(try lexedLookup(index, "\u{212A}W") == 1 && lexedLookup(index, "\u{37E}") == nil)
        // An ASCII word not held, in a table that holds a name that is not ASCII, is still no name.
        #expect(lookup(index, "c;e") == nil && lookup(index, "q") == nil)
    }

    @Test func names_added_and_taken_back_in_place_are_found_and_forgotten_in_either_form() {
        let index = NameIndex(["compact"])
        index.addInPlace(Self.decomposed, value: 1)
        index.addInPlace("z", value: 2)
        index.arrangeInPlace()
        #expect(lookup(index, Self.composed) == 1 && lookup(index, "Z") == 2)
        index.removeInPlace(from: 1)
        #expect(lookup(index, Self.composed) == nil && lookup(index, Self.decomposed) == nil && lookup(index, "compact") == 0)
        index.addInPlace(Self.composed, value: 1)
        #expect(lookup(index, Self.decomposed) == 1)
    }

    /// A lexed word's slot is found from its bytes before folding, its key compared folded:
    /// the two hash alike for every byte (folding changes bit 5 of capitals alone, which the
    /// hash leaves out), at every length up to sixteen.
    @Test func a_word_hashes_as_its_folded_key_does() {
        let bytes: [UInt8] = Array(0x21...0x7E).map(UInt8.init)
        for start in stride(from: 0, to: bytes.count - 16, by: 3) {
            for length in 1...16 {
                let word = Array(bytes[start..<start + length])
                var low: UInt64 = 0
                var high: UInt64 = 0
                for (index, byte) in word.enumerated() {
                    if index < 8 { low |= UInt64(byte) << UInt64(index * 8) } else { high |= UInt64(byte) << UInt64((index - 8) * 8) }
                }
                let folded = NameIndex.Key(low: NameIndex.Key.fold(low), high: NameIndex.Key.fold(high), length: length)
                for seed: UInt64 in [0, 0x9E37_79B9_7F4A_7C15] {
                    #expect(NameIndex.Key.hash(low: low, high: high, length: length, seed: seed) == folded.hash(seed: seed))
                }
            }
        }
    }

    /// A lexed word is looked up from a copy of its slot's entry (`Table.residents`), which
    /// every change to the slots keeps in step: names added in place and rearranged are found,
    /// names taken back are not, in small tables and in large ones (whose removals move
    /// entries between slots).
    @Test func lexed_words_find_names_added_and_taken_back_in_place() throws {
        let lexer = Lexer()
        func lexedLookup(_ index: NameIndex, _ word: String) throws -> Int? {
            let line = Array(word.utf8)
            _ = try line.withUnsafeBufferPointer { (bytes) throws(ScriptError) in try lexer.tokenize(bytes) }
            return index.lookup(lexer.word(lexer.tokens[0]))
        }
        for count in [12, 2_000] {
            let index = NameIndex(["compact"])
            let names = (1...count).map { "n\($0)" }
            for (offset, name) in names.enumerated() {
                index.addInPlace(name, value: offset + 1)
                index.arrangeInPlace()
            }
            #expect(try names.indices.allSatisfy { try lexedLookup(index, names[$0].uppercased()) == $0 + 1 })
            let cut = count / 2
            index.removeInPlace(from: cut)
            #expect(try lexedLookup(index, "COMPACT") == 0)
            #expect(try (1..<cut).allSatisfy { try lexedLookup(index, names[$0 - 1]) == $0 })
            #expect(try (cut...count).allSatisfy { try lexedLookup(index, names[$0 - 1]) == nil })
            for value in cut...count { index.addInPlace(names[value - 1], value: value) }
            index.arrangeInPlace()
            #expect(try (1...count).allSatisfy { try lexedLookup(index, names[$0 - 1]) == $0 })
        }
    }

    /// A large table (past the collision-free size) takes back names slot by slot, not by
    /// placing every name again (trial 4, 13): what is kept is found, what is dropped is not,
    /// whatever the clusters the probing made, and names added again are found.
    @Test func names_taken_back_from_a_large_table_in_steps_are_forgotten_and_the_rest_kept() {
        let index = NameIndex(["compact"])
        let names = (1..<3_000).map { $0 % 7 == 0 ? "ü\($0)" : "n\($0)" }
        for (offset, name) in names.enumerated() { index.addInPlace(name, value: offset + 1) }
        for cut in stride(from: 2_999, to: 1_000, by: -97) {
            index.removeInPlace(from: cut)
            #expect(lookup(index, "compact") == 0)
            #expect((1..<cut).allSatisfy { lookup(index, names[$0 - 1].uppercased()) == $0 })
            #expect((cut..<3_000).allSatisfy { lookup(index, names[$0 - 1]) == nil })
            #expect(lookup(index, "u\u{308}7") == 7)
        }
        for value in 1_000..<3_000 { index.addInPlace(names[value - 1], value: value) }
        #expect((1..<3_000).allSatisfy { lookup(index, names[$0 - 1]) == $0 })
    }

    @Test func a_copy_keeps_its_own_names_in_either_form() {
        var original = NameIndex(["a"])
        let copy = original
        original.insert(Self.composed, value: 1)
        #expect(lookup(original, Self.decomposed) == 1 && lookup(copy, Self.decomposed) == nil)
    }
}
