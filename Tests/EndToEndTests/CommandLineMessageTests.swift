import Foundation
import Testing

/// What carfab says about its own command line: arguments quoted escaped, as diagnostics
/// quote scripts (issue 19 item 16).
@Suite struct CommandLineMessageTests {
    private let usage = "usage: carfab [OPTIONS] [FILE...] (see 'carfab --help')\n"

    @Test(arguments: [
        (["--x\u{1B}]0;TITLE\u{07}"], "unknown option '--x\\e]0;TITLE\\x07'"),
        (["--format", "\u{1B}[31mred"], "unknown format '\\e[31mred' (use text, json, or tap with --test)"),
        (["--test", "-j", "2\u{9B}1m", "t"], "-j needs a number of jobs from 1 to 1024, not '2\\u{009B}1m'"),
        (["--var", "a\u{202E}b=1"], "'a\\u{202E}b' is not a variable name (letters, digits and '_', not starting with a digit)"),
        (["--var", "line\nbreak"], "--var needs NAME=VALUE, not 'line\\nbreak'"),
        (["--generate-completion-script", "\u{1B}c"], "no completion script for '\\ec' (use bash, zsh or fish)"),
    ])
    func usage_errors_show_control_characters_of_arguments_escaped(arguments: [String], message: String) throws {
        #expect(try carfab(arguments) == RunResult(stdout: "", stderr: "carfab: error: \(message)\n" + usage, status: 64))
    }
}
