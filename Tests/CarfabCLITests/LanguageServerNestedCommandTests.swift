import CarFactory
import CarScript
import Foundation
import TestSupport
import Testing

@testable import CarfabCLI

/// A command inside `try COMMAND` or `expect error ID COMMAND` is read as the same command at
/// the start of a line: references, rename and hover see its models, currencies, families and
/// options (trial 3, T11: a rename of a model or currency missed those inside them, and the
/// renamed script failed with errors it did not have).
@Suite struct LanguageServerNestedCommandTests {
    private let text = """
        model roadster "Mazda" price 31000 floorplan short suspension race drivetrain rear
        family paint "P" default white "W"
        currency CHF "F" digits 2 rate 0.9
        var n 2
        car roadster
        try car roadster
        expect error rule-violation car roadster
        try set paint white
        try total CHF
        expect error unknown-model price CHF
        try echo $n
        expect error x echo $n
        try cheapest roadster paint white in CHF
        option drivetrain hyb "Hybrid" price 10
        try set drivetrain hyb

        """

    /// The lines each edit of `request`'s answer (a rename) changes, in order.
    private func editedLines(_ answer: [String: Any]?) -> [Int] {
        let changes = (answer?["result"] as? [String: Any])?["changes"] as? [String: [[String: Any]]]
        return (changes?.values.first ?? []).compactMap { (($0["range"] as? [String: Any])?["start"] as? [String: Any])?["line"] as? Int }
    }

    @Test func rename_and_references_see_models_and_currencies_inside_try_and_expect_error() throws {
        let uri = "file:///tmp/nested.carfab"
        let session = try serve(
            initializeRequest + didOpen(uri, text)
                + request(2, "textDocument/rename", at(uri, 0, 7, ["newName": "miata"]))
                + request(3, "textDocument/rename", at(uri, 2, 10, ["newName": "CHX"]))
                + request(4, "textDocument/rename", at(uri, 1, 8, ["newName": "colour"]))
                + request(5, "textDocument/rename", at(uri, 3, 4, ["newName": "m"]))
                + request(6, "textDocument/references", at(uri, 2, 10, ["context": ["includeDeclaration": true]]))
                + shutdownAndExit)
        #expect(editedLines(session.response(2)) == [0, 4, 5, 6, 12])
        #expect(editedLines(session.response(3)) == [2, 8, 9, 12])
        #expect(editedLines(session.response(4)) == [1, 7, 12])
        #expect(editedLines(session.response(5)) == [3, 10, 11])
        let references = session.response(6)?["result"] as? [[String: Any]] ?? []
        #expect(references.compactMap { (($0["range"] as? [String: Any])?["start"] as? [String: Any])?["line"] as? Int } == [2, 8, 9, 12])
    }

    @Test func hover_inside_try_reads_the_command_tried() throws {
        let uri = "file:///tmp/nested.carfab"
        let session = try serve(
            initializeRequest + didOpen(uri, text)
                + request(2, "textDocument/hover", at(uri, 14, 21))  // hyb in `try set drivetrain hyb`
                + request(3, "textDocument/hover", at(uri, 6, 33))  // roadster in `expect error ... car roadster`
                + shutdownAndExit)
        func contents(_ id: Int) -> String? {
            ((session.response(id)?["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String
        }
        #expect(contents(2)?.hasPrefix("**hyb**: drivetrain option, shown as Hybrid") == true)
        #expect(contents(3)?.hasPrefix("**roadster**: Mazda") == true)
    }

    /// The roles of the last two words of `line` (a `set paint white` at the end of nested commands).
    private func lastRoles(_ line: String) -> [ScriptIndex.Role] {
        let engine = Engine()
        #expect(engine.evaluate("family paint \"P\" default white \"W\"").diagnostics.isEmpty)
        let words = ScriptLines.read(Array(line.utf8))[0].commands[0]
        return Array(ScriptIndex.roles(of: words, in: Array(line.utf8), commands: engine.commands, catalog: engine.catalog).suffix(2))
    }

    /// Before: the index read every level of a line of nested `try`/`expect error`, each from a
    /// copy of the rest of the line (`try ` x 20,000 took 33 s and 12.5 GB; trial 4, 5). It reads
    /// as deep as the language lets them hold one another, 64, and no deeper: what the
    /// interpreter refuses at the 65th level's name has no role.
    @Test func the_index_reads_nested_commands_at_most_64_deep() {
        let paint = PartFamily(index: 3)
        let read: [ScriptIndex.Role] = [.family(defines: false), .option(paint, defines: false, canonical: nil)]
        #expect(lastRoles(String(repeating: "try ", count: 64) + "set paint white") == read)
        #expect(lastRoles(String(repeating: "expect error x ", count: 63) + "try set paint white") == read)
        #expect(lastRoles(String(repeating: "try ", count: 65) + "set paint white") == [.other, .other])
        #expect(lastRoles(String(repeating: "expect error x ", count: 65) + "set paint white") == [.other, .other])
        #expect(lastRoles(String(repeating: "try ", count: 2_000) + "set paint white") == [.other, .other])
    }

    /// Semantic tokens count each position on from the token before it (a line of 100,000
    /// numbers took 12 s, each position counted from the line's start): the same positions as
    /// counting from the line's start, on a line of wide characters, across lines and CRLFs.
    @Test func positions_counted_on_along_a_line_are_those_counted_from_its_start() {
        let document = TextDocument(uri: "file:///tmp/p.carfab", version: 1, text: "echo é 𝄞 x\r\ncar \"a\nb\" 1 2\n\nset 𝄞 3")
        var known = (offset: 0, position: TextPosition(line: 0, character: 0))
        for offset in 0...document.bytes.count {
            // Only from character boundaries, as tokens start and end on them.
            guard offset == document.bytes.count || document.bytes[offset] & 0xC0 != 0x80 else { continue }
            #expect(document.position(of: offset, after: known) == document.position(of: offset), "\(offset)")
            known = (offset, document.position(of: offset))
        }
        // From a known place after the offset, or on another line: counted from the line's start.
        #expect(document.position(of: 2, after: (10, document.position(of: 10))) == document.position(of: 2))
        #expect(document.position(of: 20, after: (2, document.position(of: 2))) == document.position(of: 20))
    }
}
