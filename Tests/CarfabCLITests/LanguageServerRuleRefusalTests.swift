import Foundation
import Testing

@testable import CarfabCLI

/// Trial 9, finding 6: a `set` a rule refuses got no diagnostic, though the analysis ran it
/// (its price hint stayed) and offered its repair. `--check` makes no car, so it cannot know;
/// the server, which runs `car` and `set`, shows the refusal as running reports it, and the
/// repair is attached to it.
@Suite struct LanguageServerRuleRefusalTests {
    private let uri = "file:///tmp/refused.carfab"

    /// The diagnostic of `set drivetrain front` on 0-based `line` of a sports car (the short floorplan).
    private func refusal(line: Int) -> String {
        let range = #"{"start":{"line":\#(line),"character":15},"end":{"line":\#(line),"character":20}}"#
        return
            #"{"range":\#(range),"severity":1,"code":"rule-violation","source":"carfab","message":"front drivetrain cannot go with the short floorplan","relatedInformation":[{"location":{"uri":"\#(uri)","range":\#(range)},"message":"the rule 'forbid drivetrain front with floorplan short' is part of the built-in catalog"},{"location":{"uri":"\#(uri)","range":\#(range)},"message":"drivetrain options allowed for this car: 4wd (+$2,500.00)"}]}"#
    }

    @Test func a_refused_set_is_an_error_with_the_rule_and_its_repair_is_attached() throws {
        let codeAction = request(
            2, "textDocument/codeAction",
            [
                "textDocument": ["uri": uri],
                "range": ["start": ["line": 1, "character": 0], "end": ["line": 1, "character": 0]],
                "context": ["diagnostics": [Any]()]
            ])
        let session = try serve(
            initializeRequest + didOpen(uri, "car sports\nset drivetrain front\nset drivetrain 4wd\n") + codeAction + shutdownAndExit)
        #expect(session.status == 0 && session.stderr == "" && session.stray == "")
        // The check's diagnostics (none) at once; the refusal once the document has run (here for
        // the code action; with no message waiting, at once), its repair attached to it.
        let published =
            #"{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"\#(uri)","version":1,"diagnostics":[%@]}}"#
        let action =
            #"{"title":"Fit drivetrain front: also set floorplan standard (+$500.00)","kind":"quickfix","diagnostics":[\#(refusal(line: 1))],"edit":{"changes":{"\#(uri)":[{"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":20}},"newText":"set drivetrain front floorplan standard"}]}}}"#
        #expect(
            Array(session.messages.dropFirst().dropLast()) == [
                published.replacingOccurrences(of: "%@", with: ""),
                #"{"jsonrpc":"2.0","id":2,"result":[\#(action)]}"#,
                published.replacingOccurrences(of: "%@", with: refusal(line: 1))
            ])
    }

    /// Each refusal where running with `--keep-going` reports it, with the place of a rule the
    /// document defines (its line, though the analysis runs the document a line at a time);
    /// an `expect error` that expects the refusal, and a `set` running allows, are no error.
    @Test func refusals_are_where_running_reports_them() throws {
        let text = """
            car sports
            expect error rule-violation set drivetrain front

            forbid suspension race with drivetrain 4wd
            set suspension race; set drivetrain front
            set drivetrain 4wd

            """
        let hints = request(
            2, "textDocument/inlayHint",
            ["textDocument": ["uri": uri], "range": ["start": ["line": 0, "character": 0], "end": ["line": 6, "character": 0]]])
        let session = try serve(initializeRequest + didOpen(uri, text) + hints + shutdownAndExit)
        #expect(session.published.count == 2)
        let diagnostics = session.published.last?["diagnostics"] as? [[String: Any]] ?? []
        let summary = diagnostics.map { diagnostic in
            let start = (diagnostic["range"] as? [String: [String: Int]])?["start"] ?? [:]
            let related = (diagnostic["relatedInformation"] as? [[String: Any]] ?? []).map { info in
                let place = ((info["location"] as? [String: Any])?["range"] as? [String: [String: Int]])?["start"]?["line"] ?? -1
                return "\(place): \(info["message"] as? String ?? "")"
            }
            return [
                "\(start["line"] ?? -1):\(start["character"] ?? -1) \(diagnostic["code"] as? String ?? ""): \(diagnostic["message"] as? String ?? "")"
            ] + related
        }
        #expect(
            summary == [
                [
                    "4:36 rule-violation: front drivetrain cannot go with the short floorplan",
                    "4: the rule 'forbid drivetrain front with floorplan short' is part of the built-in catalog",
                    "4: no other drivetrain option is allowed for this car"
                ],
                [
                    "5:15 rule-violation: race suspension cannot go with the 4wd drivetrain",
                    "3: the rule 'forbid suspension race with drivetrain 4wd' is defined here",
                    "5: no other drivetrain option is allowed for this car"
                ]
            ], "\(summary)")
    }

    /// A change keeps the refusals met on the logical lines before it in the version's first
    /// publication: they show until the new version's own pass, not gone and back at each key
    /// (each change's first publication had none). One on the changed line, or on a line a `\`
    /// continues onto it, is not kept: the change may have mended it.
    @Test(arguments: [
        ("car sports\nset drivetrain front\n\necho end\n", 1, 3, true),
        ("car sports\nset drivetrain front\n\necho end\n", 1, 1, false),
        ("car sports\nset drivetrain \\\n  front\necho end\n", 2, 2, false),
        ("car sports\nset drivetrain \\\n  front\necho end\n", 2, 3, true),
        // A document that reads a file keeps none: the file may change on disk (review).
        ("car sports\nset drivetrain front\n\nsource missing.carfab\n", 1, 3, false)
    ])
    func a_change_keeps_the_refusals_before_it(text: String, refused: Int, editedLine: Int, kept: Bool) throws {
        let hints = request(
            2, "textDocument/inlayHint",
            ["textDocument": ["uri": uri], "range": ["start": ["line": 0, "character": 0], "end": ["line": 4, "character": 0]]])
        let change = notification(
            "textDocument/didChange",
            [
                "textDocument": ["uri": uri, "version": 2],
                "contentChanges": [
                    ["range": ["start": ["line": editedLine, "character": 0], "end": ["line": editedLine, "character": 0]], "text": " "]
                ]
            ])
        let session = try serve(initializeRequest + didOpen(uri, text) + hints + change + shutdownAndExit)
        #expect(session.status == 0 && session.stderr == "" && session.stray == "")
        // Version 1 as checked, then with its refusal (the hints ran it); version 2 as checked,
        // with what it keeps (the shutdown waiting, its own pass is never made).
        let lines = session.published.map { published in
            // The refusals (a missing file's error aside).
            let diagnostics = (published["diagnostics"] as? [[String: Any]] ?? []).filter { $0["code"] as? String == "rule-violation" }
            return "\(published["version"] as? Int ?? -1): "
                + diagnostics.map { diagnostic in
                    let line = (diagnostic["range"] as? [String: [String: Int]])?["start"]?["line"] ?? -1
                    return "\(diagnostic["code"] as? String ?? "") \(line)"
                }.joined(separator: ", ")
        }
        #expect(
            lines == ["1: ", "1: rule-violation \(refused)", "2: " + (kept ? "rule-violation \(refused)" : "")],
            "\(lines)")
    }

    /// A `set` continued over lines: its quick fix carries the refusal on the line after the
    /// `set`'s first (the diagnostic was looked for on the first line only).
    /// Asked from either line of the `set`: an editor asks from the diagnostic's (review).
    @Test(arguments: [1, 2])
    func a_continued_set_s_quick_fix_carries_its_refusal(askedAt line: Int) throws {
        let codeAction = request(
            2, "textDocument/codeAction",
            [
                "textDocument": ["uri": uri],
                "range": ["start": ["line": line, "character": 4], "end": ["line": line, "character": 4]],
                "context": ["diagnostics": [Any]()]
            ])
        let session = try serve(
            initializeRequest + didOpen(uri, "car sports\nset drivetrain \\\n    front\n") + codeAction + shutdownAndExit)
        #expect(session.status == 0 && session.stderr == "" && session.stray == "")
        let actions = session.response(2)?["result"] as? [[String: Any]] ?? []
        let carried = actions.map { action in
            (action["diagnostics"] as? [[String: Any]] ?? []).map { diagnostic in
                let start = (diagnostic["range"] as? [String: [String: Int]])?["start"] ?? [:]
                return "\(diagnostic["code"] as? String ?? "") \(start["line"] ?? -1):\(start["character"] ?? -1)"
            }
        }
        #expect(carried == [["rule-violation 2:4"]], "\(actions)")
    }
}
