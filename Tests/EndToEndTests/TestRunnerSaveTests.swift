import Foundation
import Testing

/// `carfab --test`: a test may not `save` over a test file of the run. One that did decided
/// what a later test ran (a failing file rewritten before its turn reported `ok`), and under
/// `-j` raced with it: the result depended on the order and on N.
@Suite struct TestRunnerSaveTests {
    static let failing = "car sports\nexpect count 99\n"

    @Test(arguments: [["-j", "1"], ["-j", "2"]])
    func a_test_cannot_save_over_a_later_one(jobs: [String]) throws {
        let dir = try temporaryDirectory(with: [
            "tt/a.carfab": "car sports\nsave b.carfab\n",
            "tt/b.carfab": Self.failing,
            "tt/c.carfab": "car suv\nsave ../elsewhere.carfab\nsave -\n"
        ])
        // b is reached through a link too: the same file, refused as well.
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/link.carfab", withDestinationPath: "tt/b.carfab")
        try "car sports\nsave ../link.carfab\n".write(toFile: dir.path + "/tt/d.carfab", atomically: true, encoding: .utf8)
        let result = try carfab(["--test"] + jobs + ["tt"], directory: dir)
        #expect(
            result.stdout == """
                FAIL tt/a.carfab
                    tt/a.carfab:2:6: error: cannot save 'tt/b.carfab': it is a test file of this run, and a test may not rewrite one (save elsewhere)
                    save b.carfab
                         ^~~~~~~~
                FAIL tt/b.carfab
                    tt/b.carfab:2:14: error: expected count 99, got 1
                    expect count 99
                                 ^~
                ok tt/c.carfab (0 expects)
                FAIL tt/d.carfab
                    tt/d.carfab:2:6: error: cannot save 'tt/../link.carfab': it is a test file of this run, and a test may not rewrite one (save elsewhere)
                    save ../link.carfab
                         ^~~~~~~~~~~~~~
                1 passed, 3 failed

                """)
        #expect(result.status == 1)
        #expect(try String(contentsOfFile: dir.path + "/tt/b.carfab", encoding: .utf8) == Self.failing)
        // A file the run does not test is saved as ever.
        #expect(FileManager.default.fileExists(atPath: dir.path + "/elsewhere.carfab"))
    }

    /// Nor over the `--init` file every test runs first (trial 5, finding 5: a test that saved
    /// `var m sports` there made a later test, failing with `var m nosuch`, pass on the next run).
    @Test func a_test_cannot_save_over_the_init_file() throws {
        let dir = try temporaryDirectory(with: [
            "init.carfab": "var m nosuch\n", "tt/t1.carfab": "var m sports\nsave ../init.carfab\n",
            "tt/t2.carfab": "car $m\n"
        ])
        for _ in 1...2 {
            let result = try carfab(["--test", "--init", "init.carfab", "tt"], directory: dir)
            #expect(
                result.stdout.hasPrefix(
                    """
                    FAIL tt/t1.carfab
                        tt/t1.carfab:2:6: error: cannot save 'tt/../init.carfab': it is the --init file of this run, and a test may not rewrite it (save elsewhere)
                    """), "\(result)")
            #expect(result.stdout.hasSuffix("0 passed, 2 failed\n"), "\(result)")
            #expect(result.status == 1)
        }
        #expect(try String(contentsOfFile: dir.path + "/init.carfab", encoding: .utf8) == "var m nosuch\n")
    }

    /// Nor over a `--catalog` file the tests' catalog is read from: a test that saved its
    /// session there decided what every later test (and the next run) was checked against.
    @Test func a_test_cannot_save_over_a_catalog_file() throws {
        let catalog = "model m1 \"M\" price 9000 floorplan short suspension race drivetrain rear\n"
        let dir = try temporaryDirectory(with: [
            "defs.carfab": catalog, "other.carfab": "model m2 \"M\" price 9000 floorplan short suspension race drivetrain rear\n",
            "tt/t1.carfab": "car m1\nsave ../defs.carfab\n", "tt/t2.carfab": "car m1\nsave ../other.carfab\n"
        ])
        let result = try carfab(
            ["--test", "--catalog", "defs.carfab", "--catalog", "other.carfab", "-j", "1", "tt"], directory: dir)
        #expect(
            result.stdout == """
                FAIL tt/t1.carfab
                    tt/t1.carfab:2:6: error: cannot save 'tt/../defs.carfab': it is a --catalog file of this run, and a test may not rewrite one (save elsewhere)
                    save ../defs.carfab
                         ^~~~~~~~~~~~~~
                FAIL tt/t2.carfab
                    tt/t2.carfab:2:6: error: cannot save 'tt/../other.carfab': it is a --catalog file of this run, and a test may not rewrite one (save elsewhere)
                    save ../other.carfab
                         ^~~~~~~~~~~~~~~
                0 passed, 2 failed

                """, "\(result)")
        #expect(result.status == 1)
        #expect(try String(contentsOfFile: dir.path + "/defs.carfab", encoding: .utf8) == catalog)
    }
}
