import Foundation
import Testing

@testable import CarfabCLI

/// Runs every `Scripts/examples/*.carfab` and compares its whole stdout, stderr and status
/// with the golden files in `Expected/` (`NAME.stdout`, `NAME.stderr`, `NAME.status`).
@Suite struct ExampleScriptTests {
    static let examples: [String] = {
        let directory = packageRoot.appendingPathComponent("Scripts/examples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".carfab") }.map { String($0.dropLast(".carfab".count)) }.sorted()
    }()

    static func expected(_ name: String, _ ext: String) -> String {
        let url = packageRoot.appendingPathComponent("Tests/CarfabCLITests/Expected/\(name).\(ext)")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }

    @Test func there_are_examples_to_run() {
        #expect(Self.examples.count >= 5)
    }

    @Test(arguments: examples)
    func example_output_is_exactly_the_golden_files(name: String) throws {
        let result = try carfab(["Scripts/examples/\(name).carfab"])
        let status = Int32(Self.expected(name, "status").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(result == RunResult(stdout: Self.expected(name, "stdout"), stderr: Self.expected(name, "stderr"), status: status))
    }
}

/// The README's CI example: the example tests, as the GitLab job and GitHub step run them.
@Suite struct ExampleTestsTests {
    @Test func the_example_tests_pass_as_the_readme_shows() throws {
        let run = try carfab(["--test", "Scripts/examples/tests", "--var", "size=4"])
        #expect(
            run.stdout == """
                ok Scripts/examples/tests/defaults.carfab (9 expects)
                ok Scripts/examples/tests/fleet.carfab (1 expect)
                ok Scripts/examples/tests/quote.carfab (3 expects)
                3 passed, 0 failed

                """)
        #expect(run.status == 0)
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("$ carfab --test Scripts/examples/tests --var size=4\n" + run.stdout))
        #expect(readme.contains("carfab --test Scripts/examples/tests --var size=4 --junit report.xml"))
    }
}
