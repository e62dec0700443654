import Testing

/// The configurator does not offer what `set` refuses (trial 3, finding 15): with a stock
/// whose value is near the largest amount, a change that would take it past is `overflow` in
/// `options`, and `why` fails as `set` and `fit` do, where it was "settable" and "No rule
/// stands in the way".
@Suite struct ConfiguratorOverflowTests {
    /// 1,350,000,000,000 sports cars are worth $92,205,000,000,000,000.00: +$500.00 a car takes
    /// them past the largest amount ($92,233,720,368,547,758.07), a cheaper option does not.
    private let huge = "car sports 1350000000000; "

    @Test func options_says_overflow_where_set_would_fail() throws {
        #expect(
            try carfab(["-e", huge + "options drivetrain; options suspension"])
                == RunResult(
                    stdout: """
                        family      option  status    price change  repair
                        drivetrain  front   overflow       $500.00  set drivetrain front floorplan standard
                        drivetrain  rear    current
                        drivetrain  4wd     overflow     $2,500.00
                        family      option   status    price change
                        suspension  road     settable    -$2,400.00
                        suspension  race     current
                        suspension  offroad  settable      -$600.00

                        """, stderr: "", status: 0))
        let set = try carfab(["-e", huge + "set drivetrain 4wd"])
        #expect(set.status == 1 && set.stderr.contains("error: amount too large: the value would overflow"), "\(set)")
        #expect(try carfab(["-e", huge + "set suspension road; expect price 65,900"]).status == 0)
    }

    @Test func why_fails_as_set_does_when_no_repair_fits() throws {
        let error = """
            <command-line>:1:42: error: amount too large: the value would overflow
            car sports 1350000000000; why drivetrain 4wd
                                                     ^~~

            """
        #expect(try carfab(["-e", huge + "why drivetrain 4wd"]) == RunResult(stdout: "", stderr: error, status: 1))
        #expect(
            try carfab(["-e", huge + "why suspension road"])
                == RunResult(
                    stdout: """
                        No rule stands in the way of the road suspension.
                        #  price change  changes  commands
                        1    -$2,400.00        0  set suspension road

                        """, stderr: "", status: 0))
    }
}
