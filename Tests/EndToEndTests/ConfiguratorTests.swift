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
                        2     £1,568.79        2  set drivetrain front floorplan long suspension road
                        3     £2,654.87        2  set drivetrain front floorplan long suspension offroad

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
                        <command-line>:1:28: error: front drivetrain cannot go with a short floorplan
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
                        <command-line 3>:1:25: error: no valid car has a hover drivetrain
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
                        {"type":"result","command":"why","rows":[{"rank":1,"price_change":{"currency":"USD","minor_units":50000,"amount":"500.00","formatted":"$500.00"},"changes":1,"commands":"set drivetrain front floorplan standard"},{"rank":2,"price_change":{"currency":"USD","minor_units":260000,"amount":"2600.00","formatted":"$2,600.00"},"changes":2,"commands":"set drivetrain front floorplan long suspension road"},{"rank":3,"price_change":{"currency":"USD","minor_units":440000,"amount":"4400.00","formatted":"$4,400.00"},"changes":2,"commands":"set drivetrain front floorplan long suspension offroad"}]}
                        {"type":"result","command":"fit","rows":[{"family":"drivetrain","from":"rear","to":"front","price_change":{"currency":"USD","minor_units":-150000,"amount":"-1500.00","formatted":"-$1,500.00"}},{"family":"floorplan","from":"short","to":"standard","price_change":{"currency":"USD","minor_units":200000,"amount":"2000.00","formatted":"$2,000.00"}}]}
                        {"type":"result","command":"cheapest","model":"suv","car_type":"Cadillac Escalade","seats":2,"engine":"Mid","suspension":"Standard","drive":"Rear","options":{"floorplan":"short","suspension":"road","drivetrain":"rear"},"price":{"currency":"USD","minor_units":7109500,"amount":"71095.00","formatted":"$71,095.00"}}
                        {"type":"result","command":"cheapest","text":"car suv; set floorplan short suspension road drivetrain rear"}

                        """, stderr: "", status: 0))
    }
}
