import Foundation
import Testing

@testable import CarfabCLI

/// Trial 8 in the language server: lines after `quit` were flagged; a 46 MB document took it
/// to 1.7 GB with answers of hundreds of MB (findings 6 and 4; finding 1, a tree of sources,
/// is `LanguageServerTreeOfSourcesTests`, with a time limit on the process).
@Suite struct LanguageServerTrial8Tests {
    /// Finding 6: lines after `quit` are not run, so nothing on them is flagged.
    @Test func lines_after_quit_are_not_flagged() throws {
        let uri = "file:///q.carfab"
        let session = try serve(
            initializeRequest + didOpen(uri, "car sports\nquit\n# notes for later\nset drivetrain hover\n") + shutdownAndExit)
        #expect(session.published.count == 1)
        #expect((session.published.first?["diagnostics"] as? [Any])?.isEmpty == true, "\(session.published)")
    }

    /// Finding 4: a document over 4 MiB gets one diagnostic saying it is too large to check,
    /// and no tokens, outline, hints or edits; a small one beside it is analysed as ever.
    @Test func a_document_over_the_bound_is_not_analysed() throws {
        let line = "car sports; set drivetrain 4wd\n"
        let lines = LanguageServer.largestAnalysed / line.utf8.count + 1
        let big = String(repeating: line, count: lines)
        let uri = "file:///big.carfab"
        let last = lines - 1
        let range: [String: Any] = ["start": ["line": 0, "character": 0], "end": ["line": last, "character": 0]]
        let session = try serve(
            initializeRequest + didOpen(uri, big) + didOpen("file:///small.carfab", "car sprots\n")
                + request(2, "textDocument/semanticTokens/full", ["textDocument": ["uri": uri]])
                + request(3, "textDocument/documentSymbol", ["textDocument": ["uri": uri]])
                + request(4, "textDocument/inlayHint", ["textDocument": ["uri": uri], "range": range])
                + request(5, "textDocument/hover", at(uri, 0, 1))
                + request(6, "textDocument/formatting", ["textDocument": ["uri": uri], "options": ["tabSize": 4, "insertSpaces": true]])
                + request(7, "textDocument/completion", at(uri, 0, 4))
                + shutdownAndExit)
        #expect(session.status == 0 && session.stray == "", "\(session.stderr)")
        let mebibytes = (Double(big.utf8.count) / Double(1 << 20) * 10).rounded(.down) / 10
        let published = session.published.map { params in
            (params["uri"] as? String ?? "", (params["diagnostics"] as? [[String: Any]] ?? []).map { $0["message"] as? String ?? "" })
        }
        #expect(published.count == 2)
        #expect(published.first?.0 == uri)
        #expect(
            published.first?.1
                == [
                    "the document is \(mebibytes) MiB, more than the 4 MiB the editor analyses: it is not checked here (carfab --check checks it)"
                ])
        #expect(published.last?.1.first?.hasPrefix("unknown model 'sprots'") == true, "\(published)")
        let answers = (2...7).map { id in session.messages.first { $0.contains(#""id":\#(id),"#) } ?? "" }
        #expect(
            answers == [
                #"{"jsonrpc":"2.0","id":2,"result":{"data":[]}}"#, #"{"jsonrpc":"2.0","id":3,"result":[]}"#,
                #"{"jsonrpc":"2.0","id":4,"result":[]}"#, #"{"jsonrpc":"2.0","id":5,"result":null}"#,
                #"{"jsonrpc":"2.0","id":6,"result":[]}"#, #"{"jsonrpc":"2.0","id":7,"result":[]}"#
            ])
    }
}
