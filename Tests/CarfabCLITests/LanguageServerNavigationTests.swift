import Foundation
import TestSupport
import Testing

@testable import CarfabCLI

/// Definition, references and rename: whole transcripts, with the temporary folder's path written `$DIR`.
@Suite struct LanguageServerNavigationTests {
    private let definitions = """
        model roadster "Mazda MX-5" price 31000 floorplan short suspension race drivetrain rear
        option drivetrain hybrid "Hybrid AWD" price 6500 alias electric
        currency CHF "Fr" digits 2 rate 0.9

        """
    private let quote =
        "source defs.carfab\nvar n 2\ncar roadster $n\nset drivetrain electric\nset drivetrain hybrid; total CHF\ncar sports\necho \"${n} cars\"\n"

    /// The golden transcript `Expected/LanguageServer/NAME.jsonl`.
    private func golden(_ name: String) throws -> [String] {
        let url = packageRoot.appendingPathComponent("Tests/CarfabCLITests/Expected/LanguageServer/\(name).jsonl")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// The server's messages after initialize and diagnostics, before shutdown's answer, for `requests` on the quote.
    private func transcript(_ requests: (String) -> Data) throws -> [String] {
        let dir = try temporaryDirectory(with: ["defs.carfab": definitions, "quote.carfab": quote])
        let uri = DocumentURI.uri(of: dir.path + "/quote.carfab")
        let session = try serve(initializeRequest + didOpen(uri, quote) + requests(uri) + shutdownAndExit)
        #expect(session.stray == "")
        #expect(session.status == 0)
        return session.messages.dropFirst(2).dropLast().map { $0.replacingOccurrences(of: DocumentURI.uri(of: dir.path), with: "$DIR") }
    }

    @Test func definition_transcript() throws {
        let messages = try transcript { uri in
            request(2, "textDocument/definition", at(uri, 2, 6))  // a model from the sourced file
                + request(3, "textDocument/definition", at(uri, 3, 17))  // an option by its other name
                + request(4, "textDocument/definition", at(uri, 4, 29))  // a currency
                + request(5, "textDocument/definition", at(uri, 2, 14))  // a variable
                + request(6, "textDocument/definition", at(uri, 0, 9))  // the sourced file itself
                + request(7, "textDocument/definition", at(uri, 5, 5))  // built in: null, and the reason
                + request(8, "textDocument/definition", at(uri, 5, 1))  // a command: nothing
        }
        #expect(messages == (try golden("definition")))
    }

    @Test func references_transcript() throws {
        let messages = try transcript { uri in
            request(2, "textDocument/references", at(uri, 2, 14, ["context": ["includeDeclaration": true]]))
                + request(3, "textDocument/references", at(uri, 3, 17, ["context": ["includeDeclaration": false]]))
                + request(4, "textDocument/references", at(uri, 5, 5, ["context": ["includeDeclaration": true]]))
        }
        #expect(messages == (try golden("references")))
    }

    @Test func rename_transcript() throws {
        let messages = try transcript { uri in
            request(2, "textDocument/rename", at(uri, 2, 6, ["newName": "miata"]))  // in the sourced file too
                + request(3, "textDocument/rename", at(uri, 1, 4, ["newName": "count"]))  // a variable, ${n} too
                + request(4, "textDocument/rename", at(uri, 3, 17, ["newName": "volt"]))  // an alias, not the option's name
        }
        #expect(messages == (try golden("rename")))
    }

    /// A sourced file open in the editor is read from its buffer: with a line added above its
    /// definitions and not saved, rename edits it where the buffer has the name, and a change
    /// to the buffer is seen by the document that sources it (trial 12, 1: the edits were at
    /// the disk's positions, one line up, and corrupted the buffer).
    @Test func a_sourced_file_open_in_the_editor_is_read_from_its_buffer() throws {
        let dir = try temporaryDirectory(with: ["defs.carfab": definitions, "quote.carfab": quote])
        let uri = DocumentURI.uri(of: dir.path + "/quote.carfab")
        let defs = DocumentURI.uri(of: dir.path + "/defs.carfab")
        let edited = "# colours\n" + definitions
        let renamed = "# colours\n" + definitions.replacingOccurrences(of: "roadster", with: "miata")
        let session = try serve(
            initializeRequest + didOpen(defs, edited) + didOpen(uri, quote)
                + request(2, "textDocument/rename", at(uri, 2, 6, ["newName": "miata"]))
                + notification(
                    "textDocument/didChange",
                    ["textDocument": ["uri": defs, "version": 2], "contentChanges": [["text": renamed]]])
                + request(3, "textDocument/definition", at(uri, 2, 6))
                + shutdownAndExit)
        let rename = try #require(session.response(2)?["result"] as? [String: Any])
        let changes = try #require(rename["changes"] as? [String: [[String: Any]]])
        let inDefs = try #require(changes[defs])
        let lines = inDefs.compactMap { (($0["range"] as? [String: Any])?["start"] as? [String: Any])?["line"] as? Int }
        #expect(lines == [1], "\(inDefs)")
        // After the buffer renamed it (not saved), `roadster` is defined nowhere the quote reads.
        #expect(session.response(3)?["result"] is NSNull, "\(String(describing: session.response(3)))")
    }

    @Test(
        arguments: [
            (
                5, 6, "x",
                "'sports' is a built-in model, so it cannot be renamed: only names the script (or a file it sources) defines can be"
            ),
            (4, 25, "x", "there is no model, family, option, currency or variable here to rename"),
            (1, 4, "9x", "'9x' is not a variable name: an ASCII letter or '_', then ASCII letters, digits and '_'"),
            (2, 6, "suv", "a model named 'suv' exists already"),
            (2, 6, String(repeating: "m", count: 4_097), "the new name is longer than 4096 bytes, the most a name may take"),
            (1, 4, String(repeating: "v", count: 4_097), "the new name is longer than 4096 bytes, the most a name may take"),
            (2, 6, "two words", "'two words' is not a name: one word, without blanks, quotes, ';', '#' or '$'"),
            (4, 29, "SWISS", "'SWISS' is not a currency code: three letters"),
            (0, 9, "other.carfab", "a sourced file is not renamed by the editor: rename it on disk and change the 'source' line")
        ] as [(Int, Int, String, String)])
    func rename_refuses_built_in_names_and_names_that_cannot_be(line: Int, character: Int, newName: String, message: String) throws {
        let messages = try transcript { uri in request(2, "textDocument/rename", at(uri, line, character, ["newName": newName])) }
        #expect(messages == [#"{"jsonrpc":"2.0","id":2,"error":{"code":-32803,"message":"\#(message)"}}"#])
    }

    /// A family the script defines, its first option defined on the `family` line, another by `option`.
    private let paint = """
        family paint "Paint" default white "White"
        option paint red "Red" price 500 alias crimson
        car sports
        set paint white; set paint blue
        cheapest paint crimson

        """

    /// A location in the paint document, as the server writes it.
    private func place(_ line: Int, _ start: Int, _ end: Int) -> String {
        #"{"uri":"file:///tmp/paint.carfab","range":{"start":{"line":\#(line),"character":\#(start)},"end":{"line":\#(line),"character":\#(end)}}}"#
    }

    @Test func a_defined_family_and_its_first_option_have_definitions_references_and_rename() throws {
        let uri = "file:///tmp/paint.carfab"
        let session = try serve(
            initializeRequest + didOpen(uri, paint)
                + request(2, "textDocument/definition", at(uri, 3, 12))  // white: on the family line
                + request(3, "textDocument/definition", at(uri, 3, 6))  // the family
                + request(4, "textDocument/definition", at(uri, 4, 17))  // an option by its other name
                + request(5, "textDocument/references", at(uri, 4, 11, ["context": ["includeDeclaration": true]]))
                + request(6, "textDocument/rename", at(uri, 3, 6, ["newName": "colour"])) + shutdownAndExit)
        #expect(session.stray == "")
        #expect(
            Array(session.messages.dropFirst(2).dropLast()) == [
                #"{"jsonrpc":"2.0","id":2,"result":[\#(place(0, 29, 34))]}"#,
                #"{"jsonrpc":"2.0","id":3,"result":[\#(place(0, 7, 12))]}"#,
                #"{"jsonrpc":"2.0","id":4,"result":[\#(place(1, 13, 16)),\#(place(1, 39, 46))]}"#,
                #"{"jsonrpc":"2.0","id":5,"result":[\#([(0, 7, 12), (1, 7, 12), (3, 4, 9), (3, 21, 26), (4, 9, 14)].map(place).joined(separator: ","))]}"#,
                #"{"jsonrpc":"2.0","id":6,"result":{"changes":{"file:///tmp/paint.carfab":[\#([(0, 7, 12), (1, 7, 12), (3, 4, 9), (3, 21, 26), (4, 9, 14)].map { #"{"range":{"start":{"line":\#($0.0),"character":\#($0.1)},"end":{"line":\#($0.0),"character":\#($0.2)}},"newText":"colour"}"# }.joined(separator: ","))]}}}"#
            ])
    }

    @Test(
        arguments: [
            (3, 6, "floorplan", "a family named 'floorplan' exists already"),
            (3, 6, "IN", "'in' cannot name a family: options, why, fit and cheapest read it as the start of 'in CURRENCY'"),
            (1, 14, "WHITE", "a paint option named 'WHITE' exists already"),
            (
                3, 29, "x",
                "'blue' is not a paint option the catalog or this script defines, so it cannot be renamed: only names the script (or a file it sources) defines can be"
            ),
            (
                2, 6, "x",
                "'sports' is a built-in model, so it cannot be renamed: only names the script (or a file it sources) defines can be"
            )
        ] as [(Int, Int, String, String)])
    func messages_name_a_defined_family_by_its_name(line: Int, character: Int, newName: String, message: String) throws {
        let uri = "file:///tmp/paint.carfab"
        let session = try serve(
            initializeRequest + didOpen(uri, paint)
                + request(2, "textDocument/rename", at(uri, line, character, ["newName": newName])) + shutdownAndExit)
        #expect(session.messages.dropFirst(2).first == #"{"jsonrpc":"2.0","id":2,"error":{"code":-32803,"message":"\#(message)"}}"#)
    }

    @Test func a_family_named_by_options_is_a_reference_and_in_currency_is_not_an_option() throws {
        let uri = "file:///tmp/paint.carfab"
        let text = "family paint \"Paint\" default white \"White\"\ncar sports\noptions paint in GBP\noptions paint\n"
        let session = try serve(
            initializeRequest + didOpen(uri, text)
                + request(2, "textDocument/references", at(uri, 0, 8, ["context": ["includeDeclaration": true]]))
                + request(3, "textDocument/references", at(uri, 2, 18, ["context": ["includeDeclaration": true]])) + shutdownAndExit)
        #expect(
            Array(session.messages.dropFirst(2).dropLast()) == [
                #"{"jsonrpc":"2.0","id":2,"result":[\#([(0, 7, 12), (2, 8, 13), (3, 8, 13)].map(place).joined(separator: ","))]}"#,
                #"{"jsonrpc":"2.0","id":3,"result":[\#(place(2, 17, 20))]}"#
            ])
    }

    @Test func a_built_in_family_is_named_but_not_renamed() throws {
        let uri = "file:///tmp/paint.carfab"
        let session = try serve(
            initializeRequest + didOpen(uri, "car sports; set drivetrain 4wd\n")
                + request(2, "textDocument/definition", at(uri, 0, 20))
                + request(3, "textDocument/rename", at(uri, 0, 20, ["newName": "drive"])) + shutdownAndExit)
        #expect(
            Array(session.messages.dropFirst(2).dropLast()) == [
                #"{"jsonrpc":"2.0","method":"window/showMessage","params":{"type":3,"message":"'drivetrain' is a built-in family: carfab's own catalog defines it, in no file (hover shows its entry)"}}"#,
                #"{"jsonrpc":"2.0","id":2,"result":null}"#,
                #"{"jsonrpc":"2.0","id":3,"error":{"code":-32803,"message":"'drivetrain' is a built-in family, so it cannot be renamed: only names the script (or a file it sources) defines can be"}}"#
            ])
    }
}
