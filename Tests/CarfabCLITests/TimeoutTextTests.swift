import Testing

@testable import CarfabCLI

/// How `--test` names the timeout it ended a file at: as `--timeout` takes it, a plain decimal.
@Suite struct TimeoutTextTests {
    @Test(arguments: [
        ("0.0000000001", "0.0000000001"), ("0.00001", "0.00001"), ("0.000015", "0.000015"), ("0.5", "0.5"),
        ("2", "2"), ("2.0", "2"), ("1000000", "1000000"), ("0.0001234", "0.0001234"), ("12.25", "12.25")
    ])
    func a_timeout_is_never_shown_in_exponent_notation(given: String, shown: String) throws {
        let value = try #require(Double(given))
        // Swift writes 1e-10, 1e-05 and 1.5e-05 for the first three.
        #expect(TestRunner.seconds(value) == shown)
    }
}
