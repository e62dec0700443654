import Foundation
import Testing

/// The findings of a second new user's trial (trial2 F7, F8, F9): an error inside `try source
/// FILE` is handled as every other error is, and the documents say what the program does.
@Suite struct Trial2FindingTests {
    /// The error of `try car nosuch` and of a sourced file failing inside `try`, as shown.
    private static let nosuchInFile = """
        In file included from <command-line>:1:
        fail.carfab:3:5: error: unknown model 'nosuch'; valid models: compact, sports, suv
        car nosuch
            ^~~~~~

        """

    @Test func an_error_inside_try_source_rolls_back_and_shows_no_table() throws {
        let dir = try temporaryDirectory(with: ["fail.carfab": "car suv\nvar q 1\ncar nosuch\n"])
        // With --keep-going: no what-if table of the half-run file, and the open transaction
        // rolled back (with the note), so the later `commit` has nothing to commit.
        #expect(
            try carfab(["--keep-going", "-e", "begin; car sports; try source fail.carfab; commit; list"], directory: dir)
                == RunResult(
                    stdout: "The stock is empty.\n",
                    stderr: Self.nosuchInFile + """
                        note: the open transaction was rolled back
                        <command-line>:1:44: error: no transaction is open: 'begin' opens one
                        begin; car sports; try source fail.carfab; commit; list
                                                                   ^~~~~~

                        """, status: 1))
        // Without it: the same rollback note, not the end-of-input warning.
        #expect(
            try carfab(["-e", "begin; car sports; try source fail.carfab; echo CONTINUED"], directory: dir)
                == RunResult(stdout: "", stderr: Self.nosuchInFile + "note: the open transaction was rolled back\n", status: 1))
        // Outside a transaction: the error alone; --keep-going goes on after it.
        #expect(
            try carfab(["--keep-going", "-e", "try source fail.carfab; echo after"], directory: dir)
                == RunResult(stdout: "after\n", stderr: Self.nosuchInFile, status: 1))
    }
}
