import CarFactory
import CarScript
import Foundation
import Testing

/// The engine as another Swift program uses it: only its public API (no @testable import).
/// Scripts/test runs these under AddressSanitizer too.
@Suite struct EngineTests {
    @Test func results_are_owned_values_that_outlive_the_engine() throws {
        var run: Evaluation?
        do {
            let engine = Engine()
            run = engine.evaluate("car sports; set drivetrain 4wd; echo \"kept words\" past the line; list; total GBP")
        }
        // The engine, its lexer and its line are gone: what it returned is still whole.
        let results = try #require(run?.results)
        #expect(results.map(\.command) == ["echo", "list", "total"])
        guard case .echo(let words) = results[0].result else {
            Issue.record("not an echo")
            return
        }
        #expect(words == "kept words past the line")
        guard case .table(let table) = results[1].result else {
            Issue.record("not a table")
            return
        }
        #expect(table.rowCount == 1)
        guard case .text(let model) = table.row(0)[2] else {
            Issue.record("not a model")
            return
        }
        #expect(model == "sports")
        guard case .total(let count, let value, let valuation) = results[2].result else {
            Issue.record("not a total")
            return
        }
        #expect(count == 1 && valuation.money(value).description == "£42,719.30")
    }

    @Test func diagnostics_are_data() throws {
        let engine = Engine()
        let run = engine.evaluate("car sprots", name: "fleet")
        let problem = try #require(run.diagnostics.first)
        #expect(problem.id == "unknown-model" && problem.severity == .error)
        #expect(problem.file == "fleet" && problem.line == 1 && problem.column == 5 && problem.endColumn == 11)
        #expect(problem.message == "unknown model 'sprots'; did you mean 'sports'?")
        #expect(problem.fixIts == [Diagnostic.FixIt(column: 5, endColumn: 11, replacement: "sports")])
        #expect(problem.source?.text == "car sprots")
    }

    @Test func an_engine_keeps_its_session_between_evaluations() {
        let engine = Engine()
        engine.evaluate("car suv 2")
        engine.evaluate("option drivetrain hybrid \"Hybrid\" price 6500")
        let run = engine.evaluate("set drivetrain hybrid; price")
        guard case .amount(let amount, let valuation) = run.results.first?.result else {
            Issue.record("no price")
            return
        }
        #expect(valuation.money(amount).description == "$84,395.00")
        #expect(engine.stock.carCount == 2 && engine.catalog.options(of: .drivetrain).parts.count == 4)
    }

    @Test func files_go_through_one_gate() {
        var options = EngineOptions()
        options.fileAccess = .refused(by: "here")
        let engine = Engine(options: options)
        let run = engine.evaluate("save /tmp/never.carfab")
        #expect(run.diagnostics.first?.message == "'save' touches files and is refused here")
        #expect(run.diagnostics.first?.id == "refused")
    }

    @Test func cancellation_stops_an_evaluation_between_lines() {
        let engine = Engine()
        engine.cancellation.request()
        let run = engine.evaluate("echo never")
        #expect(run.results.isEmpty && engine.shouldStop)
    }

    @Test func cancellation_is_a_sendable_handle_another_thread_may_use() {
        let engine = Engine()
        let source = LinesUntilStopped(engine.cancellation)
        // Only the handle crosses to the thread (a @Sendable closure): Swift 6 would refuse to
        // send the engine itself. A thread of its own, not a task: the tests fill the task pool.
        let handle = engine.cancellation
        Thread { handle.request() }.start()
        engine.evaluate(source)
        #expect(engine.shouldStop && source.reads < LinesUntilStopped.limit)
    }

    @Test func the_embedding_example_runs() throws {
        // Built beside the tests (in .build-asan too, under AddressSanitizer).
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [
            bundle.appendingPathComponent("embed-example"),
            bundle.deletingLastPathComponent().appendingPathComponent("embed-example")
        ]
        let example = try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) })
        let process = Process()
        process.executableURL = example
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(
            output == """
                show: Porsche Boxster, $70,800.00
                total: 1 car(s), £42,719.30
                greet: hello suv
                example:1:65: unknown-model error: unknown model 'sprots'; did you mean 'sports'?

                """)
    }

    @Test func an_error_shows_the_line_its_source_lent_in_place() throws {
        var options = EngineOptions()
        options.keepGoing = true
        let engine = Engine(options: options)
        // Lines of text are lexed where they lie; the error's excerpt is taken from there, after
        // a byte-order mark on the first line and on a later line alike.
        let run = engine.evaluate("\u{FEFF}car sprots\ncar suv\n  car sprots # again", name: "lent")
        #expect(run.diagnostics.count == 2)
        let first = try #require(run.diagnostics.first)
        #expect(first.line == 1 && first.column == 5 && first.source?.text == "car sprots")
        let second = try #require(run.diagnostics.last)
        #expect(second.line == 3 && second.column == 7 && second.source?.text == "  car sprots # again")
    }

    @Test func names_defined_later_are_found_as_the_tables_grow_and_after_undo() throws {
        var options = EngineOptions()
        options.keepsUndoHistory = true
        options.keepGoing = true
        let engine = Engine(options: options)
        // More names than the tables were made for: each grows (and is rearranged) in place.
        var script = "family paint \"Paint\" default white \"White\"\n"
        for number in 0..<60 { script += "option paint c\(number) \"Colour \(number)\" price \(number)\n" }
        // Codes QAA, QAB, ... QBN.
        func code(_ number: Int) -> String { "Q" + String(UnicodeScalar(65 + number / 26)!) + String(UnicodeScalar(65 + number % 26)!) }
        for number in 0..<40 { script += "currency \(code(number)) \"\(code(number))\" digits 2 rate \(number + 1)\n" }
        script += "car sports\n"
        for number in 0..<60 { script += "set PAINT C\(number)\n" }
        for number in 0..<40 { script += "price \(code(number).lowercased())\n" }
        let used = engine.evaluate(script)
        #expect(used.diagnostics.isEmpty)
        #expect(used.results.count == 40)
        // Taking back the sets, the car, the currencies and the last ten colours drops their names.
        let undone = engine.evaluate("undo 111\ncar sports\nset paint c49\nset paint c50\nprice QAA\nprice qbo")
        #expect(undone.diagnostics.map(\.id) == ["unknown-option", "unknown-currency", "unknown-currency"])
    }
}

/// Lines of `echo` that go on (up to a limit) until a stop is seen: the line after the first
/// is given only once another thread has asked the engine to stop, so the evaluation can end
/// early only through that request.
private final class LinesUntilStopped: LineSource {
    static let limit = 10_000
    let stop: StopRequest
    var reads = 0
    let name = "lines"

    init(_ stop: StopRequest) { self.stop = stop }

    func readLine(continuation: Bool) throws(LineSourceFailure) -> [UInt8]? {
        reads += 1
        if reads == 2 {
            // A wait on the condition itself, bounded so that a broken stop fails rather than hangs.
            let deadline = ContinuousClock.now + .seconds(10)
            while !stop.isRequested && ContinuousClock.now < deadline { sched_yield() }
        }
        return reads <= Self.limit ? Array("echo \(reads)".utf8) : nil
    }
}
