import Foundation
import Testing

/// Trial 9's findings 4 and 8, as a user meets them: standard output, standard error and the
/// status, whole.
@Suite struct Trial9SourceAndCheckFindingTests {
    #if os(Linux)
    /// Finding 4: a sourced file that opens but fails to read (`/proc/self/mem` reads EIO at
    /// offset 0; a bad disk, a network file system) was `carfab: error: cannot read ...`, no
    /// place (JSON line 0, column 0). It is the `source`'s error at the file's name, as a file
    /// that cannot be opened is.
    @Test func a_read_error_in_a_sourced_file_is_at_the_source() throws {
        let dir = try temporaryDirectory(with: ["m.carfab": "car sports\nsource /proc/self/mem\necho not reached\n"])
        let text = try carfab(["m.carfab"], directory: dir)
        #expect(
            text
                == RunResult(
                    stdout: "",
                    stderr: """
                        m.carfab:2:8: error: cannot read '/proc/self/mem': Input/output error
                        source /proc/self/mem
                               ^~~~~~~~~~~~~~

                        """, status: 1))
        let json = try carfab(["--format", "json", "-e", "begin; source /proc/self/mem"])
        #expect(
            json
                == RunResult(
                    stdout: "",
                    stderr: #"""
                        {"type":"error","id":"io","severity":"error","file":"<command-line>","line":1,"column":15,"end_column":29,"message":"cannot read '/proc/self/mem': Input/output error","source":"begin; source /proc/self/mem","source_column":1,"included_from":[],"notes":[{"message":"the open transaction was rolled back","place":null}],"fixits":[]}

                        """#, status: 1))
        // A read error in a file a sourced file sources: at that `source`, inside the first.
        let nested = try temporaryDirectory(with: ["a.carfab": "source b.carfab\n", "b.carfab": "\nsource /proc/self/mem\n"])
        let inner = try carfab(["--check", "a.carfab"], directory: nested)
        #expect(
            inner
                == RunResult(
                    stdout: "",
                    stderr: """
                        In file included from a.carfab:1:
                        b.carfab:2:8: error: cannot read '/proc/self/mem': Input/output error
                        source /proc/self/mem
                               ^~~~~~~~~~~~~~

                        """, status: 1))
    }
    #endif

    /// Finding 8: `expect error ID quit` runs `quit`, which ends the run whatever the
    /// expectation: the check went on and reported a line the run never reaches.
    @Test func the_check_ends_at_a_quit_that_expect_error_runs() throws {
        let dir = try temporaryDirectory(with: ["eq.carfab": "car sports\nexpect error refused quit\ncar nosuch\n"])
        let run = try carfab(["eq.carfab"], directory: dir)
        #expect(
            run
                == RunResult(
                    stdout: "",
                    stderr: """
                        eq.carfab:2:14: error: expected error refused, got no error: the command ran
                        expect error refused quit
                                     ^~~~~~~~~~~~

                        """, status: 1))
        for options in [["--check"], ["--check", "--keep-going"]] {
            let check = try carfab(options + ["eq.carfab"], directory: dir)
            #expect(check == RunResult(stdout: "", stderr: "", status: 0), "\(options)")
        }
        // Through levels of `expect error`, and by its other name: the run ends there too.
        for line in ["expect error expectation-failed expect error refused quit", "expect error refused exit 3"] {
            let check = try carfab(["--check", "-e", "\(line); car nosuch"])
            #expect(check == RunResult(stdout: "", stderr: "", status: 0), "\(line)")
        }
    }

    /// Where the `quit` does not end the run, the check goes on as the run does: a `quit` whose
    /// STATUS is refused fails (the expectation may pass), `try` refuses `quit`, and a `try`
    /// around `expect error` takes its `quit` back.
    @Test func the_check_goes_on_where_the_quit_does_not_end_the_run() throws {
        /// The run's error at `car nosuch` after `line` on one `-e` line.
        func unknownModel(after line: String) -> String {
            let pad = String(repeating: " ", count: line.count + 6)
            return """
                <command-line>:1:\(line.count + 7): error: unknown model 'nosuch'; valid models: compact, sports, suv
                \(line); car nosuch
                \(pad)^~~~~~

                """
        }
        for line in ["expect error out-of-range quit 999", "expect error refused try quit"] {
            let run = try carfab(["-e", "\(line); car nosuch"])
            #expect(run == RunResult(stdout: "", stderr: unknownModel(after: line), status: 1), "\(line)")
            let check = try carfab(["--check", "-e", "\(line); car nosuch"])
            #expect(check == RunResult(stdout: "", stderr: unknownModel(after: line), status: 1), "\(line)")
        }
        let line = "try expect error refused quit"
        let check = try carfab(["--check", "--keep-going", "-e", "\(line); car nosuch"])
        #expect(check == RunResult(stdout: "", stderr: unknownModel(after: line), status: 1))
    }
}
