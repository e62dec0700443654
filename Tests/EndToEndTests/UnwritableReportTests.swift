import Foundation
import Testing

/// The reports of `--test --format tap` and `--diff` when standard output cannot be written:
/// a write error and its status, as every other mode says it.
@Suite struct UnwritableReportTests {
    @Test func tap_to_a_closed_output_is_a_write_error_not_an_interruption() throws {
        let dir = try temporaryDirectory(with: ["t.carfab": "car sports; expect count 1\n"])
        // TAP writes its first line before any test ends: that failed write stopped the tests,
        // and the stop was reported as Ctrl-C ("interrupted while testing t.carfab", 130).
        #expect(
            try shell("exec \"$CARFAB\" --test t.carfab --format tap >&-", directory: dir)
                == RunResult(stdout: "", stderr: "carfab: write error: Bad file descriptor\n", status: 1))
    }

    @Test func a_diff_that_cannot_be_written_is_trouble_said_once() throws {
        var stock = ""
        for n in 1...40 { stock += "car suv \(n)\n" }
        let dir = try temporaryDirectory(with: ["a.carfab": stock, "b.carfab": "car sports\n"])
        // diff(1)'s status for trouble (2), not "different" (1), and the write error said.
        #expect(
            try shell("exec \"$CARFAB\" --diff a.carfab b.carfab >&-", directory: dir)
                == RunResult(stdout: "", stderr: "carfab: write error: Bad file descriptor\n", status: 2))
        // A file-size limit of one block: the differences (about 3 KiB) fail as on a full disk.
        #expect(
            try shell("ulimit -f 1; exec \"$CARFAB\" --diff a.carfab b.carfab > out", directory: dir)
                == RunResult(stdout: "", stderr: "carfab: write error: File too large\n", status: 2))
        // With nothing to print, nothing fails: the same sessions are status 0.
        #expect(try shell("exec \"$CARFAB\" --diff a.carfab a.carfab >&-", directory: dir) == RunResult(stdout: "", stderr: "", status: 0))
    }
}
