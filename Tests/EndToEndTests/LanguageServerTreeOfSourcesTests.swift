import Foundation
import Testing

/// Trial 8, finding 1: a document sourcing a tree of 41 small files, each sourcing the next
/// twice (2^40 commands when run), wedged `carfab --lsp`: no diagnostics, no answer to hover,
/// cancel or shutdown, no diagnostics for another document. The process gets a time limit
/// (`timeout`: status 124 for the old server, which never ended).
@Suite struct LanguageServerTreeOfSourcesTests {
    /// `body` framed as a message.
    private static func framed(_ body: String) -> String { "Content-Length: \(body.utf8.count)\r\n\r\n\(body)" }

    @Test func a_tree_of_sources_leaves_the_server_answering() throws {
        var files: [String: String] = ["d40.carfab": "var x 1\n"]
        for n in 0..<40 { files["d\(n).carfab"] = "source d\(n + 1).carfab\nsource d\(n + 1).carfab\n" }
        let dir = try temporaryDirectory(with: files)
        let uri = "file://\(dir.path)/doc.carfab"
        let other = "file://\(dir.path)/other.carfab"
        let input = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}"#,
            #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"\#(uri)","languageId":"carfab","version":1,"text":"source d0.carfab\ncar sports\n"}}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"\#(uri)"},"position":{"line":1,"character":1}}}"#,
            #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"\#(other)","languageId":"carfab","version":1,"text":"car sprots\n"}}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"shutdown"}"#, #"{"jsonrpc":"2.0","method":"exit"}"#
        ].map(Self.framed).joined()
        try input.write(toFile: dir.path + "/input", atomically: true, encoding: .utf8)
        let result = try shell(#"timeout 120 "$CARFAB" --lsp < input"#, directory: dir)
        #expect(result.status == 0 && result.stderr == "", "\(result)")
        #expect(
            result.stdout.contains(
                #"{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"\#(uri)","version":1,"diagnostics":[]}}"#),
            "\(result)")
        #expect(result.stdout.contains(#"{"jsonrpc":"2.0","id":2,"result":{"contents":"#), "\(result)")
        #expect(result.stdout.contains(#""uri":"\#(other)","version":1,"diagnostics":[{"range""#), "\(result)")
        #expect(result.stdout.contains(#""code":"unknown-model""#), "\(result)")
        #expect(result.stdout.hasSuffix(#"{"jsonrpc":"2.0","id":3,"result":null}"#), "\(result)")
    }
}
