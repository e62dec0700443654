import Foundation
import Testing

/// `carfab --test`: a folder of passing and failing scripts, in every output format, at one
/// job and at several, checked by the consumers CI uses (TAP by prove and tappy, JUnit by xmllint
/// against a schema).
@Suite struct TestRunnerTests {
    /// A shell function printing the children of a process, from /proc (no procps needed).
    static let children =
        #"children() { for stat in /proc/[0-9]*/stat; do read -r pid _ _ ppid _ < "$stat" 2>/dev/null && [ "$ppid" = "$1" ] && echo "$pid"; done; }"#

    /// A folder of tests: two pass, three fail (an error, a failed expect, `quit 3`), and a
    /// file that is not a test. Nested, so the walk and the sort are exercised.
    private func folder() throws -> URL {
        try temporaryDirectory(with: [
            "tests/a-pass.carfab": "car sports\nexpect type Porsche Boxster\nexpect price GBP £41,210.85\n",
            "tests/b-fail.carfab": "car $model\nexpect count 1\ncar nosuch\n",
            "tests/sub/c-expect.carfab": "car suv 2\nexpect count 3\n",
            "tests/sub/d-quit.carfab": "quit 3\n",
            "tests/sub/e-pass.carfab": "var n 2\ncar compact $n; expect count $n\n",
            "tests/notes.txt": "not a test\n"
        ])
    }

    private let expectedText = """
        ok tests/a-pass.carfab (2 expects)
        FAIL tests/b-fail.carfab
            tests/b-fail.carfab:3:5: error: unknown model 'nosuch'; valid models: compact, sports, suv
            car nosuch
                ^~~~~~
        FAIL tests/sub/c-expect.carfab
            tests/sub/c-expect.carfab:2:14: error: expected count 3, got 2
            expect count 3
                         ^
        FAIL tests/sub/d-quit.carfab
            (ended by 'quit 3')
        ok tests/sub/e-pass.carfab (1 expect)
        2 passed, 3 failed

        """

    @Test func a_folder_runs_in_file_order_with_the_same_output_at_one_job_and_at_four() throws {
        let directory = try folder()
        let one = try carfab(["--test", "tests", "-j", "1", "--var", "model=suv"], directory: directory)
        let four = try carfab(["--test", "tests", "-j", "4", "--var", "model=suv"], directory: directory)
        #expect(one.stdout == expectedText)
        #expect(one.status == 1)
        #expect(four.stdout == one.stdout)
        #expect(four.status == 1)
        #expect(one.stderr.hasPrefix("carfab: 5 test files in ") && one.stderr.hasSuffix(" s\n"))
        let passing = try carfab(["--test", "tests/a-pass.carfab", "tests/sub/e-pass.carfab"], directory: directory)
        #expect(passing.stdout == "ok tests/a-pass.carfab (2 expects)\nok tests/sub/e-pass.carfab (1 expect)\n2 passed, 0 failed\n")
        #expect(passing.status == 0)
    }

    @Test func each_file_starts_from_a_fresh_session() throws {
        let directory = try temporaryDirectory(with: [
            "t/1.carfab": "car suv\noption drivetrain hybrid \"Hybrid\" price 9000\nrate GBP 1\nvar x 1\n",
            "t/2.carfab": "expect count 0\ncar suv; set drivetrain hybrid\n",
            "t/3.carfab": "expect total GBP 0\necho $x\n"
        ])
        let run = try carfab(["--test", "t", "-j", "1"], directory: directory)
        #expect(run.stdout.contains("ok t/1.carfab (0 expects)"))
        #expect(run.stdout.contains("FAIL t/2.carfab\n    t/2.carfab:2:25: error: unknown drivetrain option 'hybrid'"))
        #expect(run.stdout.contains("FAIL t/3.carfab\n    t/3.carfab:2:6: error: unknown variable 'x'"))
        #expect(run.stdout.hasSuffix("1 passed, 2 failed\n"))
    }

    @Test func keep_going_reports_every_failure_of_a_file_and_a_failure_never_stops_the_others() throws {
        let directory = try temporaryDirectory(with: [
            "t/1.carfab": "expect count 1\nexpect count 2\ncar nosuch\n",
            "t/2.carfab": "car suv\nexpect count 1\n"
        ])
        let run = try carfab(["--test", "t", "--keep-going", "-j", "2"], directory: directory)
        #expect(run.stdout.components(separatedBy: "error:").count - 1 == 3, "\(run)")
        #expect(run.stdout.contains("ok t/2.carfab (1 expect)"))
        #expect(run.status == 1)
    }

    @Test func tap_is_version_13_and_strict() throws {
        let directory = try folder()
        let run = try carfab(["--test", "tests", "--format", "tap", "--var", "model=suv", "-j", "3"], directory: directory)
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(Array(lines.prefix(3)) == ["TAP version 13", "1..5", "ok 1 - tests/a-pass.carfab (2 expects)"])
        #expect(lines.contains("not ok 2 - tests/b-fail.carfab"))
        #expect(
            lines.contains(
                #"  diagnostics: "tests/b-fail.carfab:3:5: error: unknown model 'nosuch'; valid models: compact, sports, suv\ncar nosuch\n    ^~~~~~""#
            ))
        #expect(lines.dropLast().last == "# 2 passed, 3 failed")
        try StrictTAP.check(run.stdout, tests: 5)
    }

    /// Each test point as Perl's TAP::Parser (what `prove` runs on) reads it: number, ok or
    /// not ok, a directive if any, and its YAML block's message, line and diagnostics.
    static let perlReader = #"""
        use TAP::Parser;
        my $tap = do { local $/; <STDIN> };
        my $parser = TAP::Parser->new({ tap => $tap });
        my $last = '';
        sub field { my $v = shift; $v = '' unless defined $v; $v =~ s/\n/\\n/g; $v }
        while (my $result = $parser->next) {
            if ($result->is_test) {
                print "$last\n" if $last ne '';
                $last = $result->number . ' ' . ($result->is_actual_ok ? 'ok' : 'not ok')
                    . ($result->has_todo ? ' TODO' : '') . ($result->has_skip ? ' SKIP' : '');
            } elsif ($result->is_yaml) {
                my $data = $result->data;
                $last .= ' | ' . field($data->{message}) . ' | ' . field($data->{at} ? $data->{at}{line} : '')
                    . ' | ' . field($data->{diagnostics});
            } elsif ($result->is_unknown) {
                print "unknown: ", $result->as_string, "\n";
            }
        }
        print "$last\n" if $last ne '';
        print "parse error: $_\n" for $parser->parse_errors;
        print 'passed ', scalar($parser->passed), ' failed ', scalar($parser->failed), "\n";
        """#

    /// The same, as tappy (python3-tap) reads it.
    static let tappyReader = #"""
        import sys
        from tap.parser import Parser
        def field(v):
            return '' if v is None else str(v).replace('\n', '\\n')
        passed = failed = 0
        for line in Parser().parse_text(sys.stdin.read()):
            if line.category == 'test':
                text = str(line.number) + ' ' + ('ok' if line.ok else 'not ok')
                text += (' TODO' if line.todo else '') + (' SKIP' if line.skip else '')
                block = line.yaml_block
                if block is not None:
                    text += ' | ' + field(block.get('message')) + ' | ' + field((block.get('at') or {}).get('line'))
                    text += ' | ' + field(block.get('diagnostics'))
                print(text)
                if line.ok or line.todo or line.skip:
                    passed += 1
                else:
                    failed += 1
            elif line.category == 'unknown':
                print('unknown:', line)
        print('passed', passed, 'failed', failed)
        """#

    @Test func prove_and_tappy_read_a_passing_and_a_failing_suite_alike() throws {
        // TAP::Harness 3.44 (Debian's perl) reads TAP 13 only, and no YAML block scalar with an
        // indentation indicator; tappy reads YAML blocks with PyYAML, which refuses raw C1,
        // bidi and noncharacters. A name with `\#` and `TODO` must not read as a passing TODO.
        let directory = try folder()
        let hostile = "tests/y\u{202E}\u{9B}\u{FFFE}.carfab"
        try Data("expect count 1\n".utf8).write(to: directory.appendingPathComponent("tests/x \\# TODO.carfab"))
        try Data("car \"a\u{202E}b\u{9B}c\u{FFFE}d\u{1B}e\"\n".utf8).write(to: directory.appendingPathComponent(hostile))
        let failing = try carfab(
            ["--test", "tests", "--format", "tap", "--var", "model=suv", "-j", "3", "--junit", "r.xml"],
            directory: directory)
        #expect(failing.status == 1)
        #expect(failing.stdout.contains("\nnot ok 6 - tests/x \\\\\\x23 TODO.carfab\n"), "\(failing)")
        #expect(
            !failing.stdout.unicodeScalars.contains {
                (0x80...0x9F).contains($0.value) || $0.value == 0x202E
                    || $0.value == 0xFFFE || $0.value == 0x1B
            })
        let expectedFailing = ##"""
            1 ok
            2 not ok | unknown model 'nosuch'; valid models: compact, sports, suv | 3 | tests/b-fail.carfab:3:5: error: unknown model 'nosuch'; valid models: compact, sports, suv\ncar nosuch\n    ^~
            3 not ok | expected count 3, got 2 | 2 | tests/sub/c-expect.carfab:2:14: error: expected count 3, got 2\nexpect count 3\n             ^
            4 not ok | ended by 'quit 3' |  | 
            5 ok
            6 not ok | expected count 1, got 0 | 1 | tests/x \# TODO.carfab:1:14: error: expected count 1, got 0\nexpect count 1\n             ^
            7 not ok | unknown model 'a\u{202E}b\u{009B}c\u{FFFE}d\ee'; valid models: compact, sports, suv | 1 | tests/y\u{202E}\u{009B}\u{FFFE}.carfab:1:5: error: unknown model 'a\u{202E}b\u{009B}c\u{FFFE}d\ee'; valid models: compact, sports, suv\ncar "a\u{202E}b\u{009B}c\u{FFFE}d\ee"\n    ^~
            passed 2 failed 5

            """##
        // (A caret's run of `~` is the renderer's business, not the readers'.)
        func squeezed(_ text: String) -> String { text.replacing(/~+/, with: "~") }
        let perl = try launch("/usr/bin/perl", ["-e", Self.perlReader], stdin: failing.stdout)
        #expect(squeezed(perl.stdout) == expectedFailing, "\(perl)")
        let tappy = try launch("/usr/bin/python3", ["-c", Self.tappyReader], stdin: failing.stdout)
        #expect(tappy.stdout == perl.stdout, "\(tappy)")
        // prove itself, on the TAP as a file: the suite fails, every test point is read.
        try Data(failing.stdout.utf8).write(to: directory.appendingPathComponent("failing.tap"))
        let proveFailing = try launch("/usr/bin/prove", ["-e", "cat", "failing.tap"], directory: directory)
        #expect(proveFailing.status == 1)
        #expect(
            proveFailing.stdout.contains("Failed 5/7 subtests") && proveFailing.stdout.contains("Failed tests:  2-4, 6-7"),
            "\(proveFailing)")
        #expect(!proveFailing.stdout.contains("Parse errors") && proveFailing.stdout.hasSuffix("Result: FAIL\n"))
        try StrictTAP.check(failing.stdout, tests: 7)
        // The JUnit report of the same run stays well-formed XML.
        let xml = try launch("/usr/bin/xmllint", ["--noout", "r.xml"], directory: directory)
        #expect(xml.status == 0 && xml.stderr.isEmpty, "\(xml)")

        let passing = try carfab(["--test", "tests/a-pass.carfab", "tests/sub/e-pass.carfab", "--format", "tap"], directory: directory)
        #expect(passing.status == 0)
        let expectedPassing = "1 ok\n2 ok\npassed 2 failed 0\n"
        #expect(try launch("/usr/bin/perl", ["-e", Self.perlReader], stdin: passing.stdout).stdout == expectedPassing)
        #expect(try launch("/usr/bin/python3", ["-c", Self.tappyReader], stdin: passing.stdout).stdout == expectedPassing)
        try Data(passing.stdout.utf8).write(to: directory.appendingPathComponent("passing.tap"))
        let provePassing = try launch("/usr/bin/prove", ["-e", "cat", "passing.tap"], directory: directory)
        #expect(
            provePassing.status == 0 && provePassing.stdout.contains("All tests successful.")
                && provePassing.stdout.contains("Tests=2") && provePassing.stdout.hasSuffix("Result: PASS\n"), "\(provePassing)")
    }

    @Test func json_is_a_line_per_file_and_a_summary() throws {
        let directory = try folder()
        let run = try carfab(["--test", "tests", "--format", "json", "--var", "model=suv"], directory: directory)
        let objects = try run.stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
        #expect(objects.count == 6)
        #expect(objects.map { $0["status"] as? String ?? "" } == ["pass", "fail", "fail", "fail", "pass", ""])
        #expect(objects[0]["expects"] as? Int == 2)
        let diagnostics = objects[1]["diagnostics"] as? [[String: Any]] ?? []
        #expect(diagnostics.first?["id"] as? String == "unknown-model")
        #expect(diagnostics.first?["line"] as? Int == 3)
        #expect(objects[3]["note"] as? String == "ended by 'quit 3'")
        #expect(objects[5]["type"] as? String == "summary" && objects[5]["passed"] as? Int == 2 && objects[5]["failed"] as? Int == 3)
    }

    @Test func junit_xml_is_valid_against_its_schema_and_written_whole() throws {
        let directory = try folder()
        let report = directory.appendingPathComponent("reports/junit.xml")
        try FileManager.default.createDirectory(at: report.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("old report".utf8).write(to: report)
        let run = try carfab(
            ["--test", "tests", "--junit", "reports/junit.xml", "--var", "model=suv", "-j", "2"],
            directory: directory)
        #expect(run.status == 1)
        let schema = packageRoot.appendingPathComponent("Tests/EndToEndTests/junit.xsd").path
        let valid = try launch("/usr/bin/xmllint", ["--noout", "--schema", schema, report.path])
        #expect(valid.status == 0, "\(valid)")
        func query(_ path: String) throws -> String {
            // (xmllint ends the value with a line break.)
            String(try launch("/usr/bin/xmllint", ["--xpath", path, report.path]).stdout.dropLast())
        }
        #expect(try query("string(/testsuites/testsuite/@tests)") == "5")
        #expect(try query("string(/testsuites/testsuite/@failures)") == "3")
        #expect(try query("count(//testcase)") == "5")
        #expect(try query("string(//testcase[2]/@name)") == "tests/b-fail.carfab")
        #expect(
            try query("string(//testcase[2]/failure/@message)")
                == "tests/b-fail.carfab:3:5: unknown model 'nosuch'; valid models: compact, sports, suv")
        #expect(try query("string(//testcase[3]/@classname)") == "tests/sub")
        #expect(try query("count(//testcase[1]/failure)") == "0")
        // Nothing left beside it.
        let left = try FileManager.default.contentsOfDirectory(atPath: report.deletingLastPathComponent().path)
        #expect(left == ["junit.xml"])
    }

    /// A report that fails as it is written (here a full disk: `ulimit -f`) fails the run,
    /// whose tests all passed (a name that cannot be written to at all is refused before:
    /// see TestRunnerJUnitTargetTests).
    @Test func a_junit_report_that_cannot_be_written_fails_the_run() throws {
        let directory = try folder()
        // The limit in a subshell, whose output goes through a pipe: the test's own output
        // files are regular files it would hold too.
        let run = try shell(
            "set -o pipefail; (ulimit -f 0; exec \"$CARFAB\" --test tests/a-pass.carfab --junit report.xml 2>&1) | cat",
            directory: directory)
        #expect(run.stdout.hasPrefix("ok tests/a-pass.carfab (2 expects)\n1 passed, 0 failed\n"), "\(run)")
        #expect(run.stdout.contains("carfab: error: JUnit report not written: cannot save 'report.xml': File too large\n"), "\(run)")
        #expect(run.status == 1)
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/report.xml"))
    }

    @Test(arguments: [
        (["--test"], "--test needs a file or folder of tests"),
        (["--test", "t", "-e", "car suv"], "--test runs files; -e cannot be used with it"),
        (["--test", "t", "-j", "0"], "-j needs a number of jobs from 1 to 1024, not '0'"),
        (["-j", "2", "x.carfab"], "-j is for --test"),
        (["--junit", "r.xml", "x.carfab"], "--junit is for --test"),
        (["--format", "tap", "x.carfab"], "--format tap is for --test"),
        (["--test", "t", "--tset"], "unknown option '--tset'; did you mean '--test'?"),
        (["--test", "t", "--junit", "-"], "--junit needs a file name: the report on standard output would mix with the results"),
        (["--timeout", "1", "x.carfab"], "--timeout is for --test"),
        (["--filter", "*", "x.carfab"], "--filter is for --test"),
        (["--list", "x.carfab"], "--list is for --test"),
        (["--test", "t", "--timeout", "0"], "--timeout needs a number of seconds above 0 and at most 1000000, not '0'"),
        (["--test", "t", "--timeout", "1e3"], "--timeout needs a number of seconds above 0 and at most 1000000, not '1e3'"),
        (["--test", "t", "--list", "--format", "tap"], "--list prints the test files and runs none; it cannot be used with --format"),
        (["--test", "t", "--list", "--junit", "r.xml"], "--list prints the test files and runs none; it cannot be used with --junit")
    ])
    func usage_errors_exit_64(arguments: [String], message: String) throws {
        let run = try carfab(arguments)
        #expect(run.stderr == "carfab: error: \(message)\nusage: carfab [OPTIONS] [FILE...] (see 'carfab --help')\n")
        #expect(run.status == 64 && run.stdout.isEmpty)
    }

    @Test func a_named_path_that_yields_no_test_fails_and_the_others_still_run() throws {
        // A missing path or an empty folder is a failing test point of its own, alone or
        // beside other paths; the other tests run and every report is written.
        let directory = try temporaryDirectory(with: ["empty/readme.txt": "no tests\n", "t/1.carfab": "expect count 0\n"])
        let run = try carfab(["--test", "nowhere", "t", "empty", "--junit", "report.xml"], directory: directory)
        #expect(
            run.stdout == """
                FAIL nowhere
                    (cannot read: No such file or directory)
                ok t/1.carfab (1 expect)
                FAIL empty
                    (no test files (*.carfab) in the folder)
                1 passed, 2 failed

                """, "\(run)")
        #expect(run.status == 1)
        let report = try String(contentsOf: directory.appendingPathComponent("report.xml"), encoding: .utf8)
        #expect(report.contains("tests=\"3\" failures=\"2\""))
        #expect(
            report.contains(
                "<testcase name=\"nowhere\" classname=\".\" time=\"0.000\">\n      <failure message=\"cannot read: No such file or directory\""
            ))
        // A folder named twice, or inside another named one, is no empty folder.
        let twice = try carfab(["--test", "t", "t/", "."], directory: directory)
        #expect(twice.stdout == "ok t/1.carfab (1 expect)\nok ./t/1.carfab (1 expect)\n2 passed, 0 failed\n", "\(twice)")
        let alone = try carfab(["--test", "nowhere", "--format", "tap"], directory: directory)
        #expect(alone.stdout.contains("\n1..1\nnot ok 1 - nowhere\n"), "\(alone)")
        #expect(alone.status == 1)
    }

    @Test func tests_under_a_path_longer_than_path_max_run() throws {
        // 22 folders of 200 bytes: the test's path is over 4,400 bytes, beyond PATH_MAX.
        let directory = try temporaryDirectory(with: ["t/ok.carfab": "expect count 0\n"])
        let run = try shell(
            """
            name=$(printf 'd%.0s' $(seq 200))
            (cd t && for _ in $(seq 22); do mkdir $name && cd $name; done && printf 'expect count 1\\n' > deep.carfab)
            "$CARFAB" --test t -j 2 > out.txt; echo "status $?"
            sed "s/$name/D/g" out.txt
            rm -rf t
            """, directory: directory)
        #expect(
            run.stdout == """
                status 1
                FAIL t/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/deep.carfab
                    t/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/D/deep.carfab:1:14: error: expected count 1, got 0
                    expect count 1
                                 ^
                ok t/ok.carfab (1 expect)
                1 passed, 1 failed

                """, "\(run)")
    }

    @Test func a_folder_that_can_be_read_but_not_searched_fails() throws {
        // As another user (root passes every permission): the folder's names can be listed,
        // but nothing under them reached, so the folder fails rather than hides its tests.
        let directory = try temporaryDirectory(with: [
            "t/ok.carfab": "expect count 0\n",
            "t/locked/sub/fails.carfab": "expect count 1\n"
        ])
        let run = try shell(
            """
            chmod 755 . t && chmod 644 t/locked
            setpriv --reuid=65534 --regid=65534 --clear-groups "$CARFAB" --test t
            echo "status $?"
            chmod 755 t/locked
            """, directory: directory)
        #expect(
            run.stdout == """
                FAIL t/locked
                    (cannot search the folder: Permission denied)
                ok t/ok.carfab (1 expect)
                1 passed, 1 failed
                status 1

                """, "\(run)")
    }

    @Test func safe_refuses_tests_reached_through_links_that_lead_outside_and_reads_none() throws {
        // Under --safe a test file or folder behind a link out of the named folders is refused
        // with the reason, and nothing of it reaches the output or the report; links that stay
        // inside, and the same tree without --safe, run as before.
        let directory = try temporaryDirectory(with: [
            "outside/secret.txt": "secret first line\n",
            "outside/o.carfab": "expect count 1\n",
            "t/in/ok.carfab": "expect count 0\n"
        ])
        let run = try shell(
            """
            ln -s ../outside/secret.txt t/evil.carfab
            ln -s ../outside t/out
            ln -s in/ok.carfab t/alias.carfab
            ln -s in t/same
            "$CARFAB" --safe --test t --junit report.xml; echo "status $?"
            grep -c secret report.xml
            "$CARFAB" --test t | grep -c secret
            """, directory: directory)
        #expect(
            run.stdout == """
                ok t/alias.carfab (1 expect)
                FAIL t/evil.carfab
                    (refused by --safe: a link to outside the folders named)
                ok t/in/ok.carfab (1 expect)
                FAIL t/out
                    (refused by --safe: a link to outside the folders named)
                2 passed, 2 failed
                status 1
                0
                2

                """, "\(run)")
    }

    @Test func a_test_process_that_dies_is_a_failure_not_a_hang() throws {
        // A test that blocks on a FIFO with no writer (it sources one: a FIFO named as a test
        // fails at once); the runner's process is interrupted: every worker is ended and the
        // status is 130.
        let directory = try temporaryDirectory(with: ["t/1.carfab": "car suv\n", "t/2.carfab": "source fifo\n"])
        let run = try shell(
            """
            \(Self.children)
            mkfifo t/fifo
            "$CARFAB" --test t/1.carfab t/2.carfab -j 2 > out.txt 2> err.txt &
            runner=$!
            # Until one worker is left, asleep: the one waiting for a writer on the FIFO.
            for _ in $(seq 200); do
              workers=$(children $runner)
              [ "$(echo $workers | wc -w)" = 1 ] && [ "$(cut -d' ' -f3 /proc/$workers/stat 2>/dev/null)" = S ] && break
              sleep 0.05
            done
            kill -INT $runner
            wait $runner; echo "status $?"
            for pid in $workers; do kill -0 $pid 2>/dev/null && echo "left running"; done
            echo done
            """, directory: directory)
        #expect(run.stdout == "status 130\ndone\n", "\(run)")
    }

    @Test func entries_that_cannot_be_read_fail_and_nothing_is_passed_over() throws {
        let directory = try temporaryDirectory(with: ["t/ok.carfab": "expect count 0\n", "t/closed/fails.carfab": "expect count 1\n"])
        let run = try shell(
            """
            ln -s nowhere.carfab t/dangling.carfab
            printf 'expect count 0\\n' > t/$'bad\\xff.carfab'
            mkfifo t/pipe.carfab
            chmod 755 . t && chmod 000 t/closed
            setpriv --reuid=65534 --regid=65534 --clear-groups "$CARFAB" --test t -j 2
            echo "status $?"
            """, directory: directory)
        #expect(
            run.stdout == """
                ok t/bad\u{FFFD}.carfab (1 expect)
                FAIL t/closed
                    (cannot read the folder: Permission denied)
                FAIL t/dangling.carfab
                    (cannot read: No such file or directory)
                ok t/ok.carfab (1 expect)
                FAIL t/pipe.carfab
                    (not a regular file)
                2 passed, 3 failed
                status 1

                """, "\(run)")
    }

    @Test func init_names_a_file_each_test_runs_first() throws {
        let directory = try temporaryDirectory(with: [
            "t/1.carfab": "car $model\nexpect type Cadillac Escalade\n",
            "setup.carfab": "var model suv\n", "broken.carfab": "car nosuch\n"
        ])
        let run = try carfab(["--test", "t", "--init", "setup.carfab"], directory: directory)
        #expect(run.stdout == "ok t/1.carfab (1 expect)\n1 passed, 0 failed\n", "\(run)")
        let broken = try carfab(["--test", "t", "--init", "broken.carfab"], directory: directory)
        #expect(broken.stdout.hasPrefix("FAIL t/1.carfab\n    broken.carfab:1:5: error: unknown model 'nosuch'"), "\(broken)")
    }

    @Test func workers_die_with_the_runner_even_by_sigkill() throws {
        // A CI job killed on timeout takes its test processes with it: none is left running
        // as a child of PID 1. The test blocks in `source` of a FIFO nobody writes.
        let directory = try temporaryDirectory(with: ["t/1.carfab": "source fifo\n"])
        let run = try shell(
            """
            \(Self.children)
            mkfifo t/fifo
            "$CARFAB" --test t/1.carfab > out.txt 2> err.txt &
            runner=$!
            # Until the worker waits for a writer to the FIFO, as the kernel names
            # where it sleeps (/proc/PID/wchan: wait_for_partner, in a FIFO's open).
            for _ in $(seq 400); do
              worker=$(children $runner)
              [ -n "$worker" ] && [ "$(cat /proc/$worker/wchan 2>/dev/null)" = wait_for_partner ] && break
              sleep 0.05
            done
            [ -n "$worker" ] || echo "no worker"
            kill -KILL $runner
            wait $runner; echo "status $?"
            # Until the worker is gone (or dead and not yet reaped by its new parent), at most 10 s.
            gone() { state=$(sed 's/.*) //' /proc/$worker/stat 2>/dev/null | cut -d' ' -f1); [ -z "$state" ] || [ "$state" = Z ]; }
            for _ in $(seq 200); do gone && break; sleep 0.05; done
            gone || { echo "worker left running"; kill -KILL $worker; }
            echo done
            """, directory: directory)
        #expect(run.stdout == "status 137\ndone\n", "\(run)")
    }

    @Test func a_test_reads_nothing_of_the_runners_standard_input() throws {
        // `source -` in a test reads an empty input, whatever the runner's standard input holds,
        // at one job and at several.
        let directory = try temporaryDirectory(with: [
            "t/1.carfab": "source -\nexpect count 0\n",
            "t/2.carfab": "source -\nexpect count 0\n"
        ])
        for jobs in ["1", "2"] {
            let run = try carfab(["--test", "t", "-j", jobs], stdin: "car suv\ncar suv\n", directory: directory)
            #expect(run.stdout == "ok t/1.carfab (1 expect)\nok t/2.carfab (1 expect)\n2 passed, 0 failed\n", "\(run)")
            #expect(run.status == 0)
        }
    }

    @Test func exit_0_after_a_failed_command_is_a_failure_in_a_run_and_in_a_test() throws {
        // One rule: under --keep-going a failed command makes the status 1 even if `exit 0`
        // follows, and --test counts the file as failed.
        let directory = try temporaryDirectory(with: ["t/1.carfab": "car nosuch\nexit 0\n", "t/2.carfab": "car suv\nexit 0\n"])
        let run = try carfab(["--keep-going", "t/1.carfab"], directory: directory)
        #expect(run.status == 1 && run.stderr.hasPrefix("t/1.carfab:1:5: error: unknown model 'nosuch'"), "\(run)")
        #expect(try carfab(["--keep-going", "t/2.carfab"], directory: directory).status == 0)
        let test = try carfab(["--test", "t", "--keep-going"], directory: directory)
        #expect(test.stdout.hasPrefix("FAIL t/1.carfab\n    t/1.carfab:1:5: error: unknown model 'nosuch'"), "\(test)")
        #expect(test.stdout.hasSuffix("ok t/2.carfab (0 expects)\n1 passed, 1 failed\n") && test.status == 1)
    }

    @Test func timeout_ends_a_test_that_runs_too_long_and_fails_it_with_that_reason() throws {
        // t/2.carfab waits for ever in `source` of a FIFO nobody writes; the others run.
        let directory = try temporaryDirectory(with: [
            "t/1.carfab": "expect count 0\n", "t/2.carfab": "source fifo\n",
            "t/3.carfab": "car suv\nexpect count 1\n"
        ])
        let run = try shell(
            """
            mkfifo t/fifo
            "$CARFAB" --test t --timeout 0.5 -j 1 --format tap; echo "status $?"
            """, directory: directory)
        #expect(
            run.stdout == """
                TAP version 13
                1..3
                ok 1 - t/1.carfab (1 expect)
                not ok 2 - t/2.carfab
                  ---
                  message: "timed out after 0.5 s"
                  severity: fail
                  expects: 0
                  note: "timed out after 0.5 s"
                  ...
                ok 3 - t/3.carfab (1 expect)
                # 2 passed, 1 failed
                status 1

                """, "\(run)")
        // Ended when its time was up, not when something else happened to end it.
        let taken = Double(run.stderr.split(separator: " ").dropLast().last ?? "") ?? 0
        #expect(taken >= 0.5 && taken < 10, "\(run)")
        // A test within its time passes as before.
        let quick = try carfab(["--test", "t/1.carfab", "t/3.carfab", "--timeout", "30"], directory: directory)
        #expect(quick.stdout == "ok t/1.carfab (1 expect)\nok t/3.carfab (1 expect)\n2 passed, 0 failed\n", "\(quick)")
    }

    @Test func filter_runs_only_the_test_files_whose_path_matches_a_glob() throws {
        let directory = try folder()
        let sub = try carfab(["--test", "tests", "--filter", "*sub/*", "--var", "model=suv"], directory: directory)
        #expect(
            sub.stdout == """
                FAIL tests/sub/c-expect.carfab
                    tests/sub/c-expect.carfab:2:14: error: expected count 3, got 2
                    expect count 3
                                 ^
                FAIL tests/sub/d-quit.carfab
                    (ended by 'quit 3')
                ok tests/sub/e-pass.carfab (1 expect)
                1 passed, 2 failed

                """, "\(sub)")
        // Repeatable: a file runs if any pattern matches; `*` matches `/` too.
        let two = try carfab(["--test", "tests", "--filter", "*pass*", "--filter", "tests/a-*"], directory: directory)
        #expect(two.stdout == "ok tests/a-pass.carfab (2 expects)\nok tests/sub/e-pass.carfab (1 expect)\n2 passed, 0 failed\n")
        #expect(two.status == 0)
        let none = try carfab(["--test", "tests", "--filter", "*nothing*"], directory: directory)
        #expect(none == RunResult(stdout: "", stderr: "carfab: error: no test file matches --filter '*nothing*'\n", status: 1))
    }

    @Test func list_prints_the_test_files_and_runs_none() throws {
        let directory = try temporaryDirectory(with: [
            "t/b.carfab": "save ran.carfab\n", "t/sub/a.carfab": "save ran.carfab\n",
            "t/notes.txt": "not a test\n"
        ])
        let list = try carfab(["--test", "t", "--list"], directory: directory)
        #expect(list == RunResult(stdout: "t/b.carfab\nt/sub/a.carfab\n", stderr: "", status: 0))
        let filtered = try carfab(["--test", "t", "--list", "--filter", "*/sub/*", "nowhere"], directory: directory)
        #expect(
            filtered
                == RunResult(
                    stdout: "t/sub/a.carfab\n",
                    stderr: "carfab: error: nowhere: cannot read: No such file or directory\n", status: 1))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("t/ran.carfab").path))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("t/sub/ran.carfab").path))
    }

    /// A test process killed by a signal is reported, and the others still run; one that a
    /// stop signal of its own (SIGTERM, SIGINT, SIGHUP, SIGQUIT) ended fails too, though its
    /// session stops cleanly and sends what it found: it never reached its end (trial 13, 1: it
    /// passed, and the run exited 0). (t/2.carfab blocks in `source` of a FIFO with no writer.)
    @Test(arguments: [
        ("KILL", "ended by signal 9"), ("TERM", "stopped by signal 15 before its end"),
        ("INT", "stopped by signal 2 before its end"), ("HUP", "stopped by signal 1 before its end"),
        ("QUIT", "stopped by signal 3 before its end")
    ])
    func a_test_that_a_signal_ends_fails_alone(signal: String, note: String) throws {
        let directory = try temporaryDirectory(with: [
            "t/1.carfab": "car suv\n", "t/2.carfab": "car suv\nexpect count 1\nsource fifo\nexpect count 5\n",
            "t/3.carfab": "car suv\n"
        ])
        let run = try shell(
            """
            \(Self.children)
            mkfifo t/fifo
            "$CARFAB" --test t/1.carfab t/2.carfab t/3.carfab -j 1 > out.txt &
            runner=$!
            # Until the worker of t/2.carfab waits for a writer to the FIFO, as the kernel names
            # where it sleeps (/proc/PID/wchan: wait_for_partner, in a FIFO's open).
            for _ in $(seq 200); do
              worker=$(children $runner)
              [ -n "$worker" ] && [ "$(cat /proc/$worker/wchan 2>/dev/null)" = wait_for_partner ] && break
              sleep 0.05
            done
            kill -\(signal) $worker
            wait $runner; echo "status $?"; cat out.txt
            """, directory: directory)
        #expect(
            run.stdout == """
                status 1
                ok t/1.carfab (0 expects)
                FAIL t/2.carfab
                    (the test's process was \(note))
                ok t/3.carfab (0 expects)
                2 passed, 1 failed

                """, "\(run)")
    }
}

/// A strict reading of TAP version 13 as carfab writes it: the version line, the plan, test
/// points numbered from 1 in order (each `ok` or `not ok`, then ` - ` and a description), a
/// YAML block only right after a test point, indented two spaces between `---` and `...`,
/// and comments.
enum StrictTAP {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func check(_ text: String, tests: Int) throws {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.last == "" else { throw Failure(description: "does not end in a line break") }
        lines.removeLast()
        guard lines.first == "TAP version 13" else { throw Failure(description: "no version line") }
        guard lines.count > 1, lines[1] == "1..\(tests)" else { throw Failure(description: "no plan 1..\(tests)") }
        var number = 0
        var index = 2
        var afterTestPoint = false
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix("ok ") || line.hasPrefix("not ok ") {
                number += 1
                let rest = line.hasPrefix("ok ") ? line.dropFirst(3) : line.dropFirst(7)
                guard rest.hasPrefix("\(number) - "), rest.count > "\(number) - ".count else {
                    throw Failure(description: "test point \(number) malformed: \(line)")
                }
                afterTestPoint = true
            } else if line == "  ---" {
                guard afterTestPoint else { throw Failure(description: "YAML block not after a test point, line \(index + 1)") }
                index += 1
                while index < lines.count && lines[index] != "  ..." {
                    guard lines[index].hasPrefix("  "), !lines[index].hasPrefix("  ---") else {
                        throw Failure(description: "YAML block line not indented: \(lines[index])")
                    }
                    index += 1
                }
                guard index < lines.count else { throw Failure(description: "YAML block not closed") }
                afterTestPoint = false
            } else if line.hasPrefix("#") {
                afterTestPoint = false
            } else {
                throw Failure(description: "not TAP: \(line)")
            }
            index += 1
        }
        guard number == tests else { throw Failure(description: "\(number) test points for a plan of \(tests)") }
    }
}
