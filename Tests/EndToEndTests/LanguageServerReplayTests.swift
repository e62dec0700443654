import Foundation
import Testing

/// `carfab --lsp` replays a document once per version: every request of one version is
/// answered from that replay, and a change to the document replays it again (trial 2, F6: a
/// document of 20 `diff` lines of 40,000-line sessions was run again for each inlay-hint,
/// semantic-token and hover request). Seen from outside: a file the document sources is
/// rewritten between two requests of one version, and the second answer is still the first
/// replay's; after an edit, the new file is read.
@Suite struct LanguageServerReplayTests {
    @Test func requests_of_one_version_share_one_replay_and_an_edit_replays_it() throws {
        let definitions = { (price: Int, x: Int) in
            "var x \(x)\nmodel roadster \"R\" price \(price) floorplan short suspension race drivetrain rear\n"
        }
        let directory = try temporaryDirectory(with: [
            "v.carfab": definitions(31000, 1), "doc.carfab": "", "client.py": Self.client,
            "v2.carfab": definitions(40000, 2)
        ])
        let result = try shell("python3 client.py", directory: directory)
        #expect(
            result
                == RunResult(
                    stdout: """
                        inlay $31,000.00
                        hover car $31,000.00
                        hover x `$x` is `1` here
                        inlay $31,000.00
                        edited
                        hover car $40,000.00
                        hover x `$x` is `2` here
                        inlay $40,000.00
                        exit 0

                        """, stderr: "", status: 0))
    }

    /// Opens `doc.carfab` (`source v.carfab`, `car roadster`, `echo $x`), asks, replaces
    /// v.carfab with v2.carfab, asks again, edits the document (a blank line at its end) and asks once more.
    static let client =
        languageServerPythonClient + "\n" + #"""
            uri = "file://" + here + "/doc.carfab"
            text = "source v.carfab\ncar roadster\necho $x\n"
            document = {"uri": uri}
            def hovers():
                car = ask("textDocument/hover", {"textDocument": document, "position": {"line": 1, "character": 1}})["result"]
                print("hover car", car["contents"]["value"].rsplit(": ", 1)[1])
                x = ask("textDocument/hover", {"textDocument": document, "position": {"line": 2, "character": 6}})["result"]
                print("hover x", x["contents"]["value"])
            def inlay():
                hints = ask("textDocument/inlayHint", {"textDocument": document,
                            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 3, "character": 0}}})["result"]
                print("inlay", " ".join(hint["label"] for hint in hints))
            ask("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
            send({"method": "initialized", "params": {}})
            send({"method": "textDocument/didOpen", "params": {"textDocument": dict(document, languageId="carfab", version=1, text=text)}})
            inlay()
            os.replace("v2.carfab", "v.carfab")
            hovers()
            ask("textDocument/semanticTokens/full", {"textDocument": document})
            ask("textDocument/completion", {"textDocument": document, "position": {"line": 2, "character": 0}})
            inlay()
            send({"method": "textDocument/didChange", "params": {"textDocument": dict(document, version=2),
                  "contentChanges": [{"range": {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 0}}, "text": "\n"}]}})
            print("edited")
            hovers()
            inlay()
            ask("shutdown", None)
            send({"method": "exit"})
            server.stdin.close()
            print("exit", server.wait())
            """#
}
