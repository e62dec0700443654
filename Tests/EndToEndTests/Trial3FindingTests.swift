import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The findings of the third trial of main (trial3 T1 ... T10), each shown fixed end to end.
@Suite struct Trial3FindingTests {
    /// T1: `why` and `fit` quote catalog names in sentences; a name must not drive the terminal
    /// (escaped as every message is), and is cut to 60 characters as names in messages are.
    @Test func why_and_fit_sentences_escape_and_cut_the_names_they_quote() throws {
        let family = #""p\u{1B}]0;T\u{7}""#
        let option = #""w\u{1B}[31m""#
        let hidden = #""h\u{1B}[8m""#
        let script =
            "family \(family) \"P\" default \(option) \"W\" price 5; option drivetrain \(hidden) \"H\" price 1; "
            + "forbid drivetrain \(hidden) with floorplan short; forbid drivetrain \(hidden) with floorplan standard; "
            + "forbid drivetrain \(hidden) with floorplan long; car sports; why \(family) \(option); fit \(family) \(option); "
            + "why drivetrain \(hidden)"
        #expect(
            try carfab(["-e", script])
                == RunResult(
                    stdout: #"""
                        The car has the w\e[31m p\e]0;T\x07 already.
                        The car has the w\e[31m p\e]0;T\x07 already.
                        rule                                                    defined at
                        forbid drivetrain "h\u{1B}[8m" with floorplan short     <command-line>:1
                        forbid drivetrain "h\u{1B}[8m" with floorplan standard  <command-line>:1
                        forbid drivetrain "h\u{1B}[8m" with floorplan long      <command-line>:1
                        No valid car has the h\e[8m drivetrain.

                        """#, stderr: "", status: 0))
        // JSON carries the sentence as it is (JSON escapes it).
        let json = try carfab(["--format", "json", "-e", script])
        #expect(
            json.stdout.hasPrefix(#"{"type":"result","command":"why","text":"The car has the w\u001b[31m p\u001b]0;T\u0007 already."}"#))
        let long = String(repeating: "f", count: 70)
        let longOption = String(repeating: "o", count: 70)
        let cut = String(repeating: "o", count: 60) + "... " + String(repeating: "f", count: 60) + "..."
        #expect(
            try carfab([
                "-e", "family \(long) \"F\" default \(longOption) \"O\"; car sports; why \(long) \(longOption); fit \(long) \(longOption)"
            ])
                == RunResult(stdout: "The car has the \(cut) already.\nThe car has the \(cut) already.\n", stderr: "", status: 0))
    }

    /// T7: every invisible character `save` escapes is shown escaped in messages, source lines
    /// and tables too (the word joiner, the soft hyphen, tags, interlinear annotations, musical
    /// format characters, noncharacters): `sports` and `sports` + U+2060 never look alike.
    @Test func invisible_format_characters_and_noncharacters_are_shown_as_save_writes_them() throws {
        let model = "model \"sports\u{2060}\" \"B\u{AD}x\u{E0041}\" price 10000 floorplan standard suspension race drivetrain rear"
        let result = try carfab([
            "-e", "\(model); car sports; car \"sports\u{2060}\"; list; var v \"a\u{180E}\u{FFF9}\u{1D173}\u{FFFF}b\"; vars"
        ])
        #expect(
            result
                == RunResult(
                    stdout: #"""
                           #  model           car type             floorplan  suspension  drivetrain  count  unit price
                           1  sports          Porsche Boxster      short      race        rear            1  $68,300.00
                        *  2  sports\u{2060}  B\u{00AD}x\u{E0041}  standard   race        rear            1  $10,000.00
                        name  value
                        v     a\u{180E}\u{FFF9}\u{1D173}\u{FFFF}b

                        """#, stderr: "", status: 0))
        #expect(
            try carfab(["-e", "car sports\u{2060}"])
                == RunResult(
                    stdout: "",
                    stderr: #"""
                        <command-line>:1:5: error: unknown model 'sports\u{2060}'; did you mean 'sports'?
                        car sports\u{2060}
                            ^~~~~~~~~~~~~~

                        """#, status: 1))
    }

    /// T3: the 16 MiB bounds on variables and on the catalog count each entry's cost in memory
    /// (128 bytes a variable, 512 a model, 640 a rule, beside their names), so a script of many
    /// tiny entries stops at the bound within 100 MB of address space. Before, 1,000,000 tiny
    /// variables, 400,000 models or 1,000,000 rules ran out of it (each counted 4 to 20 bytes).
    @Test(arguments: [
        (
            "v.carfab", #"for (i = 0; i < 1000000; i++) printf "var v%06d \"\"\n", i"#,
            // 16,777,216 / (7 + 128) = 124,275 variables fit.
            #"""
            v.carfab:124276:13: error: the variables would hold more than 16 MiB in all (names and values, and 128 bytes each); the variable is left as it was
            var v124275 ""
                        ^~

            """#
        ),
        (
            "m.carfab",
            #"for (i = 0; i < 400000; i++) printf "model m%06d \"\" price 90000 floorplan short suspension race drivetrain rear\n", i"#,
            // 16,777,216 / (7 + 512) = 32,326, less what the built-in catalog counts (its
            // rules' file 4,096 bytes once).
            #"""
            m.carfab:32309:7: error: the catalog's definitions would pass 16 MiB (16777216 bytes) in all (their names and texts, and a fixed size each): nothing is defined
            model m032308 "" price 90000 floorplan short suspension race drivetrain rear
                  ^~~~~~~

            """#
        ),
        (
            "r.carfab",
            #"print "family f \"F\" default z \"Z\"\nfamily g \"G\" default z \"Z\""; "#
                + #"for (i = 0; i < 1000; i++) printf "option f f%03d \"\" price 0\noption g g%03d \"\" price 0\n", i, i; "#
                + #"for (i = 0; i < 1000; i++) for (j = 0; j < 1000; j++) printf "forbid f f%03d with g g%03d\n", i, j"#,
            // Each rule counts 640 bytes and its two option names; its file, 4,096 bytes once.
            #"""
            r.carfab:27462:1: error: the catalog's definitions would pass 16 MiB (16777216 bytes) in all (their names and texts, and a fixed size each): nothing is defined
            forbid f f025 with g g459
            ^~~~~~

            """#
        )
    ])
    func many_tiny_entries_stop_at_the_bound_in_tens_of_mebibytes(file: String, generator: String, error: String) throws {
        let directory = try temporaryDirectory(with: [:])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try shell(
            "awk 'BEGIN { \(generator) }' > \(file) && prlimit --as=100000000 \"$CARFAB\" \(file)", directory: directory)
        #expect(result == RunResult(stdout: "", stderr: error, status: 1))
    }

    /// T2: what the init file defines is the catalog the session began with, as a --catalog
    /// file's: `save` and `save --minimal` leave it out, so the saved session replays where the
    /// init file runs again (it said "family 'paint' is already defined"), and `diff` finds
    /// the replay the same session. Its variables are saved (set again, to the same values).
    @Test func a_session_saved_after_an_init_file_replays_where_the_init_file_runs() throws {
        let directory = try temporaryDirectory(with: [
            "init.carfab": "family paint \"Paint\" default white \"White\"\noption paint red \"Red\" price 500\nvar who me\nrate GBP 0.5\n"
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let saved = try carfab(
            ["--init", "init.carfab", "-e", "car sports; set paint red; save s.carfab; save --minimal -; diff s.carfab; echo same"],
            directory: directory)
        #expect(saved == RunResult(stdout: "var who me\ncar sports\nset paint red\nsame\n", stderr: "", status: 0))
        #expect(
            try String(contentsOf: directory.appendingPathComponent("s.carfab"), encoding: .utf8)
                == "# carfab session, saved by carfab 0.1.0\nvar who me\ncar sports 1\nset paint red\n")
        let replayed = try carfab(["--init", "init.carfab", "-e", "source s.carfab; diff s.carfab; list; vars"], directory: directory)
        #expect(
            replayed
                == RunResult(
                    stdout: """
                           #  model   car type         floorplan  suspension  drivetrain  paint  count  unit price
                        *  1  sports  Porsche Boxster  short      race        rear        red        1  $68,800.00
                        name  value
                        who   me

                        """, stderr: "", status: 0))
    }

    /// T5: a test that times out under `--keep-going` keeps the failures and the expect count
    /// it had (it was asked to stop, as SIGTERM stops carfab, and sent them), in every report.
    @Test func a_test_that_times_out_keeps_the_failures_it_had() throws {
        let directory = try temporaryDirectory(with: ["z.carfab": "car sports\nexpect count 2\nexpect type VW Golf\nsource ff\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try shell(
            """
            mkfifo ff
            for format in text json; do "$CARFAB" --test --keep-going --timeout 0.5 z.carfab --format $format 2>>err; echo "status $?"; done
            "$CARFAB" --test --keep-going --timeout 0.5 z.carfab --junit j.xml >/dev/null 2>>err
            grep -c -e 'expected count 2' -e 'timed out after 0.5 s' j.xml
            sed -E 's/in [0-9.]+ s$/in T s/' err >&2
            """, directory: directory)
        let failures =
            #"[{"type":"error","id":"expectation-failed","severity":"error","file":"z.carfab","line":2,"column":14,"end_column":15,"message":"expected count 2, got 1","source":"expect count 2","source_column":1,"included_from":[],"notes":[],"fixits":[]},"#
            + #"{"type":"error","id":"expectation-failed","severity":"error","file":"z.carfab","line":3,"column":13,"end_column":20,"message":"expected type VW Golf, got Porsche Boxster","source":"expect type VW Golf","source_column":1,"included_from":[],"notes":[],"fixits":[]}]"#
        #expect(
            run
                == RunResult(
                    stdout: """
                        FAIL z.carfab
                            z.carfab:2:14: error: expected count 2, got 1
                            expect count 2
                                         ^
                            z.carfab:3:13: error: expected type VW Golf, got Porsche Boxster
                            expect type VW Golf
                                        ^~~~~~~
                            (timed out after 0.5 s)
                        0 passed, 1 failed
                        status 1
                        {"type":"test","file":"z.carfab","status":"fail","expects":2,"diagnostics":\(failures),"note":"timed out after 0.5 s"}
                        {"type":"summary","passed":0,"failed":1}
                        status 1
                        2

                        """,
                    stderr: String(repeating: "carfab: 1 test file in T s\n", count: 3), status: 0))
    }

    /// T8: a stop is checked between commands, not held to the end of a logical line (a
    /// command may itself be cut short); a sourced file stopped with the rest of its line not
    /// run says so at the prompt.
    @Test func ctrl_c_between_the_commands_of_a_sourced_line_says_the_line_was_part_run() throws {
        let directory = try temporaryDirectory(with: ["in.carfab": "car suv\necho one; diff w.fifo; echo two\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(mkfifo(directory.appendingPathComponent("w.fifo").path, 0o644) == 0)
        let terminal = try PseudoTerminal(environment: ["XDG_STATE_HOME": directory.path], directory: directory)
        #expect(terminal.enter("source in.carfab", expecting: "one\r\n"))
        // `diff` waits to open the FIFO, which nobody writes: stopped there.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline,
            !["fifo_open", "wait_for_partner"].contains(try? String(contentsOfFile: "/proc/\(terminal.pid)/wchan", encoding: .utf8))
        {
            usleep(10_000)
        }
        let prompts = terminal.count("carfab> ")
        kill(terminal.pid, SIGINT)
        #expect(terminal.waitFor("carfab> ", times: prompts + 1))
        #expect(
            terminal.output.contains("\r\ncarfab: interrupted at in.carfab:2, part of its line run\r\n"),
            "\(terminal.output.debugDescription)")
        #expect(!terminal.output.contains("two"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }
}
