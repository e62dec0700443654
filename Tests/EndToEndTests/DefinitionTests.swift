import Foundation
import Testing

/// Catalog definitions: the four forms, `--catalog`, and every validation error.
@Suite struct DefinitionTests {
    static let roadsters = "Scripts/examples/catalogs/roadsters.carfab"

    @Test func defined_entries_are_indistinguishable_from_built_in_ones() throws {
        let run = try carfab([
            "--catalog", Self.roadsters, "-e",
            """
            car roadster 2; set suspension circuit; expect suspension track; expect drive rear
            car grandtourer; set drivetrain hybrid; total KRW; price chf
            parts drivetrain; help option
            """
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.hasPrefix(
                """
                3 Cars in Stock. Total Value: ₩435,723,750
                CHF 220,000.00
                family      option  shown as    other names  list price
                drivetrain  front   Front                         $0.00
                drivetrain  rear    Rear                      $1,500.00
                drivetrain  4wd     4WD         all, awd      $4,000.00
                drivetrain  hybrid  Hybrid AWD  electric      $6,500.00
                usage: option FAMILY NAME "SHOWN AS" price AMOUNT [seats N engine POSITION]
                       [alias NAME]...
                """))
        // A rule of the catalog holds for defined models: hybrid cannot go on the roadster floorplan.
        let refused = try carfab(["--catalog", Self.roadsters, "-e", "car roadster; set drivetrain electric"])
        #expect(refused.stderr.hasPrefix("<command-line>:1:30: error: hybrid drivetrain cannot go with the roadster floorplan\n"))
        // --check resolves against definitions; save writes the session's own definitions.
        #expect(try carfab(["--check", "-e", "option drivetrain h \"H\" price 1; car suv; set drivetrain h"]).status == 0)
        let dir = try temporaryDirectory(with: [:])
        let saved = try carfab(
            [
                "-e",
                "currency CHF \"CHF \" digits 2 rate 0.88; rate chf 0.9; option drivetrain hybrid \"Hybrid \\\"AWD\\\"\" price 6500.5 alias electric; car suv; set drivetrain hybrid; save s.carfab; total CHF"
            ], directory: dir)
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(
            try String(contentsOf: dir.appendingPathComponent("s.carfab"), encoding: .utf8) == """
                # carfab session, saved by carfab 0.1.0
                currency CHF "CHF " digits 2 rate 0.88
                option drivetrain hybrid "Hybrid \\"AWD\\"" price 6500.5 alias electric
                rate CHF 0.9
                car suv 1
                set drivetrain hybrid

                """)
        #expect(try carfab(["s.carfab", "-e", "total CHF"], directory: dir).stdout == saved.stdout)
    }

    @Test func a_catalog_file_holds_only_definitions_and_its_errors_stop_the_run() throws {
        let dir = try temporaryDirectory(with: [
            "bad.carfab": "option drivetrain x \"X\" price 1\ncar sports\n",
            "broken.carfab": "model m \"M\" price 1 floorplan huge suspension race drivetrain rear\n"
        ])
        #expect(
            try carfab(["--catalog", "bad.carfab", "-e", "echo never"], directory: dir)
                == RunResult(
                    stdout: "",
                    stderr: """
                        bad.carfab:2:1: error: a catalog file holds only definitions (family, option, model, forbid, require, currency), not 'car'
                        car sports
                        ^~~

                        """, status: 1))
        let broken = try carfab(["--catalog", "broken.carfab", "-e", "echo never"], directory: dir)
        #expect(broken.stdout == "" && broken.status == 1)
        #expect(broken.stderr.hasPrefix("broken.carfab:1:31: error: unknown floorplan option 'huge'"))
        #expect(
            try carfab(["--catalog", "missing.carfab", "-e", "echo never"], directory: dir)
                == RunResult(stdout: "", stderr: "carfab: error: cannot open 'missing.carfab': No such file or directory\n", status: 1))
    }

    /// Trial finding 12: `é` written as one character and as `e` and a combining accent is one
    /// name, both where it is defined and where it is used (it was "already defined" in the
    /// other form, but "unknown" when used in it).
    @Test func canonically_equivalent_names_are_one_name_for_definitions_and_lookups() throws {
        let script = #"""
            model "\u{e9}" "F" price 90000 floorplan short suspension race drivetrain rear; car "E\u{301}"; \
            option drivetrain "e\u{301}" "F" price 9; set drivetrain "\u{c9}"; total; \
            model "e\u{301}" "G" price 1 floorplan short suspension race drivetrain rear; car "e\u{300}"
            """#
        let run = try carfab(["--keep-going", "-e", script])
        #expect(run.stdout == "1 Car in Stock. Total Value: $88,509.00\n")
        #expect(
            run.stderr == """
                <command-line>:3:7: error: model 'e\u{301}' is already defined
                model "e\\u{301}" "G" price 1 floorplan short suspension race drivetrain re...
                      ^~~~~~~~~~
                <command-line>:3:83: error: unknown model 'e\u{300}'; valid models: compact, sports, suv, \u{e9}
                ...G" price 1 floorplan short suspension race drivetrain rear; car "e\\u{300}"
                                                                                   ^~~~~~~~~~

                """)
        #expect(run.status == 1)
    }
}
