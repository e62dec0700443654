import Foundation
import Testing

@testable import CarfabCLI

/// The program as a user runs it: -e, files, stdin, exit statuses, whole outputs.
@Suite struct ProgramTests {
    @Test func the_example_at_the_top_of_the_brief() throws {
        let result = try carfab(["-e", "car sports; set drivetrain 4wd; show; total GBP"])
        #expect(result == RunResult(stdout: briefExample, stderr: "", status: 0))
    }

    @Test func two_suvs_in_pounds() throws {
        #expect(
            try carfab(["-e", "car suv 2; total GBP"])
                == RunResult(stdout: "2 Cars in Stock. Total Value: £98,827.61\n", stderr: "", status: 0))
    }

    @Test func worked_prices_in_every_currency() throws {
        let result = try carfab(["-e", "car sports; set drivetrain 4wd", "-e", "price; price GBP; price eur; price JPY"])
        #expect(result == RunResult(stdout: "$70,800.00\n£42,719.30\n€65,136.00\n¥10,726,200\n", stderr: "", status: 0))
    }

    @Test func repeated_e_texts_share_one_session() throws {
        let result = try carfab(["-e", "car suv", "-e", "car compact 2", "-e", "total"])
        #expect(result == RunResult(stdout: "3 Cars in Stock. Total Value: $137,885.00\n", stderr: "", status: 0))
    }

    @Test func piped_standard_input_runs_as_a_script_without_prompt() throws {
        let result = try carfab([], stdin: "car sports\nset drivetrain 4wd\nshow\ntotal GBP\n")
        #expect(result == RunResult(stdout: briefExample, stderr: "", status: 0))
    }

    @Test func output_before_an_error_is_kept_in_order() throws {
        let result = try carfab(["-e", "echo before; car sprots; echo after"])
        #expect(
            result
                == RunResult(
                    stdout: "before\n",
                    stderr: """
                        <command-line>:1:18: error: unknown model 'sprots'; did you mean 'sports'?
                        echo before; car sprots; echo after
                                         ^~~~~~

                        """, status: 1))
    }

    @Test func stdin_errors_are_named_stdin_with_the_line_number() throws {
        let result = try carfab([], stdin: "car suv\n\n  set  suspension race\n")
        #expect(
            result
                == RunResult(
                    stdout: "",
                    stderr: """
                        <stdin>:3:19: error: race suspension cannot go with the long floorplan
                          set  suspension race
                                          ^~~~
                        note: the rule 'forbid suspension race with floorplan long' is part of the built-in catalog
                        note: suspension options allowed for this car: road (-$1,800.00)
                        note: 'fit suspension race' would also set floorplan short (-$5,900.00)

                        """, status: 1))
    }

    @Test func a_rejected_change_leaves_the_car_as_it_was() throws {
        let result = try carfab(["--keep-going", "-e", "car suv; set suspension race; show"])
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                Car type: Cadillac Escalade
                Seats: 8
                Engine: Front
                Suspension: Soft
                Drive: 4WD
                Price: $81,895.00

                """)
    }

    @Test func keep_going_reports_every_error_and_still_fails() throws {
        let result = try carfab(["--keep-going", "-e", "car x; car suv\ntotal; cra"])
        #expect(result.stdout == "1 Car in Stock. Total Value: $81,895.00\n")
        #expect(result.stderr.components(separatedBy: "error:").count == 3)
        #expect(result.status == 1)
    }

    @Test func check_resolves_names_but_runs_nothing() throws {
        #expect(try carfab(["--check", "-e", "car sports; show; echo hi; total GBP"]) == RunResult(stdout: "", stderr: "", status: 0))
        let bad = try carfab(["--check", "-e", "car sports; set drivetrain hover"])
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("<command-line>:1:28: error: unknown drivetrain option 'hover'"))
    }

    @Test func quit_stops_reading_and_exit_is_the_same() throws {
        #expect(try carfab(["-e", "echo a; quit; echo b", "-e", "echo c"]) == RunResult(stdout: "a\n", stderr: "", status: 0))
        #expect(try carfab([], stdin: "echo a\nexit\necho b\n") == RunResult(stdout: "a\n", stderr: "", status: 0))
    }

    @Test func a_missing_file_is_an_error() throws {
        #expect(
            try carfab(["no-such.carfab"])
                == RunResult(stdout: "", stderr: "carfab: error: cannot open 'no-such.carfab': No such file or directory\n", status: 1))
    }

    @Test func usage_errors_exit_64() throws {
        for arguments in [["--bogus"], ["-e"], ["--format", "xml"], ["--check=yes"]] {
            let result = try carfab(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.hasPrefix("carfab: error: "), "\(arguments)")
            #expect(result.stdout.isEmpty)
        }
        #expect(try carfab(["--chek"]).stderr.hasPrefix("carfab: error: unknown option '--chek'; did you mean '--check'?\n"))
    }

    @Test func help_and_version() throws {
        let help = try carfab(["--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("carfab: a scriptable car-factory shell\n") && help.stderr.isEmpty)
        #expect(try carfab(["--version"]) == RunResult(stdout: "carfab 0.1.0\n", stderr: "", status: 0))
    }

    @Test func json_gives_one_object_per_result_and_error() throws {
        let result = try carfab(["--format", "json", "-e", "car suv 2; total GBP; car sprots"])
        #expect(
            result.stdout == """
                {"type":"result","command":"total","count":2,"value":{"currency":"GBP","minor_units":9882761,"amount":"98827.61","formatted":"£98,827.61"}}

                """)
        #expect(
            result.stderr == """
                {"type":"error","id":"unknown-model","severity":"error","file":"<command-line>","line":1,"column":27,"end_column":33,"message":"unknown model 'sprots'; did you mean 'sports'?","source":"car suv 2; total GBP; car sprots","source_column":1,"included_from":[],"notes":[],"fixits":[{"column":27,"end_column":33,"replacement":"sports"}]}

                """)
        #expect(result.status == 1)
    }

    @Test func the_language_lexes_quotes_comments_and_continuations() throws {
        let script = "echo \"a;b\" c   # not printed\necho \"tab\\there\" \\\n  \"quote\\\" and \\\\\" ;; ;\necho \"two\nlines\"\n"
        #expect(try carfab([], stdin: script) == RunResult(stdout: "a;b c\ntab\there quote\" and \\\ntwo\nlines\n", stderr: "", status: 0))
    }

    @Test func names_are_case_insensitive() throws {
        #expect(try carfab(["-e", "CAR Sports; SET DriveTrain AWD; Total gbp"]).stdout == "1 Car in Stock. Total Value: £42,719.30\n")
    }

    @Test func invalid_utf8_and_nul_bytes_are_positioned_errors() throws {
        let bad = try carfab([], stdinData: Data("echo ok\necho a\u{FF}b\n".utf8.map { $0 == 0xC3 ? 0xFF : $0 }.filter { $0 != 0xBF }))
        #expect(bad.stdout == "ok\n")
        #expect(bad.stderr.hasPrefix("<stdin>:2:7: error: invalid UTF-8 (byte 0xFF)\n"))
        #expect(bad.status == 1)
        let nul = try carfab([], stdinData: Data([0x65, 0x63, 0x68, 0x6F, 0x20, 0x00, 0x0A]))
        #expect(nul.stderr.hasPrefix("<stdin>:1:6: error: NUL byte in input\n"))
        #expect(nul.status == 1)
    }

}
