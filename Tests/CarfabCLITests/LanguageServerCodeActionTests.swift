import CarScript
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

    /// The titles of the code actions over lines `first` to `last` of `text`, and how many times
    /// the request ran the document from its start.
    private func actionTitles(_ text: String, _ first: Int, _ last: Int) -> (titles: [String?], runs: Int) {
        let analysis = DocumentAnalysis(TextDocument(uri: uri, version: 1, text: text), settings: AnalysisSettings())
        let range = (start: TextPosition(line: first, character: 0), end: TextPosition(line: last, character: 0))
        // The pass over the lines, whose refusals a repair is attached to, is the server's once
        // per version (for the diagnostics it publishes): the runs counted are the request's.
        _ = analysis.refusals(catalog: Engine.builtInCatalog)
        let before = analysis.replay.runs
        guard case .array(let actions) = CodeActionProvider.actions(in: analysis, range: range, catalog: Engine.builtInCatalog) else {
            return ([], analysis.replay.runs - before)
        }
        return (actions.map { $0["title"]?.string }, analysis.replay.runs - before)
    }

    /// Before: every `set` in the range ran the document above it once more, in a session of its
    /// own, so a range was quadratic in its `set` lines (4,000 took 2.6 s, 16,000 had no answer in
    /// 5 s; trial 4, 9). The range is run once, on from its first `set` line, and the refused
    /// `set` at its end still gets its repair.
    @Test func a_range_of_set_lines_runs_the_document_once() {
        let text = String(repeating: "car sports; set drivetrain 4wd\n", count: 300) + "echo x\nset floorplan long\n"
        let (titles, runs) = actionTitles(text, 0, 302)
        #expect(titles == ["Fit floorplan long: also set suspension road (+$4,100.00)"])
        #expect(runs == 1)
        #expect(actionTitles(text, 301, 301).runs == 1)
        // No `set` in the range: nothing is run.
        let none = actionTitles(text, 300, 300)
        #expect(none.titles.isEmpty && none.runs == 0)
    }

    /// The range is run as the script runs: a refusal inside a transaction rolls it back, so the
    /// same `set` on the next line meets the car from before the transaction (an SUV, which may
    /// have the long floorplan) and is not refused.
    @Test func a_range_is_run_as_the_script_runs_it() {
        let text = "car suv\nbegin; car sports\nset floorplan long\nset floorplan long\ncommit\nset floorplan long\n"
        #expect(actionTitles(text, 0, 5).titles == ["Fit floorplan long: also set suspension road (+$4,100.00)"])
        #expect(actionTitles(text, 3, 5).titles == [])
    }
}
