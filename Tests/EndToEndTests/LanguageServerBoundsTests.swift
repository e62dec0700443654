import Foundation
import Testing

/// Trial 9, finding 1: the 4 MiB bound on a document bounded neither the server's memory nor
/// its answers. A 46.5 MB sourced file took references to a 186.7 MiB answer and 1.9 GB; a
/// 4 MiB document's outline was 82.8 MiB (past the 64 MiB a message may hold) at 795 MB.
/// Each bound is shown with an input just over it, through the real server: the answers are
/// counted, and the server's peak memory (the child's `ru_maxrss`) is held under a bound.
@Suite struct LanguageServerBoundsTests {
    /// What the client prints for each input: a file sourced past 4 MiB (by one line), where
    /// the analysis stops and says so on the `source` line, references do not search it and say
    /// so, and a rename is refused; two files that are past it together (1.9 and 2.5 MB), where
    /// the first is read whole and the second cut; and a document just under 4 MiB with a name
    /// on each of its 381,300 lines, where references, outline, hints and tokens are each cut
    /// at their limit.
    static let cases = [
        (
            "sourced",
            """
            diagnostic 0 error io source big.carfab
              says: the files this document sources are more than the 4 MiB the editor analyses in all: this one is not checked past line 135300 (carfab --check checks it)
              message: 'big.carfab' not searched: the files this document sources are more than the 4 MiB the editor analyses in all
            references 1
            rename failed: not renamed: 'big.carfab' not searched: the files this document sources are more than the 4 MiB the editor analyses in all
            exit 0
            peak memory under 64 MiB

            """
        ),
        (
            "two",
            """
            diagnostic 1 error io source b.carfab
              says: the files this document sources are more than the 4 MiB the editor analyses in all: this one is not checked past line 75300 (carfab --check checks it)
              message: 'sports' is named in 60001 places: the first 5000 are listed; 'b.carfab' not searched: the files this document sources are more than the 4 MiB the editor analyses in all
            references 5000
            rename failed: not renamed: 'b.carfab' not searched: the files this document sources are more than the 4 MiB the editor analyses in all
            exit 0
            peak memory under 64 MiB

            """
        ),
        (
            "document",
            """
            diagnostics 0
              message: 'sports' is named in 381300 places: the first 5000 are listed
            references 5000
            symbols 5000
            hints 5000
            tokens 100000
            exit 0
            peak memory under 128 MiB

            """
        )
    ]

    @Test(arguments: cases)
    func answers_and_memory_are_bounded(input: String, printed: String) throws {
        let directory = try temporaryDirectory(with: ["client.py": Self.client])
        let result = try shell("python3 client.py \(input)", directory: directory)
        #expect(result == RunResult(stdout: printed, stderr: "", status: 0))
    }

    /// Runs the server on `doc.carfab` in its folder and prints what each answer holds, then
    /// the server's peak memory against the test's bound.
    static let client =
        languageServerPythonClient + "\n" + #"""
            uri = "file://" + here + "/doc.carfab"
            line = b"car sports; set drivetrain 4wd\n"
            if sys.argv[1] == "sourced":
                with open("big.carfab", "wb") as f: f.write(line * ((4 << 20) // len(line) + 1))
                text, bound = "source big.carfab\ncar sports\nvar x 1\n", 64
            elif sys.argv[1] == "two":
                with open("a.carfab", "wb") as f: f.write(line * 60000)
                with open("b.carfab", "wb") as f: f.write(line * 80000)
                text, bound = "source a.carfab\nsource b.carfab\ncar sports\nvar x 1\n", 64
            else:
                text, bound = "car sports\n" * (4194304 // 11), 128
            ask("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
            send(dict(method="initialized", params={}))
            send(dict(method="textDocument/didOpen", params={"textDocument": {"uri": uri, "languageId": "carfab", "version": 1, "text": text}}))
            diagnostics = receive()["params"]["diagnostics"]
            document = {"uri": uri}
            if sys.argv[1] != "document":
                for d in diagnostics:
                    print("diagnostic", d["range"]["start"]["line"], ["", "error", "warning", "note"][d["severity"]], d["code"], text.split("\n")[d["range"]["start"]["line"]])
                    print("  says:", d["message"])
                    for r in d.get("relatedInformation", []): print("  related:", r["message"])
                print("references", len(ask("textDocument/references", {"textDocument": document, "position": {"line": text.count("\n") - 2, "character": 5}, "context": {"includeDeclaration": True}})["result"]))
                print("rename failed:", ask("textDocument/rename", {"textDocument": document, "position": {"line": text.count("\n") - 1, "character": 4}, "newName": "y"})["error"]["message"])
            else:
                print("diagnostics", len(diagnostics))
                print("references", len(ask("textDocument/references", {"textDocument": document, "position": {"line": 1, "character": 5}, "context": {"includeDeclaration": True}})["result"]))
                print("symbols", len(ask("textDocument/documentSymbol", {"textDocument": document})["result"]))
                whole = {"start": {"line": 0, "character": 0}, "end": {"line": text.count("\n"), "character": 0}}
                print("hints", len(ask("textDocument/inlayHint", {"textDocument": document, "range": whole})["result"]))
                print("tokens", len(ask("textDocument/semanticTokens/full", {"textDocument": document})["result"]["data"]) // 5)
            ask("shutdown", None)
            send(dict(method="exit"))
            print("exit", server.wait())
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
            print("peak memory under %d MiB" % bound if peak < bound else "peak memory %d MiB, over %d" % (peak, bound))
            """#
}
