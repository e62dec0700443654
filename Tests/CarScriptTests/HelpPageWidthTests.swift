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
                let words = line.split(separator: " ")
                #expect(line.count <= width || words.count == 1, "\(width): \(line)")
            }
        }
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
        // Every word of the page is kept, in order.
        for page in pages {
            #expect(
                page.text(width: 20).split(whereSeparator: \.isWhitespace)
                    == page.text(width: 80).split(whereSeparator: \.isWhitespace))
        }
    }
}
