import CarFactory
import Synchronization
import Testing

@testable import CarScript

/// A command a host adds (`HostCommand`, `EngineOptions.addCommand`): it is one more entry of
/// the command table, so dispatch, `help`, completion and `--check` read it as they read the
/// language's own, and the engine knows nothing of what it does.
@Suite struct HostCommandTests {
    /// How many times the test host's commands ran.
    final class Runs: Sendable {
        private let count = Atomic<Int>(0)
        func ran() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    /// `greet MODEL [COUNT]` (a table naming the model as the catalog has it, COUNT times) and
    /// `fail WORD` (which fails at its argument): the test host's own commands.
    static func options(runs: Runs = Runs(), checkOnly: Bool = false) -> EngineOptions {
        var options = EngineOptions()
        options.checkOnly = checkOnly
        options.addCommand(
            HostCommand(
                name: "greet", summary: "greet a model", details: "Says hello to MODEL, COUNT times (once if left out).",
                example: "greet sports 2",
                arguments: [.required("MODEL", .model), .optional("COUNT", .count)]
            ) { call throws(HostCommand.Failure) in
                runs.ran()
                guard case .model(let model) = call.arguments[0] else { throw HostCommand.Failure("no model") }
                var times: Int64 = 1
                if case .count(let count) = call.arguments[1] { times = count }
                var table = Table([.init("greeting"), .init("times", alignRight: true)])
                table.append([.text("hello \(model)"), .integer(times)])
                return .table(table)
            })
        options.addCommand(
            HostCommand(
                name: "fail", summary: "fail at WORD", details: "Always fails, pointing at WORD.",
                arguments: [.required("WORD", .word)]
            ) { call throws(HostCommand.Failure) in
                runs.ran()
                guard case .word(let word) = call.arguments[0] else { return nil }
                throw HostCommand.Failure("'\(word)' will not do", argument: 1, id: "test-refusal")
            })
        return options
    }

    @Test func a_host_command_runs_as_any_command_with_its_arguments_resolved() throws {
        let runs = Runs()
        let engine = Engine(options: Self.options(runs: runs))
        let run = engine.evaluate("car suv; GREET Sports 3; greet suv")
        #expect(run.diagnostics.isEmpty)
        #expect(run.results.map(\.command) == ["greet", "greet"])
        guard case .table(let table) = run.results.first?.result else {
            Issue.record("not a table: \(run.results)")
            return
        }
        #expect(table.columns.map(\.key) == ["greeting", "times"])
        guard case .text(let greeting) = table.row(0)[0], case .integer(let times) = table.row(0)[1] else {
            Issue.record("cells: \(table.row(0))")
            return
        }
        // The model as the catalog names it, whatever the case typed.
        #expect(greeting == "hello sports" && times == 3)
        guard case .table(let second) = run.results[1].result, case .integer(1) = second.row(0)[1] else {
            Issue.record("an optional COUNT left out is absent: \(run.results[1])")
            return
        }
        #expect(runs.value == 2)
        // Nothing of the session changed: the stock is the car made before.
        #expect(engine.stock.carCount == 1)
    }

    @Test func bad_arguments_are_errors_at_the_word_and_the_command_does_not_run() throws {
        let runs = Runs()
        let engine = Engine(
            options: {
                var options = Self.options(runs: runs)
                options.keepGoing = true
                return options
            }())
        let run = engine.evaluate("greet sprots\ngreet\ngreet suv 0\ngreet suv 2 more\nfail now", name: "host")
        let problems = run.diagnostics.map { "\($0.line):\($0.column)-\($0.endColumn) \($0.id): \($0.message)" }
        #expect(
            problems == [
                "1:7-13 unknown-model: unknown model 'sprots'; did you mean 'sports'?",
                "2:6-7 missing-argument: missing MODEL; usage: greet MODEL [COUNT]",
                "3:11-12 not-a-count: '0' is not a count (a whole number from 1)",
                "4:13-17 unexpected-argument: unexpected argument 'more'; usage: greet MODEL [COUNT]",
                "5:6-9 test-refusal: 'now' will not do"
            ])
        // Only `fail`, whose arguments resolved, ran; its failure is the command's error.
        #expect(runs.value == 1 && engine.failureCount == 5)
    }

    @Test func help_lists_it_under_system_and_describes_it() throws {
        let engine = Engine(options: Self.options())
        let run = engine.evaluate("help; help greet")
        guard case .help(let overview) = run.results.first?.result, case .overview(let groups) = overview else {
            Issue.record("no overview: \(run.results)")
            return
        }
        #expect(groups.last?.group == "system")
        #expect(groups.last?.entries.map(\.usage) == ["greet MODEL [COUNT]", "fail WORD"])
        #expect(groups.last?.entries.first?.summary == "greet a model")
        guard case .help(.command(let usage, let details, _, let example)) = run.results.last?.result else {
            Issue.record("no page: \(run.results)")
            return
        }
        #expect(usage == "greet MODEL [COUNT]" && details.hasPrefix("Says hello") && example == "greet sports 2")
        // An engine without them has no such command, and no system group.
        let plain = Engine().evaluate("help; greet suv")
        guard case .help(.overview(let plainGroups)) = plain.results.first?.result else {
            Issue.record("no overview")
            return
        }
        #expect(!plainGroups.contains { $0.group == "system" })
        #expect(plain.diagnostics.map(\.id) == ["unknown-command"])
    }

    @Test func completion_offers_it_and_its_arguments() {
        let engine = Engine(options: Self.options())
        let completer = engine.completer()
        #expect(completer.complete("gr").candidates == ["greet"])
        #expect(completer.complete("gr").descriptions == ["greet a model"])
        #expect(completer.complete("car suv; greet s").candidates == ["sports", "suv"])
        #expect(completer.complete("help gr").candidates == ["greet"])
    }

    @Test func a_check_resolves_its_arguments_and_runs_nothing() {
        let runs = Runs()
        let engine = Engine(
            options: {
                var options = Self.options(runs: runs, checkOnly: true)
                options.keepGoing = true
                return options
            }())
        let run = engine.evaluate("greet suv 2; fail now; greet nope; gret suv")
        #expect(run.results.isEmpty && runs.value == 0)
        #expect(run.diagnostics.map(\.id) == ["unknown-model", "unknown-command"])
        // The misspelt name is close to the host's command: it is suggested.
        #expect(run.diagnostics.last?.message == "unknown command 'gret'; did you mean 'greet'?")
    }

    @Test func save_writes_the_session_as_before() throws {
        let engine = Engine(options: Self.options())
        let with = engine.evaluate("car sports 2; greet suv; set drivetrain 4wd; greet sports; save -")
        let without = Engine().evaluate("car sports 2; set drivetrain 4wd; save -")
        guard case .text(let saved) = with.results.last?.result, case .text(let expected) = without.results.last?.result else {
            Issue.record("no saved text: \(with.results)")
            return
        }
        #expect(saved == expected && saved.contains("car sports 2"))
    }

    @Test func an_editor_analysis_never_runs_it() {
        // `checksQuestions`: the language server's analysis runs the lines for their state,
        // but nothing the host added.
        let runs = Runs()
        var options = Self.options(runs: runs)
        options.checksQuestions = true
        let run = Engine(options: options).evaluate("car suv; greet suv")
        #expect(run.diagnostics.isEmpty && run.results.isEmpty && runs.value == 0)
    }
}
