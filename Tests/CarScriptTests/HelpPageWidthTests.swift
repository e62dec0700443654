import Testing

@testable import CarScript

/// `help` fits the width it is laid out for, however narrow (trial 6, finding 2: it was laid
/// out for at least 40 columns with a 30-column summary column, and its closing lines were not
/// wrapped at all).
@Suite struct HelpPageWidthTests {
    let pages: [HelpPage] =
        [HelpPage.page(for: nil, in: .standard), HelpPage.keys]
        + CommandTable.standard.specs.map { HelpPage.page(for: $0, in: .standard) }

    @Test(arguments: [12, 20, 30, 39, 40, 50, 59, 60, 61, 80, 120])
    func every_line_fits_but_a_single_longer_word(width: Int) {
        for page in pages {
            for line in page.text(width: width).split(separator: "\n") {
                // An example's line that goes on ends with the ` \` that continues it, and a
                // quoted part of it is one word.
                var unquoted = ""
                var quoted = false
                for character in line {
                    if character == "\"" { quoted.toggle() }
                    if !(quoted && character == " ") { unquoted.append(character) }
                }
                let words = unquoted.split(separator: " ").filter { $0 != "\\" }
                #expect(line.count <= width || words.count == 1, "\(width): \(line)")
            }
        }
    }

    /// An example wider than the page goes on with ` \` at each line's end (a script's line
    /// continuation), never broken inside quotes: its lines copied run as the one command.
    @Test(arguments: [12, 30, 50, 80])
    func a_wide_example_is_continued_as_a_script_continues_a_line(width: Int) {
        let model = CommandTable.standard.specs.first { $0.name == "model" }
        let lines = model.map { HelpPage.page(for: $0, in: .standard).text(width: width) }?.split(separator: "\n") ?? []
        let start = lines.firstIndex { $0.hasPrefix("Example:") } ?? lines.endIndex
        // Too narrow for the label and a word beside it, the command starts on the next line.
        let example = lines[start].count > "Example:".count ? lines[start...] : lines[(start + 1)...]
        #expect(example.count > 1, "\(width): \(example)")
        #expect(example.dropLast().allSatisfy { $0.hasSuffix(" \\") }, "\(example)")
        #expect(example.allSatisfy { $0.filter { $0 == "\"" }.count % 2 == 0 }, "\(example)")
        let joined = example.map { $0.hasSuffix(" \\") ? String($0.dropLast(2)) : String($0) }
            .map { $0.hasPrefix("Example: ") ? $0.dropFirst("Example: ".count) : $0.drop { $0 == " " } }.joined(separator: " ")
        #expect(joined == "model roadster \"Mazda MX-5\" price 31000 floorplan short suspension race drivetrain rear")
    }

    /// Below 60 columns a summary stands under its usage; from 60 on, beside it, as before.
    @Test func summaries_stand_under_their_usages_below_60_columns() {
        let overview = HelpPage.page(for: nil, in: .standard)
        let narrow = overview.text(width: 59).split(separator: "\n")
        let car = narrow.firstIndex { $0 == "  car MODEL [COUNT]" }
        #expect(car.map { narrow[$0 + 1].hasPrefix("    add ") } == true, "\(narrow)")
        #expect(overview.text(width: 60).split(separator: "\n").contains { $0.hasPrefix("  car MODEL [COUNT]     ") })
        let keys = HelpPage.keys.text(width: 30).split(separator: "\n")
        let tab = keys.firstIndex { $0 == "  Tab" }
        #expect(tab.map { keys[$0 + 1] == "    complete the word:" } == true, "\(keys)")
        // Every word of the page is kept, in order (an example's lines continued by ` \`).
        for page in pages {
            #expect(
                page.text(width: 20).split(whereSeparator: \.isWhitespace).filter { $0 != "\\" }
                    == page.text(width: 80).split(whereSeparator: \.isWhitespace).filter { $0 != "\\" })
        }
    }
}
