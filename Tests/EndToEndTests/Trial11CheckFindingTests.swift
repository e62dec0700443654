import Foundation
import Testing

/// Trial 11's findings 5 and 7, as a user meets them: standard output, standard error and the
/// status, whole, of `--check` beside the run's.
@Suite struct Trial11CheckFindingTests {
    static let model =
        "expect error duplicate-model model roadster \"R\" price 40000 floorplan short suspension race drivetrain rear\n"
        + "car roadster\n"
    static let goingOn =
        "car sports\nexpect error rule-violation var model suv\ncar $model\nexpect error io save kept.carfab\nclear\nsource kept.carfab\nexpect error no-current-car begin\nundo\n"

    /// Finding 5: the check follows definitions, so it knows `model roadster` succeeds: the
    /// expectation fails there, as running it does, and the line the run never reaches is not
    /// checked (the check passed line 1 and blamed line 2 for an unknown model).
    @Test func a_command_the_check_follows_fails_the_expectation_where_the_run_does() throws {
        let dir = try temporaryDirectory(with: ["m.carfab": Self.model])
        let run = RunResult(
            stdout: "",
            stderr: """
                m.carfab:1:14: error: expected error duplicate-model, got no error: the command ran
                expect error duplicate-model model roadster "R" price...
                             ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~

                """, status: 1)
        #expect(try carfab(["m.carfab"], directory: dir) == run)
        #expect(try carfab(["--check", "m.carfab"], directory: dir) == run)
    }

    /// With `--keep-going` the check reported three errors the run never gives (an unknown
    /// variable `var` set, a missing file an `expect error`'s `save` wrote, no undo history
    /// where `begin` opened one). Now it reports the run's errors but the one it cannot know
    /// (whether the `save` succeeds), whose file it then passes over as one the script saved.
    @Test func going_on_the_check_reports_no_error_the_run_does_not_give() throws {
        let dir = try temporaryDirectory(with: ["k.carfab": Self.goingOn])
        let variable = """
            k.carfab:2:14: error: expected error rule-violation, got no error: the command ran
            expect error rule-violation var model suv
                         ^~~~~~~~~~~~~~~~~~~~~~~~~~~~

            """
        let save = """
            k.carfab:4:14: error: expected error io, got no error: the command ran
            expect error io save kept.carfab
                         ^~~~~~~~~~~~~~~~~~~

            """
        let rest = """
            k.carfab:7:14: error: expected error no-current-car, got no error: the command ran
            expect error no-current-car begin
                         ^~~~~~~~~~~~~~~~~~~~
            note: the open transaction was rolled back
            k.carfab:8:1: error: nothing to undo
            undo
            ^~~~

            """
        #expect(
            try carfab(["--check", "--keep-going", "k.carfab"], directory: dir)
                == RunResult(stdout: "", stderr: variable + rest, status: 1))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("kept.carfab").path))
        #expect(
            try carfab(["--keep-going", "k.carfab"], directory: dir)
                == RunResult(stdout: "", stderr: variable + save + rest, status: 1))
    }

    /// Finding 7: a `set` of the option the car has is no step when run, so the check, which
    /// does not run `set`, cannot tell how many steps there are: it says the `undo` passes
    /// them, not how many (it said "only 2 steps" where the run says "only 1 step"). Where
    /// it follows every step, it says the count, as the run does.
    @Test func an_undo_past_steps_that_may_be_none_says_no_count() throws {
        let dir = try temporaryDirectory(with: [
            "u.carfab": "begin\ncar sports\nset drivetrain rear\nundo 3\n",
            "v.carfab": "begin\nvar a 1\nvar b 2\nundo 3\n"
        ])
        let undo = { (message: String) in
            RunResult(
                stdout: "",
                stderr: """
                    u.carfab:4:6: error: \(message)
                    undo 3
                         ^
                    note: the open transaction was rolled back

                    """, status: 1)
        }
        #expect(try carfab(["u.carfab"], directory: dir) == undo("only 1 step to undo since 'begin'"))
        #expect(try carfab(["--check", "u.carfab"], directory: dir) == undo("fewer than 3 steps to undo since 'begin'"))
        let known = try carfab(["v.carfab"], directory: dir)
        #expect(known.stderr.hasPrefix("v.carfab:4:6: error: only 2 steps to undo since 'begin'\n"))
        #expect(try carfab(["--check", "v.carfab"], directory: dir) == known)
    }
}
