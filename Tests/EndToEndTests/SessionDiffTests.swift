import Foundation
import Testing

/// `carfab --diff A B`, `diff` and `try` through the built binary: whole outputs and diff(1)'s
/// exit status.
@Suite struct SessionDiffTests {
    static let first = "car sports\ncar suv 2\nset drivetrain rear\nvar who Ann\n"
    static let second = "car sports\nset drivetrain 4wd\ncar suv 2\nset drivetrain rear\nrate GBP 0.5\n"

    @Test func the_same_session_is_no_difference_and_status_0() throws {
        let dir = try temporaryDirectory(with: ["a.carfab": Self.first, "again.carfab": "# the same, written otherwise\n" + Self.first])
        #expect(try carfab(["--diff", "a.carfab", "again.carfab"], directory: dir) == RunResult(stdout: "", stderr: "", status: 0))
        #expect(
            try carfab(["--diff", "a.carfab", "a.carfab", "--format", "json"], directory: dir)
                == RunResult(stdout: "", stderr: "", status: 0))
        // In a session too: what prints nothing in text prints nothing in JSON (it was `{"rows":[]}`).
        #expect(
            try carfab(["--format", "json", "-e", "source a.carfab; diff again.carfab"], directory: dir)
                == RunResult(stdout: "", stderr: "", status: 0))
    }

    @Test func differences_in_text_and_json_and_status_1() throws {
        let dir = try temporaryDirectory(with: ["a.carfab": Self.first, "b.carfab": Self.second])
        #expect(
            try carfab(["--diff", "a.carfab", "b.carfab"], directory: dir)
                == RunResult(
                    stdout: """
                        change   what      name    first                                           second                                         difference
                        changed  rate      GBP     0.60338                                         0.5
                        removed  variable  who     Ann
                        changed  line      1 -> 1  car sports 1; set drivetrain rear ($68,300.00)  car sports 1; set drivetrain 4wd ($70,800.00)  +$2,500.00
                        changed  total             3 cars, $227,090.00                             3 cars, $229,590.00                            +$2,500.00

                        """, stderr: "", status: 1))
        let json = try carfab(["--format", "json", "--diff", "a.carfab", "b.carfab"], directory: dir)
        #expect(json.status == 1)
        #expect(
            json.stdout
                == #"{"type":"result","command":"diff","rows":[{"change":"changed","what":"rate","name":"GBP","first":"0.60338","second":"0.5","difference":null},{"change":"removed","what":"variable","name":"who","first":"Ann","second":null,"difference":null},{"change":"changed","what":"line","name":"1 -> 1","first":"car sports 1; set drivetrain rear ($68,300.00)","second":"car sports 1; set drivetrain 4wd ($70,800.00)","difference":{"currency":"USD","minor_units":250000,"amount":"2500.00","formatted":"$2,500.00"}},{"change":"changed","what":"total","name":"","first":"3 cars, $227,090.00","second":"3 cars, $229,590.00","difference":{"currency":"USD","minor_units":250000,"amount":"2500.00","formatted":"$2,500.00"}}]}"#
                + "\n")
    }

    @Test func a_changed_line_shows_the_parts_that_differ_even_defaults() throws {
        // A family only the first defines gives its line a part the second has not: the two
        // sides printed the same (`car sports 1 ($68,300.00)` twice).
        let dir = try temporaryDirectory(with: [
            "f3.carfab": "family paint \"P\" default white \"W\"\ncar sports\n", "f4.carfab": "car sports\n"
        ])
        #expect(
            try carfab(["--diff", "f3.carfab", "f4.carfab"], directory: dir)
                == RunResult(
                    stdout: """
                        change   what    name    first                                       second                     difference
                        removed  family  paint   family paint "P" default white "W" price 0
                        changed  line    1 -> 1  car sports 1; set paint white ($68,300.00)  car sports 1 ($68,300.00)      +$0.00
                        same     total           1 car, $68,300.00                           1 car, $68,300.00              +$0.00

                        """, stderr: "", status: 1))
        let json = try carfab(["--format", "json", "--diff", "f4.carfab", "f3.carfab"], directory: dir)
        #expect(json.status == 1)
        #expect(
            json.stdout.contains(
                #"{"change":"changed","what":"line","name":"1 -> 1","first":"car sports 1 ($68,300.00)","second":"car sports 1; set paint white ($68,300.00)","difference":{"currency":"USD","minor_units":0,"amount":"0.00","formatted":"$0.00"}}"#
            ))
        // A part the two sides have differently is named on each side, the default too (rear,
        // then 4wd); one both have alike is named only if it is not the default.
        let other = try temporaryDirectory(with: [
            "a.carfab": "car sports\nset suspension road\n", "b.carfab": "car sports\nset suspension road drivetrain 4wd\n"
        ])
        let lines = try carfab(["--diff", "a.carfab", "b.carfab"], directory: other).stdout.split(separator: "\n")
        #expect(
            lines.contains {
                $0.contains(
                    "car sports 1; set suspension road drivetrain rear ($65,900.00)  car sports 1; set suspension road drivetrain 4wd ($68,400.00)"
                )
            })
    }

    @Test func trouble_is_status_2_and_a_loaded_save_writes_nothing() throws {
        let dir = try temporaryDirectory(with: ["a.carfab": Self.first, "saves.carfab": "car suv\nsave written.carfab\n"])
        #expect(
            try carfab(["--diff", "a.carfab", "missing.carfab"], directory: dir)
                == RunResult(
                    stdout: "", stderr: "carfab: error: cannot open 'missing.carfab': No such file or directory\n", status: 2))
        #expect(
            try carfab(["--diff", "saves.carfab", "a.carfab"], directory: dir)
                == RunResult(
                    stdout: "",
                    stderr: """
                        saves.carfab:2:1: error: 'save' writes files and is refused while loading a session to compare
                        save written.carfab
                        ^~~~

                        """, status: 2))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("written.carfab").path))
        #expect(try carfab(["--diff", "a.carfab"], directory: dir).status == 64)
    }

    @Test func standard_input_is_one_side_at_most() throws {
        let dir = try temporaryDirectory(with: ["a.carfab": Self.first])
        #expect(try carfab(["--diff", "-", "a.carfab"], stdin: Self.first, directory: dir) == RunResult(stdout: "", stderr: "", status: 0))
        // Read twice, the stream would be a session against an empty one: "different".
        #expect(
            try carfab(["--diff", "-", "-"], stdin: Self.first, directory: dir)
                == RunResult(
                    stdout: "",
                    stderr: """
                        carfab: error: --diff reads standard input once: at most one of A and B may be '-'
                        usage: carfab [OPTIONS] [FILE...] (see 'carfab --help')

                        """, status: 64))
    }

    @Test func diff_and_try_in_a_session() throws {
        let dir = try temporaryDirectory(with: ["a.carfab": Self.first])
        #expect(
            try carfab(
                [
                    "-e",
                    "car sports; car suv 2; set drivetrain rear; var who Ann; diff a.carfab; car compact; try set drivetrain 4wd; diff a.carfab"
                ],
                directory: dir)
                == RunResult(
                    stdout: """
                                cars  total value
                        before     4  $255,085.00
                        after      4  $259,085.00
                        change    +0   +$4,000.00
                        change   what          name  first                second                       difference
                        added    line          3                          car compact 1 ($27,995.00)  +$27,995.00
                        changed  current line        2                    3
                        changed  total               3 cars, $227,090.00  4 cars, $255,085.00         +$27,995.00

                        """, stderr: "", status: 0))
    }
}
