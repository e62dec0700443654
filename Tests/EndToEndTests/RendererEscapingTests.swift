import Foundation
import Testing

/// Every text result goes through the one escaping; `source -` inside a script read from
/// standard input is an error at the word (issue 20 item 20).
@Suite struct RendererEscapingTests {
    @Test func show_parts_and_amounts_escape_control_characters_as_list_does() throws {
        let definitions =
            #"model m "A\u{1B}[31mB" price 70000 floorplan short suspension race drivetrain rear; "#
            + #"option suspension x "S\u{202E}x" price 1 alias "x\u{7}y"; currency XYZ "\u{1B}[1m" digits 2 rate 1; "#
        let result = try carfab(["-e", definitions + "car m; set suspension x; show; parts suspension; total XYZ; price XYZ; list"])
        #expect(
            result
                == RunResult(
                    stdout: #"""
                        Car type: A\e[31mB
                        Seats: 2
                        Engine: Mid
                        Suspension: S\u{202E}x
                        Drive: Rear
                        Price: $67,601.00
                        family      option   shown as    other names   list price
                        suspension  road     Standard    standard           $0.00
                        suspension  race     Firm        sports, firm   $2,400.00
                        suspension  offroad  Soft        soft           $1,800.00
                        suspension  x        S\u{202E}x  x\x07y             $1.00
                        1 Car in Stock. Total Value: \e[1m67,601.00
                        \e[1m67,601.00
                           #  model  car type  floorplan  suspension  drivetrain  count  unit price
                        *  1  m      A\e[31mB  short      x           rear            1  $67,601.00

                        """#, stderr: "", status: 0))
    }

    @Test func source_minus_in_a_script_read_from_standard_input_is_an_error_at_the_word() throws {
        let result = try carfab([], stdin: "echo one\nsource -\necho two\n")
        #expect(
            result
                == RunResult(
                    stdout: "one\n",
                    stderr: """
                        <stdin>:2:8: error: standard input is already being read: it holds the script that runs 'source -'
                        source -
                               ^

                        """, status: 1))
        // Named as a file (`-`) it is the same script; from -e text, `source -` reads standard input.
        #expect(try carfab(["-"], stdin: "source -\n").status == 1)
        #expect(try carfab(["-e", "source -"], stdin: "echo from stdin\n") == RunResult(stdout: "from stdin\n", stderr: "", status: 0))
    }
}
