import Foundation
import Testing

/// A path named to `--test` that is neither a folder nor a regular file fails as a test of its
/// own, as such an entry found in a folder does: a FIFO named on the command line waited for a
/// writer for ever (a CI job's hang), where the same FIFO in a folder failed at once.
@Suite struct NamedTestPathTests {
    @Test func a_named_fifo_fails_at_once_as_one_in_a_folder_does() throws {
        let directory = try temporaryDirectory(with: ["t/ok.carfab": "expect count 0\n"])
        // --timeout only keeps a build without the check from hanging the suite.
        let run = try shell(
            """
            mkfifo named.carfab t/found.carfab
            "$CARFAB" --test named.carfab t --timeout 20
            echo "status $?"
            """, directory: directory)
        #expect(
            run.stdout == """
                FAIL named.carfab
                    (not a regular file)
                FAIL t/found.carfab
                    (not a regular file)
                ok t/ok.carfab (1 expect)
                1 passed, 2 failed
                status 1

                """, "\(run)")
    }
}
