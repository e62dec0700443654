import Foundation
import Testing

@testable import CarfabCLI

/// Document symbols, semantic tokens, formatting and inlay hints: one golden transcript each.
@Suite struct LanguageServerDocumentTests {
    private let uri = "file:///tmp/document.carfab"
    private let text = """
        #!/usr/bin/env carfab
        model roadster "Mazda MX-5" price 31000 floorplan short suspension race drivetrain rear
          var n   2 ;;  car  roadster $n   # two
        car sports
        set drivetrain 4wd;echo "${n} 🚗"
        currency CHF "Fr" digits 2 rate 0.9
        total\tCHF

        """

    private func transcript(_ name: String, _ requests: Data) throws {
        let session = try serve(initializeRequest + didOpen(uri, text) + requests + shutdownAndExit)
        let url = packageRoot.appendingPathComponent("Tests/CarfabCLITests/Expected/LanguageServer/\(name).jsonl")
        let golden = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(Array(session.messages.dropFirst(2).dropLast()) == golden)
        #expect(session.stray == "" && session.status == 0)
    }

    @Test func document_symbol_transcript() throws {
        try transcript("documentSymbol", request(2, "textDocument/documentSymbol", ["textDocument": ["uri": uri]]))
    }

    @Test func semantic_tokens_transcript() throws {
        try transcript("semanticTokens", request(2, "textDocument/semanticTokens/full", ["textDocument": ["uri": uri]]))
    }

    @Test func formatting_transcript() throws {
        try transcript(
            "formatting",
            request(
                2, "textDocument/formatting",
                [
                    "textDocument": ["uri": uri],
                    "options": ["tabSize": 4, "insertSpaces": true]
                ]))
    }

    @Test func inlay_hint_transcript() throws {
        let range = ["start": ["line": 0, "character": 0], "end": ["line": 7, "character": 0]]
        try transcript(
            "inlayHint",
            request(2, "textDocument/inlayHint", ["textDocument": ["uri": uri], "range": range])
                + request(
                    3, "textDocument/inlayHint",
                    [
                        "textDocument": ["uri": uri],
                        "range": ["start": ["line": 4, "character": 0], "end": ["line": 4, "character": 3]]
                    ]))
    }

    /// The semantic tokens decoded: each token's text and type, so that the golden numbers are checked by meaning too.
    @Test func semantic_tokens_name_each_word_by_what_the_engine_reads_it_as() throws {
        let session = try serve(
            initializeRequest + didOpen(uri, "car sports 2 # c\necho \"x\" $n\n")
                + request(2, "textDocument/semanticTokens/full", ["textDocument": ["uri": uri]]) + shutdownAndExit)
        let data = ((session.response(2)?["result"] as? [String: Any])?["data"] as? [Int]) ?? []
        var decoded: [String] = []
        var line = 0
        var character = 0
        let lines = ["car sports 2 # c", "echo \"x\" $n"]
        for index in stride(from: 0, to: data.count, by: 5) {
            line += data[index]
            character = data[index] == 0 ? character + data[index + 1] : data[index + 1]
            let units = Array(lines[line].utf16)[character..<(character + data[index + 2])]
            decoded.append("\(String(decoding: units, as: UTF16.self)):\(SemanticTokensProvider.tokenTypes[data[index + 3]])")
        }
        #expect(decoded == ["car:function", "sports:enumMember", "2:number", "# c:comment", "echo:function", "\"x\":string", "$n:variable"])
    }

    /// Names are read with the catalog the document builds: its own family's options are options
    /// after `set`'s first pair and in `cheapest`, and the family and its first option are
    /// declared on the `family` line.
    @Test func semantic_tokens_read_names_with_the_documents_own_families() throws {
        let lines = [#"family paint "Paint" default white "White""#, "set floorplan short paint white", "cheapest paint white"]
        let session = try serve(
            initializeRequest + didOpen(uri, lines.joined(separator: "\n") + "\n")
                + request(2, "textDocument/semanticTokens/full", ["textDocument": ["uri": uri]]) + shutdownAndExit)
        let data = ((session.response(2)?["result"] as? [String: Any])?["data"] as? [Int]) ?? []
        var decoded: [String] = []
        var line = 0
        var character = 0
        for index in stride(from: 0, to: data.count, by: 5) {
            line += data[index]
            character = data[index] == 0 ? character + data[index + 1] : data[index + 1]
            let units = Array(lines[line].utf16)[character..<(character + data[index + 2])]
            let declaration = data[index + 4] == 1 ? "+declaration" : ""
            decoded.append("\(String(decoding: units, as: UTF16.self)):\(SemanticTokensProvider.tokenTypes[data[index + 3]])\(declaration)")
        }
        #expect(
            decoded == [
                "family:function", "paint:enumMember+declaration", "\"Paint\":string", "default:keyword",
                "white:enumMember+declaration", "\"White\":string",
                "set:function", "floorplan:enumMember", "short:enumMember", "paint:enumMember", "white:enumMember",
                "cheapest:function", "paint:enumMember", "white:enumMember"
            ])
    }
}
