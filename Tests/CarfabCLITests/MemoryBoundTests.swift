import Foundation
import Testing

@testable import CarScript
@testable import CarfabCLI

/// Expansion bombs: a few lines that once made gigabytes from one long variable. Each bound
/// (a line's expanded words, a word, the variables in all, a definition's names) is an error
/// at the reference or word that passes it, made before the memory is taken, and changes
/// nothing; `--keep-going` goes on after it.
@Suite struct MemoryBoundTests {
    /// 20 lines that make `a` 512 KiB of `x` (doubled 19 times).
    static let bomb = "var a x\n" + String(repeating: "var a $a$a\n", count: 19)
    static let half = String(repeating: "x", count: 1 << 19)

    @Test func a_line_expands_to_at_most_a_mebibyte_in_all() throws {
        // Two 512 KiB words fit the budget exactly; the third passes it, at its `$`.
        let script = Self.bomb + "echo $a $a $a; echo same line\necho next line\n"
        let stopped = try carfab([], stdin: script)
        #expect(
            stopped
                == RunResult(
                    stdout: "",
                    stderr: """
                        <stdin>:21:12: error: the words of this line grow past 1 MiB in all once their variables are put in
                        echo $a $a $a; echo same line
                                   ^~

                        """, status: 1))
        let going = try carfab(["--keep-going"], stdin: script + "echo $a $a\n")
        #expect(going.stdout == "same line\nnext line\n\(Self.half) \(Self.half)\n", "\(going.stderr)")
        #expect(going.status == 1)
        // Commands of one line share the budget.
        let shared = try carfab(["--keep-going"], stdin: Self.bomb + "echo $a; echo $a; echo $a $a\n")
        #expect(shared.stdout == "\(Self.half)\n\(Self.half)\n")
        #expect(shared.stderr.hasPrefix("<stdin>:21:24: error: the words of this line grow past 1 MiB"), "\(shared.stderr)")
    }

    @Test func a_thousand_references_stop_at_the_budget() throws {
        let script = Self.bomb + "echo" + String(repeating: " $a", count: 1000) + "\n"
        let run = try carfab(["--format", "json"], stdin: script)
        let errors = try jsonObjects(run.stderr).map(\.value)
        #expect(run.stdout.isEmpty && run.status == 1)
        #expect(errors.count == 1)
        #expect(errors.first?["id"] as? String == "line-expansion-too-long")
        #expect(errors.first?["line"] as? Int == 21 && errors.first?["column"] as? Int == 12)
    }

    @Test func a_word_counts_the_text_after_its_last_reference() throws {
        let script = Self.bomb + "var b \"${a}${a}\"\nvar c \"${a}${a}x\"\nvars\n"
        let run = try carfab(["--format", "json", "--keep-going"], stdin: script)
        let errors = try jsonObjects(run.stderr).map(\.value)
        #expect(errors.count == 1)
        #expect(errors.first?["id"] as? String == "expansion-too-long")
        #expect(errors.first?["line"] as? Int == 22)
        #expect(errors.first?["column"] as? Int == 12 && errors.first?["end_column"] as? Int == 16)
        // b, exactly 1 MiB, is set; c is not.
        let rows = try jsonObjects(run.stdout).last?.value["rows"] as? [[String: Any]]
        #expect(rows?.map { $0["name"] as? String } == ["a", "b"])
        #expect((rows?.last?["value"] as? String)?.utf8.count == 1 << 20)
    }

    @Test func words_past_a_commands_arguments_are_never_made() throws {
        // `x` is one word too many: it is refused before `$a$a$a` (1.5 MiB) is made.
        let run = try carfab([], stdin: Self.bomb + "car sports 1 x $a$a$a $a$a$a\n")
        #expect(
            run.stderr == """
                <stdin>:21:14: error: unexpected argument 'x'; usage: car MODEL [COUNT]
                car sports 1 x $a$a$a $a$a$a
                             ^

                """)
        // A thousand long words cost no more than the two `car` takes: its error is the one it always gave.
        let many = try carfab([], stdin: Self.bomb + "car" + String(repeating: " $a", count: 1000) + "\n")
        #expect(
            many.stderr.hasPrefix("<stdin>:21:5: error: unknown model '\(String(repeating: "x", count: 60))...'"),
            "\(many.stderr.prefix(200))")
        #expect(many.status == 1)
    }

    @Test(arguments: [
        // What a command reports is what it reported when every word was made.
        ("var m nosuch; car $m 1 2", "1:19: error: unknown model 'nosuch'; valid models: compact, sports, suv"),
        ("var c 2; car sports 1 $c", "1:23: error: unexpected argument '2'; usage: car MODEL [COUNT]"),
        ("var c 2; car sports 1 ${c}x $c", "1:23: error: unexpected argument '2x'; usage: car MODEL [COUNT]"),
        ("var c 2; car sports 1 x $nope", "1:25: error: unknown variable 'nope'; valid variables: c"),
        ("var c 2; cra $c $nope", "1:17: error: unknown variable 'nope'; valid variables: c"),
        ("var c cra; $c 1 2", "1:12: error: unknown command 'cra'; did you mean 'car'?"),
        ("var c 2; clear $c", "1:16: error: unexpected argument '2'; usage: clear")
    ])
    func errors_of_commands_with_too_many_words_are_unchanged(script: String, message: String) throws {
        let run = try carfab(["-e", script])
        #expect(run.stderr.hasPrefix("<command-line>:" + message), "\(run)")
        #expect(run.status == 1)
    }

    @Test func variables_hold_at_most_sixteen_mebibytes() throws {
        // `a` and 30 more fit (31 x 512 KiB and their names); the 31st is refused, at its value.
        var script = Self.bomb
        for index in 0..<40 { script += "var v\(index) $a\n" }
        script += "var v0 $a$a\nvar v1 short\nvar v30 $a\necho ${v0}\n"
        let run = try carfab(["--keep-going", "--format", "json"], stdin: script)
        let errors = try jsonObjects(run.stderr).map(\.value)
        #expect(errors.map { $0["id"] as? String } == Array(repeating: "variables-too-large", count: 11))
        #expect(errors.map { $0["line"] as? Int } == Array(51...61))
        #expect(errors.first?["column"] as? Int == 9)
        #expect(
            errors.first?["message"] as? String
                == "the variables would hold more than 16 MiB in all (names and values, and 128 bytes each); the variable is left as it was"
        )
        // v0 keeps its value; shortening v1 makes room for v30.
        let results = try jsonObjects(run.stdout).map(\.value)
        #expect(results.last?["text"] as? String == Self.half)
        #expect(run.status == 1)
        let stopped = try carfab([], stdin: script)
        #expect(stopped.stderr.hasPrefix("<stdin>:51:9: error: the variables would hold more than 16 MiB"))
        #expect(stopped.stdout.isEmpty && stopped.status == 1)
    }

    @Test func the_engine_and_the_command_line_keep_to_the_same_bounds() throws {
        let engine = Engine()
        let mebibyte = String(repeating: "y", count: 1 << 20)
        #expect(!engine.setVariable("long", to: mebibyte + "y"))
        for index in 0..<15 { #expect(engine.setVariable("v\(index)", to: mebibyte)) }
        #expect(!engine.setVariable("v15", to: mebibyte))
        #expect(engine.setVariable("v14", to: "small"))
        #expect(engine.setVariable("v15", to: mebibyte))
        #expect(engine.variables.count == 16 && engine.variables.last?.name == "v15")
        let arguments = (0..<17).flatMap { ["--var", "v\($0)=" + mebibyte] }
        let run = try carfab(arguments + ["-e", "vars"])
        #expect(
            run
                == RunResult(
                    stdout: "",
                    stderr: """
                        carfab: error: the --var names and values hold more than 16 MiB in all (and 128 bytes each)
                        usage: carfab [OPTIONS] [FILE...] (see 'carfab --help')

                        """, status: 64))
        // The command line's variables are set again after the init file, which may have left no room for them.
        let initFile = "var big x\n" + Self.bomb + (0..<30).map { "var v\($0) $a\n" }.joined()
        let directory = try temporaryDirectory(with: ["init.carfab": initFile])
        let late = try carfab([
            "--init", directory.appendingPathComponent("init.carfab").path, "--var", "big=" + mebibyte,
            "-e", "echo never"
        ])
        #expect(
            late
                == RunResult(
                    stdout: "",
                    stderr: """
                        carfab: error: --var big: the variables would hold more than 16 MiB in all (and 128 bytes each)

                        """, status: 1))
    }

    @Test func a_definitions_names_and_texts_take_at_most_four_kibibytes_as_saved() throws {
        // A bare name is written as itself, a text in quotes: `$s`, 4,094 bytes and the quotes.
        let most = String(repeating: "n", count: 1 << 12)
        let script = """
            var n \(most); var t x$n; var s \(most.dropFirst(2))
            model m$n "M" price 9000 floorplan short suspension race drivetrain rear
            model $n "$t" price 9000 floorplan short suspension race drivetrain rear
            option drivetrain o$n "O" price 0
            option drivetrain o "O$n" price 0
            option drivetrain o "O" price 0 alias a$n
            currency CHF "$t" digits 2 rate 0.88
            model $n "$s" price 9000 floorplan short suspension race drivetrain rear
            option drivetrain o "$s" price 0 alias $n
            currency CHF "$s" digits 2 rate 0.88
            models
            """
        let run = try carfab(["--keep-going", "--format", "json", "-e", script])
        let errors = try jsonObjects(run.stderr).map(\.value)
        #expect(errors.map { $0["id"] as? String } == Array(repeating: "name-too-long", count: 6), "\(run.stderr.prefix(300))")
        #expect(errors.map { $0["line"] as? Int } == [2, 3, 4, 5, 6, 7])
        #expect(errors.map { $0["column"] as? Int } == [7, 10, 19, 21, 39, 14])
        #expect(
            errors.first?["message"] as? String
                == "a name or text longer than 4 KiB (4096 bytes) as save writes it (quotes and escapes counted: \\u{1} is 5 bytes for one character)"
        )
        // Only the definitions within the bound are made.
        let models = try jsonObjects(run.stdout).last?.value["rows"] as? [[String: Any]]
        #expect(models?.map { ($0["model"] as? String)?.utf8.count } == [7, 6, 3, 1 << 12])
    }
}
