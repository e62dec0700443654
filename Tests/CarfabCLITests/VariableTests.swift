import Foundation
import Testing

@testable import CarScript
@testable import CarfabCLI

/// Variables: `var`, `--var`, `$NAME` and `${NAME}` in every kind of argument, expanded
/// when each command runs, and what `save`, `--check` and completion make of them.
@Suite struct VariableTests {
    @Test func a_variable_stands_for_any_argument() throws {
        let directory = try temporaryDirectory(with: ["part.carfab": "car $model $count\n"])
        let script = """
            var model suv; var count 2; var family drivetrain; var option rear; var cur GBP; var line 1
            var field count; var n 3; var file "\(directory.path)/part.carfab"; var cmd total
            source $file
            set $family $option; price $cur; total ${cur}; $cmd EUR
            expect $field 2; select $line; show
            car compact $n; expect $field ${n}5
            """
        let run = try carfab(["-e", script])
        #expect(
            run.stdout == """
                £47,905.36
                2 Cars in Stock. Total Value: £95,810.71
                2 Cars in Stock. Total Value: €146,086.80
                Car type: Cadillac Escalade
                Seats: 8
                Engine: Front
                Suspension: Soft
                Drive: Rear
                Price: $79,395.00

                """, "\(run)")
        #expect(
            run.stderr == """
                <command-line>:6:31: error: expected count 35, got 5
                car compact $n; expect $field ${n}5
                                              ^~~~~

                """)
        #expect(run.status == 1)
    }

    @Test func definitions_rates_help_and_exit_take_variables() throws {
        let script = """
            var name hybrid; var shown "Hybrid AWD"; var amount 6500.50; var code CHF; var rate 0.88; var digits 2
            option drivetrain $name $shown price $amount
            currency $code "Fr. " digits $digits rate $rate
            rate $code 0.9; forbid drivetrain $name with floorplan short
            var topic car; help $topic; total $code
            car sports; set drivetrain $name
            """
        let run = try carfab(["-e", script])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("<command-line>:6:28: error: hybrid drivetrain cannot go with the short floorplan"), "\(run)")
        #expect(run.stdout.contains("usage: car MODEL [COUNT]") && run.stdout.hasSuffix("0 Cars in Stock. Total Value: Fr. 0.00\n"))
        #expect(try carfab(["-e", "var status 7; exit $status"]).status == 7)
    }

    @Test func each_command_sees_the_values_set_before_it_on_its_line() throws {
        let run = try carfab(["-e", "var x 1; echo $x; var x 2; echo \"[$x]\" ${x}y; var x \"a b\"; echo $x|"])
        #expect(run.stdout == "1\n[2] 2y\na b|\n")
        #expect(run.status == 0)
    }

    @Test func a_dollar_that_begins_no_name_is_a_dollar_sign() throws {
        let run = try carfab(["-e", "car sports; expect price $68,300.00; echo $5 \\$x \"\\$y $\" $"])
        #expect(run.stdout == "$5 $x $y $ $\n", "\(run)")
        #expect(run.status == 0)
    }

    @Test(arguments: [
        ("echo $nope", "<command-line>:1:6: error: unknown variable 'nope'\necho $nope\n     ^~~~~\n"),
        (
            "var colour red; echo ${color}",
            "<command-line>:1:22: error: unknown variable 'color'; did you mean '${colour}'?\nvar colour red; echo ${color}\n                     ^~~~~~~~\n"
        ),
        (
            "echo ${a-b}",
            "<command-line>:1:6: error: 'a-b' is not a variable name (ASCII letters, digits and '_', not starting with a digit)\necho ${a-b}\n     ^~~~~~\n"
        ),
        (
            "echo ${}",
            "<command-line>:1:6: error: '' is not a variable name (ASCII letters, digits and '_', not starting with a digit)\necho ${}\n     ^~~\n"
        ),
        ("echo ${ab", "<command-line>:1:6: error: '${' without a closing '}'\necho ${ab\n     ^~\n"),
        (
            "var 1x 2",
            "<command-line>:1:5: error: '1x' is not a variable name (ASCII letters, digits and '_', not starting with a digit)\nvar 1x 2\n    ^~\n"
        ),
        (
            "car sports; var m nosuch; car $m",
            "<command-line>:1:31: error: unknown model 'nosuch'; valid models: compact, sports, suv\ncar sports; var m nosuch; car $m\n                              ^~\n"
        )
    ])
    func bad_references_are_errors_at_their_place(line: String, message: String) throws {
        let run = try carfab(["-e", line])
        #expect(run.stderr == message)
        #expect(run.status == 1)
    }

    @Test func command_line_variables_are_set_first_and_checked() throws {
        let run = try carfab(["--var", "model=suv", "--var=n=2", "-e", "car $model $n; vars"])
        #expect(run.stdout == "name   value\nmodel  suv\nn      2\n")
        let empty = try carfab(["-e", "vars"])
        #expect(empty.stdout == "No variables are set.\n")
        let bad = try carfab(["--var", "x-y=1", "-e", "vars"])
        #expect(bad.status == 64 && bad.stderr.hasPrefix("carfab: error: 'x-y' is not a variable name"))
    }

    @Test func check_expands_variables_and_save_replays_them() throws {
        let check = try carfab(["--check", "-e", "var m suv; car $m; car $other"])
        #expect(check.stderr.hasPrefix("<command-line>:1:24: error: unknown variable 'other'"), "\(check)")
        let saved = try carfab(["--var", "price=$5 a \"b\"", "-e", "var m suv; car $m 2; save -"])
        #expect(
            saved.stdout == """
                # carfab session, saved by carfab \(Engine.version)
                var price "\\$5 a \\"b\\""
                var m suv
                car suv 2

                """)
        // Replayed, it makes the same variables.
        let replayed = try carfab(["-e", saved.stdout + "vars"])
        #expect(replayed.stdout == "name   value\nprice  $5 a \"b\"\nm      suv\n")
    }

    @Test func completion_offers_variables_after_a_dollar() {
        let completer = Completer(commands: .standard, catalog: Engine.builtInCatalog, variables: ["model", "mode", "count"])
        #expect(completer.complete("car $mo").candidates == ["$model", "$mode"])
        #expect(completer.complete("car $mo").replacement == "$mode")
        #expect(completer.complete("car ${c").candidates == ["${count}"])
        #expect(completer.complete("car ${c").replacement == "${count}")
        #expect(completer.complete("echo \"x $").candidates == ["$model", "$mode", "$count"])
        #expect(completer.complete("echo \\$mo").candidates.isEmpty)
        #expect(completer.complete("var mo").candidates == ["model", "mode"])
    }

    @Test func a_failed_command_leaves_no_references_behind() throws {
        // Each of these once applied a failed line's references to the next line's words.
        let cases: [(String, String)] = [
            ("var m 1\necho $m $nope\necho [$m] x\n", "[1] x\n"),
            ("var a 1\necho $a \"\\q\necho hello world\n", "hello world\n"),
            ("var abc 1\necho x $nope\necho [$abc]\n", "[1]\n"),
            ("var a 1\necho x \\\n $nope\necho \"m $a\"\n", "m 1\n"),
            ("var a 1\necho $nope\necho [$a]\necho x\ncar suv; show 1\n", "[1]\nx\n")
        ]
        for (script, expected) in cases {
            let run = try carfab(["--keep-going"], stdin: script)
            #expect(run.stdout.hasPrefix(expected), "\(script.debugDescription): \(run)")
            #expect(run.status == 1)
        }
    }

    @Test func values_that_grow_without_end_are_stopped_at_a_mebibyte() throws {
        let script = "var v 0123456789\n" + String(repeating: "var v $v$v$v$v\n", count: 15)
        let run = try carfab([], stdin: script)
        #expect(run.stderr.hasPrefix("<stdin>:10:9: error: a word longer than 1 MiB once its variables are put in"), "\(run)")
        #expect(run.status == 1)
        let long = try carfab(["--var", "v=" + String(repeating: "x", count: (1 << 20) + 1), "-e", "vars"])
        #expect(long.status == 64 && long.stderr.hasPrefix("carfab: error: the value of --var v is longer than 1 MiB"))
    }

    @Test func the_fix_it_for_an_unknown_variable_replaces_the_whole_reference() throws {
        let run = try carfab(["--format", "json", "-e", "var model 1; echo ${mdoel}x $modl"])
        #expect(run.stderr.contains(#""message":"unknown variable 'mdoel'; did you mean '${model}'?""#), "\(run)")
        #expect(run.stderr.contains(#""fixits":[{"column":19,"end_column":27,"replacement":"${model}"}]"#))
    }

    @Test func save_quotes_every_blank_the_lexer_knows_and_vars_shows_controls_escaped() throws {
        let saved = try carfab(["--var", "a=x\u{0C}y", "--var", "b=p\u{0B}q", "-e", "save -"])
        // Form feed and vertical tab are blanks to the lexer, and controls: quoted, and written as escapes.
        #expect(saved.stdout.contains("var a \"x\\u{C}y\"\nvar b \"p\\u{B}q\"\n"), "\(saved)")
        let replayed = try carfab(["-e", saved.stdout + "expect count 0; save -"])
        #expect(replayed.stdout == saved.stdout && replayed.status == 0, "\(replayed)")
        let shown = try carfab(["-e", "var e \"\u{1B}[2J\\nrow\"; vars"])
        #expect(shown.stdout == "name  value\ne     \\e[2J\\nrow\n", "\(shown)")
    }
}
