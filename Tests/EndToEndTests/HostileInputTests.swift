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
        #expect(
            stopped.stderr.hasPrefix("<stdin>:1:1: error: line longer than the limit of 1024 KiB (1048576 bytes); it is skipped\necho yyyy")
        )
        #expect(stopped.stderr.utf8.count < 400)
        let going = try carfab(["--keep-going"], stdin: script)
        #expect(going.status == 1 && going.stdout == "after\n")
    }

    @Test func an_error_deep_in_a_long_line_shows_a_window_around_it() throws {
        let padding = String(repeating: "echo x; ", count: 100)
        let result = try carfab(["-e", padding + "car sprots; " + padding])
        #expect(
            result.stderr == """
                <command-line>:1:805: error: unknown model 'sprots'; did you mean 'sports'?
                ... x; echo x; echo x; car sprots; echo x; echo x; echo x; echo x; echo x; ec...
                                           ^~~~~~

                """)
        #expect(result.status == 1)
    }

    @Test func a_byte_order_mark_and_crlf_line_ends_are_accepted() throws {
        let result = try carfab([], stdinData: Data([0xEF, 0xBB, 0xBF] + Array("car suv 2\r\ntotal GBP\r\ncar sprots\r\n".utf8)))
        #expect(
            result
                == RunResult(
                    stdout: "2 Cars in Stock. Total Value: £98,827.61\n",
                    stderr: """
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
        (
            "car suv 92233720368547759",
            "1:9: error: count too large: 92233720368547759 cars would take the stock's value past the largest amount, $92,233,720,368,547,758.07"
        ),
        ("car suv 0", "1:9: error: '0' is not a count (a whole number from 1)"),
        ("car suv -2", "1:9: error: '-2' is not a count (a whole number from 1)"),
        ("select 99999999999999999999", "1:8: error: '99999999999999999999' is too large"),
        ("rate gbp 99999999999999999999", "1:10: error: '99999999999999999999' is too large"),
        ("rate gbp 0.0", "1:10: error: rate '0.0' is not a positive decimal"),
        ("rate jpy 1e9", "1:10: error: '1e9' is not a decimal number"),
        ("option drivetrain x \"X\" price 999999999999999999", "1:31: error: '999999999999999999' is too large")
    ])
    func numbers_beyond_range_are_errors(line: String, error: String) throws {
        let result = try carfab(["-e", line])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("<command-line>:\(error)"), "\(result.stderr)")
    }

    @Test func money_overflow_in_a_change_leaves_the_car_as_it_was() throws {
        let result = try carfab([
            "--keep-going", "-e",
            """
            model m "M" price 92233720368547758 floorplan standard suspension road drivetrain front
            car m; set drivetrain 4wd; expect drive front; price
            """
        ])
        #expect(result.stdout == "$92,233,720,368,547,758.00\n")
        #expect(result.stderr.hasPrefix("<command-line>:2:23: error: amount too large: the value would overflow\n"))
        #expect(result.status == 1)
    }

    @Test func unreadable_files_are_errors() throws {
        let dir = try temporaryDirectory(with: ["secret.carfab": "echo hidden\n"])
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("folder"), withIntermediateDirectories: true)
        #expect(
            try carfab(["folder"], directory: dir)
                == RunResult(stdout: "", stderr: "carfab: error: cannot read 'folder': it is a directory\n", status: 1))
        #expect(
            try carfab(["-e", "source folder"], directory: dir).stderr.hasPrefix(
                "<command-line>:1:8: error: cannot read 'folder': it is a directory\n"))
        chmod(dir.appendingPathComponent("secret.carfab").path, 0)
        let arguments = ["-e", "source secret.carfab"]
        let result =
            getuid() == 0
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
        // carfab has read the line (the pipe holds nothing unread) and waits for the next.
        let pipe = input.fileHandleForWriting.fileDescriptor
        #expect(
            waitUntilBlockedReading(process.processIdentifier) {
                var unread: Int32 = 0
                return ioctl(pipe, UInt(FIONREAD), &unread) == 0 && unread == 0
            })
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

/// Odd bytes in names and scripts are shown escaped; limits count what a line holds; work on
/// hostile input stays linear or bounded.
@Suite struct HostileTextTests {
    @Test func control_characters_in_a_name_are_shown_escaped_on_one_line() throws {
        let result = try carfab([], stdinData: Data("car \"red\u{1B}[31m\"\ncar \"a\\nb\u{202E}\"\n".utf8), environment: [:])
        #expect(
            result.stderr == """
                <stdin>:1:5: error: unknown model 'red\\e[31m'; valid models: compact, sports, suv
                car "red\\e[31m"
                    ^~~~~~~~~~~

                """)
        let going = try carfab(["--keep-going"], stdinData: Data("car \"a\\nb\u{202E}\"\n".utf8))
        #expect(
            going.stderr == """
                <stdin>:1:5: error: unknown model 'a\\nb\\u{202E}'; valid models: compact, sports, suv
                car "a\\nb\\u{202E}"
                    ^~~~~~~~~~~~~~

                """)
    }

    @Test func a_file_name_with_control_characters_is_shown_escaped() throws {
        let dir = try temporaryDirectory(with: ["bad\u{1B}]0;owned\u{07}.carfab": "car sprots\n"])
        let result = try carfab(["bad\u{1B}]0;owned\u{07}.carfab"], directory: dir)
        #expect(result.stderr.hasPrefix("bad\\e]0;owned\\x07.carfab:1:5: error: unknown model 'sprots'"))
        #expect(!result.stderr.contains("\u{1B}"))
    }

    @Test func invalid_utf8_in_command_line_text_is_an_error_at_the_byte() throws {
        let result = try shell("\"$CARFAB\" -e \"$(printf 'echo a\\377b')\"")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("<command-line>:1:7: error: invalid UTF-8 (byte 0xFF)\n"))
    }

    @Test func a_file_name_that_is_not_utf8_opens() throws {
        let dir = try temporaryDirectory(with: [:])
        let result = try shell("name=$(printf 'f\\351.carfab'); echo 'echo named' > \"$name\"; \"$CARFAB\" \"$name\"", directory: dir)
        #expect(result == RunResult(stdout: "named\n", stderr: "", status: 0))
    }

    @Test func comments_are_checked_for_nul_and_invalid_utf8() throws {
        let nul = try carfab([], stdinData: Data(Array("echo ok # a".utf8) + [0, 0x0A]))
        #expect(nul.stdout == "" && nul.status == 1)
        #expect(nul.stderr.hasPrefix("<stdin>:1:12: error: NUL byte in input\n"))
        let bad = try carfab([], stdinData: Data(Array("echo ok # a".utf8) + [0xC3, 0x28, 0x0A]))
        #expect(bad.stderr.hasPrefix("<stdin>:1:12: error: invalid UTF-8 (byte 0xC3)\n"))
    }

    @Test func the_line_limit_counts_what_the_line_holds() throws {
        // Exactly 1 MiB of content over two physical lines, joined by `\` CR LF, each ending in CR LF.
        let first = String(repeating: "y", count: 600_000)
        let second = String(repeating: "z", count: 1_048_576 - 6 - 600_000)
        let script = "echo \(first) \\\r\n\(second)\r\necho after\r\n"
        let fits = try carfab([], stdin: script)
        #expect(fits == RunResult(stdout: "\(first) \(second)\nafter\n", stderr: "", status: 0))
        let over = try carfab(["--keep-going"], stdin: "echo \(first) \\\r\n\(second)z\r\necho after\r\n")
        #expect(over.stdout == "after\n" && over.status == 1)
        #expect(over.stderr.hasPrefix("<stdin>:1:1: error: line longer than the limit of 1024 KiB (1048576 bytes); it is skipped\n"))
    }

    @Test func a_continued_line_over_the_limit_is_dropped_whole() throws {
        // 20 physical lines of 60,000 bytes in one string: the line is dropped to its end,
        // and what follows it runs.
        let piece = String(repeating: "q", count: 60_000)
        let script = "echo \"" + String(repeating: piece + "\n", count: 20) + "\"\necho after\n"
        let result = try carfab(["--keep-going"], stdin: script)
        #expect(result.stdout == "after\n" && result.status == 1)
        #expect(result.stderr.components(separatedBy: "error:").count == 2)
    }

    @Test func forty_thousand_continued_lines_and_eighty_thousand_quoted_line_breaks() throws {
        let continued = "echo" + String(repeating: " w \\\n", count: 40_000) + "\n"
        #expect(try carfab([], stdin: continued).stdout == Array(repeating: "w", count: 40_000).joined(separator: " ") + "\n")
        let quoted = "echo \"" + String(repeating: "\n", count: 80_000) + "\" done\n"
        #expect(try carfab([], stdin: quoted).stdout == String(repeating: "\n", count: 80_000) + " done\n")
    }

    @Test func unknown_names_get_bounded_messages() throws {
        let long = String(repeating: "x", count: 40_000)
        let result = try carfab(["-e", "car \(long)"])
        #expect(
            result.stderr.hasPrefix(
                "<command-line>:1:5: error: unknown model '\(String(repeating: "x", count: 60))...'; valid models: compact, sports, suv\n"))
        let models = (0..<40).map { "model m\($0) \"M\" price 9000 floorplan short suspension race drivetrain rear" }.joined(
            separator: "\n")
        let many = try carfab(["-e", models + "\ncar zzzzzzzzz"])
        let listed = (["compact", "sports", "suv"] + (0..<29).map { "m\($0)" }).joined(separator: ", ")
        #expect(many.stderr.hasPrefix("<command-line>:41:5: error: unknown model 'zzzzzzzzz'; valid models: \(listed) and 11 more\n"))
    }

    @Test func a_rule_is_checked_against_the_stock_as_it_changes() throws {
        let result = try carfab([
            "--keep-going", "-e",
            """
            car suv; car sports; set drivetrain 4wd
            forbid suspension race with drivetrain 4wd
            set drivetrain rear
            forbid suspension race with drivetrain 4wd
            set drivetrain 4wd
            forbid suspension offroad with drivetrain front
            select 1; set drivetrain front
            expect drive 4wd; total
            """
        ])
        #expect(result.stdout == "2 Cars in Stock. Total Value: $150,195.00\n")
        #expect(
            result.stderr == """
                <command-line>:2:1: error: stock line 2 already breaks this rule: race suspension cannot go with the 4wd drivetrain
                forbid suspension race with drivetrain 4wd
                ^~~~~~
                <command-line>:5:16: error: race suspension cannot go with the 4wd drivetrain
                set drivetrain 4wd
                               ^~~
                <command-line>:4: note: the rule 'forbid suspension race with drivetrain 4wd' is defined here
                note: no other drivetrain option is allowed for this car
                note: 'fit drivetrain 4wd' would also set suspension road (+$100.00)
                <command-line>:7:26: error: offroad suspension cannot go with the front drivetrain
                select 1; set drivetrain front
                                         ^~~~~
                <command-line>:6: note: the rule 'forbid suspension offroad with drivetrain front' is defined here
                note: drivetrain options allowed for this car: rear (-$2,500.00)
                note: 'fit drivetrain front' would also set suspension road (-$5,800.00)

                """)
    }

    @Test func a_line_just_over_the_limit_is_skipped_to_its_end_with_keep_going() throws {
        // Its end falls in the next chunk read: it once came back as a line of its own.
        for over in [1, 20, 60_000] {
            let directory = try temporaryDirectory(with: [
                "long.carfab": "echo " + String(repeating: "x", count: 1_048_576 - 5 + over) + ";echo INJECTED\ncar nosuch\n"
            ])
            let run = try carfab(["--keep-going", "long.carfab"], directory: directory)
            #expect(!run.stdout.contains("INJECTED"), "over by \(over)")
            #expect(run.stderr.contains("long.carfab:2:5: error: unknown model 'nosuch'"), "over by \(over): \(run.stderr.prefix(300))")
        }
    }

    @Test func expansion_bombs_end_cleanly_in_a_few_hundred_megabytes() throws {
        // A 512 KiB variable from 20 lines, then put in 10,000 times: once 5 GB and an abort (status 134).
        let bomb = "var a x\n" + String(repeating: "var a $a$a\n", count: 19)
        let directory = try temporaryDirectory(with: [
            "echo.carfab": bomb + "echo" + String(repeating: " $a", count: 10_000) + "\necho never\n",
            "car.carfab": bomb + "car" + String(repeating: " $a", count: 10_000) + "\n",
            "var.carfab": bomb + (0..<4_000).map { "var v\($0) $a\n" }.joined(),
            "model.carfab": bomb
                + (0..<4_000).map { "model m\($0)$a \"M\" price 9 floorplan short suspension race drivetrain rear\n" }.joined()
        ])
        let shown = String(repeating: " $a", count: 23) + " ..."
        let expected: [(String, String)] = [
            (
                "echo.carfab",
                """
                echo.carfab:21:12: error: the words of this line grow past 1 MiB in all once their variables are put in
                echo\(shown)
                           ^~

                """
            ),
            (
                "car.carfab",
                """
                car.carfab:21:5: error: unknown model '\(String(repeating: "x", count: 60))...'; valid models: compact, sports, suv
                car\(String(repeating: " $a", count: 23)) $...
                    ^~

                """
            ),
            (
                "var.carfab",
                """
                var.carfab:51:9: error: the variables would hold more than 16 MiB in all (names and values, and 128 bytes each); the variable is left as it was
                var v30 $a
                        ^~

                """
            ),
            (
                "model.carfab",
                """
                model.carfab:21:7: error: a name or text longer than 4 KiB (4096 bytes) as save writes it (quotes and escapes counted: \\u{1} is 5 bytes for one character)
                model m0$a "M" price 9 floorplan short suspension race drivetrain rear
                      ^~~~

                """
            )
        ]
        for (file, stderr) in expected {
            let run = try shell("ulimit -v 300000; \"$CARFAB\" \(file)", directory: directory)
            #expect(run == RunResult(stdout: "", stderr: stderr, status: 1), "\(file)")
        }
        // Going on after each error, the whole file runs in the same few hundred megabytes.
        for file in ["var.carfab", "model.carfab"] {
            let run = try shell(
                "ulimit -v 300000; \"$CARFAB\" --keep-going \(file) 2>&1 >/dev/null | grep -c ': error: '; echo \"${PIPESTATUS[0]}\"",
                directory: directory)
            #expect(run.stdout == (file == "var.carfab" ? "3970\n1\n" : "4000\n1\n"), "\(file): \(run)")
        }
    }
}
