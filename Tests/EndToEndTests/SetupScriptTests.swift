import Foundation
import Testing

/// Scripts/test and Scripts/carfab as a user sees them (issue 20): quiet stages, one closing
/// count over every stage, the failures shown, the repository left as it was, and one line
/// while Scripts/carfab builds. Each runs on a copy of the scripts in a folder of its own, with
/// a `swift` first on PATH that plays the toolchain: it prints a build's noise, and runs
/// "tests" that pass or fail as the test asks, with the JUnit report `swift test` writes.
@Suite struct SetupScriptTests {
    private static let fakeSwift = #"""
        #!/usr/bin/env bash
        # swift build: 300 lines of noise, then success (or FAIL_BUILD's error).
        if [ "$1" = build ]; then
          for i in $(seq 300); do echo "warning: noise $i"; done
          [ -z "${FAIL_BUILD:-}" ] || { echo "error: the build broke"; exit 1; }
          if [[ " $* " == *" -c release "* ]]; then
            mkdir -p .build/release
            printf '#!/bin/sh\necho "ran $*"\n' > .build/release/carfab
            chmod +x .build/release/carfab
          fi
          exit 0
        fi
        # swift test: TESTS tests (ASAN_TESTS under the sanitizer), FAILURES of them failing.
        report= sanitized=0
        for argument in "$@"; do
          [ "${previous:-}" = --xunit-output ] && report=$argument
          [ "$argument" = --sanitize=address ] && sanitized=1
          previous=$argument
        done
        tests=${TESTS:-5} failures=${FAILURES:-0}
        [ $sanitized = 0 ] || { tests=${ASAN_TESTS:-2}; failures=0; }
        echo "◇ Test run started."
        for i in $(seq $((tests - failures))); do echo "◇ Test passing$i() started."; echo "✔ Test passing$i() passed after 0.001 seconds."; done
        for i in $(seq "$failures"); do
          echo "✘ Test failing$i() recorded an issue at X.swift:$i:5: Expectation failed: 1 == 2"
          echo "✘ Test failing$i() failed after 0.001 seconds with 1 issue."
        done
        [ -z "${WRITE_INTO_THE_TREE:-}" ] || echo saved > -
        # Swift Testing's report: one testcase each, a failure inside those that failed, and
        # (as it does) the suite's tests="..." without the skipped one.
        {
          echo '<?xml version="1.0" encoding="UTF-8"?>'
          echo "<testsuites><testsuite name=\"TestResults\" errors=\"0\" tests=\"$((tests - 1))\" failures=\"$failures\" skipped=\"1\">"
          for i in $(seq $((tests - failures))); do echo "<testcase classname=\"T\" name=\"passing$i()\" time=\"0.1\" />"; done
          for i in $(seq "$failures"); do echo "<testcase classname=\"T\" name=\"failing$i()\"><failure message=\"1 == 2\" /></testcase>"; done
          echo '<testcase classname="T" name="skipped()"><skipped /></testcase>'
          echo '</testsuite></testsuites>'
        } > "${report%.xml}-swift-testing.xml"
        echo '➜ Test skipped() skipped: "not here"'
        echo "◇ Test a_line_is_skipped_to_its_end() started."
        if [ "$failures" -gt 0 ]; then echo "✘ Test run with $tests tests in 1 suite failed after 0.002 seconds with $failures issues."; exit 1; fi
        echo "✔ Test run with $tests tests in 1 suite passed after 0.002 seconds."
        """#

    /// A folder with Scripts/test, Scripts/carfab and Scripts/lib copied in, a Sources folder, and the fake swift in bin/.
    private func sandbox() throws -> URL {
        // Scripts/docs plays the documentation build: fails when DOCS_FAIL is set, as docc does on a warning.
        let fakeDocs =
            "#!/bin/sh\necho 'building the documentation'\n[ -z \"${DOCS_FAIL:-}\" ] || { echo 'warning: undocumented'; exit 1; }\n"
        // Scripts/pytest-lsp plays pytest-lsp's run: fails when PYTEST_LSP_FAIL is set, as it does when PyPI is out of reach.
        let fakePytest =
            "#!/bin/sh\necho 'running pytest-lsp'\n[ -z \"${PYTEST_LSP_FAIL:-}\" ] || "
            + "{ echo 'carfab: cannot install pytest-lsp from PyPI (is PyPI reachable?)'; exit 1; }\n"
        // Scripts/check-embed plays the embedding example's type check.
        let fakeEmbed = "#!/bin/sh\necho 'type-checking Examples/Embed'\n"
        // Scripts/lint plays swift-format's lint: fails when LINT_FAIL is set, as it does on a misplaced line.
        let fakeLint =
            "#!/bin/sh\necho 'checking the layout'\n[ -z \"${LINT_FAIL:-}\" ] || "
            + "{ echo 'Sources/a.swift:1:1: error: [Indentation] replace leading whitespace with 4 spaces'; exit 1; }\n"
        let directory = try temporaryDirectory(with: [
            "bin/swift": Self.fakeSwift, "Sources/a.swift": "", "Package.swift": "",
            "Scripts/docs": fakeDocs, "Scripts/pytest-lsp": fakePytest, "Scripts/lint": fakeLint,
            "Scripts/check-embed": fakeEmbed
        ])
        for script in ["Scripts/test", "Scripts/carfab", "Scripts/lib/ensure-deps"] {
            let target = directory.appendingPathComponent(script)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            // Not copyItem: it writes without close-on-exec (see writeFile).
            let text = try String(contentsOf: packageRoot.appendingPathComponent(script), encoding: .utf8)
            try writeFile(text, to: target, mode: 0o755)
        }
        for tool in ["bin/swift", "Scripts/docs", "Scripts/pytest-lsp", "Scripts/lint", "Scripts/check-embed"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.appendingPathComponent(tool).path)
        }
        return directory
    }

    private func run(_ script: String, in directory: URL, _ environment: [String: String] = [:]) throws -> RunResult {
        // A temporary folder of the sandbox's own (in .build, which git ignores there):
        // Scripts/test looks for scratch folders the tests left in TMPDIR, and the suite's
        // other tests make theirs in /tmp meanwhile.
        let temporary = directory.appendingPathComponent(".build/tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        return try shell(
            "PATH=\"$PWD/bin:$PATH\" \(script) 2>&1", directory: directory,
            environment: environment.merging(["CARFAB": "", "TMPDIR": temporary.path]) { _, new in new })
    }

    @Test func scripts_test_prints_a_line_a_stage_and_one_count_over_all_of_them() throws {
        let directory = try sandbox()
        let passing = try run("Scripts/test", in: directory)
        #expect(
            passing
                == RunResult(
                    stdout: """
                        == build
                        == release-build
                        == tests
                        ➜ Test skipped() skipped: "not here"
                        == embed-public-api
                        == docs
                        == lint
                        == pytest-lsp
                        == asan-build
                        == asan-tests
                        ➜ Test skipped() skipped: "not here"
                        7 passed, 0 failed

                        """, stderr: "", status: 0))
        // A failure: what failed and why, not the tests that passed nor the build's noise.
        let log = directory.appendingPathComponent(".build/test-logs/tests.log").path
        let failing = try run("Scripts/test", in: directory, ["TESTS": "6", "FAILURES": "2"])
        #expect(
            failing
                == RunResult(
                    stdout: """
                        == build
                        == release-build
                        == tests
                        ➜ Test skipped() skipped: "not here"
                        tests failed (log: \(log)):
                        ✘ Test failing1() recorded an issue at X.swift:1:5: Expectation failed: 1 == 2
                        ✘ Test failing1() failed after 0.001 seconds with 1 issue.
                        ✘ Test failing2() recorded an issue at X.swift:2:5: Expectation failed: 1 == 2
                        ✘ Test failing2() failed after 0.001 seconds with 1 issue.
                        ➜ Test skipped() skipped: "not here"
                        ✘ Test run with 6 tests in 1 suite failed after 0.002 seconds with 2 issues.
                        == embed-public-api
                        == docs
                        == lint
                        == pytest-lsp
                        == asan-build
                        == asan-tests
                        ➜ Test skipped() skipped: "not here"
                        6 passed, 2 failed

                        """, stderr: "", status: 1))
        // Arguments go to swift test, and the sanitizer and pytest-lsp stages are skipped.
        let filtered = try run("Scripts/test --filter X", in: directory, ["TESTS": "3"])
        #expect(
            filtered.stdout.hasSuffix(
                "== tests\n➜ Test skipped() skipped: \"not here\"\n== embed-public-api\n== docs\n== lint\n3 passed, 0 failed\n")
                && filtered.status == 0, "\(filtered)")
        // A documentation build that fails is shown and counted, whatever the tests did.
        let docs = try run("Scripts/test", in: directory, ["DOCS_FAIL": "1"])
        let docsLog = directory.appendingPathComponent(".build/test-logs/docs.log").path
        #expect(
            docs.status == 1
                && docs.stdout.contains(
                    """
                    == docs
                    docs failed (log: \(docsLog)):
                    building the documentation
                    warning: undocumented
                    == lint
                    == pytest-lsp
                    == asan-build
                    """)
                && docs.stdout.hasSuffix("7 passed, 1 failed\n"), "\(docs)")
        // So is a file swift-format's lint finds out of layout.
        let lint = try run("Scripts/test", in: directory, ["LINT_FAIL": "1"])
        let lintLog = directory.appendingPathComponent(".build/test-logs/lint.log").path
        #expect(
            lint.status == 1
                && lint.stdout.contains(
                    """
                    == lint
                    lint failed (log: \(lintLog)):
                    checking the layout
                    Sources/a.swift:1:1: error: [Indentation] replace leading whitespace with 4 spaces
                    == pytest-lsp
                    """)
                && lint.stdout.hasSuffix("7 passed, 1 failed\n"), "\(lint)")
        // So is a pytest-lsp run that cannot get pytest-lsp: a failure, never a skip.
        let pytest = try run("Scripts/test", in: directory, ["PYTEST_LSP_FAIL": "1"])
        let pytestLog = directory.appendingPathComponent(".build/test-logs/pytest-lsp.log").path
        #expect(
            pytest.status == 1
                && pytest.stdout.contains(
                    """
                    == pytest-lsp
                    pytest-lsp failed (log: \(pytestLog)):
                    running pytest-lsp
                    carfab: cannot install pytest-lsp from PyPI (is PyPI reachable?)
                    == asan-build
                    """)
                && pytest.stdout.hasSuffix("7 passed, 1 failed\n"), "\(pytest)")
    }

    @Test func a_failed_build_is_shown_whole_and_counted_as_a_failure() throws {
        let directory = try sandbox()
        let broken = try run("Scripts/test", in: directory, ["FAIL_BUILD": "1"])
        let lines = broken.stdout.split(separator: "\n")
        #expect(broken.status == 1 && lines.first == "== build" && lines.last == "0 passed, 2 failed", "\(broken)")
        #expect(lines.filter { $0 == "error: the build broke" }.count == 2 && lines.count == 2 * 303 + 1, "\(broken)")
    }

    @Test func scripts_test_fails_if_the_tests_change_the_repository() throws {
        let directory = try sandbox()
        let git = try shell(
            """
            git init -q . && git add -A && git -c user.name=t -c user.email=t@localhost commit -qm start && echo '.build/' > .git/info/exclude
            """, directory: directory)
        #expect(git.status == 0, "\(git)")
        let clean = try run("Scripts/test", in: directory)
        #expect(clean.status == 0 && clean.stdout.hasSuffix("7 passed, 0 failed\n"), "\(clean)")
        let written = try run("Scripts/test", in: directory, ["WRITE_INTO_THE_TREE": "1"])
        #expect(
            written.status == 1
                && written.stdout.hasSuffix(
                    """
                    the repository changed during the run (git status before and after differ; a test writing into it?):
                      ?? -
                    7 passed, 1 failed

                    """),
            "\(written)")
    }

    @Test func scripts_carfab_says_in_one_line_that_it_builds_and_then_nothing() throws {
        let directory = try sandbox()
        let first = try shell("PATH=\"$PWD/bin:$PATH\" Scripts/carfab -e x", directory: directory, environment: ["CARFAB": ""])
        #expect(
            first
                == RunResult(
                    stdout: "ran -e x\n", stderr: "carfab: building .build/release/carfab (once; about a minute)...\n",
                    status: 0))
        let second = try shell("PATH=\"$PWD/bin:$PATH\" Scripts/carfab -e y", directory: directory)
        #expect(second == RunResult(stdout: "ran -e y\n", stderr: "", status: 0))
        let broken = try shell("touch Sources/a.swift; PATH=\"$PWD/bin:$PATH\" FAIL_BUILD=1 Scripts/carfab -e z", directory: directory)
        #expect(broken.status == 1 && broken.stdout.isEmpty, "\(broken)")
        #expect(broken.stderr.hasPrefix("carfab: rebuilding .build/release/carfab (sources changed)...\nwarning: noise 1\n"))
        #expect(broken.stderr.hasSuffix("warning: noise 300\nerror: the build broke\ncarfab: build failed\n"))
    }

    @Test func the_readme_names_exactly_the_packages_each_command_installs() throws {
        let lists = try shell(
            """
            bash -c 'source Scripts/lib/ensure-deps; echo "${build_packages[*]}"'
            sed -n 's/^test_packages=(\\(.*\\))$/\\1/p' Scripts/test
            """, directory: packageRoot)
        let scripts = lists.stdout.split(separator: "\n").map(String.init)
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        // The set-up table's third column: the packages, in backquotes.
        func row(_ command: String) -> String {
            let cells = readme.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false) }
            guard let cell = cells.first(where: { $0.count > 4 && $0[2].contains("`\(command)") })?[3] else { return "" }
            return cell.matches(of: /`([^`]*)`/).map { String($0.1) }.joined(separator: " ")
        }
        #expect(scripts.count == 2 && scripts[0].split(separator: " ").count == 4, "\(lists)")
        #expect(row("Scripts/carfab") == scripts.first)
        #expect(row("Scripts/test") == scripts.last)
    }
}
