import Foundation
import Testing

/// What carfab says about its own command line: arguments quoted escaped, as diagnostics
/// quote scripts (issue 19 item 16); commands given where a file is expected (issue 20 item 15).
@Suite struct CommandLineMessageTests {
    private let usage = "usage: carfab [OPTIONS] [FILE...] (see 'carfab --help')\n"

    @Test(arguments: [
        (["--x\u{1B}]0;TITLE\u{07}"], "unknown option '--x\\e]0;TITLE\\x07'"),
        (["--format", "\u{1B}[31mred"], "unknown format '\\e[31mred' (use text, json, or tap with --test)"),
        (["--test", "-j", "2\u{9B}1m", "t"], "-j needs a number of jobs from 1 to 1024, not '2\\u{009B}1m'"),
        (["--var", "a\u{202E}b=1"], "'a\\u{202E}b' is not a variable name (ASCII letters, digits and '_', not starting with a digit)"),
        (["--var", "line\nbreak"], "--var needs NAME=VALUE, not 'line\\nbreak'"),
        (["--generate-completion-script", "\u{1B}c"], "no completion script for '\\ec' (use bash, zsh or fish)")
    ])
    func usage_errors_show_control_characters_of_arguments_escaped(arguments: [String], message: String) throws {
        #expect(try carfab(arguments) == RunResult(stdout: "", stderr: "carfab: error: \(message)\n" + usage, status: 64))
    }

    @Test func commands_given_as_a_file_name_get_a_note_on_minus_e() throws {
        let dir = try temporaryDirectory(with: ["quote.carfab": "car sports\n"])
        let missing = "No such file or directory"
        #expect(
            try carfab(["help"], directory: dir)
                == RunResult(
                    stdout: "",
                    stderr: """
                        carfab: error: cannot open 'help': \(missing)
                        note: to run commands, use: carfab -e 'help'

                        """, status: 1))
        #expect(
            try carfab(["quote.carfab", "car sports; total GBP"], directory: dir)
                == RunResult(
                    stdout: "",
                    stderr: """
                        carfab: error: cannot open 'car sports; total GBP': \(missing)
                        note: to run commands, use: carfab -e 'car sports; total GBP'

                        """, status: 1))
        #expect(try carfab(["echo it's"], directory: dir).stderr.hasSuffix("note: to run commands, use: carfab -e 'echo it'\\''s'\n"))
        // A name that reads as a file gets none, and neither does a file that is there.
        for name in ["nosuch.carfab", "my quotes/a b.carfab", "old quote.carfab"] {
            #expect(
                try carfab([name], directory: dir)
                    == RunResult(
                        stdout: "",
                        stderr: """
                            carfab: error: cannot open '\(name)': \(missing)

                            """, status: 1))
        }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("list"), withIntermediateDirectories: false)
        let folder = try carfab(["list"], directory: dir)
        #expect(folder.status == 1 && !folder.stderr.contains("note:"), "\(folder)")
        let json = try carfab(["--format", "json", "help"], directory: dir)
        #expect(json.stderr.contains(#""notes":[{"message":"to run commands, use: carfab -e 'help'""#), "\(json)")
    }
}
