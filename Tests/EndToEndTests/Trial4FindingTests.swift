import Foundation
import Testing

/// The findings of the fourth trial of main (trial4), each shown fixed end to end.
@Suite struct Trial4FindingTests {
    /// T4: `models` heads a column with each defined family's name: escaped as the cells are,
    /// so a catalog cannot set the terminal's title or hide what follows.
    @Test func a_family_name_heading_a_models_column_is_escaped() throws {
        let script = #"family "p\u{1B}]0;PWNED\u{7}" "P" default w "W"; models"#
        #expect(
            try carfab(["-e", script])
                == RunResult(
                    stdout: #"""
                        model    car type           base price  floorplan  suspension  drivetrain  p\e]0;PWNED\x07
                        compact  VW Golf            $27,995.00  standard   road        front       w
                        sports   Porsche Boxster    $68,300.00  short      race        rear        w
                        suv      Cadillac Escalade  $81,895.00  long       offroad     4wd         w

                        """#, stderr: "", status: 0))
    }

    /// T8: a script read from standard input cannot `source` standard input under another
    /// name (`/dev/stdin`, `/proc/self/fd/0`) any more than as `-`: both would read the same
    /// stream, and the sourced "file" began in the middle of one of the script's lines.
    @Test func a_script_on_standard_input_cannot_source_it_by_another_name() throws {
        let lines = (0..<20_000).map { "echo line\($0)" }.joined(separator: "\n")
        for name in ["/dev/stdin", "/proc/self/fd/0"] {
            let result = try carfab([], stdin: "source \(name)\necho A\n\(lines)\n")
            let caret = String(repeating: "~", count: name.count - 1)
            #expect(
                result
                    == RunResult(
                        stdout: "",
                        stderr: """
                            <stdin>:1:8: error: '\(name)' is standard input, which is already being read: it holds the script that runs 'source'
                            source \(name)
                                   ^\(caret)

                            """, status: 1))
        }
        // A script from elsewhere may read standard input by either name, as with `source -`.
        #expect(
            try carfab(["-e", "source /dev/stdin; total"], stdin: "car sports\n")
                == RunResult(stdout: "1 Car in Stock. Total Value: $68,300.00\n", stderr: "", status: 0))
    }

    /// T6: `--check` finds a line of `expect error` and `try` nested past 64 levels, at the
    /// 65th's name, as running does (it found nothing); and a line of 69,000 levels (1 MB) is
    /// refused in little memory (each level made the rest of the line into strings: 231 MB).
    @Test func nesting_past_64_levels_is_found_by_the_check_and_refused_in_little_memory() throws {
        let levels = (0..<65).map { $0 % 3 == 2 ? "try " : "expect error x " }.joined()
        let line = levels + "echo x"
        let column = (0..<64).map { $0 % 3 == 2 ? 4 : 15 }.reduce(1, +)
        let run = try carfab(["-e", line])
        let check = try carfab(["--check", "-e", line])
        #expect(run.status == 1 && check == run, "\(check.stderr)")
        #expect(run.stderr.hasPrefix("<command-line>:1:\(column): error: 'expect error' and 'try' may hold one another at most 64 deep\n"))
        // 64 levels are within the limit: the check passes, as the run does.
        let within = (0..<64).map { _ in "expect error x " }.joined() + "car sprots"
        #expect(try carfab(["--check", "-e", within]) == RunResult(stdout: "", stderr: "", status: 0))
        let directory = try temporaryDirectory(with: [:])
        defer { try? FileManager.default.removeItem(at: directory) }
        let deep = try shell(
            "python3 -c \"print('expect error x ' * 69000 + 'echo x')\" > nest.carfab && prlimit --as=150000000 \"$CARFAB\" nest.carfab",
            directory: directory)
        #expect(
            deep.status == 1
                && deep.stderr.hasPrefix("nest.carfab:1:961: error: 'expect error' and 'try' may hold one another at most 64 deep\n"),
            "\(deep.stderr.prefix(300))")
    }
}
