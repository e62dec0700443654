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

    /// A hint on a CR LF line sits at the line's end, before the CR, as on an LF line (trial 6,
    /// finding 10: it was one character past the end).
    @Test func inlay_hints_on_crlf_lines_sit_at_the_lines_end() throws {
        func positions(_ text: String) throws -> [String] {
            let range = ["start": ["line": 0, "character": 0], "end": ["line": 3, "character": 0]]
            let session = try serve(
                initializeRequest + didOpen(uri, text)
                    + request(2, "textDocument/inlayHint", ["textDocument": ["uri": uri], "range": range]) + shutdownAndExit)
            let hints = (session.response(2)?["result"] as? [[String: Any]]) ?? []
            return hints.map { hint in
                let position = hint["position"] as? [String: Int] ?? [:]
                return "\(position["line"] ?? -1):\(position["character"] ?? -1)"
            }
        }
        #expect(try positions("car sports\r\nset drivetrain 4wd\r\n") == ["0:10", "1:18"])
        #expect(try positions("car sports\nset drivetrain 4wd\n") == ["0:10", "1:18"])
    }

    /// A lone CR ends a line for the client (LSP 3.17) and is a blank for carfab: positions are
    /// the client's. Formatting `car  sports\r2` (one command, 2 cars) replaces across the CR,
    /// so the client's text is one line that means the same, and a diagnostic on carfab's
    /// second line is on the client's third (trial 12, 4: the edits were on carfab's lines,
    /// and applied by the client they joined `car sports 2` and `car suv` into one command).
    @Test func a_lone_cr_ends_a_line_for_the_client() throws {
        let text = "car  sports\r2\ncar   suv\ncar nosuch\n"
        let session = try serve(
            initializeRequest + didOpen(uri, text)
                + request(2, "textDocument/formatting", ["textDocument": ["uri": uri], "options": ["tabSize": 4, "insertSpaces": true]])
                + shutdownAndExit)
        let edits = try #require(session.response(2)?["result"] as? [[String: Any]])
        // Applied as the client applies them, on its own lines.
        var lines = ["car  sports", "2", "car   suv", "car nosuch", ""]
        for edit in edits.reversed() {
            let range = try #require(edit["range"] as? [String: [String: Int]])
            let (start, end) = (try #require(range["start"]), try #require(range["end"]))
            let (startLine, endLine) = (try #require(start["line"]), try #require(end["line"]))
            let before = String(lines[startLine].prefix(try #require(start["character"])))
            let after = String(lines[endLine].dropFirst(try #require(end["character"])))
            let replaced = (before + (edit["newText"] as? String ?? "") + after).split(separator: "\n", omittingEmptySubsequences: false)
            lines.replaceSubrange(startLine...endLine, with: replaced.map(String.init))
        }
        #expect(lines.joined(separator: "\n") == "car sports 2\ncar suv\ncar nosuch\n", "\(edits)")
        let published = session.objects.first { $0["method"] as? String == "textDocument/publishDiagnostics" }
        let diagnostics = ((published?["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]]) ?? []
        let start = (diagnostics.first?["range"] as? [String: [String: Int]])?["start"]
        #expect(start == ["line": 3, "character": 4], "\(diagnostics)")
    }

    /// The document of `lines`' semantic tokens, each as `TEXT:TYPE` (`+declaration` where
    /// it is one), decoded from the server's relative positions.
    func semanticTokens(of lines: [String]) throws -> [String] {
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
        return decoded
    }

    /// The command that `try` or `expect error ID` runs is coloured as a command, as a command
    /// of its own is (trial 6, finding 8: only its arguments were).
    @Test func semantic_tokens_colour_the_command_inside_try_and_expect_error() throws {
        let lines = ["expect error unknown-model car zz", "try set drivetrain 4wd", "try expect error refused try undo"]
        let decoded = try semanticTokens(of: lines)
        #expect(
            decoded == [
                "expect:function", "error:keyword", "car:function", "zz:enumMember",
                "try:function", "set:function", "drivetrain:enumMember", "4wd:enumMember",
                "try:function", "expect:function", "error:keyword", "try:function", "undo:function"
            ], "\(decoded)")
    }

    /// Names are read with the catalog the document builds: its own family's options are options
    /// after `set`'s first pair and in `cheapest`, and the family and its first option are
    /// declared on the `family` line.
    @Test func semantic_tokens_read_names_with_the_documents_own_families() throws {
        let lines = [#"family paint "Paint" default white "White""#, "set floorplan short paint white", "cheapest paint white"]
        let decoded = try semanticTokens(of: lines)
        #expect(
            decoded == [
                "family:function", "paint:enumMember+declaration", "\"Paint\":string", "default:keyword",
                "white:enumMember+declaration", "\"White\":string",
                "set:function", "floorplan:enumMember", "short:enumMember", "paint:enumMember", "white:enumMember",
                "cheapest:function", "paint:enumMember", "white:enumMember"
            ])
    }
}
