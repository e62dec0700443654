import Testing

/// `expect`'s VALUE read as a person writes it (issue 19 item 15, issue 20 item 10): an amount
/// as `total` prints it, with or without its symbol, or as a plain number, however many
/// trailing zeros; a value that could never match is an error at the value, never a failed
/// expectation.
@Suite struct ExpectValueTests {
    @Test func an_amount_matches_with_any_number_of_trailing_zeros() throws {
        #expect(
            try carfab(["-e", "car suv; expect price 81895.000000000000000; expect total 81895.00000000000000000000000000"])
                == RunResult(stdout: "", stderr: "", status: 0))
        #expect(try carfab(["-e", "car suv; expect price JPY 12407092.5000000000000000"]).status == 1)
        #expect(try carfab(["-e", "car suv; expect price JPY 12407092.0000000000000000"]).status == 0)
    }

    @Test func more_digits_than_carfab_holds_is_an_error_saying_so() throws {
        #expect(
            try carfab(["-e", "car suv; expect price 81895.0000000000000001"])
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:23: error: '81895.0000000000000001' has too many significant digits to hold exactly (at most 18; 19 only up to 9223372036854775807)
                        car suv; expect price 81895.0000000000000001
                                              ^~~~~~~~~~~~~~~~~~~~~~

                        """, status: 1))
        #expect(
            try carfab(["-e", "car suv; expect total GBP 123456789012345678901"])
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:27: error: '123456789012345678901' is too large
                        car suv; expect total GBP 123456789012345678901
                                                  ^~~~~~~~~~~~~~~~~~~~~

                        """, status: 1))
    }

    @Test func an_amount_is_read_as_total_prints_it_with_or_without_the_symbol() throws {
        let passing =
            "car sports; set drivetrain 4wd; expect price 70,800.00; expect price $70,800.00; expect price 70800; "
            + "expect price GBP 42,719.30; expect price GBP £42,719.30; expect price JPY ¥10,726,200; expect price JPY 10,726,200; "
            + "car suv 9; expect total 807,855; expect total $807,855.0"
        #expect(try carfab(["-e", passing]) == RunResult(stdout: "", stderr: "", status: 0))
        // A grouped number that holds a different amount is a failed expectation, as any other.
        #expect(
            try carfab(["-e", "car sports; expect price 68,300.01"])
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:26: error: expected price 68,300.01, got $68,300.00
                        car sports; expect price 68,300.01
                                                 ^~~~~~~~~

                        """, status: 1))
    }

    @Test(arguments: [
        (
            "7,08,00.00", "USD",
            "'7,08,00.00' is not an amount in USD; write one as price and total print it ($1,234.50), without the symbol, or as a plain number (1234.5)"
        ),
        (
            "£70,800.00", "USD",
            "'£70,800.00' is not an amount in USD; write one as price and total print it ($1,234.50), without the symbol, or as a plain number (1234.5)"
        ),
        (
            "abc", "JPY",
            "'abc' is not an amount in JPY; write one as price and total print it (¥1,234), without the symbol, or as a plain number (1234)"
        ),
        ("70800.001", "USD", "'70800.001' has more than 2 decimal places"),
        ("10,726,200.5", "JPY", "'10,726,200.5' must be a whole amount")
    ])
    func what_is_not_an_amount_is_an_error_at_the_value(value: String, currency: String, message: String) throws {
        let line = "car sports; expect price \(currency) \(value)"
        let column = "car sports; expect price \(currency) ".count + 1
        #expect(
            try carfab(["-e", line])
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:\(column): error: \(message)
                        \(line)
                        \(String(repeating: " ", count: column - 1))^\(String(repeating: "~", count: value.count - 1))

                        """, status: 1))
    }

    @Test(arguments: ["abc", "1.0", "-1", "1e3", ""])
    func count_and_seats_take_a_whole_number(value: String) throws {
        let quoted = "\"\(value)\""
        for field in ["count", "seats"] {
            let line = "car sports; expect \(field) \(quoted)"
            let column = "car sports; expect \(field) ".count + 1
            #expect(
                try carfab(["-e", line])
                    == RunResult(
                        stdout: "",
                        stderr: """
                            <command-line>:1:\(column): error: '\(value)' is not a whole number
                            \(line)
                            \(String(repeating: " ", count: column - 1))^\(String(repeating: "~", count: quoted.count - 1))

                            """, status: 1))
        }
        #expect(try carfab(["-e", "car sports; expect count 1.0; echo never"]).stdout == "")
        #expect(try carfab(["-e", "car suv 2; expect count 002; expect seats 8"]).status == 0)
    }
}
