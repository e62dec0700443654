import Testing

@testable import CarScript

/// A host that adds a command the table cannot hold stops at once, where it adds it (a
/// programming error, as a dictionary literal's duplicate key is), not when a user types the
/// command. Each case runs in a process of its own (an exit test) that must fail with the
/// precondition's own message, so that no other trap on the way can pass for it; the last
/// shows that the same steps with good commands do not stop.
@Suite struct HostCommandMisuseTests {
    /// A command that says its name, named `name`, with `arguments`.
    static func command(_ name: String, _ arguments: [HostCommand.Argument] = []) -> HostCommand {
        HostCommand(name: name, summary: "its name", details: "Says its name.", arguments: arguments) { _ throws(HostCommand.Failure) in
            .text(name)
        }
    }

    /// Standard error of a process that ran an exit test.
    static func text(_ result: ExitTest.Result) -> String { String(decoding: result.standardErrorContent, as: UTF8.self) }

    @Test func a_name_that_cannot_be_typed_as_a_command_stops_the_program() async throws {
        let spaced = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var options = EngineOptions()
            options.addCommand(HostCommandMisuseTests.command("two words"))
        }
        #expect(Self.text(spaced).contains("'two words' is not a command's name"))
        let digit = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var options = EngineOptions()
            options.addCommand(HostCommandMisuseTests.command("9lives"))
        }
        #expect(Self.text(digit).contains("'9lives' is not a command's name"))
    }

    @Test func a_name_the_language_has_stops_the_program_in_any_case() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var options = EngineOptions()
            options.addCommand(HostCommandMisuseTests.command("Show"))
            _ = Engine(options: options)
        }
        #expect(Self.text(result).contains("command 'Show' is in the table twice"))
    }

    @Test func a_name_added_twice_stops_the_program() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var options = EngineOptions()
            options.addCommand(HostCommandMisuseTests.command("uptime"))
            options.addCommand(HostCommandMisuseTests.command("UPTIME"))
            _ = Engine(options: options)
        }
        #expect(Self.text(result).contains("command 'UPTIME' is in the table twice"))
    }

    @Test func more_arguments_than_a_command_may_have_stop_the_program() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var options = EngineOptions()
            let arguments = (0..<ArgumentSpace.capacity).map { HostCommand.Argument.required("W\($0)", .word) }
            options.addCommand(HostCommandMisuseTests.command("many", arguments))
        }
        #expect(Self.text(result).contains("'many' has more arguments than a command may have"))
    }

    @Test func every_remaining_word_taken_before_the_last_argument_stops_the_program() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var options = EngineOptions()
            options.addCommand(HostCommandMisuseTests.command("say", [.required("WORDS", .words), .required("MODEL", .model)]))
        }
        #expect(Self.text(result).contains("'say': only the last argument may take every remaining word"))
    }

    @Test func a_required_argument_after_an_optional_one_stops_the_program() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var options = EngineOptions()
            options.addCommand(HostCommandMisuseTests.command("pair", [.optional("COUNT", .count), .required("MODEL", .model)]))
        }
        #expect(Self.text(result).contains("'pair': a required argument follows an optional one"))
    }

    /// The same steps with commands the table can hold: the program goes on, and they run.
    @Test func good_commands_added_the_same_way_do_not_stop_it() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardErrorContent]) {
            var options = EngineOptions()
            let arguments = (0..<ArgumentSpace.capacity - 1).map { HostCommand.Argument.optional("W\($0)", .word) }
            options.addCommand(HostCommandMisuseTests.command("many", arguments))
            options.addCommand(HostCommandMisuseTests.command("say", [.required("MODEL", .model), .optional("WORDS", .words)]))
            options.addCommand(HostCommandMisuseTests.command("up-time_2"))
            let run = Engine(options: options).evaluate("many a b; say sports hello there; UP-TIME_2")
            let said = run.results.map { if case .text(let name) = $0.result { name } else { "" } }
            precondition(run.diagnostics.isEmpty && said == ["many", "say", "up-time_2"], "\(run.diagnostics) \(said)")
        }
        #expect(Self.text(result).isEmpty)
    }
}
