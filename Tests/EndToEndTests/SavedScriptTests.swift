import Foundation
import Testing

/// A saved script cannot be turned against whoever replays it: the attacks of issue 19, run as
/// a person would, with the release binary, in a folder of their own.
@Suite struct SavedScriptTests {
    /// Saves with `arguments`, replays the script in a new carfab, and returns the replay's
    /// result and the names in the folder afterwards.
    private func saveAndReplay(_ arguments: [String]) throws -> (saved: String, replay: RunResult, files: [String]) {
        let dir = try temporaryDirectory(with: [:])
        let save = try carfab(arguments + ["-e", "save s.carfab"], directory: dir)
        #expect(save == RunResult(stdout: "", stderr: "", status: 0))
        let replay = try carfab(["s.carfab", "-e", "save again.carfab"], directory: dir)
        let saved = try String(contentsOf: dir.appendingPathComponent("s.carfab"), encoding: .utf8)
        // The same script again, byte for byte.
        #expect(try String(contentsOf: dir.appendingPathComponent("again.carfab"), encoding: .utf8) == saved)
        return (saved, replay, try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted())
    }

    @Test func a_quote_under_a_combining_mark_stays_inside_its_word() throws {
        let note = "x\"\u{301};echo INJECTED;save victim.txt;#"
        let (saved, replay, files) = try saveAndReplay(["--var", "note=\(note)"])
        #expect(replay == RunResult(stdout: "", stderr: "", status: 0))
        #expect(files == ["again.carfab", "s.carfab"])
        #expect(saved == "# carfab session, saved by carfab 0.1.0\nvar note \"x\\\"\u{301};echo INJECTED;save victim.txt;#\"\n")
    }

    @Test func a_value_with_a_cr_lf_line_break_is_one_word() throws {
        let (saved, replay, files) = try saveAndReplay(["--var", "v=a\r\necho INJECTED"])
        #expect(replay == RunResult(stdout: "", stderr: "", status: 0))
        #expect(files == ["again.carfab", "s.carfab"])
        #expect(saved.hasSuffix("var v \"a\\r\\necho INJECTED\"\n"))
    }

    @Test func forbid_lines_quote_their_option_names() throws {
        let definitions = """
            option suspension "road with floorplan short;echo INJECTED;#" "Odd" price 10
            option suspension "my opt" "Mine" price 20
            forbid suspension "road with floorplan short;echo INJECTED;#" with floorplan long
            forbid suspension "my opt" with floorplan long
            """
        let (saved, replay, files) = try saveAndReplay(["-e", definitions])
        #expect(replay == RunResult(stdout: "", stderr: "", status: 0))
        #expect(files == ["again.carfab", "s.carfab"])
        #expect(saved.contains("forbid suspension \"road with floorplan short;echo INJECTED;#\" with floorplan long\n"))
        #expect(saved.contains("forbid suspension \"my opt\" with floorplan long\n"))
    }

    @Test func an_alias_and_a_model_name_with_hidden_syntax_round_trip() throws {
        let definitions = """
            var a "e\\";\\u{301}echo INJECTED"
            option drivetrain hybrid "Hybrid" price 1 alias $a
            model "a#\\u{301}b" "Car\\u{202E}evil" price 30000 floorplan short suspension race drivetrain rear
            car "a#\\u{301}b"; set drivetrain $a
            """
        let (saved, replay, _) = try saveAndReplay(["-e", definitions])
        #expect(replay == RunResult(stdout: "", stderr: "", status: 0))
        // Terminal controls and bidi characters are written as escapes: `cat` of the file shows them, not obeys them.
        #expect(saved.contains("model \"a#\u{301}b\" \"Car\\u{202E}evil\""))
        #expect(!saved.unicodeScalars.contains("\u{202E}"))
    }

    @Test func a_unicode_escape_names_one_character() throws {
        #expect(try carfab(["-e", "echo \"\\u{41}\\u{e9}\\u{1F600}\\r|\""]) == RunResult(stdout: "Aé😀\r|\n", stderr: "", status: 0))
        let bad = try carfab(["-e", "echo \"\\u{D800}\" \"\\u{0}\" \"\\u{110000}\" \"\\u41\"", "--keep-going"])
        #expect(
            bad
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:7: error: '\\u{D800}' is not a Unicode escape (\\u{ and one to six hex digits naming a character other than NUL, then })
                        echo "\\u{D800}" "\\u{0}" "\\u{110000}" "\\u41"
                              ^~~~~~~~

                        """, status: 1))
    }
}
