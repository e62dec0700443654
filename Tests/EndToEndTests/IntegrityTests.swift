import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Nothing lost, nothing clobbered: output that cannot be written, `save` over what is at
/// the path, and the files left behind. Nothing here writes under /dev or /etc: full disks
/// are a file-size limit (`ulimit -f`), devices and pipes are FIFOs made here.
@Suite struct IntegrityTests {
    func mode(_ url: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    func names(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    // MARK: Output

    @Test(arguments: ["text", "json"])
    func output_past_a_full_disk_is_a_write_error_with_status_1(format: String) throws {
        let dir = try temporaryDirectory(with: [:])
        // A file-size limit of one block (1 KiB; standard error's file stays below it): the
        // output, larger, fails as on a full disk.
        let result = try shell(
            "ulimit -f 1; exec \"$CARFAB\" --format \(format) -e 'car suv 2; total GBP; help; help' > out", directory: dir)
        #expect(result == RunResult(stdout: "", stderr: "carfab: write error: File too large\n", status: 1))
    }

    @Test func output_that_fails_midway_is_reported_once() throws {
        let dir = try temporaryDirectory(with: [:])
        // 8 KiB fit; the rest (about 1 MiB of `show`) does not.
        let shows = String(repeating: "show;", count: 10_000)
        let result = try shell("ulimit -f 8; exec \"$CARFAB\" -e 'car suv' -e '\(shows)' > out", directory: dir)
        #expect(try Data(contentsOf: dir.appendingPathComponent("out")).count <= 8192)
        #expect(result == RunResult(stdout: "", stderr: "carfab: write error: File too large\n", status: 1))
    }

    @Test func a_closed_standard_output_is_a_write_error() throws {
        #expect(
            try shell("exec \"$CARFAB\" -e 'echo lost' >&-")
                == RunResult(stdout: "", stderr: "carfab: write error: Bad file descriptor\n", status: 1))
        #expect(
            try shell("exec \"$CARFAB\" --format json -e 'echo lost' >&-")
                == RunResult(stdout: "", stderr: "carfab: write error: Bad file descriptor\n", status: 1))
        // With nothing to print, nothing fails.
        #expect(try shell("exec \"$CARFAB\" -e 'car suv' >&-") == RunResult(stdout: "", stderr: "", status: 0))
    }

    @Test func a_closed_standard_output_is_not_taken_by_a_saved_file() throws {
        let dir = try temporaryDirectory(with: [:])
        let result = try shell("exec \"$CARFAB\" -e 'car suv; save s.carfab; echo lost' >&-", directory: dir)
        #expect(result == RunResult(stdout: "", stderr: "carfab: write error: Bad file descriptor\n", status: 1))
        #expect(try String(contentsOf: dir.appendingPathComponent("s.carfab"), encoding: .utf8).hasSuffix("car suv 1\n"))
    }

    @Test func failing_standard_error_neither_loops_nor_crashes() throws {
        // Both closed: nothing can be said, the status still tells.
        #expect(
            try shell("\"$CARFAB\" -e 'echo lost; car sprots' >&- 2>&-; echo \"status $?\"")
                == RunResult(stdout: "status 1\n", stderr: "", status: 0))
        // Standard error open for reading only: every write to it fails.
        #expect(
            try shell("\"$CARFAB\" --keep-going -e 'car sprots; car sprots; echo ok' 2</dev/null; echo \"status $?\"")
                == RunResult(stdout: "ok\nstatus 1\n", stderr: "", status: 0))
    }

    // MARK: save

    @Test func save_writes_through_a_symbolic_link_to_its_file() throws {
        let dir = try temporaryDirectory(with: ["target.carfab": "echo old\n"])
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("link.carfab").path, withDestinationPath: "target.carfab")
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("dangling.carfab").path, withDestinationPath: "new.carfab")
        #expect(
            try carfab(["-e", "car suv; save link.carfab; save dangling.carfab"], directory: dir)
                == RunResult(stdout: "", stderr: "", status: 0))
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: dir.appendingPathComponent("link.carfab").path)
        #expect(link == "target.carfab")
        let saved = try String(contentsOf: dir.appendingPathComponent("target.carfab"), encoding: .utf8)
        #expect(saved == "# carfab session, saved by carfab 0.1.0\ncar suv 1\n")
        #expect(try String(contentsOf: dir.appendingPathComponent("new.carfab"), encoding: .utf8) == saved)
        #expect(try names(in: dir) == ["dangling.carfab", "link.carfab", "new.carfab", "target.carfab"])
    }

    @Test func save_refuses_what_is_not_a_regular_file() throws {
        let dir = try temporaryDirectory(with: [:])
        #expect(mkfifo(dir.appendingPathComponent("fifo").path, 0o644) == 0)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("folder"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("to-fifo").path, withDestinationPath: "fifo")
        let result = try carfab(["--keep-going", "-e", "car suv; save fifo; save folder; save to-fifo"], directory: dir)
        #expect(
            result
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:15: error: cannot save 'fifo': it is a FIFO, not a regular file
                        car suv; save fifo; save folder; save to-fifo
                                      ^~~~
                        <command-line>:1:26: error: cannot save 'folder': it is a directory
                        car suv; save fifo; save folder; save to-fifo
                                                 ^~~~~~
                        <command-line>:1:39: error: cannot save 'to-fifo': it is a FIFO, not a regular file
                        car suv; save fifo; save folder; save to-fifo
                                                              ^~~~~~~

                        """, status: 1))
        var info = stat()
        #expect(lstat(dir.appendingPathComponent("fifo").path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(try names(in: dir) == ["fifo", "folder", "to-fifo"])
    }

    @Test func save_keeps_an_existing_files_mode_and_gives_a_new_one_0644_less_the_umask() throws {
        let dir = try temporaryDirectory(with: ["private.carfab": "", "shared.carfab": ""])
        chmod(dir.appendingPathComponent("private.carfab").path, 0o600)
        chmod(dir.appendingPathComponent("shared.carfab").path, 0o640)
        let result = try shell(
            "umask 027; exec \"$CARFAB\" -e 'car suv; save private.carfab; save shared.carfab; save new.carfab'", directory: dir)
        #expect(result == RunResult(stdout: "", stderr: "", status: 0))
        #expect(try mode(dir.appendingPathComponent("private.carfab")) == 0o600)
        #expect(try mode(dir.appendingPathComponent("shared.carfab")) == 0o640)
        #expect(try mode(dir.appendingPathComponent("new.carfab")) == 0o640)
        #expect(try shell("umask 022; exec \"$CARFAB\" -e 'save other.carfab'", directory: dir).status == 0)
        #expect(try mode(dir.appendingPathComponent("other.carfab")) == 0o644)
    }

    @Test(.enabled(if: getuid() == 0, "only root can give a file to another owner"))
    func save_keeps_an_existing_files_owner() throws {
        let dir = try temporaryDirectory(with: ["theirs.carfab": "echo old\n"])
        #expect(chown(dir.appendingPathComponent("theirs.carfab").path, 65534, 65534) == 0)
        #expect(try carfab(["-e", "car suv; save theirs.carfab"], directory: dir).status == 0)
        var info = stat()
        #expect(stat(dir.appendingPathComponent("theirs.carfab").path, &info) == 0)
        #expect(info.st_uid == 65534 && info.st_gid == 65534)
    }

    @Test func a_full_disk_leaves_the_old_file_whole_and_no_temporary_file() throws {
        let dir = try temporaryDirectory(with: ["fleet.carfab": "echo old\n"])
        // 1 KiB may be written; the saved script of 200 stock lines is larger.
        let cars = String(repeating: "car suv; set drivetrain front; ", count: 200)
        let result = try shell("ulimit -f 1; exec \"$CARFAB\" -e '\(cars) save fleet.carfab'", directory: dir)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("<command-line>:1:6207: error: cannot save 'fleet.carfab': File too large\n"), "\(result.stderr)")
        #expect(try String(contentsOf: dir.appendingPathComponent("fleet.carfab"), encoding: .utf8) == "echo old\n")
        #expect(try names(in: dir) == ["fleet.carfab"])
    }

    @Test func a_signal_while_saving_leaves_a_whole_file_and_no_temporary_file() throws {
        let dir = try temporaryDirectory(with: [:])
        // Saving a large stock again and again: whenever SIGTERM lands, the file is the old
        // whole script or the new one, and nothing else is in the directory.
        let script =
            "car suv 1\n" + String(repeating: "car compact; set drivetrain rear; set floorplan short\n", count: 20_000)
            + String(repeating: "save fleet.carfab\n", count: 1_000)
        try Data(script.utf8).write(to: dir.appendingPathComponent("build.carfab"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: carfabBinary)
        process.arguments = ["build.carfab"]
        process.currentDirectoryURL = dir
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        // Wait for the first save to land, then stop carfab in the middle of the others.
        let saved = dir.appendingPathComponent("fleet.carfab")
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: saved.path) && Date() < deadline { usleep(2_000) }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 143)
        #expect(try names(in: dir) == ["build.carfab", "fleet.carfab"])
        let text = try String(contentsOf: saved, encoding: .utf8)
        #expect(text.hasPrefix("# carfab session") && text.hasSuffix("set floorplan short drivetrain rear\n"))
        // The header, the suv, two lines per compact, and the empty end after the last line break.
        #expect(text.components(separatedBy: "\n").count == 1 + 1 + 20_000 * 2 + 1)
    }

    @Test func save_dash_prints_the_script() throws {
        // In a folder of its own: a binary that wrote a file named '-' once left one at the
        // repository's root (the tests' working directory), where it was committed.
        let directory = try temporaryDirectory(with: [:])
        #expect(
            try carfab(["-e", "car sports; set drivetrain 4wd; rate gbp 0.5; save -"], directory: directory)
                == RunResult(
                    stdout: """
                        # carfab session, saved by carfab 0.1.0
                        rate GBP 0.5
                        car sports 1
                        set drivetrain 4wd

                        """, stderr: "", status: 0))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }
}

extension IntegrityTests {
    @Test func source_dash_reads_standard_input_even_from_a_script_in_a_folder_and_under_safe() throws {
        let dir = try temporaryDirectory(with: [:])
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("echo in sub\nsource -\necho after\n".utf8).write(to: dir.appendingPathComponent("sub/a.carfab"))
        #expect(
            try carfab(["sub/a.carfab"], stdin: "echo piped\n", directory: dir)
                == RunResult(stdout: "in sub\npiped\nafter\n", stderr: "", status: 0))
        #expect(
            try carfab(["--safe", "-e", "source -; save -"], stdin: "car suv\n")
                == RunResult(stdout: "# carfab session, saved by carfab 0.1.0\ncar suv 1\n", stderr: "", status: 0))
    }
}
