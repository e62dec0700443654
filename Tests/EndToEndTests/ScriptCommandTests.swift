import Foundation
import Testing

/// `source`, `save`, `expect`, and the flags that govern them, through the built binary.
@Suite struct ScriptCommandTests {
    @Test func source_paths_are_relative_to_the_including_file() throws {
        let dir = try temporaryDirectory(with: ["main.carfab": "car sports\nsource parts/four.carfab\ntotal GBP\n"])
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("parts"), withIntermediateDirectories: true)
        try Data("set drivetrain 4wd\nsource echo.carfab\n".utf8).write(to: dir.appendingPathComponent("parts/four.carfab"))
        try Data("echo sourced".utf8).write(to: dir.appendingPathComponent("parts/echo.carfab"))
        #expect(
            try carfab(["main.carfab"], directory: dir)
                == RunResult(stdout: "sourced\n1 Car in Stock. Total Value: £42,719.30\n", stderr: "", status: 0))
        // From -e, paths are relative to the current directory.
        #expect(try carfab(["-e", "source parts/echo.carfab"], directory: dir).stdout == "sourced\n")
    }

    @Test func an_error_in_a_sourced_file_shows_the_include_chain_and_stops_the_includer() throws {
        let dir = try temporaryDirectory(with: [
            "a.carfab": "car suv\nsource b.carfab\necho not reached\n",
            "b.carfab": "echo in b\nset suspension race\n"
        ])
        #expect(
            try carfab(["a.carfab"], directory: dir)
                == RunResult(
                    stdout: "in b\n",
                    stderr: """
                        In file included from a.carfab:2:
                        b.carfab:2:16: error: race suspension cannot go with the long floorplan
                        set suspension race
                                       ^~~~
                        note: the rule 'forbid suspension race with floorplan long' is part of the built-in catalog
                        note: suspension options allowed for this car: road (-$1,800.00)
                        note: 'fit suspension race' would also set floorplan short (-$5,900.00)

                        """, status: 1))
    }

    @Test func source_cycles_are_errors_that_show_the_chain() throws {
        let dir = try temporaryDirectory(with: ["a.carfab": "echo a\nsource b.carfab\n", "b.carfab": "source a.carfab\n"])
        #expect(
            try carfab(["a.carfab"], directory: dir)
                == RunResult(
                    stdout: "a\n",
                    stderr: """
                        In file included from a.carfab:2:
                        b.carfab:1:8: error: 'source' cycle: a.carfab -> b.carfab -> a.carfab
                        source a.carfab
                               ^~~~~~~~

                        """, status: 1))
    }

    @Test func source_depth_is_limited() throws {
        // Each file sources the next, 70 deep: a chain, not a cycle.
        var files: [String: String] = [:]
        for n in 0..<70 { files["f\(n).carfab"] = "source f\(n + 1).carfab\n" }
        files["f70.carfab"] = "echo bottom\n"
        let dir = try temporaryDirectory(with: files)
        let result = try carfab(["-e", "source f0.carfab"], directory: dir)
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.contains("f62.carfab:1:8: error: 'source' nested more than 64 deep: <command-line> -> f0.carfab -> "))
    }

    @Test func a_missing_sourced_file_is_an_error_at_its_name() throws {
        #expect(
            try carfab(["-e", "source nowhere.carfab"])
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:8: error: cannot open 'nowhere.carfab': No such file or directory
                        source nowhere.carfab
                               ^~~~~~~~~~~~~~

                        """, status: 1))
    }

    @Test func save_writes_a_script_that_replays_to_the_same_state() throws {
        let dir = try temporaryDirectory(with: [:])
        let build =
            "car compact 3; set drivetrain rear; set floorplan short; set suspension soft\n"
            + "car suv 2; car \"sports\"; set drivetrain all; rate gbp 0.5; rate EUR 0.9; rate eur 0.92; select 2\n"
        let report = "list; total GBP; total EUR; show"
        let original = try carfab(["-e", build + "save fleet.carfab;" + report], directory: dir)
        #expect(original.status == 0 && original.stderr.isEmpty)
        let saved = try String(contentsOf: dir.appendingPathComponent("fleet.carfab"), encoding: .utf8)
        #expect(
            saved == """
                # carfab session, saved by carfab 0.1.0
                rate GBP 0.5
                car compact 3
                set floorplan short suspension offroad drivetrain rear
                car suv 2
                car sports 1
                set drivetrain 4wd
                select 2

                """)
        let replayed = try carfab(["fleet.carfab", "-e", report], directory: dir)
        #expect(replayed == original)
    }

    @Test func a_failed_save_leaves_the_old_file_whole() throws {
        let dir = try temporaryDirectory(with: ["keep.carfab": "echo old\n"])
        // Make the directory unwritable; as root, run carfab as nobody so permissions apply.
        chmod(dir.path, 0o555)
        defer { chmod(dir.path, 0o755) }
        let arguments = ["-e", "car suv; save keep.carfab"]
        let result =
            getuid() == 0
            ? try run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", carfabBinary] + arguments, in: dir)
            : try carfab(arguments, directory: dir)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("<command-line>:1:15: error: cannot save 'keep.carfab': Permission denied\n"))
        #expect(try String(contentsOf: dir.appendingPathComponent("keep.carfab"), encoding: .utf8) == "echo old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["keep.carfab"])
    }

    @Test func save_into_a_missing_directory_is_an_error() throws {
        let result = try carfab(["-e", "save /nonexistent-dir/x.carfab"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("<command-line>:1:6: error: cannot save '/nonexistent-dir/x.carfab': No such file or directory\n"))
    }

    @Test func check_follows_source_but_writes_nothing() throws {
        let dir = try temporaryDirectory(with: ["ok.carfab": "car sports; show\n", "bad.carfab": "car sports\nset drivetrain hover\n"])
        #expect(
            try carfab(["--check", "-e", "source ok.carfab; save out.carfab"], directory: dir)
                == RunResult(stdout: "", stderr: "", status: 0))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.carfab").path))
        let bad = try carfab(["--check", "-e", "source bad.carfab"], directory: dir)
        #expect(
            bad.status == 1
                && bad.stderr.hasPrefix(
                    "In file included from <command-line>:1:\nbad.carfab:2:16: error: unknown drivetrain option 'hover'")
        )
    }

    @Test func expect_passes_silently_and_fails_with_both_values() throws {
        let passing =
            "car sports; set drivetrain 4wd; expect count 1; expect seats 2; expect engine mid; expect suspension Firm; "
            + "expect suspension race; expect drive 4WD; expect drive awd; expect type \"Porsche Boxster\"; expect type porsche boxster; "
            + "expect price $70,800.00; expect price 70800; expect price GBP £42,719.30; expect price jpy 10726200; "
            + "expect total EUR 65136; car suv 2; expect count 3; expect total GBP £141,546.91"
        #expect(try carfab(["-e", passing]) == RunResult(stdout: "", stderr: "", status: 0))
        #expect(
            try carfab(["-e", "car sports; expect price GBP 42719.31"])
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:30: error: expected price 42719.31, got £41,210.85
                        car sports; expect price GBP 42719.31
                                                     ^~~~~~~~

                        """, status: 1))
        #expect(
            try carfab(["-e", "car suv; expect drive Rear"]).stderr.hasPrefix("<command-line>:1:23: error: expected drive Rear, got 4WD\n"))
        #expect(
            try carfab(["-e", "expect seats 2"]).stderr.hasPrefix("<command-line>:1:1: error: no current car: add one with 'car MODEL'\n"))
        #expect(try carfab(["-e", "expect count 0"]).status == 0)
    }
}

/// Runs any program, capturing its outputs.
func run(_ program: String, _ arguments: [String], in directory: URL) throws -> RunResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return RunResult(
        stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self),
        status: process.terminationStatus)
}
