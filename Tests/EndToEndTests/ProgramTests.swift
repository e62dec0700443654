import Foundation
import Testing

/// The program as a user runs it: -e, files, stdin, exit statuses, whole outputs.
@Suite struct ProgramTests {
    @Test func one_file() throws {
        let dir = try temporaryDirectory(with: ["a.carfab": "car sports\nset drivetrain 4wd\nshow\ntotal GBP\n"])
        #expect(try carfab(["a.carfab"], directory: dir) == RunResult(stdout: briefExample, stderr: "", status: 0))
    }

    @Test func two_files_run_in_order_in_one_session() throws {
        let dir = try temporaryDirectory(with: ["one.carfab": "car sports\n", "two.carfab": "set drivetrain 4wd; show\ntotal GBP"])
        #expect(try carfab(["one.carfab", "two.carfab"], directory: dir) == RunResult(stdout: briefExample, stderr: "", status: 0))
    }

    @Test func piped_input_never_prompts_nor_keeps_history() throws {
        let state = try temporaryDirectory(with: [:])
        let result = try carfab([], stdin: "echo piped\nvars\n", environment: ["XDG_STATE_HOME": state.path])
        #expect(result == RunResult(stdout: "piped\nNo variables are set.\n", stderr: "", status: 0))
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.path).isEmpty)
        // -i with a pipe reads the pipe after the scripts, still without a prompt.
        #expect(try carfab(["-e", "car suv", "-i"], stdin: "total\n").stdout == "1 Car in Stock. Total Value: $81,895.00\n")
        let failing = try carfab(["-e", "car suv", "-i"], stdin: "car sprots\n")
        #expect(failing.status == 1 && failing.stderr.hasPrefix("<stdin>:1:5: error: unknown model 'sprots'"))
    }

    @Test func dash_is_standard_input_among_files() throws {
        let dir = try temporaryDirectory(with: ["first.carfab": "car sports", "last.carfab": "total GBP"])
        let result = try carfab(["first.carfab", "-", "last.carfab"], stdin: "set drivetrain awd\n", directory: dir)
        #expect(result == RunResult(stdout: "1 Car in Stock. Total Value: £42,719.30\n", stderr: "", status: 0))
    }

    @Test func a_shebang_line_is_ignored() throws {
        let dir = try temporaryDirectory(with: ["s.carfab": "#!/usr/bin/env carfab\ncar suv 2; total GBP\n"])
        #expect(try carfab(["s.carfab"], directory: dir).stdout == "2 Cars in Stock. Total Value: £98,827.61\n")
    }

    @Test func the_first_error_stops_the_run_with_status_1() throws {
        let dir = try temporaryDirectory(with: ["q.carfab": "car sports\nset drivetrain front\necho not reached\n"])
        let result = try carfab(["q.carfab", "-e", "echo nor this"], directory: dir)
        #expect(
            result
                == RunResult(
                    stdout: "",
                    stderr: """
                        q.carfab:2:16: error: front drivetrain cannot go with the short floorplan
                        set drivetrain front
                                       ^~~~~
                        note: the rule 'forbid drivetrain front with floorplan short' is part of the built-in catalog
                        note: drivetrain options allowed for this car: 4wd (+$2,500.00)
                        note: 'fit drivetrain front' would also set floorplan standard (+$500.00)

                        """, status: 1))
    }

    @Test func a_closed_pipe_ends_quietly() throws {
        let script =
            "carfab_out=$(\"$0\" -e 'car suv' -e \"$(printf 'show\\n%.0s' $(seq 1 20000))\" 2>/tmp/carfab-pipe-err.$$ | head -1); "
            + "echo \"$carfab_out\"; cat /tmp/carfab-pipe-err.$$; rm -f /tmp/carfab-pipe-err.$$"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script, carfabBinary]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(output == "Car type: Cadillac Escalade\n")
    }

    /// A reader that goes away in the middle of a table (`list`, `diff`, `--diff`) ends the
    /// program quietly too: "cut short" is for a stop the user asked for (trial 9, 2).
    @Test(arguments: ["big.carfab -e list", "big.carfab -e 'diff empty.carfab'", "--diff big.carfab empty.carfab"])
    func a_closed_pipe_in_a_table_ends_quietly(arguments: String) throws {
        let directory = try temporaryDirectory(with: [
            "big.carfab": String(repeating: "car sports\n", count: 100_000), "empty.carfab": ""
        ])
        let result = try shell("\"$CARFAB\" \(arguments) | head -1", directory: directory)
        #expect(result.stderr == "")
        // The table's heading, the one line head takes.
        #expect(result.stdout.split(separator: "\n").count == 1, "\(result)")
    }
}
