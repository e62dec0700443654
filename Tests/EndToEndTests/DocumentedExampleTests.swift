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

    /// A `$ carfab ... -e 'TEXT'` line's arguments (`$ Scripts/carfab`, the set-up command that
    /// builds and runs the same binary, too): bare words and single-quoted words, one of them an
    /// `-e` text, nothing a shell would read otherwise (no pipe, redirection or substitution).
    /// Runs of `--test` and the like, which print their time, are left to their own tests.
    private static func commandLineArguments(_ line: Substring) -> [String]? {
        guard let rest = ["$ carfab ", "$ Scripts/carfab "].lazy.compactMap({ line.hasPrefix($0) ? line.dropFirst($0.count) : nil }).first
        else { return nil }
        var arguments: [String] = []
        var word: String?
        var quoted = false
        for character in rest {
            if quoted {
                if character == "'" { quoted = false } else { word?.append(character) }
            } else if character == "'" {
                quoted = true
                word = word ?? ""
            } else if character == " " {
                if let done = word { arguments.append(done) }
                word = nil
            } else if "|<>&;()`\\\"$*?".contains(character) {
                return nil
            } else {
                word = (word ?? "") + String(character)
            }
        }
        guard !quoted, let last = word else { return nil }
        arguments.append(last)
        return arguments.contains("-e") ? arguments : nil
    }

    /// The README's code blocks that are a `$ carfab ... -e` run or a prompt session with nothing
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
            if let first = lines.first, let arguments = commandLineArguments(first) {
                examples.append(
                    Example(place: place, arguments: arguments, printed: lines.dropFirst().map { $0 + "\n" }.joined()))
            } else if lines.first?.hasPrefix("carfab> ") == true, !lines.contains(where: { $0.contains("<Tab>") }) {
                let typed = lines.filter { $0.hasPrefix("carfab> ") }.map { $0.dropFirst("carfab> ".count) + "\n" }
                let printed = lines.filter { !$0.hasPrefix("carfab> ") }.map { $0 + "\n" }
                examples.append(Example(place: place, arguments: [], stdin: typed.joined(), printed: printed.joined()))
            }
        }
        return examples
    }()

    /// The man page's EXAMPLES that are a `$ carfab ... -e` run, with the page's escapes read.
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
                if let first = lines.first, let arguments = commandLineArguments(first) {
                    examples.append(
                        Example(
                            place: "man/carfab.1:\(number + 1 - lines.count)", arguments: arguments,
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
        // The opening example (run through the set-up command) and the variables' (`--var`
        // before `-e`) were once not run: nothing held them to the program.
        #expect(Self.readme.first?.arguments == ["-e", "car sports; set drivetrain 4wd; show; total GBP"])
        #expect(Self.readme.contains { $0.arguments.starts(with: ["--var", "model=suv", "--var", "n=2", "-e"]) })
        #expect(Self.manPage.contains { $0.arguments.last?.contains("why drivetrain front; fit drivetrain front") == true })
    }

    @Test(arguments: readme + manPage)
    func example_prints_what_its_document_shows(_ example: Example) throws {
        let result = try carfab(example.arguments, stdin: example.stdin)
        #expect(result.stdout + result.stderr == example.printed)
        #expect(result.status == (result.stderr.isEmpty ? 0 : 1))
    }
}
