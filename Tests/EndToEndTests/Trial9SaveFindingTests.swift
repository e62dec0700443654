import Foundation
import Testing

/// Trial 9's finding 3, as a user meets it: a session built from valid input that `save`
/// refused ("would be a line longer than the limit"), as escapes made its names longer. Names
/// are now bounded by what `save` writes for them, at the definition.
@Suite struct Trial9SaveFindingTests {
    /// The trial's file: options, a model and a car whose names are 60,001 bytes (`f`, `s`,
    /// `d` or `m`, then U+0001s), each written `\u{1}` (5 bytes) by `save`.
    static let longSave: String = {
        let controls = String(repeating: "\u{1}", count: 60_000)
        return """
            option floorplan "f\(controls)" "F" price 0 seats 2 engine mid
            option suspension "s\(controls)" "S" price 0
            option drivetrain "d\(controls)" "D" price 0
            model "m\(controls)" "\(controls)" price 40000 floorplan "f\(controls)" suspension "s\(controls)" drivetrain "d\(controls)"
            car "m\(controls)"

            """
    }()

    /// The first long name is refused where it is defined, by the run and by `--check` alike
    /// (it was defined, and `save` refused the session).
    @Test func the_trials_session_fails_at_its_first_long_name() throws {
        let dir = try temporaryDirectory(with: ["longsave.carfab": Self.longSave])
        let stderr = """
            longsave.carfab:1:18: error: a name or text longer than 4 KiB (4096 bytes) as save writes it (quotes and escapes counted: \\u{1} is 5 bytes for one character)
            option floorplan "f\(String(repeating: "\\x01", count: 9))...
                             ^\(String(repeating: "~", count: 37))

            """
        let run = try carfab(["longsave.carfab", "-e", "total", "-e", "save longsave.out"], directory: dir)
        #expect(run == RunResult(stdout: "", stderr: stderr, status: 1))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("longsave.out").path))
        let check = try carfab(["--check", "longsave.carfab"], directory: dir)
        #expect(check == RunResult(stdout: "", stderr: stderr, status: 1))
    }

    /// A model name of 4,096 bytes as saved (818 U+0001s, 3 `a`s, `m` and quotes) is defined,
    /// saved and replayed to the same script; one byte more is refused at the name.
    @Test func a_name_at_the_limit_saves_and_replays_and_one_byte_more_is_refused() throws {
        func model(_ tail: String) -> String {
            "model \"m\(String(repeating: "\u{1}", count: 818))\(tail)\" \"M\" price 9000 floorplan short suspension race drivetrain rear\ncar sports\nset drivetrain 4wd\n"
        }
        let dir = try temporaryDirectory(with: ["at.carfab": model("aaa"), "over.carfab": model("aaaa")])
        let saved = try carfab(["at.carfab", "-e", "save saved.carfab"], directory: dir)
        #expect(saved == RunResult(stdout: "", stderr: "", status: 0))
        let again = try carfab(["saved.carfab", "-e", "save again.carfab"], directory: dir)
        #expect(again == RunResult(stdout: "", stderr: "", status: 0))
        let first = try String(contentsOf: dir.appendingPathComponent("saved.carfab"), encoding: .utf8)
        let second = try String(contentsOf: dir.appendingPathComponent("again.carfab"), encoding: .utf8)
        #expect(first == second)
        let name = "\"m" + String(repeating: "\\u{1}", count: 818) + "aaa\""
        #expect(name.utf8.count == 4096)
        #expect(
            first.contains(
                "\nmodel \(name) \"M\" price 9000 floorplan short suspension race drivetrain rear\ncar sports 1\nset drivetrain 4wd\n"))
        let over = try carfab(["over.carfab"], directory: dir)
        #expect(
            over
                == RunResult(
                    stdout: "",
                    stderr: """
                        over.carfab:1:7: error: a name or text longer than 4 KiB (4096 bytes) as save writes it (quotes and escapes counted: \\u{1} is 5 bytes for one character)
                        model "m\(String(repeating: "\\x01", count: 9))...
                              ^\(String(repeating: "~", count: 37))

                        """, status: 1))
    }

    /// A variable's name is written twice on a line of a long value's parts: bounded too (a
    /// name of 600,000 bytes was set, and `save` refused the session).
    @Test func a_variable_name_past_the_limit_is_refused_at_the_name() throws {
        let name = "v" + String(repeating: "x", count: 4096)
        let run = try carfab(["-e", "var \(name) 1"])
        #expect(
            run
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:5: error: a name or text longer than 4 KiB (4096 bytes) as save writes it (quotes and escapes counted: \\u{1} is 5 bytes for one character)
                        var v\(String(repeating: "x", count: 39))...
                            ^\(String(repeating: "~", count: 39))

                        """, status: 1))
        let option = try carfab(["--var", "\(name)=1", "-e", "echo never"])
        #expect(
            option
                == RunResult(
                    stdout: "",
                    stderr:
                        "carfab: error: a --var name is longer than 4096 bytes\nusage: carfab [OPTIONS] [FILE...] (see 'carfab --help')\n",
                    status: 64))
        let most = try carfab(["--var", "\(name.dropLast())=1", "-e", "vars"])
        #expect(most.status == 0 && most.stderr == "" && most.stdout.contains("\(name.dropLast())"))
    }

    /// An option's aliases are not counted, but its line as saved must fit: 62,000 aliases of a
    /// U+0001 and a number fit the line as typed (16 bytes each), not as saved (20).
    @Test func an_option_whose_saved_line_would_pass_a_line_is_refused_at_the_alias_past_it() throws {
        let aliases = (0..<62_000).map { " alias \"\u{1}\($0)\"" }.joined()
        let dir = try temporaryDirectory(with: ["aliases.carfab": "option drivetrain x \"X\" price 0\(aliases)\nsave -\n"])
        let run = try carfab(["aliases.carfab"], directory: dir)
        #expect(
            run
                == RunResult(
                    stdout: "",
                    stderr: """
                        aliases.carfab:1:825494: error: this option's names would make the line save writes for it longer than 1024 KiB (1048576 bytes); fewer or shorter aliases fit
                        ...alias "\\x0155770" alias "\\x0155771" alias "\\x0155772" alias "\\x0155773" al...
                                                   ^~~~~~~~~~~

                        """, status: 1))
        // The alias pointed at is the first past the limit: the line as saved up to the one before it fits.
        let fitting = (0..<55_771).map { " alias \"\u{1}\($0)\"" }.joined()
        let fits = try temporaryDirectory(with: ["fits.carfab": "option drivetrain x \"X\" price 0\(fitting)\nsave -\n"])
        let upTo = try carfab(["fits.carfab"], directory: fits)
        #expect(upTo.status == 0 && upTo.stderr == "")
        let longest = upTo.stdout.utf8.split(separator: 0x0A).map(\.count).max() ?? 0
        // ` alias "\u{1}55771"` (19 bytes) more would pass the limit.
        #expect(longest <= 1 << 20 && longest + 19 > 1 << 20, "\(longest)")
    }
}
