import Foundation
import Testing

@testable import CarfabCLI

/// Trial 9, finding 1: a name in every line of a large document answered tens of MiB of
/// locations. Definition lists at most `NavigationProvider.locationLimit` places and says how
/// many there are; a rename of more places than that is refused, one of that many is made.
@Suite struct LanguageServerAnswerBoundTests {
    private let uri = "file:///tmp/many.carfab"

    /// A document that sets `$x` on each of `count` lines.
    private func document(_ count: Int) -> String { String(repeating: "var x 1\n", count: count) }

    @Test func definitions_past_the_limit_are_counted_in_a_message() throws {
        let limit = NavigationProvider.locationLimit
        let session = try serve(
            initializeRequest + didOpen(uri, document(limit + 1)) + request(2, "textDocument/definition", at(uri, 0, 4))
                + shutdownAndExit)
        #expect(session.status == 0 && session.stray == "" && session.stderr == "", "\(session.stderr)")
        #expect((session.response(2)?["result"] as? [Any])?.count == limit)
        let shown = session.objects.filter { $0["method"] as? String == "window/showMessage" }
        #expect(
            shown.map { ($0["params"] as? [String: Any])?["message"] as? String } == [
                "'x' is defined in \(limit + 1) places: the first \(limit) are listed"
            ])
    }

    @Test func a_rename_of_more_places_than_the_limit_is_refused() throws {
        let limit = NavigationProvider.locationLimit
        let over = try serve(
            initializeRequest + didOpen(uri, document(limit + 1))
                + request(2, "textDocument/rename", at(uri, 0, 4, ["newName": "y"])) + shutdownAndExit)
        #expect(
            over.messages.contains(
                #"{"jsonrpc":"2.0","id":2,"error":{"code":-32803,"message":"not renamed: \#(limit + 1) places name 'x', more than the \#(limit) a rename edits"}}"#
            ), "\(over.messages.suffix(2))")
        let atLimit = try serve(
            initializeRequest + didOpen(uri, document(limit))
                + request(2, "textDocument/rename", at(uri, 0, 4, ["newName": "y"])) + shutdownAndExit)
        let changes = (atLimit.response(2)?["result"] as? [String: Any])?["changes"] as? [String: Any]
        #expect((changes?[uri] as? [Any])?.count == limit)
    }
}
