import Foundation
import Testing

@testable import CarfabCLI

/// `expect FAMILY OPTION` names its family and option as `expect line N FAMILY OPTION` does:
/// definition, references and rename find both forms (trial 13, 3: a rename left `expect paint
/// red` alone, and the renamed script failed with "unknown field 'paint'").
@Suite struct LanguageServerExpectNameTests {
    private let uri = "file:///tmp/expect.carfab"
    /// Runs clean: the option's shown name is not its name, so only the renamed name matches.
    private let text = """
        family paint "Paint" default white "White"
        option paint red "Crimson" price 500
        car sports; set paint red
        expect paint red
        expect line 1 paint red
        currency MID "M" digits 2 rate 2
        expect engine Mid; expect price MID 137,600.00

        """

    /// `text` with each of the server's edits (ASCII, on the document) applied.
    private func applying(_ response: [String: Any]?, to text: String) -> String {
        let result = response?["result"] as? [String: Any]
        let edits = (result?["changes"] as? [String: [[String: Any]]])?[uri] ?? []
        var lines = text.components(separatedBy: "\n")
        let places = edits.map { edit in
            let range = edit["range"] as? [String: [String: Int]] ?? [:]
            return (
                range["start"]?["line"] ?? 0, range["start"]?["character"] ?? 0, range["end"]?["character"] ?? 0,
                edit["newText"] as? String ?? ""
            )
        }
        // Latest first, so that an edit moves no later one's place.
        for (line, start, end, newText) in places.sorted(by: { ($0.0, $0.1) > ($1.0, $1.1) }) {
            let characters = Array(lines[line])
            lines[line] = String(characters[..<start]) + newText + String(characters[end...])
        }
        return lines.joined(separator: "\n")
    }

    /// The renamed text, which must run as the original does: clean, printing nothing.
    private func renamed(at line: Int, _ character: Int, to newName: String) throws -> String {
        #expect(try carfab(["-e", text]) == RunResult(stdout: "", stderr: "", status: 0))
        let session = try serve(
            initializeRequest + didOpen(uri, text)
                + request(2, "textDocument/rename", at(uri, line, character, ["newName": newName])) + shutdownAndExit)
        let result = applying(session.response(2), to: text)
        #expect(try carfab(["-e", result]) == RunResult(stdout: "", stderr: "", status: 0))
        return result
    }

    @Test func rename_of_a_family_edits_both_expect_forms() throws {
        #expect(try renamed(at: 0, 8, to: "colour") == text.replacingOccurrences(of: "paint", with: "colour"))
    }

    @Test func rename_of_an_option_edits_both_expect_forms() throws {
        // From the plain form itself, too.
        #expect(try renamed(at: 3, 14, to: "scarlet") == text.replacingOccurrences(of: "red", with: "scarlet"))
    }

    /// A location in the document, as the server writes it.
    private func place(_ line: Int, _ start: Int, _ end: Int) -> String {
        #"{"uri":"\#(uri)","range":{"start":{"line":\#(line),"character":\#(start)},"end":{"line":\#(line),"character":\#(end)}}}"#
    }

    @Test func definition_and_references_from_the_plain_form() throws {
        let session = try serve(
            initializeRequest + didOpen(uri, text)
                + request(2, "textDocument/definition", at(uri, 3, 8))  // the family
                + request(3, "textDocument/definition", at(uri, 3, 14))  // its option
                + request(4, "textDocument/references", at(uri, 3, 8, ["context": ["includeDeclaration": true]]))
                + request(5, "textDocument/references", at(uri, 3, 14, ["context": ["includeDeclaration": false]]))
                // `Mid` is the engine's VALUE, not the currency: only an amount names one.
                + request(6, "textDocument/references", at(uri, 5, 10, ["context": ["includeDeclaration": true]])) + shutdownAndExit)
        #expect(session.stray == "")
        #expect(
            Array(session.messages.dropFirst(2).dropLast()) == [
                #"{"jsonrpc":"2.0","id":2,"result":[\#(place(0, 7, 12))]}"#,
                #"{"jsonrpc":"2.0","id":3,"result":[\#(place(1, 13, 16))]}"#,
                #"{"jsonrpc":"2.0","id":4,"result":[\#([(0, 7, 12), (1, 7, 12), (2, 16, 21), (3, 7, 12), (4, 14, 19)].map(place).joined(separator: ","))]}"#,
                #"{"jsonrpc":"2.0","id":5,"result":[\#([(2, 22, 25), (3, 13, 16), (4, 20, 23)].map(place).joined(separator: ","))]}"#,
                #"{"jsonrpc":"2.0","id":6,"result":[\#(place(5, 9, 12)),\#(place(6, 32, 35))]}"#
            ])
    }
}
