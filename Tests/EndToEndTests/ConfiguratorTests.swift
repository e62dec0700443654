import Foundation
import Testing

/// `options`, `why`, `fit`, `cheapest` and a refused `set`'s repair, as a user runs them:
/// whole stdout, stderr and status, in text and in JSON.
@Suite struct ConfiguratorTests {
    @Test func options_in_text() throws {
        let result = try carfab(["-e", "car sports; options"])
        #expect(
            result
                == RunResult(
                    stdout: """
                        family      option    status    price change  repair
                        floorplan   short     current
                        floorplan   standard  settable     $2,000.00
                        floorplan   long      repair       $4,100.00  set floorplan long suspension road
                        suspension  road      settable    -$2,400.00
                        suspension  race      current
                        suspension  offroad   settable      -$600.00
                        drivetrain  front     repair         $500.00  set drivetrain front floorplan standard
                        drivetrain  rear      current
                        drivetrain  4wd       settable     $2,500.00

                        """, stderr: "", status: 0))
    }

    @Test func why_in_text_and_in_a_currency() throws {
        let result = try carfab(["-e", "car sports; why drivetrain front in GBP"])
        #expect(
            result
                == RunResult(
                    stdout: """
                        rule                                          defined at
                        forbid drivetrain front with floorplan short  built-in catalog
                        #  price change  changes  commands
                        1       £301.69        1  set drivetrain front floorplan standard

                        """, stderr: "", status: 0))
    }

    @Test func fit_in_text_then_show() throws {
        let result = try carfab(["-e", "car sports; fit drivetrain front; show"])
        #expect(
            result
                == RunResult(
                    stdout: """
                        family      from   to        price change
                        drivetrain  rear   front       -$1,500.00
                        floorplan   short  standard     $2,000.00
                        Car type: Porsche Boxster
                        Seats: 4
                        Engine: Front
                        Suspension: Firm
                        Drive: Front
                        Price: $68,800.00

                        """, stderr: "", status: 0))
    }

    @Test func cheapest_in_text() throws {
        let result = try carfab(["-e", "cheapest drivetrain 4wd suspension offroad in GBP"])
        #expect(
            result
                == RunResult(
                    stdout: """
                        Car type: VW Golf
                        Seats: 2
                        Engine: Mid
                        Suspension: Soft
                        Drive: 4WD
                        Price: $31,795.00
                        car compact; set floorplan short suspension offroad drivetrain 4wd
                        £19,184.47

                        """, stderr: "", status: 0))
    }

    @Test func a_refused_set_names_the_cheapest_repair_and_fit_of_an_impossible_option_is_an_error() throws {
        let refused = try carfab(["-e", "car sports; set drivetrain front"])
        #expect(
            refused
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:28: error: front drivetrain cannot go with the short floorplan
                        car sports; set drivetrain front
                                                   ^~~~~
                        note: the rule 'forbid drivetrain front with floorplan short' is part of the built-in catalog
                        note: drivetrain options allowed for this car: 4wd (+$2,500.00)
                        note: 'fit drivetrain front' would also set floorplan standard (+$500.00)

                        """, status: 1))
        let impossible = try carfab([
            "-e", "option drivetrain hover \"Hover\" price 1; forbid drivetrain hover with floorplan short",
            "-e", "forbid drivetrain hover with floorplan standard; forbid drivetrain hover with floorplan long",
            "-e", "car suv; fit drivetrain hover"
        ])
        #expect(
            impossible
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line 3>:1:25: error: no valid car has the hover drivetrain
                        car suv; fit drivetrain hover
                                                ^~~~~

                        """, status: 1))
    }

    @Test func every_answer_in_json() throws {
        let result = try carfab([
            "--format", "json", "-e", "car sports; options drivetrain in GBP; why drivetrain front; fit drivetrain front; cheapest suv"
        ])
        #expect(
            result
                == RunResult(
                    stdout: """
                        {"type":"result","command":"options","rows":[{"family":"drivetrain","option":"front","status":"repair","price_change":{"currency":"GBP","minor_units":30169,"amount":"301.69","formatted":"£301.69"},"repair":"set drivetrain front floorplan standard","rules":null},{"family":"drivetrain","option":"rear","status":"current","price_change":null,"repair":null,"rules":null},{"family":"drivetrain","option":"4wd","status":"settable","price_change":{"currency":"GBP","minor_units":150845,"amount":"1508.45","formatted":"£1,508.45"},"repair":null,"rules":null}]}
                        {"type":"result","command":"why","rows":[{"rule":"forbid drivetrain front with floorplan short","defined_at":"built-in catalog"}]}
                        {"type":"result","command":"why","rows":[{"rank":1,"price_change":{"currency":"USD","minor_units":50000,"amount":"500.00","formatted":"$500.00"},"changes":1,"commands":"set drivetrain front floorplan standard"}]}
                        {"type":"result","command":"fit","rows":[{"family":"drivetrain","from":"rear","to":"front","price_change":{"currency":"USD","minor_units":-150000,"amount":"-1500.00","formatted":"-$1,500.00"}},{"family":"floorplan","from":"short","to":"standard","price_change":{"currency":"USD","minor_units":200000,"amount":"2000.00","formatted":"$2,000.00"}}]}
                        {"type":"result","command":"cheapest","model":"suv","car_type":"Cadillac Escalade","seats":2,"engine":"Mid","suspension":"Standard","drive":"Rear","options":{"floorplan":"short","suspension":"road","drivetrain":"rear"},"price":{"currency":"USD","minor_units":7109500,"amount":"71095.00","formatted":"$71,095.00"}}
                        {"type":"result","command":"cheapest","text":"car suv; set floorplan short suspension road drivetrain rear"}

                        """, stderr: "", status: 0))
    }

    /// A drivetrain every floorplan forbids: on no valid car.
    private static let hover = [
        "-e", "option drivetrain hover \"Hover\" price 1; forbid drivetrain hover with floorplan short",
        "-e", "forbid drivetrain hover with floorplan standard; forbid drivetrain hover with floorplan long"
    ]

    @Test func options_of_one_family_in_a_currency() throws {
        // The SUV (long, offroad): road is $1,800.00 less; race cannot go on long, and the
        // cheapest floorplan it can go on is short ($0.00 for $6,500.00): $600.00 - $6,500.00.
        // In euros at 0.92: -€1,656.00 and -€5,428.00.
        #expect(
            try carfab(["-e", "car suv; options suspension in EUR"])
                == RunResult(
                    stdout: """
                        family      option   status    price change  repair
                        suspension  road     settable    -€1,656.00
                        suspension  race     repair      -€5,428.00  set suspension race floorplan short
                        suspension  offroad  current

                        """, stderr: "", status: 0))
        #expect(
            try carfab(["--format", "json", "-e", "car suv; options suspension in EUR"])
                == RunResult(
                    stdout: """
                        {"type":"result","command":"options","rows":[{"family":"suspension","option":"road","status":"settable","price_change":{"currency":"EUR","minor_units":-165600,"amount":"-1656.00","formatted":"-€1,656.00"},"repair":null,"rules":null},{"family":"suspension","option":"race","status":"repair","price_change":{"currency":"EUR","minor_units":-542800,"amount":"-5428.00","formatted":"-€5,428.00"},"repair":"set suspension race floorplan short","rules":null},{"family":"suspension","option":"offroad","status":"current","price_change":null,"repair":null,"rules":null}]}

                        """, stderr: "", status: 0))
    }

    @Test func an_option_on_no_valid_car_options_why_and_fit_that_changes_nothing() throws {
        let text = try carfab(
            ["--keep-going"] + Self.hover + ["-e", "car suv; options drivetrain; why drivetrain hover; fit drivetrain hover; show"])
        #expect(
            text
                == RunResult(
                    stdout: """
                        family      option  status      price change  rules
                        drivetrain  front   settable      -$4,000.00
                        drivetrain  rear    settable      -$2,500.00
                        drivetrain  4wd     current
                        drivetrain  hover   impossible                forbid drivetrain hover with floorplan short, forbid drivetrain hover with floorplan standard, forbid drivetrain hover with floorplan long
                        rule                                             defined at
                        forbid drivetrain hover with floorplan short     <command-line 1>:1
                        forbid drivetrain hover with floorplan standard  <command-line 2>:1
                        forbid drivetrain hover with floorplan long      <command-line 2>:1
                        No valid car has the hover drivetrain.
                        Car type: Cadillac Escalade
                        Seats: 8
                        Engine: Front
                        Suspension: Soft
                        Drive: 4WD
                        Price: $81,895.00

                        """,
                    stderr: """
                        <command-line 3>:1:67: error: no valid car has the hover drivetrain
                        car suv; options drivetrain; why drivetrain hover; fit drivetrain hover; show
                                                                                          ^~~~~

                        """, status: 1))
        let json = try carfab(
            ["--format", "json", "--keep-going"] + Self.hover + ["-e", "car suv; why drivetrain hover; fit drivetrain hover; show"])
        #expect(
            json
                == RunResult(
                    stdout: """
                        {"type":"result","command":"why","rows":[{"rule":"forbid drivetrain hover with floorplan short","defined_at":"<command-line 1>:1"},{"rule":"forbid drivetrain hover with floorplan standard","defined_at":"<command-line 2>:1"},{"rule":"forbid drivetrain hover with floorplan long","defined_at":"<command-line 2>:1"}]}
                        {"type":"result","command":"why","rows":[]}
                        {"type":"result","command":"show","model":"suv","car_type":"Cadillac Escalade","seats":8,"engine":"Front","suspension":"Soft","drive":"4WD","options":{"floorplan":"long","suspension":"offroad","drivetrain":"4wd"},"price":{"currency":"USD","minor_units":8189500,"amount":"81895.00","formatted":"$81,895.00"}}

                        """,
                    stderr: #"""
                        {"type":"error","id":"no-valid-car","severity":"error","file":"<command-line 3>","line":1,"column":47,"end_column":52,"message":"no valid car has the hover drivetrain","source":"car suv; why drivetrain hover; fit drivetrain hover; show","source_column":1,"included_from":[],"notes":[],"fixits":[]}

                        """#, status: 1))
    }

    /// A second model priced as the compact and a suspension priced as road: the cheapest car
    /// ties on price and is chosen by model name (beetle before compact, though defined after
    /// it), then by option names (comfy before road, though road is the default).
    private static let ties = [
        "-e", "model beetle \"VW Beetle\" price 27995 floorplan standard suspension road drivetrain front",
        "-e", "option suspension comfy \"Comfy\" price 0"
    ]

    @Test func cheapest_breaks_ties_by_model_name_then_by_option_names() throws {
        // Any model: short floorplan (-$2,000.00) cannot have front drive, so rear (+$1,500.00):
        // $27,495.00, less than standard with front ($27,995.00); the sports car and the SUV cost
        // more whatever they have. A compact with the long floorplan: $27,995.00 + $4,500.00, and
        // race suspension cannot go on it: $32,495.00, £19,606.83 at 0.60338.
        let result = try carfab(Self.ties + ["-e", "cheapest; cheapest compact floorplan long in GBP"])
        #expect(
            result
                == RunResult(
                    stdout: """
                        Car type: VW Beetle
                        Seats: 2
                        Engine: Mid
                        Suspension: Comfy
                        Drive: Rear
                        Price: $27,495.00
                        car beetle; set floorplan short suspension comfy drivetrain rear
                        Car type: VW Golf
                        Seats: 8
                        Engine: Front
                        Suspension: Comfy
                        Drive: Front
                        Price: $32,495.00
                        car compact; set floorplan long suspension comfy
                        £19,606.83

                        """, stderr: "", status: 0))
        let json = try carfab(["--format", "json"] + Self.ties + ["-e", "cheapest compact floorplan long in GBP"])
        #expect(
            json
                == RunResult(
                    stdout: """
                        {"type":"result","command":"cheapest","model":"compact","car_type":"VW Golf","seats":8,"engine":"Front","suspension":"Comfy","drive":"Front","options":{"floorplan":"long","suspension":"comfy","drivetrain":"front"},"price":{"currency":"USD","minor_units":3249500,"amount":"32495.00","formatted":"$32,495.00"}}
                        {"type":"result","command":"cheapest","text":"car compact; set floorplan long suspension comfy"}
                        {"type":"result","command":"cheapest","amount":{"currency":"GBP","minor_units":1960683,"amount":"19606.83","formatted":"£19,606.83"}}

                        """, stderr: "", status: 0))
    }

    @Test func a_refused_set_in_json_carries_the_cheapest_repair_as_a_note() throws {
        #expect(
            try carfab(["--format", "json", "-e", "car sports; set drivetrain front"])
                == RunResult(
                    stdout: "",
                    stderr: #"""
                        {"type":"error","id":"rule-violation","severity":"error","file":"<command-line>","line":1,"column":28,"end_column":33,"message":"front drivetrain cannot go with the short floorplan","source":"car sports; set drivetrain front","source_column":1,"included_from":[],"notes":[{"message":"the rule 'forbid drivetrain front with floorplan short' is part of the built-in catalog","place":null},{"message":"drivetrain options allowed for this car: 4wd (+$2,500.00)","place":null},{"message":"'fit drivetrain front' would also set floorplan standard (+$500.00)","place":null}],"fixits":[]}

                        """#, status: 1))
    }
}
