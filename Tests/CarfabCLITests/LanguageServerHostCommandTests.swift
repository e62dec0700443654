import Foundation
import Testing

@testable import CarfabCLI

/// `services`, the command carfab adds to the language, is known to the editor as to
/// `--check` (the same options): not flagged, completed, described on hover.
@Suite struct LanguageServerHostCommandTests {
    @Test func services_is_no_unknown_command_and_is_completed_and_described() throws {
        let uri = "file:///tmp/services.carfab"
        let session = try serve(
            initializeRequest + didOpen(uri, "services\nservics\nserv\n")
                + request(2, "textDocument/completion", at(uri, 2, 4)) + request(3, "textDocument/hover", at(uri, 0, 2))
                + shutdownAndExit)
        let diagnostics = session.published.last?["diagnostics"] as? [[String: Any]] ?? []
        // Only the misspelt line and the unfinished one are flagged; the first is not.
        #expect(diagnostics.map { ($0["range"] as? [String: Any])?["start"] as? [String: Any] }.map { $0?["line"] as? Int } == [1, 2])
        #expect(diagnostics.first?["message"] as? String == "unknown command 'servics'; did you mean 'services'?")
        let items =
            (session.response(2)?["result"] as? [[String: Any]])
            ?? ((session.response(2)?["result"] as? [String: Any])?["items"] as? [[String: Any]]) ?? []
        #expect(items.compactMap { $0["label"] as? String } == ["services"], "\(session.messages)")
        let hover = ((session.response(3)?["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String ?? ""
        #expect(hover.contains("services") && hover.contains("list the program's services and their states"), "\(hover)")
    }
}
