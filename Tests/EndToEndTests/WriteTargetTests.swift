import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Where `save` and `--junit` write: the one rule for following links (the kernel's
/// protected_symlinks rule, which carfab's own walk must apply), a process's open streams
/// (`/dev/stdout`, `/proc/PID/fd/N`) never renamed over, names kept as bytes, and a name of
/// any valid length. Links of another user are made with `setpriv` in sticky folders made
/// here; nothing under /dev is written (the streams are redirected to files made here).
@Suite struct WriteTargetTests {
    /// The names in `directory`, each as bash's `printf %q` shows it (so bytes that are not UTF-8 show).
    func names(in directory: URL) throws -> String {
        try shell(
            "for name in * .*; do [ \"$name\" = . ] || [ \"$name\" = .. ] || [ ! -e \"$name\" -a ! -L \"$name\" ] || printf '%q\\n' \"$name\"; done",
            directory: directory
        ).stdout
    }

    /// A test folder with one passing test, `t/a.carfab`.
    func testFolder() throws -> URL {
        try temporaryDirectory(with: ["t/a.carfab": "expect count 0\n"])
    }

    /// `--test`'s standard error without its closing line of timing, which varies.
    func untimed(_ stderr: String) -> String {
        stderr.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !($0.hasPrefix("carfab: 1 test file in ") && $0.hasSuffix(" s")) }
            .joined(separator: "\n")
    }

    // MARK: Links another user planted

    @Test(.enabled(if: getuid() == 0, "only root can act as another user"))
    func save_and_junit_follow_no_link_another_user_planted_in_a_sticky_folder() throws {
        let dir = try testFolder()
        let sticky = dir.appendingPathComponent("sticky")
        try FileManager.default.createDirectory(at: sticky, withIntermediateDirectories: false)
        #expect(chmod(sticky.path, 0o1777) == 0)
        try Data("secret\n".utf8).write(to: sticky.appendingPathComponent("victim"))
        #expect(chmod(sticky.appendingPathComponent("victim").path, 0o600) == 0)
        // Nobody's links: to root's private file, and to a name that does not exist yet.
        let planted = try shell(
            """
            setpriv --reuid=65534 --regid=65534 --clear-groups ln -s victim sticky/planted &&
            setpriv --reuid=65534 --regid=65534 --clear-groups ln -s new sticky/planted-new
            """, directory: dir)
        #expect(planted == RunResult(stdout: "", stderr: "", status: 0))
        let result = try carfab(["--keep-going", "-e", "car suv; save sticky/planted; save sticky/planted-new"], directory: dir)
        #expect(
            result
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:15: error: cannot save 'sticky/planted': the symbolic link 'sticky/planted' belongs to another user (uid 65534) and is in a sticky folder anyone may write to; it is not followed
                        car suv; save sticky/planted; save sticky/planted-new
                                      ^~~~~~~~~~~~~~
                        <command-line>:1:36: error: cannot save 'sticky/planted-new': the symbolic link 'sticky/planted-new' belongs to another user (uid 65534) and is in a sticky folder anyone may write to; it is not followed
                        car suv; save sticky/planted; save sticky/planted-new
                                                           ^~~~~~~~~~~~~~~~~~

                        """, status: 1))
        // --junit walks the name as save does, before any test runs: a usage error.
        let junit = try carfab(["--test", "t", "--junit", "sticky/planted"], directory: dir)
        #expect(
            junit
                == RunResult(
                    stdout: "",
                    stderr: """
                        carfab: error: --junit sticky/planted: the symbolic link 'sticky/planted' belongs to another user (uid 65534) and is in a sticky folder anyone may write to; it is not followed; the report could not be written there
                        usage: carfab [OPTIONS] [FILE...] (see 'carfab --help')

                        """, status: 64))
        // A link reached through another link is judged where it lies.
        #expect(symlink("sticky/planted", dir.appendingPathComponent("mine").path) == 0)
        #expect(
            try carfab(["-e", "save mine"], directory: dir).stderr.hasPrefix(
                "<command-line>:1:6: error: cannot save 'mine': the symbolic link 'sticky/planted' belongs to another user (uid 65534)"))
        // Root's file is as it was, nothing was created, no temporary file is left.
        #expect(try String(contentsOf: sticky.appendingPathComponent("victim"), encoding: .utf8) == "secret\n")
        var info = stat()
        #expect(stat(sticky.appendingPathComponent("victim").path, &info) == 0 && info.st_mode & 0o7777 == 0o600)
        #expect(try names(in: sticky) == "planted\nplanted-new\nvictim\n")
    }

    @Test(.enabled(if: getuid() == 0, "only root can act as another user"))
    func a_link_of_the_writer_or_of_the_folders_owner_is_followed_in_a_sticky_folder() throws {
        let dir = try temporaryDirectory(with: [:])
        // Root's own link in root's sticky folder; nobody's link in nobody's sticky folder.
        let made = try shell(
            """
            mkdir -m 1777 roots theirs && chown 65534:65534 theirs &&
            ln -s own-target roots/own &&
            setpriv --reuid=65534 --regid=65534 --clear-groups ln -s their-target theirs/link
            """, directory: dir)
        #expect(made == RunResult(stdout: "", stderr: "", status: 0))
        #expect(
            try carfab(["-e", "car suv; save roots/own; save theirs/link"], directory: dir) == RunResult(stdout: "", stderr: "", status: 0))
        let saved = "# carfab session, saved by carfab 0.1.0\ncar suv 1\n"
        #expect(try String(contentsOf: dir.appendingPathComponent("roots/own-target"), encoding: .utf8) == saved)
        #expect(try String(contentsOf: dir.appendingPathComponent("theirs/their-target"), encoding: .utf8) == saved)
    }

    // MARK: Folders another user owns

    /// A report `save` could not write for want of permission is refused before any test runs,
    /// as it is for nobody (uid 65534): into root's folder, which it may not write in (EACCES),
    /// and over root's file in a sticky folder, which only the file's or the folder's owner
    /// may rename over (EPERM). Each ran every test, then failed to write the report with a
    /// failed test's status (review of b1c2af9). Into a folder it may not search (EACCES), which
    /// was called a folder that is not there. Its own file in the sticky folder, and its own
    /// folder, are written.
    @Test(.enabled(if: getuid() == 0, "only root can act as another user"))
    func junit_where_this_user_may_not_write_is_refused_before_the_tests() throws {
        let dir = try testFolder()
        let made = try shell(
            """
            mkdir -m 755 closed mine && mkdir -m 700 hidden hidden/in && chown 65534:65534 mine && mkdir -m 1777 sticky &&
            echo old > sticky/roots.xml && chmod 666 sticky/roots.xml &&
            setpriv --reuid=65534 --regid=65534 --clear-groups touch sticky/own.xml
            """, directory: dir)
        #expect(made == RunResult(stdout: "", stderr: "", status: 0))
        let asNobody = "exec setpriv --reuid=65534 --regid=65534 --clear-groups \"$CARFAB\" --test t --junit"
        // A folder it may not search is there: not "there is no folder 'hidden/in'".
        for (path, reason) in [
            ("closed/r.xml", "Permission denied"), ("sticky/roots.xml", "Operation not permitted"), ("hidden/in/r.xml", "Permission denied")
        ] {
            #expect(
                try shell("\(asNobody) \(path)", directory: dir)
                    == RunResult(
                        stdout: "",
                        stderr: """
                            carfab: error: --junit \(path): \(reason); the report could not be written there
                            usage: carfab [OPTIONS] [FILE...] (see 'carfab --help')

                            """, status: 64))
        }
        #expect(try String(contentsOf: dir.appendingPathComponent("sticky/roots.xml"), encoding: .utf8) == "old\n")
        for path in ["sticky/own.xml", "mine/r.xml"] {
            let written = try shell("\(asNobody) \(path)", directory: dir)
            #expect(written.stdout == "ok t/a.carfab (1 expect)\n1 passed, 0 failed\n" && written.status == 0, "\(written)")
            #expect(try String(contentsOf: dir.appendingPathComponent(path), encoding: .utf8).hasPrefix("<?xml"))
        }
        #expect(try names(in: dir.appendingPathComponent("closed")) == "")
    }

    // MARK: Streams

    /// A planted link is refused wherever it stands in the name: as a folder on the way too
    /// (`save dirlink/x` wrote root's file where nobody's link pointed; trial 14, 1). One's own
    /// link to a folder, `.` and `..` on the way, and an absolute name are walked as before.
    @Test(.enabled(if: getuid() == 0, "only root can act as another user"))
    func a_planted_link_to_a_folder_on_the_way_is_not_followed() throws {
        let dir = try testFolder()
        let made = try shell(
            """
            mkdir sticky target own own/sub && chmod 1777 sticky &&
            setpriv --reuid=65534 --regid=65534 --clear-groups ln -s ../target sticky/dirlink && ln -s own mine
            """, directory: dir)
        #expect(made == RunResult(stdout: "", stderr: "", status: 0))
        let refusal =
            "the symbolic link 'sticky/dirlink' belongs to another user (uid 65534) and is in a sticky folder anyone may write to; it is not followed"
        let save = try carfab(["-e", "car suv; save sticky/dirlink/x.carfab"], directory: dir)
        #expect(save.status == 1)
        #expect(save.stderr.hasPrefix("<command-line>:1:15: error: cannot save 'sticky/dirlink/x.carfab': \(refusal)\n"), "\(save)")
        let junit = try carfab(["--test", "t", "--junit", "sticky/dirlink/j.xml"], directory: dir)
        #expect(
            junit
                == RunResult(
                    stdout: "",
                    stderr: """
                        carfab: error: --junit sticky/dirlink/j.xml: \(refusal); the report could not be written there
                        usage: carfab [OPTIONS] [FILE...] (see 'carfab --help')

                        """, status: 64))
        #expect(try names(in: dir.appendingPathComponent("target")) == "")
        let mine = try carfab(
            ["-e", "car suv; save mine/sub/a.carfab; save ./own/../own/./sub/b.carfab; save \(dir.path)/own/c.carfab"], directory: dir)
        #expect(mine == RunResult(stdout: "", stderr: "", status: 0))
        #expect(try names(in: dir.appendingPathComponent("own/sub")) == "a.carfab\nb.carfab\n")
        #expect(FileManager.default.fileExists(atPath: dir.path + "/own/c.carfab"))
    }

    /// A file this user may not write is not replaced, though its folder would let a rename
    /// replace it (trial 14, 3: nobody's `save` replaced nobody's 0444 file): as a shell's
    /// redirection refuses it. Root may write it, as root's redirection may.
    @Test(.enabled(if: getuid() == 0, "only root can act as another user"))
    func a_read_only_file_is_not_replaced_by_a_user_who_may_not_write_it() throws {
        let dir = try testFolder()
        let made = try shell(
            "echo old > ro.carfab && chmod 444 ro.carfab && chown 65534:65534 ro.carfab && chmod 777 .", directory: dir)
        #expect(made == RunResult(stdout: "", stderr: "", status: 0))
        let nobody = try shell(
            "setpriv --reuid=65534 --regid=65534 --clear-groups \"$CARFAB\" -e 'car suv; save ro.carfab'", directory: dir)
        #expect(
            nobody
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:15: error: cannot save 'ro.carfab': Permission denied
                        car suv; save ro.carfab
                                      ^~~~~~~~~

                        """, status: 1))
        let junit = try shell(
            "setpriv --reuid=65534 --regid=65534 --clear-groups \"$CARFAB\" --test t --junit ro.carfab", directory: dir)
        #expect(junit.status == 64 && junit.stdout == "", "\(junit)")
        #expect(junit.stderr.hasPrefix("carfab: error: --junit ro.carfab: Permission denied; the report could not be written there\n"))
        #expect(try String(contentsOf: dir.appendingPathComponent("ro.carfab"), encoding: .utf8) == "old\n")
        #expect(try carfab(["-e", "car suv; save ro.carfab"], directory: dir).status == 0)
    }

    @Test(arguments: ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", "to-stdout", "/proc/$$/fd/1"])
    func save_to_standard_output_is_refused_and_what_was_written_stays(path: String) throws {
        let dir = try temporaryDirectory(with: [:])
        #expect(symlink("/dev/stdout", dir.appendingPathComponent("to-stdout").path) == 0)
        // The shell's own output is the file too, so /proc/$$/fd/1 (another process's) is the same stream.
        let result = try shell("exec > out; \"$CARFAB\" -e \"echo before; save \(path)\"; echo \"status $?\"", directory: dir)
        let shown = path.replacingOccurrences(of: "$$", with: "[0-9]*")
        #expect(result.stdout == "")
        #expect(
            result.stderr.range(
                of: """
                    ^<command-line>:1:19: error: cannot save '\(shown)': it is a process's open stream \\(a link in /proc\\), not a file; use 'save -' to print the script\\n
                    """, options: .regularExpression) != nil, "\(result.stderr)")
        #expect(try String(contentsOf: dir.appendingPathComponent("out"), encoding: .utf8) == "before\nstatus 1\n")
        #expect(try names(in: dir) == "out\nto-stdout\n")
    }

    @Test func save_to_standard_error_is_refused_and_what_was_written_stays() throws {
        let dir = try temporaryDirectory(with: [:])
        let result = try shell("\"$CARFAB\" -e 'car nosuch; save /dev/stderr' --keep-going 2> err; echo \"status $?\"", directory: dir)
        #expect(result == RunResult(stdout: "status 1\n", stderr: "", status: 0))
        #expect(
            try String(contentsOf: dir.appendingPathComponent("err"), encoding: .utf8) == """
                <command-line>:1:5: error: unknown model 'nosuch'; valid models: compact, sports, suv
                car nosuch; save /dev/stderr
                    ^~~~~~
                <command-line>:1:18: error: cannot save '/dev/stderr': it is a process's open stream (a link in /proc), not a file; use 'save -' to print the script
                car nosuch; save /dev/stderr
                                 ^~~~~~~~~~~

                """)
    }

    /// The run's standard output or error, by any name, is a usage error before any test runs
    /// (trial 12, 5: every test ran, then the report was refused with status 1).
    @Test(arguments: [("/dev/stdout", "> out"), ("/dev/stderr", "2> out"), ("/dev/fd/1", "> out")])
    func a_junit_report_cannot_share_standard_output_or_error(path: String, redirection: String) throws {
        let dir = try testFolder()
        let result = try shell("exec \"$CARFAB\" --test t --junit \(path) \(redirection)", directory: dir)
        #expect(result.status == 64)
        let stream = path == "/dev/stderr" ? "standard error" : "standard output"
        let message =
            "carfab: error: --junit \(path): it is the \(stream) of this run, which the report cannot share\n"
            + "usage: carfab [OPTIONS] [FILE...] (see 'carfab --help')\n"
        let out = try String(contentsOf: dir.appendingPathComponent("out"), encoding: .utf8)
        #expect(result.stdout == "")
        #expect((path == "/dev/stderr" ? out : result.stderr) == message)
        #expect((path == "/dev/stderr" ? result.stderr : out) == "")
    }

    /// Another process stream (a descriptor the shell opened) is refused as `save` refuses it,
    /// before any test runs: a usage error.
    @Test func a_junit_report_to_another_open_stream_is_not_written() throws {
        let dir = try testFolder()
        let result = try shell("exec \"$CARFAB\" --test t --junit /dev/fd/3 3> out", directory: dir)
        #expect(
            result
                == RunResult(
                    stdout: "",
                    stderr: """
                        carfab: error: --junit /dev/fd/3: it is a process's open stream (a link in /proc), not a file; the report could not be written there
                        usage: carfab [OPTIONS] [FILE...] (see 'carfab --help')

                        """, status: 64))
        #expect(try String(contentsOf: dir.appendingPathComponent("out"), encoding: .utf8) == "")
    }

    // MARK: Names

    @Test func a_junit_name_that_is_not_utf8_is_written_as_given() throws {
        let dir = try testFolder()
        let result = try shell("exec \"$CARFAB\" --test t --junit $'report\\xff.xml'", directory: dir)
        #expect(result.status == 0)
        #expect(try names(in: dir) == "$'report\\377.xml'\nt\n")
    }

    @Test func save_through_a_link_to_a_name_that_is_not_utf8_writes_that_name() throws {
        let dir = try temporaryDirectory(with: [:])
        let result = try shell("ln -s $'fleet\\xfe.carfab' link && exec \"$CARFAB\" -e 'car suv; save link'", directory: dir)
        #expect(result == RunResult(stdout: "", stderr: "", status: 0))
        #expect(try names(in: dir) == "$'fleet\\376.carfab'\nlink\n")
        #expect(try shell("cat $'fleet\\xfe.carfab'", directory: dir).stdout == "# carfab session, saved by carfab 0.1.0\ncar suv 1\n")
    }

    @Test(arguments: [247, 255])
    func save_and_junit_write_a_name_of_any_valid_length(length: Int) throws {
        let dir = try testFolder()
        let name = String(repeating: "n", count: length - 4) + ".xml"
        #expect(try carfab(["-e", "car suv; save \(name)"], directory: dir) == RunResult(stdout: "", stderr: "", status: 0))
        #expect(
            try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
                == "# carfab session, saved by carfab 0.1.0\ncar suv 1\n")
        try FileManager.default.removeItem(at: dir.appendingPathComponent(name))
        let junit = try carfab(["--test", "t", "--junit", name], directory: dir)
        #expect(junit.status == 0 && untimed(junit.stderr) == "", "\(junit.stderr)")
        #expect(try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8).hasPrefix("<?xml"))
        #expect(try names(in: dir) == "\(name)\nt\n")
    }
}
