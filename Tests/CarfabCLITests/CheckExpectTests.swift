import Testing

/// `--check` reads `expect`'s words as running reads them (grammar.md: "Values are checked
/// where the command's words are read, so `--check` finds a bad one as running would"): a VALUE
/// that could never match, or a line number that is none, is found without running.
@Suite struct CheckExpectTests {
    @Test(arguments: [
        ("expect seats x", 14, "'x' is not a whole number"),
        ("expect count 1.0", 14, "'1.0' is not a whole number"),
        ("expect total GBP 1.234", 18, "'1.234' has more than 2 decimal places"),
        ("expect line 1 count x", 21, "'x' is not a whole number"),
        ("expect line 0 count 1", 13, "'0' is not a line number (a whole number from 1)"),
        (
            "expect price abc", 14,
            "'abc' is not an amount in USD; write one as price and total print it ($1,234.50), without the symbol, or as a plain number (1234.5)"
        )
    ])
    func a_value_that_could_never_match_is_found_by_check(line: String, column: Int, message: String) throws {
        let width = line.split(separator: " ").last.map(\.count) ?? 1
        let caret = String(repeating: " ", count: column - 1) + "^" + String(repeating: "~", count: width - 1)
        let error = "<command-line>:1:\(column): error: \(message)\n\(line)\n\(caret)\n"
        #expect(try carfab(["--check", "-e", line]) == RunResult(stdout: "", stderr: error, status: 1))
    }

    @Test func values_that_may_match_pass_check_whatever_the_stock() throws {
        // Nothing is looked up: no current car, no line 3, yet every word is well formed.
        #expect(
            try carfab(["--check", "-e", "expect price GBP 1.00; expect line 3 price GBP 1.5; expect type x; expect seats 04"])
                == RunResult(stdout: "", stderr: "", status: 0))
    }
}
