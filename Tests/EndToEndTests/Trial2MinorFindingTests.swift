import Foundation
import Testing

/// Minor findings of the second new user's trial (trial2 F7, F8): what the documents say of
/// `diff`, definitions shown so that they can be copied back, and warnings `--test` reports.
@Suite struct Trial2MinorFindingTests {
    /// The text of a document with every run of blanks and line ends made one blank, and roff's
    /// escaped hyphens plain, so that a sentence reads the same however it is wrapped.
    private static func flattened(_ path: String) throws -> String {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
        return text.replacingOccurrences(of: "\\-", with: "-").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func diff_shows_a_total_row_only_when_a_line_or_the_value_differs() throws {
        let dir = try temporaryDirectory(with: ["a.carfab": "car sports\nvar who Ann\n", "b.carfab": "car sports\nvar who Bo\n"])
        // Only a variable differs: no total row (the man page said there always was one).
        #expect(
            try carfab(["--diff", "a.carfab", "b.carfab"], directory: dir)
                == RunResult(
                    stdout: """
                        change   what      name  first  second
                        changed  variable  who   Ann    Bo

                        """, stderr: "", status: 1))
        // One description in help, the man page and grammar.md (they said "if anything
        // differs", always, and "if any line or the value differs").
        let said =
            "if a stock line or the total value differs, the total of each (cars and value) and the difference of the values, in the base currency."
        let help = try carfab(["-e", "help diff"])
        #expect(help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains(said))
        #expect(try Self.flattened("man/carfab.1").contains(said))
        #expect(
            try Self.flattened("grammar.md").contains(
                "if a stock line or the total value differs, the `total` of each (cars and value) and the difference of the values, in the base currency."
            ))
    }
}
