import Foundation
import Testing

@testable import CarfabCLI

#if canImport(Glibc)
import Glibc
#endif

/// Defects a new user met (issue 13), each as they met it.
@Suite struct NewUserTests {
    @Test func a_model_whose_cars_could_cost_below_zero_is_refused_at_its_price() throws {
        // Its lowest price counts the $0 front drivetrain, which a rule keeps off a short
        // floorplan: the bound is exact without the rules, so no later change meets a car below zero.
        let result = try carfab([
            "-e",
            """
            model budget "Budget" price 1000 floorplan short suspension road drivetrain rear
            car budget
            """
        ])
        #expect(
            result.stderr == """
                <command-line>:1:29: error: 'budget' with front drivetrain would cost -$500.00: a price cannot be below zero
                model budget "Budget" price 1000 floorplan short suspension road drivetrain rear
                                            ^~~~

                """)
        #expect(result.status == 1 && result.stdout == "")
        // The brief's example: the model is refused at its price, and nothing is registered.
        let cheap = try carfab(["-e", "model cheap \"Cheap\" price 0 floorplan standard suspension road drivetrain 4wd; car cheap"])
        #expect(
            cheap.stderr.hasPrefix(
                """
                <command-line>:1:27: error: 'cheap' with short floorplan, front drivetrain would cost -$6,000.00: a price cannot be below zero
                """))
        #expect(cheap.status == 1 && cheap.stdout == "")
    }

    @Test func minus_i_after_a_failed_script_reads_the_rest_and_keeps_the_failure() throws {
        let result = try carfab(["-e", "car sprots", "-i"], stdin: "echo the rest runs\n")
        #expect(result.stdout == "the rest runs\n")
        #expect(result.stderr.hasPrefix("<command-line>:1:5: error: unknown model 'sprots'"))
        #expect(result.status == 1)
    }

    @Test(arguments: [
        ("rate GBP 0", "<command-line>:1:10: error: rate '0' is not a positive decimal"),
        ("rate usd 2", "<command-line>:1:6: error: USD is the base currency; its rate is always 1"),
        ("rate GBP 1.000000000000000000001", "<command-line>:1:10: error: '1.000000000000000000001' has more than 12 decimal places"),
        ("rate GBP 99999999999999999999", "<command-line>:1:10: error: '99999999999999999999' is too large"),
        ("currency CHF \"x\" digits 7 rate 1", "<command-line>:1:25: error: minor digits must be from 0 to 4, not 7"),
        ("option drivetrain x \"X\" price 0.001", "<command-line>:1:31: error: '0.001' has more than 2 decimal places"),
        ("exit 256", "<command-line>:1:6: error: an exit status must be from 0 to 255, not 256")
    ])
    func check_finds_the_value_errors_that_running_finds(line: String, message: String) throws {
        let checked = try carfab(["--check", "-e", line])
        let run = try carfab(["-e", line])
        #expect(checked.stderr.hasPrefix(message + "\n"), "\(checked.stderr)")
        #expect(checked.stderr == run.stderr && checked.status == 1 && run.status == 1)
    }

    @Test func expect_reads_currency_and_value_as_meant() throws {
        let missing = try carfab(["-e", "car sports; expect price GBP"])
        #expect(missing.stderr.hasPrefix("<command-line>:1:29: error: missing VALUE; usage: expect FIELD [CURRENCY] VALUE...\n"))
        let typed = try carfab([
            "-e",
            """
            model eb "EUR Boxster" price 50000 floorplan short suspension race drivetrain rear
            car eb 3; expect type EUR Boxster; expect count 03; expect seats 02; expect price EUR 46000
            """
        ])
        #expect(typed == RunResult(stdout: "", stderr: "", status: 0))
        let wrong = try carfab(["-e", "car suv; expect count 2"])
        #expect(wrong.stderr.hasPrefix("<command-line>:1:23: error: expected count 2, got 1\n"))
    }

    @Test func several_command_line_texts_are_told_apart() throws {
        let result = try carfab(["-e", "car suv", "-e", "echo fine", "-e", "car sprots"])
        #expect(result.stderr.hasPrefix("<command-line 3>:1:5: error: unknown model 'sprots'"))
        let json = try carfab(["--format", "json", "-e", "car suv", "-e", "car sprots"])
        #expect(json.stderr.hasPrefix("{\"type\":\"error\",\"id\":\"unknown-model\",\"severity\":\"error\",\"file\":\"<command-line 2>\""))
        #expect(try carfab(["-e", "car sprots"]).stderr.hasPrefix("<command-line>:1:5:"))
    }

    @Test func exit_takes_a_status() throws {
        #expect(try carfab(["-e", "echo a; exit 2; echo b"]) == RunResult(stdout: "a\n", stderr: "", status: 2))
        #expect(try carfab([], stdin: "quit 0\n") == RunResult(stdout: "", stderr: "", status: 0))
        // A failed command makes the status 1 even if `exit 0` follows; another status wins.
        #expect(try carfab(["--keep-going", "-e", "car sprots; exit 0; echo b"]).status == 1)
        #expect(try carfab(["--keep-going", "-e", "car sprots; exit"]).status == 1)
        #expect(try carfab(["--keep-going", "-e", "car sprots; exit 3"]).status == 3)
        #expect(try carfab(["--keep-going", "-e", "car suv; exit 0"]).status == 0)
    }

    @Test func messages_read_as_english() throws {
        let rule = try carfab(["-e", "forbid drivetrain front with suspension offroad; car suv; set drivetrain front"])
        #expect(rule.stderr.hasPrefix("<command-line>:1:74: error: front drivetrain cannot go with the offroad suspension\n"))
        let lines = try carfab(["-e", "car suv; car suv; select 3"])
        #expect(lines.stderr.hasPrefix("<command-line>:1:26: error: no stock line 3: there are 2 lines\n"))
    }

    @Test func a_missing_file_is_named_in_json() throws {
        let result = try carfab(["--format", "json", "no-such.carfab"])
        #expect(
            result.stderr == """
                {"type":"error","id":"unreadable-file","severity":"error","file":"no-such.carfab","line":0,"column":0,"end_column":0,"message":"cannot open 'no-such.carfab': No such file or directory","source":"","source_column":0,"included_from":[],"notes":[],"fixits":[]}

                """)
    }

    @Test func help_lists_the_exit_statuses_of_signals() throws {
        let help = try carfab(["--help"]).stdout
        #expect(help.contains("129, 130, 131, 143 stopped by SIGHUP, SIGINT, SIGQUIT,\n  SIGTERM") || help.contains("131"))
        #expect(help.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    @Test func save_writes_a_currency_defined_in_the_session_once() throws {
        let result = try carfab(["-e", "currency CHF \"CHF \" digits 2 rate 0.88; save -"])
        #expect(result.stdout == "# carfab session, saved by carfab 0.1.0\ncurrency CHF \"CHF \" digits 2 rate 0.88\n")
        let changed = try carfab(["-e", "currency CHF \"CHF \" digits 2 rate 0.88; rate chf 0.9; save -"])
        #expect(changed.stdout.hasSuffix("rate 0.88\nrate CHF 0.9\n"))
    }
}
