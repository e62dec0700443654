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

    @Test func a_copy_keeps_its_own_names() {
        var original = NameIndex(["a"])
        let copy = original
        original.insert("b", value: 1)
        #expect(lookup(original, "b") == 1)
        #expect(lookup(copy, "b") == nil && lookup(copy, "a") == 0)
    }
}
