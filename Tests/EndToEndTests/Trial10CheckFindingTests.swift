import Foundation
import Testing

/// Trial 10's finding 5, as a user meets it: standard output, standard error and the status, whole.
@Suite struct Trial10CheckFindingTests {
    /// Finding 5: `--check` of a script that `save`s a file and then `source`s or `diff`s it
    /// passes, as the run does, whether the file is missing (it was "cannot open", status 1)
    /// or an earlier run left a copy (which it read: its error was the script's).
    @Test(arguments: [
        ("s1.carfab", "car sports 3\nsave gen.carfab\nclear\nsource gen.carfab\nexpect count 3\n", "gen.carfab"),
        ("s2.carfab", "car sports\nsave before.carfab\nset drivetrain 4wd\ndiff before.carfab\n", "before.carfab"),
        ("s3.carfab", "car sports\nsave out/../gen.carfab\nsource ./gen.carfab\ndiff gen.carfab\n", "gen.carfab")
    ])
    func a_check_passes_over_a_file_the_script_saved(_ script: (name: String, text: String, saved: String)) throws {
        let dir = try temporaryDirectory(with: [script.name: script.text, "out/keep": ""])
        let passes = RunResult(stdout: "", stderr: "", status: 0)
        #expect(try carfab(["--check", script.name], directory: dir) == passes)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent(script.saved).path))
        let stale = "car nosuch\n"
        try writeFile(stale, to: dir.appendingPathComponent(script.saved))
        #expect(try carfab(["--check", script.name], directory: dir) == passes)
        #expect(try carfab(["--check", "--keep-going", "--format", "json", script.name], directory: dir) == passes)
        #expect(try String(contentsOf: dir.appendingPathComponent(script.saved), encoding: .utf8) == stale)
        // The run passes too, and rewrites the file.
        #expect(try carfab([script.name], directory: dir).status == 0)
    }

    /// Only a file saved on an earlier line is passed over: a `source` of it before the `save`
    /// reads the file there, and one that cannot be opened is still the check's error.
    @Test func a_file_sourced_before_it_is_saved_is_checked() throws {
        let dir = try temporaryDirectory(with: ["s.carfab": "source gen.carfab\nsave gen.carfab\n"])
        #expect(
            try carfab(["--check", "s.carfab"], directory: dir)
                == RunResult(
                    stdout: "",
                    stderr: """
                        s.carfab:1:8: error: cannot open 'gen.carfab': No such file or directory
                        source gen.carfab
                               ^~~~~~~~~~

                        """, status: 1))
    }
}
