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
