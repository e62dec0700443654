import Foundation
import Testing

/// `carfab --test --junit FILE` where FILE is a file the run reads (trial 8, finding 3b: the
/// report replaced a test file, the run said "2 passed", and the next run failed on it).
@Suite struct TestRunnerJUnitTargetTests {
    /// Finding 3b: `--junit` naming a file the run reads (a test file, the --init file, a
    /// --catalog file) is a usage error before anything runs; the file is left as it was.
    @Test(arguments: [
        ["--junit", "tt/a.carfab"], ["--init", "init.carfab", "--junit", "init.carfab"],
        ["--catalog", "init.carfab", "--junit", "init.carfab"]
    ])
    func junit_cannot_replace_a_file_the_run_reads(_ options: [String]) throws {
        let dir = try temporaryDirectory(with: ["tt/a.carfab": "car sports\n", "init.carfab": "currency ZZZ \"Z\" digits 2 rate 1\n"])
        let result = try carfab(["--test", "tt"] + options, directory: dir)
        let what = options.contains("--init") ? "the --init file" : options.contains("--catalog") ? "a --catalog file" : "a test file"
        #expect(
            result.stderr == """
                carfab: error: --junit \(options.last ?? ""): it is \(what) of this run, which the report would replace
                usage: carfab [OPTIONS] [FILE...] (see 'carfab --help')

                """, "\(result)")
        #expect(result.stdout == "" && result.status == 64, "\(result)")
        #expect(try String(contentsOfFile: dir.path + "/tt/a.carfab", encoding: .utf8) == "car sports\n")
        #expect(try String(contentsOfFile: dir.path + "/init.carfab", encoding: .utf8) == "currency ZZZ \"Z\" digits 2 rate 1\n")
    }

    /// The report may share neither standard output nor standard error, by whatever name: a
    /// usage error before any test runs (trial 12, L3: the run ran every test, then failed to
    /// write the report with status 1, which CI cannot tell from a failed test).
    @Test(arguments: [
        ("/dev/stdout", "standard output"), ("/dev/stderr", "standard error"), ("/proc/self/fd/1", "standard output"),
        ("/dev/fd/2", "standard error")
    ])
    func junit_cannot_share_standard_output_or_error(path: String, stream: String) throws {
        let dir = try temporaryDirectory(with: ["tt/a.carfab": "car sports\n"])
        let result = try carfab(["--test", "tt", "--junit", path], directory: dir)
        #expect(
            result
                == RunResult(
                    stdout: "",
                    stderr: """
                        carfab: error: --junit \(path): it is the \(stream) of this run, which the report cannot share
                        usage: carfab [OPTIONS] [FILE...] (see 'carfab --help')

                        """, status: 64))
    }

    /// A report into a folder that is not there is a usage error before any test runs: it
    /// could not be written at the end either, and that failure had a failed test's status.
    @Test func junit_into_a_folder_that_is_not_there_is_refused_before_the_tests() throws {
        let dir = try temporaryDirectory(with: ["tt/a.carfab": "car sports\n"])
        let result = try carfab(["--test", "tt", "--junit", "reports/junit.xml"], directory: dir)
        #expect(
            result
                == RunResult(
                    stdout: "",
                    stderr: """
                        carfab: error: --junit reports/junit.xml: there is no folder 'reports' to write the report in
                        usage: carfab [OPTIONS] [FILE...] (see 'carfab --help')

                        """, status: 64))
        // A folder that is there is written in.
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("reports"), withIntermediateDirectories: false)
        #expect(try carfab(["--test", "tt", "--junit", "reports/junit.xml"], directory: dir).status == 0)
        #expect(FileManager.default.fileExists(atPath: dir.path + "/reports/junit.xml"))
    }

    /// A folder that cannot be reached (a file on the way) is refused with the system's reason,
    /// as `save` gives it; it was called "there is no folder" (review of b1c2af9). A path longer
    /// than the system takes whole is walked a folder at a time, as `save` walks it (each
    /// folder's links judged: trial 14, 1), so the report is written there.
    @Test func junit_into_a_folder_that_cannot_be_reached_says_why() throws {
        let dir = try temporaryDirectory(with: ["tt/a.carfab": "car sports\n", "notes": "a file\n"])
        // 20 folders of 250 bytes: 5,020 bytes, past PATH_MAX (4,096), each made from the last.
        let part = String(repeating: "a", count: 250)
        let made = try shell("for i in $(seq 20); do mkdir \(part) && cd \(part) || exit 1; done", directory: dir)
        // Foundation cannot remove a path that long (the scratch folder's clean-up); rm can.
        defer { _ = try? shell("rm -rf \(part)", directory: dir) }
        #expect(made.status == 0, "\(made)")
        let long = Array(repeating: part, count: 20).joined(separator: "/") + "/r.xml"
        #expect(
            try carfab(["--test", "tt", "--junit", "notes/r.xml"], directory: dir)
                == RunResult(
                    stdout: "",
                    stderr: """
                        carfab: error: --junit notes/r.xml: Not a directory; the report could not be written there
                        usage: carfab [OPTIONS] [FILE...] (see 'carfab --help')

                        """, status: 64))
        #expect(try carfab(["--test", "tt", "--junit", long], directory: dir).status == 0)
        // A folder at a time, as bash's `cd` cannot take the whole path either.
        let written = try shell("for i in $(seq 20); do cd \(part) || exit 1; done; grep -c '<testcase' r.xml", directory: dir)
        #expect(written.stdout == "1\n", "\(written)")
    }

    /// Nor a name `save` would refuse: a directory, a device, a FIFO. Each could not be
    /// written at the end either, and that failure had a failed test's status (review of
    /// trial 12's finding 5); now a usage error before any test runs.
    @Test(arguments: [
        ("reports", "it is a directory"), ("reports/", "it is a directory"), ("/dev/null", "it is a device, not a regular file"),
        ("pipe", "it is a FIFO, not a regular file")
    ])
    func junit_to_a_name_save_refuses_is_refused_before_the_tests(path: String, reason: String) throws {
        let dir = try temporaryDirectory(with: ["tt/a.carfab": "car sports\n"])
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("reports"), withIntermediateDirectories: false)
        #expect(mkfifo(dir.path + "/pipe", 0o600) == 0)
        // Output to a file, so that /dev/null is not this run's standard output.
        let result = try shell("exec \"$CARFAB\" --test tt --junit '\(path)' > out", directory: dir)
        #expect(
            result
                == RunResult(
                    stdout: "",
                    stderr: """
                        carfab: error: --junit \(path): \(reason); the report could not be written there
                        usage: carfab [OPTIONS] [FILE...] (see 'carfab --help')

                        """, status: 64))
        #expect(try String(contentsOfFile: dir.path + "/out", encoding: .utf8) == "")
    }
}
