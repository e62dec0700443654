import Foundation
import Testing

@testable import CarfabCLI

/// One example of grammar.md: a ```carfab block, the ```output after it, and an optional ```error.
struct GrammarExample: CustomTestStringConvertible, Sendable {
    var line: Int
    var script: String
    var output: String
    var error: String?

    var testDescription: String { "grammar.md:\(line)" }

    /// Every example in `markdown`, in order.
    static func all(in markdown: String) -> [GrammarExample] {
        var blocks: [(info: String, line: Int, body: String)] = []
        var current: (info: String, line: Int, lines: [String])?
        for (number, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                if let open = current {
                    blocks.append((open.info, open.line, open.lines.map { $0 + "\n" }.joined()))
                    current = nil
                } else {
                    current = (String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces), number + 1, [])
                }
            } else {
                current?.lines.append(String(line))
            }
        }
        var examples: [GrammarExample] = []
        for (index, block) in blocks.enumerated() where block.info == "carfab" {
            var example = GrammarExample(line: block.line, script: block.body, output: "")
            if index + 1 < blocks.count && blocks[index + 1].info == "output" { example.output = blocks[index + 1].body }
            if index + 2 < blocks.count && blocks[index + 2].info == "error" { example.error = blocks[index + 2].body }
            examples.append(example)
        }
        return examples
    }
}

@Suite struct GrammarExampleTests {
    static let examples = GrammarExample.all(
        in: (try? String(contentsOf: packageRoot.appendingPathComponent("grammar.md"), encoding: .utf8)) ?? "")

    @Test func grammar_md_has_examples_each_with_an_output_block() throws {
        let markdown = try String(contentsOf: packageRoot.appendingPathComponent("grammar.md"), encoding: .utf8)
        #expect(Self.examples.count >= 8)
        #expect(markdown.split(separator: "\n").filter { $0 == "```output" }.count == Self.examples.count)
    }

    @Test(arguments: examples)
    func example_runs_with_exactly_its_documented_output(_ example: GrammarExample) throws {
        let result = try carfab([], stdin: example.script)
        #expect(result == RunResult(stdout: example.output, stderr: example.error ?? "", status: example.error == nil ? 0 : 1))
    }
}
