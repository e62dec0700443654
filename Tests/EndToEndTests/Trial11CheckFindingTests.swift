import Foundation
import Testing

/// Trial 11's finding 7, as a user meets it: standard output, standard error and the
/// status, whole, of `--check` beside the run's.
@Suite struct Trial11CheckFindingTests {
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
