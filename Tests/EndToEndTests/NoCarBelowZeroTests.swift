import Foundation
import Testing

/// A new user's trial (trial2, F4): an option or model that lets a model's cars cost below
/// zero is refused at its price, so the configurator's answers and `set` never meet such a
/// car and agree with one another. Whole stdout, stderr and status.
@Suite struct NoCarBelowZeroTests {
    private static let paint = #"family paint "P" default white "W" price 30000; option paint black "B" price"#

    @Test func an_option_that_would_take_a_model_below_zero_is_refused_and_the_rest_agree() throws {
        let result = try carfab([
            "--keep-going", "-e", "\(Self.paint) 0; car compact; cheapest; options paint; why paint black; set paint black"
        ])
        #expect(
            result
                == RunResult(
                    stdout: """
                        Car type: VW Golf
                        Seats: 2
                        Engine: Mid
                        Suspension: Standard
                        Drive: Rear
                        P: W
                        Price: $27,495.00
                        car compact; set floorplan short drivetrain rear
                        family  option  status
                        paint   white   current

                        """,
                    stderr: """
                        <command-line>:1:78: error: 'compact' with short floorplan, black paint would cost -$4,005.00: a price cannot be below zero
                        ...n paint black "B" price 0; car compact; cheapest; options paint; why paint...
                                                   ^
                        <command-line>:1:129: error: unknown paint option 'black'; valid paint options: white
                        ... 0; car compact; cheapest; options paint; why paint black; set paint black
                                                                               ^~~~~
                        <command-line>:1:146: error: unknown paint option 'black'; valid paint options: white
                        ... 0; car compact; cheapest; options paint; why paint black; set paint black
                                                                                                ^~~~~

                        """, status: 1))
    }

    @Test func an_option_down_to_a_lowest_price_of_zero_is_taken_and_every_answer_agrees_with_set() throws {
        let result = try carfab([
            "-e",
            "\(Self.paint) 4005; car compact; cheapest; cheapest compact floorplan standard drivetrain front; options paint; why paint black; set paint black; price"
        ])
        #expect(
            result
                == RunResult(
                    stdout: """
                        Car type: VW Golf
                        Seats: 2
                        Engine: Mid
                        Suspension: Standard
                        Drive: Rear
                        P: B
                        Price: $1,500.00
                        car compact; set floorplan short drivetrain rear paint black
                        Car type: VW Golf
                        Seats: 4
                        Engine: Front
                        Suspension: Standard
                        Drive: Front
                        P: B
                        Price: $2,000.00
                        car compact; set paint black
                        family  option  status    price change
                        paint   white   current
                        paint   black   settable   -$25,995.00
                        No rule stands in the way of the black paint.
                        #  price change  changes  commands
                        1   -$25,995.00        0  set paint black
                        $2,000.00

                        """, stderr: "", status: 0))
    }

    @Test func a_model_is_refused_whatever_rules_keep_its_cheapest_options_apart() throws {
        // Ten options at $0 under a $10,000 default, nine forbidden on every floorplan: the
        // old check tried only the eight cheapest options of a family and let the model in.
        var script = #"family f "F" default d "D" price 10000"#
        for i in 0..<10 { script += "; option f a\(i) \"A\" price 0" }
        for i in 0..<9 { for floorplan in ["short", "standard", "long"] { script += "; forbid f a\(i) with floorplan \(floorplan)" } }
        let result = try carfab([
            "-e", script + #"; model m "M" price 5000 floorplan standard suspension road drivetrain front f d; car m; cheapest m"#
        ])
        #expect(
            result
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:1245: error: 'm' with short floorplan, a0 f would cost -$7,000.00: a price cannot be below zero
                        ...long; model m "M" price 5000 floorplan standard suspension road drivetrain...
                                                   ^~~~

                        """, status: 1))
    }
}
