import Testing

/// A model may not be named `in`: `cheapest [MODEL] ... [in CURRENCY]` reads `in` as the start
/// of a currency, so such a model could never be named there (`cheapest in drivetrain rear`
/// was "unknown currency 'drivetrain'"), as a family named `in` could not be.
@Suite struct ModelNamedInTests {
    @Test func a_model_named_in_is_refused_at_its_name() throws {
        let line = "model IN \"In\" price 90000 floorplan short suspension race drivetrain rear"
        #expect(
            try carfab(["-e", line])
                == RunResult(
                    stdout: "",
                    stderr: """
                        <command-line>:1:7: error: 'in' cannot name a model: cheapest reads it as the start of 'in CURRENCY'
                        model IN "In" price 90000 floorplan short suspension race drivetrain rear
                              ^~

                        """, status: 1))
        // Under --check too (definitions run when checking), and a name that only holds it is fine.
        #expect(try carfab(["--check", "-e", line]).status == 1)
        #expect(
            try carfab(["-e", "model inn \"Inn\" price 90000 floorplan short suspension race drivetrain rear; car inn; cheapest inn"])
                .status == 0)
    }
}
