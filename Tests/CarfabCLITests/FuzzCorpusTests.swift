import CarfabFuzz
import Foundation
import Testing

@testable import CarfabCLI

/// The fuzz target's checks (Fuzz/Case) over its corpus, on every `swift test`, as GoAWK runs
/// its fuzz seeds: the checked-in seeds (Fuzz/corpus), every input the fuzzer ever crashed
/// on (Tests/EndToEndTests/FuzzRegressions), the example scripts and grammar.md's examples.
@Suite struct FuzzCorpusTests {
    static let inputs: [String] = {
        var paths: [String] = []
        for folder in [
            "Fuzz/corpus", "Tests/EndToEndTests/FuzzRegressions", "Scripts/examples", "Scripts/examples/catalogs",
            "Scripts/examples/tests"
        ] {
            let directory = packageRoot.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            paths += names.sorted().filter { !$0.hasPrefix(".") && !isFolder(directory.appendingPathComponent($0)) }
                .map { "\(folder)/\($0)" }
        }
        return paths
    }()

    private static func isFolder(_ url: URL) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &folder) && folder.boolValue
    }

    @Test func the_corpus_is_there() {
        #expect(Self.inputs.contains("Fuzz/corpus/hostile-names.carfab"))
        #expect(Self.inputs.count >= 10)
    }

    @Test(arguments: inputs)
    func a_corpus_input_keeps_every_invariant(path: String) throws {
        let bytes = try [UInt8](Data(contentsOf: packageRoot.appendingPathComponent(path)))
        // Both renderers: the first byte's low bit picks one; a blank (space, tab) changes nothing else.
        for first in [UInt8(ascii: " "), UInt8(ascii: "\t")] {
            try checkFuzzInput([first] + bytes)
        }
    }

    /// The language server's seeds (Fuzz/corpus-lsp), replayed through its fuzz check.
    static let languageServerInputs: [String] = {
        let directory = packageRoot.appendingPathComponent("Fuzz/corpus-lsp")
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
            .filter { !$0.hasPrefix(".") }.map { "Fuzz/corpus-lsp/\($0)" }
    }()

    @Test func the_language_server_corpus_is_there() {
        #expect(Self.languageServerInputs.contains("Fuzz/corpus-lsp/session.bin"))
    }

    @Test(arguments: languageServerInputs)
    func a_language_server_input_keeps_every_invariant(path: String) throws {
        let bytes = try [UInt8](Data(contentsOf: packageRoot.appendingPathComponent(path)))
        try checkLanguageServerInput(bytes)
        // The other reading of the same bytes (raw stream or framed bodies) too.
        try checkLanguageServerInput([bytes.first.map { $0 ^ 1 } ?? 1] + bytes.dropFirst())
    }

    /// The check can fail: output that is not only framed messages is a finding.
    @Test func the_language_server_check_sees_unframed_output() {
        #expect(LanguageServerFuzzing.messages(in: Array("Content-Length: 2\r\n\r\n{}x".utf8)).rest == Array("x".utf8))
        #expect(!LanguageServerFuzzing.isJSONRPC(Array("{}".utf8)))
    }

    @Test func grammar_examples_keep_every_invariant() throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("grammar.md"), encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let lines = current {
                    blocks.append(lines.joined(separator: "\n") + "\n")
                    current = nil
                } else if line.dropFirst(3) == "carfab" {
                    current = []
                }
            } else {
                current?.append(line)
            }
        }
        #expect(blocks.count > 10)
        for block in blocks { try checkFuzzInput(Array(block.utf8)) }
    }
}
