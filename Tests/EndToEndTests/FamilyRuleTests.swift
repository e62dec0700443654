import Foundation
import Testing

/// `family` and `require` as a user runs them: whole stdout, stderr and status, in text and in
/// JSON. Prices worked by hand from the built-in catalog: a car's price is its model's base
/// price plus, per family, the chosen option's list price less the model's default's.
@Suite struct FamilyRuleTests {
    /// A car in stock before the family, the family with a second option, a model that names
    /// that option as its default (red paint in its $31,000.00 base price).
    private static let paint = [
        "-e", "car sports",
        "-e", #"family paint "Paint" default white "White"; option paint red "Red" price 500 alias crimson"#,
        "-e", #"model roadster "Mazda MX-5" price 31000 floorplan short suspension race drivetrain rear paint red"#
    ]

    @Test func a_family_is_shown_after_drive_listed_by_parts_and_models_and_priced_by_the_models_default() throws {
        let result = try carfab(Self.paint + ["-e", "show; parts paint; models; car roadster; set paint white; show"])
        #expect(
            result
                == RunResult(
                    stdout: """
                        Car type: Porsche Boxster
                        Seats: 2
                        Engine: Mid
                        Suspension: Firm
                        Drive: Rear
                        Paint: White
                        Price: $68,300.00
                        family  option  shown as  other names  list price
                        paint   white   White                       $0.00
                        paint   red     Red       crimson         $500.00
                        model     car type           base price  floorplan  suspension  drivetrain  paint
                        compact   VW Golf            $27,995.00  standard   road        front       white
                        sports    Porsche Boxster    $68,300.00  short      race        rear        white
                        suv       Cadillac Escalade  $81,895.00  long       offroad     4wd         white
                        roadster  Mazda MX-5         $31,000.00  short      race        rear        red
                        Car type: Mazda MX-5
                        Seats: 2
                        Engine: Mid
                        Suspension: Firm
                        Drive: Rear
                        Paint: White
                        Price: $30,500.00

                        """, stderr: "", status: 0))
    }

    @Test func a_family_in_json() throws {
        let result = try carfab(["--format", "json"] + Self.paint + ["-e", "show; parts paint; car roadster; set paint white; show"])
        #expect(
            result
                == RunResult(
                    stdout: """
                        {"type":"result","command":"show","model":"sports","car_type":"Porsche Boxster","seats":2,"engine":"Mid","suspension":"Firm","drive":"Rear","options":{"floorplan":"short","suspension":"race","drivetrain":"rear","paint":"white"},"families":{"paint":"White"},"price":{"currency":"USD","minor_units":6830000,"amount":"68300.00","formatted":"$68,300.00"}}
                        {"type":"result","command":"parts","rows":[{"family":"paint","option":"white","shown_as":"White","other_names":[],"list_price":{"currency":"USD","minor_units":0,"amount":"0.00","formatted":"$0.00"},"seats":null,"engine":null},{"family":"paint","option":"red","shown_as":"Red","other_names":["crimson"],"list_price":{"currency":"USD","minor_units":50000,"amount":"500.00","formatted":"$500.00"},"seats":null,"engine":null}]}
                        {"type":"result","command":"show","model":"roadster","car_type":"Mazda MX-5","seats":2,"engine":"Mid","suspension":"Firm","drive":"Rear","options":{"floorplan":"short","suspension":"race","drivetrain":"rear","paint":"white"},"families":{"paint":"White"},"price":{"currency":"USD","minor_units":3050000,"amount":"30500.00","formatted":"$30,500.00"}}

                        """, stderr: "", status: 0))
        let models = try carfab(["--format", "json"] + Self.paint + ["-e", "models"])
        #expect(
            models
                == RunResult(
                    stdout: """
                        {"type":"result","command":"models","rows":[{"model":"compact","car_type":"VW Golf","base_price":{"currency":"USD","minor_units":2799500,"amount":"27995.00","formatted":"$27,995.00"},"floorplan":"standard","suspension":"road","drivetrain":"front","paint":"white"},{"model":"sports","car_type":"Porsche Boxster","base_price":{"currency":"USD","minor_units":6830000,"amount":"68300.00","formatted":"$68,300.00"},"floorplan":"short","suspension":"race","drivetrain":"rear","paint":"white"},{"model":"suv","car_type":"Cadillac Escalade","base_price":{"currency":"USD","minor_units":8189500,"amount":"81895.00","formatted":"$81,895.00"},"floorplan":"long","suspension":"offroad","drivetrain":"4wd","paint":"white"},{"model":"roadster","car_type":"Mazda MX-5","base_price":{"currency":"USD","minor_units":3100000,"amount":"31000.00","formatted":"$31,000.00"},"floorplan":"short","suspension":"race","drivetrain":"rear","paint":"red"}]}

                        """, stderr: "", status: 0))
    }

    @Test func a_family_named_twice_and_one_family_too_many_are_errors_at_the_name() throws {
        #expect(
            try carfab(["-e", #"family paint "Paint" default white "White"; family Paint "P" default x "X""#])
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:52: error: family 'Paint' is already defined
                        family paint "Paint" default white "White"; family Paint "P" default x "X"
                                                                           ^~~~~

                        """, status: 1))
        let json = try carfab(["--format", "json", "-e", #"family floorplan "F" default x "X""#])
        #expect(
            json
                == RunResult(
                    stdout: "",
                    stderr: #"""
                        {"type":"error","id":"duplicate-family","severity":"error","file":"<command-line>","line":1,"column":8,"end_column":17,"message":"family 'floorplan' is already defined","source":"family floorplan \"F\" default x \"X\"","source_column":1,"included_from":[],"notes":[],"fixits":[]}

                        """#, status: 1))
        // The book's three and 61 more make 64: the 62nd defined is one too many.
        let families = (1...61).map { #"family f\#($0) "F" default o "O""# }.joined(separator: "\n")
        #expect(
            try carfab([], stdin: families + "\nparts f61\nfamily f62 \"F\" default o \"O\"\n")
                == RunResult(
                    stdout: """
                        family  option  shown as  other names  list price
                        f61     o       O                           $0.00

                        """,
                    stderr: """
                        <stdin>:63:8: error: a catalog holds at most 64 families
                        family f62 "F" default o "O"
                               ^~~

                        """, status: 1))
    }

    @Test func a_require_rule_refuses_a_car_without_its_second_option_with_the_cheapest_repair() throws {
        // 4wd (+$4,000.00) on the compact needs the long floorplan ($6,500.00 for its $2,000.00
        // standard): +$8,500.00; rear (+$1,500.00) is the one other drivetrain it can have.
        let result = try carfab([
            "-e", "require drivetrain 4wd with floorplan long; car suv; show",
            "-e", "car compact; set drivetrain 4wd"
        ])
        #expect(
            result
                == RunResult(
                    stdout: """
                        Car type: Cadillac Escalade
                        Seats: 8
                        Engine: Front
                        Suspension: Soft
                        Drive: 4WD
                        Price: $81,895.00

                        """,
                    stderr: """
                        <command-line 2>:1:29: error: 4wd drivetrain needs the long floorplan
                        car compact; set drivetrain 4wd
                                                    ^~~
                        <command-line 1>:1: note: the rule 'require drivetrain 4wd with floorplan long' is defined here
                        note: drivetrain options allowed for this car: rear (+$1,500.00)
                        note: 'fit drivetrain 4wd' would also set floorplan long (+$8,500.00)

                        """, status: 1))
        let json = try carfab(["--format", "json", "-e", "require drivetrain 4wd with floorplan long; car compact; set drivetrain 4wd"])
        #expect(
            json
                == RunResult(
                    stdout: "",
                    stderr: #"""
                        {"type":"error","id":"rule-violation","severity":"error","file":"<command-line>","line":1,"column":73,"end_column":76,"message":"4wd drivetrain needs the long floorplan","source":"require drivetrain 4wd with floorplan long; car compact; set drivetrain 4wd","source_column":1,"included_from":[],"notes":[{"message":"the rule 'require drivetrain 4wd with floorplan long' is defined here","place":"<command-line>:1"},{"message":"drivetrain options allowed for this car: rear (+$1,500.00)","place":null},{"message":"'fit drivetrain 4wd' would also set floorplan long (+$8,500.00)","place":null}],"fixits":[]}

                        """#, status: 1))
    }

    @Test func a_require_rule_that_a_models_defaults_or_a_car_in_stock_would_break_is_refused_at_the_rule() throws {
        // The compact's defaults are front drive on a standard floorplan.
        #expect(
            try carfab(["-e", "require drivetrain front with floorplan long; car compact"])
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:1: error: the default options of 'compact' break a rule: front drivetrain needs the long floorplan
                        require drivetrain front with floorplan long; car compact
                        ^~~~~~~

                        """, status: 1))
        // No model's defaults break it (only the sports car has rear drive, with race
        // suspension), but the compact in stock was given rear drive on road suspension.
        let stock = try carfab([
            "--format", "json", "-e", "car compact; set drivetrain rear", "-e", "require drivetrain rear with suspension race"
        ])
        #expect(
            stock
                == RunResult(
                    stdout: "",
                    stderr: #"""
                        {"type":"error","id":"stock-breaks-rule","severity":"error","file":"<command-line 2>","line":1,"column":1,"end_column":8,"message":"stock line 1 already breaks this rule: rear drivetrain needs the race suspension","source":"require drivetrain rear with suspension race","source_column":1,"included_from":[],"notes":[],"fixits":[]}

                        """#, status: 1))
    }

    @Test func save_writes_families_and_require_rules_that_replay_to_the_same_cars() throws {
        let dir = try temporaryDirectory(with: [:])
        let saved = try carfab(
            Self.paint + [
                "-e", "require paint red with drivetrain rear; car roadster 2; set paint white; select 1; set paint crimson",
                "-e", "save quote.carfab"
            ], directory: dir)
        #expect(saved == RunResult(stdout: "", stderr: "", status: 0))
        #expect(
            try String(contentsOf: dir.appendingPathComponent("quote.carfab"), encoding: .utf8) == """
                # carfab session, saved by carfab 0.1.0
                family paint "Paint" default white "White" price 0
                option paint red "Red" price 500 alias crimson
                model roadster "Mazda MX-5" price 31000 floorplan short suspension race drivetrain rear paint red
                require paint red with drivetrain rear
                car sports 1
                set paint red
                car roadster 2
                set paint white
                select 1

                """)
        #expect(try carfab(["--check", "quote.carfab"], directory: dir) == RunResult(stdout: "", stderr: "", status: 0))
        // Replayed: the sports car with red paint ($68,300.00 + $500.00), two roadsters with
        // white ($31,000.00 - $500.00), and the rule, now defined in the saved file, still holds.
        let replayed = try carfab(["quote.carfab", "-e", "list; show; set drivetrain 4wd"], directory: dir)
        #expect(
            replayed
                == RunResult(
                    stdout: """
                           #  model     car type         floorplan  suspension  drivetrain  paint  count  unit price
                        *  1  sports    Porsche Boxster  short      race        rear        red        1  $68,800.00
                           2  roadster  Mazda MX-5       short      race        rear        white      2  $30,500.00
                        Car type: Porsche Boxster
                        Seats: 2
                        Engine: Mid
                        Suspension: Firm
                        Drive: Rear
                        Paint: Red
                        Price: $68,800.00

                        """,
                    stderr: """
                        <command-line>:1:28: error: red paint needs the rear drivetrain
                        list; show; set drivetrain 4wd
                                                   ^~~
                        quote.carfab:5: note: the rule 'require paint red with drivetrain rear' is defined here
                        note: no other drivetrain option is allowed for this car
                        note: 'fit drivetrain 4wd' would also set paint white (+$2,000.00)

                        """, status: 1))
    }
}
