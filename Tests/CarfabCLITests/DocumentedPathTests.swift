import Foundation
import Testing

/// Every file or folder of the repository the documents name in a code span (`Tests/...`,
/// `Sources/...`, `Scripts/...`) is there: grammar.md once sent its reader to
/// `Tests/EndToEndTests/GrammarExampleTests.swift` for the tests that run its examples, which
/// live in `Tests/CarfabCLITests`.
@Suite struct DocumentedPathTests {
    /// The repository paths `text` names at the start of a code span, up to a blank, a line break or the span's end.
    static func paths(in text: String) -> [String] {
        text.matches(of: /`((?:Tests|Sources|Scripts|Examples|Fuzz|man)\/[^`\s]*)/).map { String($0.1) }
    }

    @Test(arguments: ["README.md", "grammar.md", "ARCHITECTURE.md"])
    func every_path_a_document_names_is_in_the_repository(_ document: String) throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(document), encoding: .utf8)
        let named = Self.paths(in: text)
        #expect(!named.isEmpty)
        for path in named {
            #expect(FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent(path).path), "\(document) names \(path)")
        }
    }

    @Test func a_path_is_read_from_a_code_span_to_its_end_or_a_blank() {
        #expect(
            Self.paths(in: "see `Scripts/fuzz SECONDS` and `Tests/A.swift`, `Scripts/bench\nlsp`, not share/man/man1/x") == [
                "Scripts/fuzz", "Tests/A.swift", "Scripts/bench"
            ])
    }
}

extension DocumentedPathTests {
    /// The README's layout names every script (it named 10 of the 20: not `docs`, `check-setup`,
    /// `bench-lsp` ...), so that a reader finds each from there.
    @Test func the_readmes_layout_names_every_script() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let row = try #require(readme.split(separator: "\n").first { $0.hasPrefix("| `Scripts/` |") })
        let scripts = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Scripts").path)
        #expect(scripts.count >= 20)
        // A helper folder of one script goes by that script's name.
        for name in scripts where !name.hasSuffix(".d") {
            #expect(row.contains("`\(name)`") || row.contains("`\(name)/"), "README's layout does not name Scripts/\(name)")
        }
    }
}

extension DocumentedPathTests {
    /// The README's layout has a row for every target folder (it had none for
    /// `Tests/LanguageServerClients`, the pytest-lsp tests).
    @Test func the_readmes_layout_has_a_row_for_every_source_and_test_folder() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `") }.joined(separator: "\n")
        for folder in ["Sources", "Tests"] {
            let entries = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent(folder).path)
            #expect(entries.count >= 6)
            for name in entries {
                #expect(
                    rows.contains("`\(folder)/\(name)`") || rows.contains("`\(folder)/\(name)/`"), "no layout row for \(folder)/\(name)")
            }
        }
    }
}
