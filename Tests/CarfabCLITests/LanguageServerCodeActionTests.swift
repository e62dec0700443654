import Foundation
import Testing

@testable import CarfabCLI

/// Code actions: a diagnostic's fix-its, and the configurator's repair of a refused `set`.
@Suite struct LanguageServerCodeActionTests {
    private let uri = "file:///tmp/actions.carfab"
    private let text = "car sprots\ncar sports; set floorplan long\nset drivetrain 4wd\ntotl\n"

    private func codeActions(_ id: Int, _ first: Int, _ last: Int) -> Data {
        request(
            id, "textDocument/codeAction",
            [
                "textDocument": ["uri": uri],
                "range": ["start": ["line": first, "character": 0], "end": ["line": last, "character": 0]],
                "context": ["diagnostics": [Any]()]
            ])
    }

    @Test func code_action_transcript() throws {
        let session = try serve(
            initializeRequest + didOpen(uri, text) + codeActions(2, 0, 0) + codeActions(3, 1, 1)
                + codeActions(4, 2, 3) + shutdownAndExit)
        let url = packageRoot.appendingPathComponent("Tests/CarfabCLITests/Expected/LanguageServer/codeAction.jsonl")
        let golden = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(Array(session.messages.dropFirst(2).dropLast()) == golden)
    }

    /// Each action's edits applied to the text, in reverse order of position (one line each here).
    private func applying(_ action: [String: Any], to text: String) -> String {
        let changes = (action["edit"] as? [String: Any])?["changes"] as? [String: [[String: Any]]] ?? [:]
        var lines = text.components(separatedBy: "\n")
        for edit in (changes[uri] ?? []).reversed() {
            let range = edit["range"] as? [String: [String: Int]] ?? [:]
            let line = range["start"]?["line"] ?? 0
            let units = Array(lines[line].utf16)
            let start = range["start"]?["character"] ?? 0
            let end = range["end"]?["character"] ?? 0
            lines[line] =
                String(decoding: units[..<start], as: UTF16.self) + (edit["newText"] as? String ?? "")
                + String(decoding: units[end...], as: UTF16.self)
        }
        return lines.joined(separator: "\n")
    }

    @Test func every_action_applied_leaves_a_script_that_runs_without_that_error() throws {
        let session = try serve(initializeRequest + didOpen(uri, text) + codeActions(2, 0, 3) + shutdownAndExit)
        let actions = session.response(2)?["result"] as? [[String: Any]] ?? []
        // Two fix-its (sprots, totl) and one repair (the long floorplan forbidden with the race suspension).
        #expect(actions.count == 3)
        var fixed = text
        for action in actions { fixed = applying(action, to: fixed) }
        #expect(fixed == "car sports\ncar sports; set floorplan long suspension road\nset drivetrain 4wd\ntotal\n")
        let run = try carfab(["-e", fixed])
        #expect(run.stderr == "")
        #expect(run.stdout == "2 Cars in Stock. Total Value: $143,200.00\n")
    }

    @Test func a_set_that_is_allowed_gets_no_repair() throws {
        let text = "car sports\nset floorplan standard\n"
        let session = try serve(initializeRequest + didOpen(uri, text) + codeActions(2, 0, 1) + shutdownAndExit)
        #expect(session.response(2)?["result"] as? [Any] != nil)
        #expect((session.response(2)?["result"] as? [Any])?.isEmpty == true)
    }

    /// Before: only a refused `set` of one part got a repair. A refused `set` of several gets
    /// the cheapest repair that keeps every part it names (its refusal's note), and none where
    /// no valid car has them together.
    @Test func a_refused_set_of_several_parts_gets_the_repair_that_keeps_them() throws {
        let text = "car sports\nset drivetrain front suspension road\nset drivetrain front floorplan short\n"
        let session = try serve(initializeRequest + didOpen(uri, text) + codeActions(2, 0, 2) + shutdownAndExit)
        let actions = session.response(2)?["result"] as? [[String: Any]] ?? []
        #expect(actions.map { $0["title"] as? String } == ["Repair keeping these parts: also set floorplan standard (-$1,900.00)"])
        let fixed = actions.reduce(text) { applying($1, to: $0) }
        #expect(fixed == "car sports\nset drivetrain front suspension road floorplan standard\nset drivetrain front floorplan short\n")
        let run = try carfab(["-e", "car sports; set drivetrain front suspension road floorplan standard; price"])
        #expect(run.stderr == "")
    }
}
