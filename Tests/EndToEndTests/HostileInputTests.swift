import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Input meant to break things gets a clean positioned error and exit 1, never a trap, a hang
/// or a half-applied change; signals stop the program cleanly.
@Suite struct HostileInputTests {
    @Test func a_one_megabyte_line_is_an_ordinary_line() throws {
        let word = String(repeating: "y", count: 1_000_000)
        let result = try carfab([], stdin: "echo \(word)\necho done\n")
        #expect(result == RunResult(stdout: word + "\ndone\n", stderr: "", status: 0))
    }

    @Test func a_line_over_the_limit_is_skipped_with_a_short_error() throws {
        let script = "echo " + String(repeating: "y", count: 2_000_000) + "\necho after\n"
        let stopped = try carfab([], stdin: script)
        #expect(stopped.status == 1 && stopped.stdout.isEmpty)
        #expect(stopped.stderr.hasPrefix("<stdin>:1:1: error: line longer than the limit of 1024 KiB (1048576 bytes); it is skipped\necho yyyy"))
        #expect(stopped.stderr.utf8.count < 400)
        let going = try carfab(["--keep-going"], stdin: script)
        #expect(going.status == 1 && going.stdout == "after\n")
    }

    @Test func an_error_deep_in_a_long_line_shows_a_window_around_it() throws {
        let padding = String(repeating: "echo x; ", count: 100)
        let result = try carfab(["-e", padding + "car sprots; " + padding])
        #expect(result.stderr == """
            <command-line>:1:805: error: unknown model 'sprots'; did you mean 'sports'?
            ... x; echo x; echo x; car sprots; echo x; echo x; echo x; echo x; echo x; ec...
                                       ^~~~~~

            """)
        #expect(result.status == 1)
    }

    @Test func a_byte_order_mark_and_crlf_line_ends_are_accepted() throws {
        let result = try carfab([], stdinData: Data([0xEF, 0xBB, 0xBF] + Array("car suv 2\r\ntotal GBP\r\ncar sprots\r\n".utf8)))
        #expect(result == RunResult(stdout: "2 Cars in Stock. Total Value: £98,827.61\n", stderr: """
            <stdin>:3:5: error: unknown model 'sprots'; did you mean 'sports'?
            car sprots
                ^~~~~~

            """, status: 1))
    }

    @Test func two_hundred_thousand_empty_commands() throws {
        let line = String(repeating: ";", count: 200_000) + "\necho done\n"
        #expect(try carfab([], stdin: line) == RunResult(stdout: "done\n", stderr: "", status: 0))
        let blank = String(repeating: "\n", count: 200_000) + "echo done\n"
        #expect(try carfab([], stdin: blank) == RunResult(stdout: "done\n", stderr: "", status: 0))
    }

    @Test(arguments: [
        ("car suv 99999999999999999999", "1:9: error: '99999999999999999999' is too large"),
        ("car suv 92233720368547759", "1:9: error: amount too large: the value would overflow"),
        ("car suv 0", "1:9: error: '0' is not a count (a whole number from 1)"),
        ("car suv -2", "1:9: error: '-2' is not a count (a whole number from 1)"),
        ("select 99999999999999999999", "1:8: error: '99999999999999999999' is too large"),
        ("rate gbp 99999999999999999999", "1:10: error: '99999999999999999999' is too large"),
        ("rate gbp 0.0", "1:10: error: rate '0.0' is not a positive decimal"),
        ("rate jpy 1e9", "1:10: error: '1e9' is not a decimal number"),
        ("option drivetrain x \"X\" price 999999999999999999", "1:31: error: '999999999999999999' is too large"),
    ])
    func numbers_beyond_range_are_errors(line: String, error: String) throws {
        let result = try carfab(["-e", line])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("<command-line>:\(error)"), "\(result.stderr)")
    }

    @Test func money_overflow_in_a_change_leaves_the_car_as_it_was() throws {
        let result = try carfab(["--keep-going", "-e", """
            model m "M" price 92233720368547758 floorplan standard suspension road drivetrain front
            car m; set drivetrain 4wd; expect drive front; price
            """])
        #expect(result.stdout == "$92,233,720,368,547,758.00\n")
        #expect(result.stderr.hasPrefix("<command-line>:2:23: error: amount too large: the value would overflow\n"))
        #expect(result.status == 1)
    }

    @Test func unreadable_files_are_errors() throws {
        let dir = try temporaryDirectory(with: ["secret.carfab": "echo hidden\n"])
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("folder"), withIntermediateDirectories: true)
        #expect(try carfab(["folder"], directory: dir)
                == RunResult(stdout: "", stderr: "carfab: error: cannot read 'folder': it is a directory\n", status: 1))
        #expect(try carfab(["-e", "source folder"], directory: dir).stderr.hasPrefix("<command-line>:1:8: error: cannot read 'folder': it is a directory\n"))
        chmod(dir.appendingPathComponent("secret.carfab").path, 0)
        let arguments = ["-e", "source secret.carfab"]
        let result = getuid() == 0
            ? try run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", carfabBinary] + arguments, in: dir)
            : try carfab(arguments, directory: dir)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("<command-line>:1:8: error: cannot open 'secret.carfab': Permission denied\n"), "\(result.stderr)")
    }

    /// Starts carfab reading a pipe that stays open, waits, sends `signal`, and returns what it printed.
    func interrupt(with signal: Int32) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: carfabBinary)
        process.arguments = ["-e", "car suv 2; total GBP", "-"]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data("echo from the pipe\n".utf8))
        usleep(400_000)
        kill(process.processIdentifier, signal)
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return RunResult(stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self), status: status)
    }

    @Test(arguments: [(Int32(SIGINT), Int32(130)), (Int32(SIGTERM), Int32(143)), (Int32(SIGHUP), Int32(129))])
    func a_signal_during_a_script_flushes_what_was_printed_and_exits(signal: Int32, status: Int32) throws {
        let result = try interrupt(with: signal)
        #expect(result == RunResult(stdout: "2 Cars in Stock. Total Value: £98,827.61\nfrom the pipe\n", stderr: "", status: status))
    }
}
