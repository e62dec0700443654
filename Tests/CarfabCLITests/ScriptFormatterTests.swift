import CarScript
import Foundation
import TestSupport
import Testing

@testable import CarfabCLI

/// Formatting keeps a script's meaning (the words the lexer reads, what it prints and the
/// state `save` writes) and is idempotent, for every example script and random ones.
@Suite struct ScriptFormatterTests {
    /// Every `.carfab` file under Scripts/examples.
    static let examples: [String] = {
        let root = packageRoot.appendingPathComponent("Scripts/examples")
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".carfab") }.sorted()
    }()

    /// A small linear congruential generator: the same random scripts on every run.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    /// A script of random commands with random blanks, separators, indentation and comments.
    static func randomScript(seed: UInt64) -> String {
        var random = Generator(state: seed)
        let commands: [[String]] = [
            ["car", "sports"], ["car", "suv", "2"], ["set", "drivetrain", "4wd"], ["set", "floorplan", "long"],
            ["echo", "\"a;b  c # d\""], ["var", "x", "3"], ["car", "compact", "$x"], ["total", "GBP"], ["show"], ["list"],
            ["echo", "pre\"q p\"post"], ["echo", "\\$5", "${x}"], ["remove"], ["select", "1"], ["price", "EUR"],
            ["set", "suspension", "race"], ["echo", "x\\"], ["currency", "CHF", "\"Fr\"", "digits", "2", "rate", "0.9"], ["total", "CHF"]
        ]
        let blanks = [" ", "  ", "\t", " \t "]
        var lines: [String] = []
        for _ in 0..<Int.random(in: 5...20, using: &random) {
            var line = ["", " ", "\t", "    "].randomElement(using: &random) ?? ""
            for index in 0..<Int.random(in: 0...3, using: &random) {
                if index > 0 { line += [";", " ; ", ";;", "; "].randomElement(using: &random) ?? ";" }
                let words = commands.randomElement(using: &random) ?? ["show"]
                line += words.map { $0 }.reduce("") { $0.isEmpty ? $1 : $0 + (blanks.randomElement(using: &random) ?? " ") + $1 }
            }
            if Bool.random(using: &random) { line += (blanks.randomElement(using: &random) ?? " ") + "# note; \"x\"" }
            if Bool.random(using: &random) { line += blanks.randomElement(using: &random) ?? "" }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The words of each command, as the lexer reads them.
    private func words(_ text: String) -> [[String]] {
        ScriptLines.read(Array(text.utf8)).flatMap { $0.commands.map { $0.map(\.text) } }
    }

    /// What running `text` prints, its status, and the state `save` writes after it.
    private func meaning(_ text: String) throws -> (String, Int32, String) {
        let dir = try temporaryDirectory(with: [:])
        let saved = dir.appendingPathComponent("saved.carfab").path
        let run = try carfab(["--keep-going", "-e", text, "-e", "save \(saved)"])
        return (run.stdout, run.status, (try? String(contentsOfFile: saved, encoding: .utf8)) ?? "")
    }

    private func checkFormatting(_ text: String, _ name: String) throws {
        let formatted = String(decoding: ScriptFormatter.format(Array(text.utf8)), as: UTF8.self)
        #expect(ScriptFormatter.format(Array(formatted.utf8)) == Array(formatted.utf8), "idempotent: \(name)")
        #expect(words(formatted) == words(text), "the same words: \(name)")
        let (before, after) = (try meaning(text), try meaning(formatted))
        #expect(after.0 == before.0 && after.1 == before.1 && after.2 == before.2, "the same meaning: \(name)")
    }

    @Test func there_are_examples() { #expect(Self.examples.count >= 5) }

    @Test(arguments: examples)
    func formatting_an_example_keeps_its_meaning(name: String) throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("Scripts/examples/\(name)"), encoding: .utf8)
        try checkFormatting(text, name)
    }

    @Test(arguments: 1...40)
    func formatting_a_random_script_keeps_its_meaning(seed: Int) throws {
        let text = Self.randomScript(seed: UInt64(seed))
        try checkFormatting(text, text)
        // And the result has the one spacing: no indentation, no doubled or trailing blanks outside words.
        let formatted = String(decoding: ScriptFormatter.format(Array(text.utf8)), as: UTF8.self)
        // (A line whose last word ends in `\` keeps its blanks, see below, and one continued from
        // the line before it is left as it is.)
        let lines = formatted.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated()
        where !line.contains("\"") && !line.trimmingCharacters(in: .whitespaces).hasSuffix("\\")
            && !(index > 0 && lines[index - 1].hasSuffix("\\"))
        {
            #expect(!line.hasPrefix(" ") && !line.hasSuffix(" ") && !line.contains("  ") && !line.contains("\t"), "\(line)")
        }
    }

    @Test func spacing_is_canonical_and_continued_lines_are_left_alone() {
        let text = "  car   sports ;; set\tdrivetrain 4wd;   # a comment\r\necho \"a  b\" \\\n   c\n\t# alone\n;\n"
        let formatted = String(decoding: ScriptFormatter.format(Array(text.utf8)), as: UTF8.self)
        #expect(formatted == "car sports; set drivetrain 4wd # a comment\r\necho \"a  b\" \\\n   c\n# alone\n\n")
    }

    /// A word ending in `\` before the line's trailing blanks: taking the blanks away would make
    /// the `\` continue the line, swallowing the next command (trial 3, finding 4).
    @Test func a_line_whose_last_word_ends_in_a_backslash_keeps_its_blanks() throws {
        for text in ["echo x\\\t\nquit 3\n", "  echo a \\   \necho b\n", "echo  x\\ \r\nshow\n"] {
            let formatted = String(decoding: ScriptFormatter.format(Array(text.utf8)), as: UTF8.self)
            #expect(words(formatted) == words(text), "\(text.debugDescription) -> \(formatted.debugDescription)")
            try checkFormatting(text, text)
        }
    }
}
