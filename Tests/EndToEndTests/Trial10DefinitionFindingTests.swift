import Foundation
import Testing

/// Trial 10's findings on definitions (its report's 2, 4, 8, 9 and 10), as a user meets them:
/// standard output, standard error and the status, whole.
@Suite struct Trial10DefinitionFindingTests {
    /// Finding 4: families named `a b` and `a_b` were both accepted, and every JSON row of
    /// `list` and `models` then held the key `a_b` twice (a reader kept one, losing the other's
    /// option). The second is refused at its name, as a clash with a column is, and nothing
    /// of it is defined; `--check` finds it too.
    @Test func a_family_whose_column_key_is_another_familys_is_refused() throws {
        let script = """
            family "a b" "Trim" default x "X"
            family A_B "Wheels" default y "Y"
            car sports
            list

            """
        let dir = try temporaryDirectory(with: ["dupkey.carfab": script])
        let refused = """
            dupkey.carfab:2:8: error: 'A_B' cannot name a family: rows of list or models would key its column as they key the family 'a b' ('a_b')
            family A_B "Wheels" default y "Y"
                   ^~~

            """
        for options in [[], ["--check"]] {
            let run = try carfab(options + ["dupkey.carfab"], directory: dir)
            #expect(run == RunResult(stdout: "", stderr: refused, status: 1), "\(options)")
        }
        let json = try carfab(["--format", "json", "--keep-going", "dupkey.carfab"], directory: dir)
        #expect(json.status == 1)
        #expect(json.stderr.contains(#""id":"refused""#))
        // Nothing of the refused family is defined: one `a_b` key in the row.
        #expect(
            json.stdout.contains(#""drivetrain":"rear","a_b":"x","count":1"#) && !json.stdout.contains(#""a_b":"y""#),
            "\(json.stdout)")
    }

    /// Finding 8: a family could be named as a field of `expect` (`type`, `drive`, `engine`,
    /// `seats`, `price`, `total`), but `expect type coupe` then checked the car type, and
    /// `--check` passed it. Every field's name is refused at `family`, with the reason.
    @Test func a_family_may_not_take_the_name_of_a_field_of_expect() throws {
        for field in ["type", "Drive", "engine", "seats", "price", "TOTAL"] {
            let refused = """
                <command-line>:1:8: error: '\(field.lowercased())' cannot name a family: expect reads it as its field '\(field.lowercased())', not as the family
                family \(field) "Body" default sedan "Sedan"; echo not reached
                       ^\(String(repeating: "~", count: field.count - 1))

                """
            for options in [[], ["--check"]] {
                let run = try carfab(options + ["-e", "family \(field) \"Body\" default sedan \"Sedan\"; echo not reached"])
                #expect(run == RunResult(stdout: "", stderr: refused, status: 1), "\(field) \(options)")
            }
        }
        // A name that only begins like one is a family like any other.
        let typed = try carfab(["-e", "family types \"Body\" default sedan \"Sedan\"; car sports; expect types sedan"])
        #expect(typed == RunResult(stdout: "", stderr: "", status: 0))
    }

    /// Finding 2: each family defined or taken back gave every configuration in stock the
    /// family (or took it off): 200,000 configurations, 1.2 s a `try family`. Now none is
    /// changed, and what the user sees is as it was: the cars kept from before read the
    /// family's default at their price, in `list`, JSON, `save` and `diff`, and `undo` takes
    /// the family back whole.
    @Test func cars_kept_from_before_a_family_read_its_default_everywhere() throws {
        let script = """
            car sports; car compact 2; set drivetrain 4wd
            try family z "Z" default a "A"
            begin; family z "Z" default a "A"; rollback
            family paint "Paint" default white "White"
            option paint red "Red" price 500
            car sports; set paint red; car compact; set drivetrain 4wd paint white
            list
            save s.carfab
            diff s.carfab
            undo 6
            list

            """
        let dir = try temporaryDirectory(with: ["f.carfab": script])
        let run = try carfab(["f.carfab"], directory: dir)
        #expect(
            run
                == RunResult(
                    stdout: """
                                cars  total value
                        before     3  $132,290.00
                        after      3  $132,290.00
                        change    +0       +$0.00
                           #  model    car type         floorplan  suspension  drivetrain  paint  count  unit price
                           1  sports   Porsche Boxster  short      race        rear        white      1  $68,300.00
                           2  compact  VW Golf          standard   road        4wd         white      2  $31,995.00
                           3  sports   Porsche Boxster  short      race        rear        red        1  $68,800.00
                        *  4  compact  VW Golf          standard   road        4wd         white      1  $31,995.00
                           #  model    car type         floorplan  suspension  drivetrain  count  unit price
                           1  sports   Porsche Boxster  short      race        rear            1  $68,300.00
                        *  2  compact  VW Golf          standard   road        4wd             2  $31,995.00

                        """, stderr: "", status: 0))
        #expect(
            try String(contentsOf: dir.appendingPathComponent("s.carfab"), encoding: .utf8) == """
                # carfab session, saved by carfab 0.1.0
                family paint "Paint" default white "White" price 0
                option paint red "Red" price 500
                car sports 1
                car compact 2
                set drivetrain 4wd
                car sports 1
                set paint red
                car compact 1
                set drivetrain 4wd

                """)
        let json = try carfab(["--format", "json", "s.carfab", "-e", "list"], directory: dir)
        #expect(
            json
                == RunResult(
                    stdout: #"""
                        {"type":"result","command":"list","rows":[{"current":false,"line":1,"model":"sports","car_type":"Porsche Boxster","floorplan":"short","suspension":"race","drivetrain":"rear","paint":"white","count":1,"unit_price":{"currency":"USD","minor_units":6830000,"amount":"68300.00","formatted":"$68,300.00"}},{"current":false,"line":2,"model":"compact","car_type":"VW Golf","floorplan":"standard","suspension":"road","drivetrain":"4wd","paint":"white","count":2,"unit_price":{"currency":"USD","minor_units":3199500,"amount":"31995.00","formatted":"$31,995.00"}},{"current":false,"line":3,"model":"sports","car_type":"Porsche Boxster","floorplan":"short","suspension":"race","drivetrain":"rear","paint":"red","count":1,"unit_price":{"currency":"USD","minor_units":6880000,"amount":"68800.00","formatted":"$68,800.00"}},{"current":true,"line":4,"model":"compact","car_type":"VW Golf","floorplan":"standard","suspension":"road","drivetrain":"4wd","paint":"white","count":1,"unit_price":{"currency":"USD","minor_units":3199500,"amount":"31995.00","formatted":"$31,995.00"}}]}

                        """#, stderr: "", status: 0))
    }

    /// Finding 9: each rule's origin (`FILE:LINE`) counted toward the catalog's 16 MiB, so a
    /// catalog near the bound loaded or not by how its file's path was spelled (`r.carfab`,
    /// or the same through a longer path). A file counts once, the same by any path.
    @Test func a_catalog_near_the_bound_loads_by_any_path() throws {
        // 3,395 options of 4 KiB of names (2 KiB `$b` twice, under the 4 KiB bound on a name)
        // fill some 14 MiB; 3,000 small options and 3,000 rules from r.carfab some 2 MiB more:
        // with each rule's origin counted, by `r.carfab` it fitted (some 20 KB to spare), by a
        // path 100 bytes longer it passed the bound by some 300 KB (3,409 options fit now).
        let setUp =
            "var b x\n" + String(repeating: "var b $b$b\n", count: 11)
            + "family paint \"Paint\" default w \"W\"\nfamily trim \"Trim\" default t0 \"T0\"\n"
        let definitions =
            setUp + (0..<3_395).map { "option paint ${b}\($0) $b price 0\n" }.joined()
            + (1...3000).map { "option trim t\($0) \"T\" price 0\n" }.joined()
        let rules = (1...3000).map { "forbid trim t\($0) with drivetrain rear\n" }.joined()
        let dir = try temporaryDirectory(with: ["defs.carfab": definitions, "r.carfab": rules])
        for path in ["r.carfab", String(repeating: "./", count: 50) + "r.carfab", dir.path + "/r.carfab"] {
            let run = try carfab(["defs.carfab", path, "-e", "echo ok"], directory: dir)
            #expect(run == RunResult(stdout: "ok\n", stderr: "", status: 0), "\(path)")
        }
    }
}
