import Foundation
import Testing

@testable import CarfabCLI

/// What the language server refuses rather than guesses at: a change whose range runs
/// backwards, a header block with two lengths.
@Suite struct LanguageServerRefusalTests {
    @Test func a_change_whose_start_is_after_its_end_is_refused_and_the_document_kept() throws {
        let uri = "file:///x.carfab"
        let backwards = notification(
            "textDocument/didChange",
            [
                "textDocument": ["uri": uri, "version": 2],
                "contentChanges": [
                    // A good change, then one from line 99 back to line 0: neither is applied.
                    ["range": ["start": ["line": 0, "character": 4], "end": ["line": 0, "character": 7]], "text": "sprots"],
                    ["range": ["start": ["line": 99, "character": 0], "end": ["line": 0, "character": 0]], "text": "car nosuch\n"]
                ]
            ])
        // Then a good change of `suv` to `sprots`, which makes sense only of the text kept.
        let good = notification(
            "textDocument/didChange",
            [
                "textDocument": ["uri": uri, "version": 3],
                "contentChanges": [["range": ["start": ["line": 0, "character": 4], "end": ["line": 0, "character": 7]], "text": "sprots"]]
            ])
        let session = try serve(
            initializeRequest + didOpen(uri, "car suv\n") + request(2, "textDocument/hover", at(uri, 0, 0)) + backwards
                + request(3, "textDocument/hover", at(uri, 0, 0)) + good + shutdownAndExit)
        // It was applied: the text gained `car nosuch` at its end.
        #expect(session.stderr == "carfab: lsp: didChange with a range whose start is after its end: the change is refused\n")
        #expect(session.published.map { $0["version"] as? Int } == [1, 3])
        let diagnostics = session.published.last?["diagnostics"] as? [[String: Any]]
        #expect(diagnostics?.map { $0["message"] as? String } == ["unknown model 'sprots'; did you mean 'sports'?"])
        #expect((diagnostics?.first?["range"] as? [String: Any])?["start"] as? [String: Int] == ["line": 0, "character": 4])
        #expect(session.status == 0)
    }

    @Test func two_content_lengths_in_one_block_are_a_malformed_header() throws {
        let hover = request(2, "textDocument/hover", at("file:///x.carfab", 0, 1))
        let body = #"{"jsonrpc":"2.0","method":"x"}"#
        for (lengths, reason) in [
            ("Content-Length: \(body.utf8.count)\r\nContent-Length: \(body.utf8.count)", "more than one"),
            ("Content-Length: 5\r\nContent-Length: \(body.utf8.count)", "more than one")
        ] {
            let block = Data("\(lengths)\r\n\r\n\(body)".utf8)
            let session = try serve(initializeRequest + block + didOpen("file:///x.carfab", "car sports\n") + hover + shutdownAndExit)
            // The last length won, silently.
            let errors = session.objects.compactMap { $0["error"] as? [String: Any] }
            #expect(errors.count == 1, "\(lengths)")
            #expect(errors.first?["code"] as? Int == -32700)
            #expect(errors.first?["message"] as? String == "malformed message header: a header block with \(reason) Content-Length")
            #expect(session.response(2)?["result"] is [String: Any], "the next request is answered")
            #expect(session.stray == "")
            #expect(session.status == 0)
        }
    }
}
