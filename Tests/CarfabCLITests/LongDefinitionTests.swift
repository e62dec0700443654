import Foundation
import Testing

@testable import CarfabCLI

/// A definition line of many names (up to the line limit) is read in time proportional to its
/// length: an `option` with 80,000 aliases took 31 s (each word's position list made afresh
/// for each word, and each name compared with every earlier one), deaf to Ctrl-C meanwhile.
/// Here, in a debug build, it took minutes; the limit is a bound far above the time it takes.
@Suite struct LongDefinitionTests {
    static let aliasCount = 80_000

    @Test(.timeLimit(.minutes(1))) func an_option_with_80000_aliases_is_defined_with_each_name() throws {
        let aliases = (0..<Self.aliasCount).map { " alias a\($0)" }.joined()
        let result = try carfab(
            [], stdin: "option drivetrain x \"X\" price 1\(aliases)\ncar sports; set drivetrain a79999; set drivetrain A40000; show\n")
        #expect(result.stderr == "")
        #expect(result.status == 0)
        #expect(result.stdout.contains("Drive: X\n"))
    }

    @Test(.timeLimit(.minutes(1))) func a_name_repeated_at_the_end_of_80000_is_pointed_at() throws {
        let aliases = (0..<Self.aliasCount).map { " alias a\($0)" }.joined()
        let line = "option drivetrain x \"X\" price 1\(aliases) alias A7"
        let result = try carfab([], stdin: line + "\n")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("<stdin>:1:\(line.utf8.count - 1): error: 'A7' is named twice in this definition\n"))
    }
}

/// A currency symbol may not start or end with a digit or number (of any script), a sign or
/// dash, `,` or `.` (or a form of them):
/// written before an amount it read as part of it (`"9"` made 27,995 print `927,995`, and
/// `expect price QQQ 927995` passed, the plain number taken for the price).
@Suite struct CurrencySymbolTests {
    @Test(arguments: [
        "9", "QQ1", "1Q", "-", "+", "\u{2212}", ",", "Q.", ".Q", "\u{0669}", "Q\u{FF19}", "9\u{0301}",
        // Forms of them in other widths and scripts (trial 4, 10): small and fullwidth,
        // heavy, Arabic separators, a dot leader, other numbers.
        "\u{FE63}", "\u{FF0B}", "\u{2795}", "\u{FF0E}", "Q\u{066B}", "\u{2024}", "\u{BD}", "\u{2468}", "Q\u{2010}"
    ])
    func a_symbol_that_would_run_into_the_amount_is_refused_at_the_symbol(symbol: String) throws {
        let result = try carfab([], stdin: "currency QQQ \"\(symbol)\" digits 0 rate 1\ncurrencies\n")
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix(
                "<stdin>:1:14: error: '\(symbol)' cannot be a currency symbol: it would read as part of the amount after it (a symbol may not start or end with a digit or number, a sign or dash, ',' or '.')\n"
            ))
        #expect(result.stdout == "")
    }

    /// An invisible character at an end does not hide the digit beside it (`$9` and a word
    /// joiner printed `$927,995`).
    @Test(arguments: ["$9\u{2060}", "\u{AD}9", "\u{200B}-", "Q.\u{FEFF}"])
    func an_invisible_character_does_not_hide_a_digit_or_sign_at_an_end(symbol: String) throws {
        let result = try carfab([], stdin: "currency QQQ \"\(symbol)\" digits 0 rate 1\ncurrencies\n")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("<stdin>:1:14: error: '") && result.stderr.contains("' cannot be a currency symbol"))
        #expect(result.stdout == "")
    }

    @Test func symbols_that_stand_apart_from_the_amount_are_kept() throws {
        let result = try carfab(
            [],
            stdin:
                "currency QQQ \"Q9 \" digits 0 rate 1; currency RRR \"\" digits 0 rate 1; currency SSS \"R$\" digits 0 rate 1\ncar compact; price QQQ; price RRR; price SSS\n"
        )
        #expect(result == RunResult(stdout: "Q9 27,995\n27,995\nR$27,995\n", stderr: "", status: 0))
        // Currency signs of any script, letters and symbols that read as no part of a number.
        let kept = try carfab(
            [],
            stdin:
                "currency AAA \"\u{20B9}\" digits 0 rate 1; currency BBB \"kr \" digits 0 rate 1; currency CCC \"\u{5143}\" digits 0 rate 1; currency DDD \"\u{20BF}\" digits 0 rate 1\ncar compact; price AAA; price BBB; price CCC; price DDD\n"
        )
        #expect(kept == RunResult(stdout: "\u{20B9}27,995\nkr 27,995\n\u{5143}27,995\n\u{20BF}27,995\n", stderr: "", status: 0))
    }
}
