import Foundation
import Testing

/// The small mismatches a new user's trial found (trial-findings #11 and the end of #12):
/// each message says what the problem is, each id names it, and the documented rule holds.
@Suite struct TrialMessageTests {
    @Test func source_cycles_and_depth_have_ids_of_their_own_not_io() throws {
        var files = ["a.carfab": "source b.carfab\n", "b.carfab": "source a.carfab\n", "self.carfab": "diff self.carfab\n"]
        for n in 0..<70 { files["f\(n).carfab"] = "source f\(n + 1).carfab\n" }
        let dir = try temporaryDirectory(with: files)
        let cycle = try carfab(["--format", "json", "a.carfab"], directory: dir)
        #expect(
            cycle
                == RunResult(
                    stdout: "",
                    stderr:
                        #"{"type":"error","id":"source-cycle","severity":"error","file":"b.carfab","line":1,"column":8,"end_column":16,"message":"'source' cycle: a.carfab -> b.carfab -> a.carfab","source":"source a.carfab","source_column":1,"included_from":["a.carfab:1"],"notes":[],"fixits":[]}"#
                        + "\n", status: 1))
        // `diff`'s files count as `source`'s, and so does their id.
        #expect(
            try carfab(["--format", "json", "self.carfab"], directory: dir)
                == RunResult(
                    stdout: "",
                    stderr:
                        #"{"type":"error","id":"source-cycle","severity":"error","file":"self.carfab","line":1,"column":6,"end_column":17,"message":"'diff' cycle: self.carfab -> self.carfab","source":"diff self.carfab","source_column":1,"included_from":[],"notes":[],"fixits":[]}"#
                        + "\n", status: 1))
        let deep = try carfab(["--format", "json", "-e", "source f0.carfab"], directory: dir)
        #expect(deep.status == 1 && deep.stdout == "")
        #expect(
            deep.stderr.hasPrefix(#"{"type":"error","id":"source-depth","severity":"error","file":"f62.carfab","#),
            "\(deep.stderr.prefix(200))")
        #expect(deep.stderr.split(separator: "\n").count == 1)
    }

    @Test func saving_to_a_folder_that_is_not_there_says_so() throws {
        let dir = try temporaryDirectory(with: [:])
        // It said "Is a directory", of a folder that does not exist.
        #expect(
            try carfab(["-e", "car suv; save nodir/"], directory: dir)
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:15: error: cannot save 'nodir/': it names a folder (it ends in '/'), and there is no such folder
                        car suv; save nodir/
                                      ^~~~~~

                        """, status: 1))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test func safe_mode_compares_standard_input_as_it_sources_it_but_no_file() throws {
        let dir = try temporaryDirectory(with: ["a.carfab": "car suv\n"])
        // grammar.md: with --safe "`-`, standard input or output, is allowed"; it was refused.
        #expect(
            try carfab(["--safe", "-e", "car suv; diff -"], stdin: "car suv\n", directory: dir)
                == RunResult(stdout: "", stderr: "", status: 0))
        #expect(
            try carfab(["--safe", "-e", "diff -"], stdin: "car suv\n", directory: dir)
                == RunResult(
                    stdout: """
                        change   what          name  first                   second          difference
                        removed  line          1     car suv 1 ($81,895.00)                 -$81,895.00
                        changed  current line        1                       none
                        changed  total               1 car, $81,895.00       0 cars, $0.00  -$81,895.00

                        """, stderr: "", status: 0))
        // A real file is still refused, before standard input is read.
        for line in ["diff a.carfab", "diff - a.carfab", "diff a.carfab -"] {
            #expect(
                try carfab(["--safe", "-e", line], stdin: "car suv\n", directory: dir)
                    == RunResult(
                        stdout: "",
                        stderr: "<command-line>:1:1: error: 'diff' touches files and is refused by --safe\n\(line)\n^~~~\n", status: 1))
        }
        // A script read from standard input cannot hand it to `diff` too, as to `source`.
        #expect(
            try carfab([], stdin: "diff -\n", directory: dir)
                == RunResult(
                    stdout: "",
                    stderr: """
                        <stdin>:1:6: error: standard input is already being read: it holds the script that runs 'diff -'
                        diff -
                             ^

                        """, status: 1))
    }

    @Test func a_timeout_is_shown_as_a_plain_decimal() throws {
        // t.carfab waits for ever in `source` of a FIFO nobody writes: it always times out.
        let dir = try temporaryDirectory(with: ["t.carfab": "source fifo\n"])
        let run = try shell("mkfifo fifo; exec \"$CARFAB\" --test t.carfab --timeout 0.0000000001", directory: dir)
        // It said "timed out after 1e-10 s". (Standard error holds the time taken, which varies.)
        #expect(run.stdout == "FAIL t.carfab\n    (timed out after 0.0000000001 s)\n0 passed, 1 failed\n" && run.status == 1, "\(run)")
        #expect(run.stderr.hasPrefix("carfab: 1 test file in ") && run.stderr.hasSuffix(" s\n"), "\(run)")
    }

    @Test func try_refuses_quit_which_it_could_not_take_back() throws {
        // It printed the table of no change, took the quit back and went on, status 0.
        for (line, column) in [("car suv; try quit 3; echo after", 14), ("try exit", 5)] {
            let word = line.contains("exit") ? "exit" : "quit"
            #expect(
                try carfab(["-e", line])
                    == RunResult(
                        stdout: "",
                        stderr: """
                            <command-line>:1:\(column): error: 'try' tries a change and takes it back, and 'quit' ends the session, which could not be taken back
                            \(line)
                            \(String(repeating: " ", count: column - 1))^~~~

                            """, status: 1), "\(line) \(word)")
        }
        // `try source FILE` still tries a file that quits: that ends only the file.
        let dir = try temporaryDirectory(with: ["q.carfab": "car suv\nquit 3\ncar suv\n"])
        #expect(
            try carfab(["-e", "try source q.carfab; echo after"], directory: dir)
                == RunResult(
                    stdout:
                        "        cars  total value\nbefore     0        $0.00\nafter      1   $81,895.00\nchange    +1  +$81,895.00\nafter\n",
                    stderr: "", status: 0))
    }

    @Test func too_many_steps_to_undo_is_said_at_the_number() throws {
        #expect(
            try carfab(["-e", "begin; car suv; undo 1073741824"])
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:22: error: only 1 step to undo since 'begin'
                        begin; car suv; undo 1073741824
                                             ^~~~~~~~~~
                        note: the open transaction was rolled back

                        """, status: 1))
        #expect(
            try carfab(["-e", "begin; car suv; undo; redo 2"])
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:28: error: only 1 step to redo
                        begin; car suv; undo; redo 2
                                                   ^
                        note: the open transaction was rolled back

                        """, status: 1))
    }

    @Test func a_very_long_file_name_is_cut_in_the_message() throws {
        let name = String(repeating: "x", count: 1_000_000)
        let cut = String(repeating: "x", count: 60) + "..."
        for (command, message) in [
            ("source", "cannot open '\(cut)': File name too long"),
            ("diff", "cannot open '\(cut)': File name too long"),
            ("save", "cannot save '\(cut)': File name too long")
        ] {
            let result = try carfab([], stdin: "\(command) \(name)\n")
            // The message quoted the whole name: a diagnostic of 1,000,175 bytes.
            #expect(result.stdout == "" && result.status == 1)
            #expect(result.stderr.hasPrefix("<stdin>:1:\(command.count + 2): error: \(message)\n"), "\(result.stderr.prefix(300))")
            #expect(result.stderr.utf8.count < 400, "\(command): \(result.stderr.utf8.count) bytes")
        }
    }

    @Test func check_follows_diff_into_its_files_as_it_follows_source() throws {
        let dir = try temporaryDirectory(with: ["bad.carfab": "car nosuch\n", "good.carfab": "car suv\n"])
        // A missing file and an error in a compared file passed unseen (exit 0).
        #expect(
            try carfab(["--check", "--keep-going", "-e", "diff nosuch.carfab", "-e", "diff good.carfab bad.carfab"], directory: dir)
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line 1>:1:6: error: cannot open 'nosuch.carfab': No such file or directory
                        diff nosuch.carfab
                             ^~~~~~~~~~~~~
                        <command-line 2>:1:18: error: cannot load 'bad.carfab' to compare: bad.carfab:1: unknown model 'nosuch'; valid models: compact, sports, suv
                        diff good.carfab bad.carfab
                                         ^~~~~~~~~~

                        """, status: 1))
        // Files that check clean print nothing: checking compares nothing.
        #expect(try carfab(["--check", "-e", "diff good.carfab"], directory: dir) == RunResult(stdout: "", stderr: "", status: 0))
    }

    @Test func the_language_server_with_its_output_closed_says_so_at_once() throws {
        // It waited for the input's end, then said "the input ended without 'exit'".
        #expect(
            try shell("exec \"$CARFAB\" --lsp </dev/null >&-")
                == RunResult(stdout: "", stderr: "carfab: write error: Bad file descriptor\n", status: 1))
        #expect(
            try shell("exec \"$CARFAB\" --lsp </dev/null >/dev/null")
                == RunResult(stdout: "", stderr: "carfab: lsp: the input ended without 'exit'\n", status: 1))
    }
}
