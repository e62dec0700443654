import Testing

@testable import CarScript
@testable import CarfabCLI

@Suite struct ProgramArgumentsTests {
    @Test func inputs_keep_their_order() throws {
        let parsed = try ProgramArguments(parsing: ["a.carfab", "-e", "car suv", "-", "-etotal", "--", "-e"])
        #expect(parsed.inputs == [.file("a.carfab"), .text("car suv"), .file("-"), .text("total"), .file("-e")])
    }

    @Test func flags_and_values() throws {
        let parsed = try ProgramArguments(parsing: ["--format=json", "--check", "--keep-going", "--safe"])
        #expect(parsed.format == .json && parsed.checkOnly && parsed.keepGoing && parsed.safe)
        #expect(try ProgramArguments(parsing: ["--format", "text"]).format == .text)
        #expect(try ProgramArguments(parsing: ["-h"]).showHelp)
    }

    @Test func bad_command_lines() {
        #expect(throws: UsageError(message: "option '-e' needs a value")) { try ProgramArguments(parsing: ["-e"]) }
        #expect(throws: UsageError(message: "unknown format 'xml' (use text, json, or tap with --test)")) {
            try ProgramArguments(parsing: ["--format", "xml"])
        }
        #expect(throws: UsageError(message: "option '--safe' takes no value")) { try ProgramArguments(parsing: ["--safe=1"]) }
        #expect(throws: UsageError(message: "unknown option '-x'")) { try ProgramArguments(parsing: ["-x"]) }
    }
}
