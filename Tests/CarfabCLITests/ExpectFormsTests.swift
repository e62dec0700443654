import Testing

/// `expect line N ...` and `expect error ID COMMAND...` (issue 20, "Missed most"): a test can
/// check any stock line, and that a command fails the way it should.
@Suite struct ExpectFormsTests {
    @Test func a_stock_line_is_checked_by_its_number() throws {
        let run = try carfab([
            "-e",
            """
            car sports; car suv 2; select 1
            expect line 2 drive 4WD; expect line 2 count 2; expect line 2 total GBP 98,827.61
            expect line 1 price 68,300.00; expect line 2 type "Cadillac Escalade"; expect count 3
            """
        ])
        #expect(run == RunResult(stdout: "", stderr: "", status: 0))
    }

    @Test func a_line_expectation_that_fails_names_the_line() throws {
        let run = try carfab(["-e", "car sports; car suv; expect line 1 seats 4"])
        #expect(
            run
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:42: error: expected line 1 seats 4, got 2
                        car sports; car suv; expect line 1 seats 4
                                                                 ^

                        """, status: 1))
    }

    @Test(arguments: [
        ("car sports; expect line 2 drive Rear", "1:25: error: no stock line 2: there is 1 line"),
        ("car sports; expect line x drive Rear", "1:25: error: 'x' is not a line number (a whole number from 1)"),
        ("car sports; expect line 1 colour red", "1:27: error: unknown field 'colour'"),
        ("car sports; expect line 1 seats", "1:32: error: missing a VALUE; usage: expect line N FIELD [CURRENCY] VALUE")
    ])
    func a_bad_line_expectation_is_an_error_at_its_word(line: String, error: String) throws {
        let run = try carfab(["-e", line])
        #expect(run.status == 1 && run.stderr.hasPrefix("<command-line>:" + error), "\(run)")
    }

    @Test func an_expected_error_is_not_reported_and_changes_nothing() throws {
        let run = try carfab([
            "-e",
            """
            car sports
            expect error rule-violation set drivetrain front
            expect error unknown-model car sprots
            expect error not-a-count car suv 0
            expect count 1; expect drive Rear; echo fine
            """
        ])
        #expect(run == RunResult(stdout: "fine\n", stderr: "", status: 0))
    }

    @Test func a_command_that_succeeds_or_fails_otherwise_fails_the_expectation() throws {
        let run = try carfab(["--keep-going", "-e", "expect error unknown-model car suv; expect error rule-violation car sprots"])
        #expect(
            run
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:14: error: expected error unknown-model, got no error: the command ran
                        expect error unknown-model car suv; expect error rule-violation car sprots
                                     ^~~~~~~~~~~~~~~~~~~~~
                        <command-line>:1:50: error: expected error rule-violation, got unknown-model: unknown model 'sprots'; did you mean 'sports'?
                        expect error unknown-model car suv; expect error rule-violation car sprots
                                                                         ^~~~~~~~~~~~~~~~~~~~~~~~~

                        """, status: 1))
    }

    @Test func the_test_runner_counts_each_form() throws {
        let dir = try temporaryDirectory(with: ["t.carfab": "car suv; expect line 1 count 1; expect error unknown-model car x\n"])
        let run = try carfab(["--test", dir.path])
        #expect(run.stdout == "ok \(dir.path)/t.carfab (2 expects)\n1 passed, 0 failed\n", "\(run)")
    }

    /// `expect error ID COMMAND` is one expectation whatever COMMAND is: an `expect` held in it
    /// (however deep) is not counted again (trial 3, finding 15: it counted 2).
    @Test func an_expect_held_by_expect_error_is_one_expectation() throws {
        let dir = try temporaryDirectory(with: [
            "t.carfab": "car suv\nexpect error expectation-failed expect count 2\n"
                + "expect error expectation-failed expect error x expect count 1\n"
        ])
        let run = try carfab(["--test", dir.path + "/t.carfab"])
        #expect(run.stdout == "ok \(dir.path)/t.carfab (2 expects)\n1 passed, 0 failed\n", "\(run)")
    }

    @Test func completion_and_help_offer_the_forms() throws {
        let help = try carfab(["-e", "help expect"])
        #expect(help.stdout.contains("expect line N FIELD") && help.stdout.contains("expect error ID COMMAND"), "\(help)")
    }
}
