import Foundation
import TestSupport
import Testing

@testable import CarScript
@testable import CarfabCLI

/// What the server writes into a script or shows as markdown cannot carry what a person would
/// not see (trial 3, T9): rename refuses names `save` would have to write with escapes, and
/// hover escapes names and values, so a catalog cannot make links, HTML or headings in it.
@Suite struct LanguageServerEscapingTests {
    @Test(arguments: [
        "a\u{1B}[31mb", "a\u{85}b", "a\u{2028}b", "a\u{7F}", "x\u{202E}", "\u{301}", "a\u{200B}b", "a\u{2060}b"
    ])
    func rename_refuses_a_name_save_would_escape(newName: String) throws {
        let uri = "file:///tmp/rename.carfab"
        let text = "model roadster \"R\" price 31000 floorplan short suspension race drivetrain rear\ncar roadster\n"
        let session = try serve(
            initializeRequest + didOpen(uri, text) + request(2, "textDocument/rename", at(uri, 1, 6, ["newName": newName]))
                + shutdownAndExit)
        let reply = error(session.response(2))
        #expect(reply?.code == -32803)
        // The refusal names the name escaped, as every message does.
        #expect(reply?.message.hasPrefix("'\(DisplayText.escaped(newName))' is not a name") == true)
        #expect(reply.map { DisplayText.isPlain($0.message) } == true)
    }

    @Test func hover_escapes_markdown_in_names_and_values() throws {
        let uri = "file:///tmp/hover.carfab"
        let text = #"""
            model roadster "[click](command:x) <img src=x onerror=alert(1)>\n\n# Heading" price 31000 floorplan short suspension race drivetrain rear
            var v "` [a](http://e) `"
            car roadster
            echo $v

            """#
        let session = try serve(
            initializeRequest + didOpen(uri, text)
                + request(2, "textDocument/hover", at(uri, 2, 6)) + request(3, "textDocument/hover", at(uri, 3, 6))
                + shutdownAndExit)
        func contents(_ id: Int) -> String? {
            ((session.response(id)?["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String
        }
        let model = contents(2) ?? ""
        #expect(
            model.hasPrefix(
                ##"**roadster**: \[click\](command\:x) \<img src\=x onerror\=alert(1)\>\\n\\n\# Heading"##
                    + "\n\nBase price: $31,000.00\n\n"))
        // The value in a code span whose fence is longer than any run of backticks in it.
        #expect(contents(3) == "`$v` is `` ` [a](http://e) ` `` here")
    }
}
