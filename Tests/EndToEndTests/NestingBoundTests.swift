import Foundation
import Testing

/// Scripts that nest without end through `diff` (each loads a fresh session) or through
/// `expect error` and `try` on one line: an error with its place, never a stack overflow.
@Suite struct NestingBoundTests {
    @Test func a_file_that_compares_itself_is_a_cycle_not_a_crash() throws {
        let dir = try temporaryDirectory(with: [
            "self.carfab": "diff self.carfab\n", "a.carfab": "diff b.carfab\n", "b.carfab": "source a.carfab\n"
        ])
        #expect(
            try carfab(["self.carfab"], directory: dir)
                == RunResult(
                    stdout: "",
                    stderr: """
                        self.carfab:1:6: error: 'diff' cycle: self.carfab -> self.carfab
                        diff self.carfab
                             ^~~~~~~~~~~

                        """, status: 1))
        // Through a file the compared one sources: the loaded session knows who loads it.
        #expect(
            try carfab(["a.carfab"], directory: dir)
                == RunResult(
                    stdout: "",
                    stderr: """
                        a.carfab:1:6: error: cannot load 'b.carfab' to compare: b.carfab:1: 'source' cycle: a.carfab -> b.carfab -> a.carfab
                        diff b.carfab
                             ^~~~~~~~

                        """, status: 1))
        // `carfab --diff`: trouble, status 2.
        #expect(
            try carfab(["--diff", "self.carfab", "a.carfab"], directory: dir)
                == RunResult(
                    stdout: "",
                    stderr: """
                        self.carfab:1:6: error: 'diff' cycle: self.carfab -> self.carfab
                        diff self.carfab
                             ^~~~~~~~~~~

                        """, status: 2))
    }

    @Test func files_that_compare_the_next_are_bounded_as_source_is() throws {
        // A chain, not a cycle: each file compares the next, 70 deep.
        var files: [String: String] = [:]
        for n in 0..<70 { files["d\(n).carfab"] = "diff d\(n + 1).carfab\n" }
        files["d70.carfab"] = "car suv\n"
        let dir = try temporaryDirectory(with: files)
        let result = try carfab(["d0.carfab"], directory: dir)
        #expect(result.status == 1)
        #expect(result.stdout == "")
        // Sessions that `diff` loads nest 3 deep, well before files' 64 (trial 5, 6).
        #expect(
            result.stderr == """
                d0.carfab:1:6: error: cannot load 'd1.carfab' to compare: d1.carfab:1: cannot load 'd2.carfab' to compare: \
                d2.carfab:1: cannot load 'd3.carfab' to compare: d3.carfab:1: sessions that 'diff' loads nest at most 3 deep: \
                d0.carfab -> d1.carfab -> d2.carfab -> d3.carfab -> d4.carfab
                diff d1.carfab
                     ^~~~~~~~~

                """)
    }

    @Test func expect_error_and_try_nest_at_most_64_deep() throws {
        // 64 levels run: the innermost fails (not the error it expects), the next passes, and so on up.
        let within = String(repeating: "expect error expectation-failed ", count: 63) + "expect error rule-violation car nosuch\n"
        #expect(try carfab([], stdin: within) == RunResult(stdout: "", stderr: "", status: 0))
        // Thousands of levels in a line of 135 KB: one error where the 65th begins.
        let deep = String(repeating: "expect error unknown-model ", count: 5000) + "car nosuch\n"
        let result = try carfab([], stdin: deep)
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(
            result.stderr.hasPrefix("<stdin>:1:1729: error: 'expect error' and 'try' may hold one another at most 64 deep\n"))
        #expect(result.stderr.split(separator: "\n").count == 3)
        let tries = "try " + String(repeating: "expect error refused try ", count: 3000) + "car x\n"
        let tried = try carfab([], stdin: tries)
        #expect(tried.status == 1)
        #expect(tried.stderr.hasPrefix("<stdin>:1:801: error: 'expect error' and 'try' may hold one another at most 64 deep\n"))
    }
}

/// The language server replays a document for inlay hints, semantic tokens and completion:
/// the same bounds keep it alive (it died by SIGSEGV, and the editor lost it).
@Suite struct NestingBoundServerTests {
    static func framed(_ json: String) -> String { "Content-Length: \(json.utf8.count)\r\n\r\n\(json)" }

    @Test(arguments: [
        "car sports\\ndiff self.carfab\\nset drivetrain 4wd\\n",
        "car sports\\n" + String(repeating: "expect error unknown-model ", count: 5000) + "car nosuch\\n"
    ])
    func replaying_a_document_that_nests_without_end_keeps_the_server(_ text: String) throws {
        let dir = try temporaryDirectory(with: ["self.carfab": "diff self.carfab\n"])
        let uri = "file://" + dir.appendingPathComponent("x.carfab").path
        let range = #"{"start":{"line":0,"character":0},"end":{"line":9,"character":0}}"#
        let input = [
            #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}"#,
            #"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
            #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"\#(uri)","languageId":"carfab","version":1,"text":"\#(text)"}}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"textDocument/inlayHint","params":{"textDocument":{"uri":"\#(uri)"},"range":\#(range)}}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"textDocument/semanticTokens/full","params":{"textDocument":{"uri":"\#(uri)"}}}"#,
            #"{"jsonrpc":"2.0","id":99,"method":"shutdown"}"#, #"{"jsonrpc":"2.0","method":"exit"}"#
        ].map(Self.framed).joined()
        let result = try carfab(["--lsp"], stdin: input, directory: dir)
        #expect(result.status == 0)
        #expect(result.stdout.contains(#"{"jsonrpc":"2.0","id":2,"result":["#))
        #expect(result.stdout.contains(#"{"jsonrpc":"2.0","id":3,"result":{"#))
        #expect(result.stdout.hasSuffix(#"{"jsonrpc":"2.0","id":99,"result":null}"#))
    }

    /// Levels of `expect error` and `try` count across `source`d files when run (a file of 40
    /// levels is within the bound alone and passes the 64 when sourced from 40), and `--check` counts them
    /// so too; it counts no level past a `try` that running refuses (`try try`) (trial 5, 5).
    @Test func the_check_counts_levels_across_files_as_running_does() throws {
        let levels = String(repeating: "expect error unknown-model ", count: 40)
        let dir = try temporaryDirectory(with: [
            "outer.carfab": levels + "try source inner.carfab\n", "inner.carfab": levels + "car nosuch\n",
            "defines.carfab": "var v 1\n", "bad.carfab": "car nosuch\n"
        ])
        let run = try carfab(["outer.carfab"], directory: dir)
        #expect(run.status == 1)
        #expect(
            run.stderr.hasPrefix(
                "In file included from outer.carfab:1:\ninner.carfab:1:622: error: 'expect error' and 'try' may hold one another at most 64 deep\n"
            ))
        #expect(try carfab(["--check", "outer.carfab"], directory: dir) == RunResult(stdout: "", stderr: run.stderr, status: 1))
        // Alone, the file's levels are within the bound (what they expect fails, a level up).
        #expect(!(try carfab(["inner.carfab"], directory: dir).stderr.contains("64 deep")))
        #expect(try carfab(["--check", "inner.carfab"], directory: dir) == RunResult(stdout: "", stderr: "", status: 0))
        // 63 levels, then a `try` of `try`: running refuses that `try` (which the level around
        // it expects; the levels around that see no error) and counts no 65th level; nor does
        // the check, which leaves what the levels expect to running.
        let deep = "car sports; " + String(repeating: "expect error refused ", count: 63) + "try try car suv"
        let deepRun = try carfab(["-e", deep], directory: dir)
        #expect(deepRun.status == 1 && deepRun.stderr.contains("expected error refused, got expectation-failed"))
        #expect(!deepRun.stderr.contains("64 deep"))
        #expect(try carfab(["--check", "-e", deep], directory: dir) == RunResult(stdout: "", stderr: "", status: 0))
        // `source` as the COMMAND of `expect error` is refused, at `source`, before the file
        // runs (its errors are its own lines'; trial 7, 5), and the check says the same.
        let sourced = "expect error unknown-model source defines.carfab; echo ${v}"
        let refusedRun = try carfab(["--keep-going", "-e", sourced], directory: dir)
        #expect(
            refusedRun.stderr.hasPrefix(
                "<command-line>:1:28: error: 'expect error' cannot run 'source': a file reports its errors at their own lines and keeps what ran before them; test a file with --test\n"
            ) && refusedRun.status == 1, "\(refusedRun)")
        #expect(refusedRun.stderr.contains("unknown variable"), "the file did not run: \(refusedRun)")
        let refusedCheck = try carfab(["--check", "--keep-going", "-e", sourced], directory: dir)
        #expect(refusedCheck.stderr.hasPrefix(refusedRun.stderr.prefix(60)) && refusedCheck.status == 1, "\(refusedCheck)")
        // One level in, the refusal is what the outer level expects: the run passes without
        // reading the file, and so does the check (which followed the file and failed).
        let inner = "expect error refused expect error unknown-model source bad.carfab"
        #expect(try carfab(["-e", inner], directory: dir) == RunResult(stdout: "", stderr: "", status: 0))
        #expect(try carfab(["--check", "-e", inner], directory: dir) == RunResult(stdout: "", stderr: "", status: 0))
    }
}
