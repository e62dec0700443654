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

    @Test(
        arguments: [
            (
                5, 6, "x",
                "'sports' is a built-in model, so it cannot be renamed: only names the script (or a file it sources) defines can be"
            ),
            (4, 6, "x", "there is no model, option, currency or variable here to rename"),
            (1, 4, "9x", "'9x' is not a variable name: a letter or '_', then letters, digits and '_'"),
            (2, 6, "suv", "a model named 'suv' exists already"),
            (2, 6, "two words", "'two words' is not a name: one word, without blanks, quotes, ';', '#' or '$'"),
            (4, 29, "SWISS", "'SWISS' is not a currency code: three letters"),
            (0, 9, "other.carfab", "a sourced file is not renamed by the editor: rename it on disk and change the 'source' line")
        ] as [(Int, Int, String, String)])
    func rename_refuses_built_in_names_and_names_that_cannot_be(line: Int, character: Int, newName: String, message: String) throws {
        let messages = try transcript { uri in request(2, "textDocument/rename", at(uri, line, character, ["newName": newName])) }
        #expect(messages == [#"{"jsonrpc":"2.0","id":2,"error":{"code":-32803,"message":"\#(message)"}}"#])
    }
}
