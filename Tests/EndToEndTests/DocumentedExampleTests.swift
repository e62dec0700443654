import Foundation
import Testing

/// The worked examples of the README and the man page, run as they are written: a
/// `$ carfab -e '...'` line and what it prints (standard output, then standard error), or a
/// prompt session (`carfab> ` lines, then what they print), so that the documents cannot drift
/// from the program.
@Suite struct DocumentedExampleTests {
    /// One example: the arguments or the commands typed, and what is printed.
    struct Example: CustomTestStringConvertible, Sendable {
        var place: String
        var arguments: [String]
        var stdin: String?
        var printed: String

        var testDescription: String { place }
    }

    /// A `$ carfab -e 'TEXT'` line's TEXT (one `-e`, single quotes, none inside).
    private static func commandLineText(_ line: Substring) -> String? {
        let prefix = "$ carfab -e '"
        guard line.hasPrefix(prefix), line.hasSuffix("'"), line.count > prefix.count else { return nil }
        let text = line.dropFirst(prefix.count).dropLast()
        return text.contains("'") ? nil : String(text)
    }

    /// The README's code blocks that are a `$ carfab -e` run or a prompt session with nothing
    /// typed but whole commands (no `<Tab>`).
    static let readme: [Example] = {
        let text = (try? String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
        var examples: [Example] = []
        var block: [Substring]?
        var start = 0
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard line.hasPrefix("```") else {
                block?.append(line)
                continue
            }
            guard let lines = block else {
                block = []
                start = number + 1
                continue
            }
            block = nil
            let place = "README.md:\(start)"
            if let first = lines.first, let script = commandLineText(first) {
                examples.append(
                    Example(place: place, arguments: ["-e", script], printed: lines.dropFirst().map { $0 + "\n" }.joined()))
            } else if lines.first?.hasPrefix("carfab> ") == true, !lines.contains(where: { $0.contains("<Tab>") }) {
                let typed = lines.filter { $0.hasPrefix("carfab> ") }.map { $0.dropFirst("carfab> ".count) + "\n" }
                let printed = lines.filter { !$0.hasPrefix("carfab> ") }.map { $0 + "\n" }
                examples.append(Example(place: place, arguments: [], stdin: typed.joined(), printed: printed.joined()))
            }
        }
        return examples
    }()

    /// The man page's EXAMPLES that are a `$ carfab -e` run, with the page's escapes read.
    static let manPage: [Example] = {
        let text = (try? String(contentsOf: packageRoot.appendingPathComponent("man/carfab.1"), encoding: .utf8)) ?? ""
        let unescaped = { (line: Substring) in
            Substring(
                line.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\(aq", with: "'")
                    .replacingOccurrences(of: "\\(Po", with: "£").replacingOccurrences(of: "\\e", with: "\\"))
        }
        var examples: [Example] = []
        var block: [Substring]?
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line == ".EX" {
                block = []
            } else if line == ".EE", let lines = block {
                block = nil
                if let first = lines.first, let script = commandLineText(first) {
                    examples.append(
                        Example(
                            place: "man/carfab.1:\(number + 1 - lines.count)", arguments: ["-e", script],
                            printed: lines.dropFirst().map { $0 + "\n" }.joined()))
                }
            } else {
                block?.append(unescaped(line))
            }
        }
        return examples
    }()

    @Test func the_configurator_and_families_are_worked_in_both_documents() {
        #expect(Self.readme.contains { $0.arguments.last?.contains("why drivetrain front; fit drivetrain front") == true })
        #expect(Self.readme.contains { $0.stdin?.contains("family paint") == true })
        #expect(Self.manPage.contains { $0.arguments.last?.contains("why drivetrain front; fit drivetrain front") == true })
    }

    @Test(arguments: readme + manPage)
    func example_prints_what_its_document_shows(_ example: Example) throws {
        let result = try carfab(example.arguments, stdin: example.stdin)
        #expect(result.stdout + result.stderr == example.printed)
        #expect(result.status == (result.stderr.isEmpty ? 0 : 1))
    }
}
