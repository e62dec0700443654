import Foundation
import Testing

/// Every promise `--safe` makes, one test each (issue 19): no command touches a file, no
/// program runs (no pager), and the prompt offers no file names. (`--test` under `--safe`
/// and the links it may follow are tested with the test runner.)
@Suite struct SafeModeTests {
    @Test func source_and_save_are_refused() throws {
        let dir = try temporaryDirectory(with: ["x.carfab": "echo x\n"])
        let result = try carfab(["--safe", "--keep-going", "-e", "source x.carfab; save y.carfab; echo still here"], directory: dir)
        #expect(
            result
                == RunResult(
                    stdout: "still here\n",
                    stderr: """
                        <command-line>:1:1: error: 'source' touches files and is refused by --safe
                        source x.carfab; save y.carfab; echo still here
                        ^~~~~~
                        <command-line>:1:18: error: 'save' touches files and is refused by --safe
                        source x.carfab; save y.carfab; echo still here
                                         ^~~~

                        """, status: 1))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("y.carfab").path))
    }

    /// `--check` (and so an editor's diagnostics) reports the `save` that running refuses, with
    /// `--safe` and inside `try`, with the same error at the same place, and writes nothing;
    /// `save -` and a `save` whose failure `expect error` awaits pass both (trial 6, 5).
    @Test func the_check_refuses_the_save_running_refuses() throws {
        let dir = try temporaryDirectory(with: [:])
        let cases: [(options: [String], script: String, refused: Bool)] = [
            (["--safe"], "save x.carfab", true),
            (["--safe"], "car sports; save --minimal x.carfab", true),
            ([], "try save x.carfab", true),
            ([], "car sports\ntry save --minimal x.carfab", true),
            (["--safe"], "try save -", false),
            (["--safe"], "expect error refused save x.carfab", false)
        ]
        for (options, script, refused) in cases {
            let run = try carfab(options + ["--keep-going", "-e", script], directory: dir)
            let check = try carfab(["--check"] + options + ["--keep-going", "-e", script], directory: dir)
            #expect(check.stderr == run.stderr && check.status == run.status, "\(options) \(script)")
            #expect(check.stderr.contains("refused") == refused && check.status == (refused ? 1 : 0), "\(check.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.carfab").path))
    }

    @Test func no_pager_runs_and_the_long_page_is_printed() throws {
        let dir = try temporaryDirectory(with: [:])
        let marker = dir.appendingPathComponent("pager-ran")
        let environment = ["HOME": dir.path, "XDG_STATE_HOME": dir.path, "PAGER": "touch '\(marker.path)'"]
        let safe = try PseudoTerminal(arguments: ["--safe", "-e", "help"], environment: environment)
        #expect(safe.exitStatus() == 0)
        #expect(safe.output.contains("configure:") && safe.output.contains("quit [STATUS]"), "\(safe.output)")
        #expect(!FileManager.default.fileExists(atPath: marker.path))
        // The same page without --safe is one the pager takes (this PAGER shows nothing).
        let unsafe = try PseudoTerminal(arguments: ["-e", "help"], environment: environment)
        #expect(unsafe.exitStatus() == 0)
        #expect(FileManager.default.fileExists(atPath: marker.path))
        #expect(!unsafe.output.contains("quit [STATUS]"))
    }

    @Test func the_default_less_runs_with_lesssecure_and_never_under_safe() throws {
        // A `less` first on PATH that records how it was run, then shows the page.
        let dir = try temporaryDirectory(with: [
            "bin/less": """
            #!/bin/sh
            echo "LESSSECURE=${LESSSECURE-unset} $*" > "$(dirname "$0")/../seen"
            cat

            """
        ])
        let less = dir.appendingPathComponent("bin/less")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: less.path)
        let seen = dir.appendingPathComponent("seen")
        // The user's own LESSSECURE=0 does not loosen it.
        let environment = ["HOME": dir.path, "XDG_STATE_HOME": dir.path, "PATH": "\(dir.path)/bin:/usr/bin:/bin", "LESSSECURE": "0"]
        let paged = try PseudoTerminal(arguments: ["-e", "help"], environment: environment, unset: ["PAGER"])
        #expect(paged.exitStatus() == 0)
        #expect(paged.output.contains("quit [STATUS]"))
        #expect(try String(contentsOf: seen, encoding: .utf8) == "LESSSECURE=1 -FRX\n")
        try FileManager.default.removeItem(at: seen)
        let safe = try PseudoTerminal(arguments: ["--safe", "-e", "help"], environment: environment, unset: ["PAGER"])
        #expect(safe.exitStatus() == 0)
        #expect(safe.output.contains("quit [STATUS]"))
        #expect(!FileManager.default.fileExists(atPath: seen.path))
    }

    @Test func the_prompt_completes_no_file_names() throws {
        let dir = try temporaryDirectory(with: ["visible.carfab": ""])
        let terminal = try PseudoTerminal(
            arguments: ["--safe"], environment: ["XDG_STATE_HOME": dir.path, "HOME": dir.path],
            directory: dir)
        terminal.type("source vis\t")
        terminal.type("\r")
        #expect(terminal.waitFor("refused by --safe"))
        #expect(!terminal.output.contains("visible.carfab"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }
}
