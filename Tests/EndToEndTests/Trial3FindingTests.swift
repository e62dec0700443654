import Foundation
import Testing

/// The findings of the third trial of main (trial3 T1 ... T10), each shown fixed end to end.
@Suite struct Trial3FindingTests {
    /// T1: `why` and `fit` quote catalog names in sentences; a name must not drive the terminal
    /// (escaped as every message is), and is cut to 60 characters as names in messages are.
    @Test func why_and_fit_sentences_escape_and_cut_the_names_they_quote() throws {
        let family = #""p\u{1B}]0;T\u{7}""#
        let option = #""w\u{1B}[31m""#
        let hidden = #""h\u{1B}[8m""#
        let script =
            "family \(family) \"P\" default \(option) \"W\" price 5; option drivetrain \(hidden) \"H\" price 1; "
            + "forbid drivetrain \(hidden) with floorplan short; forbid drivetrain \(hidden) with floorplan standard; "
            + "forbid drivetrain \(hidden) with floorplan long; car sports; why \(family) \(option); fit \(family) \(option); "
            + "why drivetrain \(hidden)"
        #expect(
            try carfab(["-e", script])
                == RunResult(
                    stdout: #"""
                        The car has the w\e[31m p\e]0;T\x07 already.
                        The car has the w\e[31m p\e]0;T\x07 already.
                        rule                                                    defined at
                        forbid drivetrain "h\u{1B}[8m" with floorplan short     <command-line>:1
                        forbid drivetrain "h\u{1B}[8m" with floorplan standard  <command-line>:1
                        forbid drivetrain "h\u{1B}[8m" with floorplan long      <command-line>:1
                        No valid car has the h\e[8m drivetrain.

                        """#, stderr: "", status: 0))
        // JSON carries the sentence as it is (JSON escapes it).
        let json = try carfab(["--format", "json", "-e", script])
        #expect(
            json.stdout.hasPrefix(#"{"type":"result","command":"why","text":"The car has the w\u001b[31m p\u001b]0;T\u0007 already."}"#))
        let long = String(repeating: "f", count: 70)
        let longOption = String(repeating: "o", count: 70)
        let cut = String(repeating: "o", count: 60) + "... " + String(repeating: "f", count: 60) + "..."
        #expect(
            try carfab([
                "-e", "family \(long) \"F\" default \(longOption) \"O\"; car sports; why \(long) \(longOption); fit \(long) \(longOption)"
            ])
                == RunResult(stdout: "The car has the \(cut) already.\nThe car has the \(cut) already.\n", stderr: "", status: 0))
    }

    /// T7: every invisible character `save` escapes is shown escaped in messages, source lines
    /// and tables too (the word joiner, the soft hyphen, tags, interlinear annotations, musical
    /// format characters, noncharacters): `sports` and `sports` + U+2060 never look alike.
    @Test func invisible_format_characters_and_noncharacters_are_shown_as_save_writes_them() throws {
        let model = "model \"sports\u{2060}\" \"B\u{AD}x\u{E0041}\" price 10000 floorplan standard suspension race drivetrain rear"
        let result = try carfab([
            "-e", "\(model); car sports; car \"sports\u{2060}\"; list; var v \"a\u{180E}\u{FFF9}\u{1D173}\u{FFFF}b\"; vars"
        ])
        #expect(
            result
                == RunResult(
                    stdout: #"""
                           #  model           car type             floorplan  suspension  drivetrain  count  unit price
                           1  sports          Porsche Boxster      short      race        rear            1  $68,300.00
                        *  2  sports\u{2060}  B\u{00AD}x\u{E0041}  standard   race        rear            1  $10,000.00
                        name  value
                        v     a\u{180E}\u{FFF9}\u{1D173}\u{FFFF}b

                        """#, stderr: "", status: 0))
        #expect(
            try carfab(["-e", "car sports\u{2060}"])
                == RunResult(
                    stdout: "",
                    stderr: #"""
                        <command-line>:1:5: error: unknown model 'sports\u{2060}'; did you mean 'sports'?
                        car sports\u{2060}
                            ^~~~~~~~~~~~~~

                        """#, status: 1))
    }
}
