import Foundation
import Testing

/// Trial 11's finding 4, as a user meets it: `carfab --init FILE --diff A B` ran no FILE, so
/// sessions saved where the init file defines a family could not be compared (status 2).
@Suite struct Trial11DiffInitFindingTests {
    static let initFile = "echo INIT RAN\nfamily paint \"Paint\" default white \"White\"\noption paint red \"Red\" price 500\nvar who me\n"

    /// Two sessions saved where the init file ran load on top of what it defines, as `diff`
    /// in that session loads them: the same (0), or their one difference (1). The init file
    /// runs first, as in any mode: its `echo` is said.
    @Test func the_init_file_defines_what_both_sessions_begin_with() throws {
        let dir = try temporaryDirectory(with: ["init.carfab": Self.initFile])
        #expect(
            try carfab(["--init", "init.carfab", "-e", "car sports; set paint red; save a.out; car suv; save b.out"], directory: dir)
                == RunResult(stdout: "INIT RAN\n", stderr: "", status: 0))
        #expect(
            try carfab(["--init", "init.carfab", "--diff", "a.out", "a.out"], directory: dir)
                == RunResult(stdout: "INIT RAN\n", stderr: "", status: 0))
        #expect(
            try carfab(["--init", "init.carfab", "--diff", "a.out", "b.out"], directory: dir)
                == RunResult(
                    stdout: """
                        INIT RAN
                        change   what          name  first              second                   difference
                        added    line          2                        car suv 1 ($81,895.00)  +$81,895.00
                        changed  current line        1                  2
                        changed  total               1 car, $68,800.00  2 cars, $150,695.00     +$81,895.00

                        """, stderr: "", status: 1))
    }

    /// An init file that fails is trouble (2), said with its position, and nothing is compared.
    @Test func an_init_file_that_fails_is_trouble() throws {
        let dir = try temporaryDirectory(with: ["init.carfab": "car nosuch\n", "a.out": "car sports\n"])
        #expect(
            try carfab(["--init", "init.carfab", "--diff", "a.out", "a.out"], directory: dir)
                == RunResult(
                    stdout: "",
                    stderr: """
                        init.carfab:1:5: error: unknown model 'nosuch'; valid models: compact, sports, suv
                        car nosuch
                            ^~~~~~

                        """, status: 2))
    }
}
