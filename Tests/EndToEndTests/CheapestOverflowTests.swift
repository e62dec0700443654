import Foundation
import Testing

/// `cheapest ... in CURRENCY` whose price is too large for the currency (trial 8, finding 5:
/// the car and its commands were printed, then the error, with its caret under `cheapest`).
@Suite struct CheapestOverflowTests {
    /// Finding 5: `cheapest in CURRENCY` whose price overflows the currency prints nothing of
    /// its answer, and points at the currency, as `price CURRENCY` does (and `options`).
    @Test(arguments: ["cheapest in ZZZ", "cheapest drivetrain rear in ZZZ"])
    func cheapest_that_overflows_prints_nothing(_ command: String) throws {
        let currency = #"currency ZZZ "Z" digits 4 rate 999999999999.999999"#
        let column = command.count - 2
        let text = try carfab(["-e", currency, "-e", command])
        #expect(
            text.stderr == """
                <command-line 2>:1:\(column): error: amount too large: the value would overflow
                \(command)
                \(String(repeating: " ", count: column - 1))^~~

                """, "\(text)")
        #expect(text.stdout == "" && text.status == 1, "\(text)")
        let json = try carfab(["--format", "json", "-e", currency, "-e", command])
        #expect(json.stdout == "" && json.status == 1, "\(json)")
        #expect(
            json.stderr.contains(
                #""id":"money-overflow","severity":"error","file":"<command-line 2>","line":1,"column":\#(column),"end_column":\#(column + 3),"#
            ), "\(json)")
    }

    @Test func options_that_overflow_point_at_the_currency() throws {
        let result = try carfab([
            "-e", #"currency ZZZ "Z" digits 4 rate 999999999999.999999"#, "-e", "car sports", "-e", "options drivetrain in ZZZ"
        ])
        #expect(
            result.stderr == """
                <command-line 3>:1:23: error: amount too large: the value would overflow
                options drivetrain in ZZZ
                                      ^~~

                """, "\(result)")
        #expect(result.stdout == "" && result.status == 1, "\(result)")
    }
}
