import CarFactory
import Testing

@testable import CarScript

/// The stock's bound on lines, and how deep `begin` nests (trial 7, 8): an error found before
/// anything changes, with the bound made small here (the real one is 2^26 lines).
@Suite struct StockBoundTests {
    private func harness(lines: Int, files: [String: String] = [:]) -> EngineHarness {
        var options = EngineOptions()
        options.stockLineLimit = lines
        options.keepsUndoHistory = true
        return EngineHarness(options: options, files: MemoryHost(files))
    }

    @Test func a_car_past_the_bound_is_an_error_at_car_and_adds_nothing() {
        let h = harness(lines: 3)
        let run = h.run("car suv 2; car suv; car sports\ncar compact 5")
        #expect(
            run.diagnostics.map { "\($0.id) \($0.line):\($0.column) \($0.message)" } == [
                "stock-too-large 2:1 the stock holds at most 3 lines: no line is added"
            ])
        #expect(h.session.stock.lineCount == 3 && h.session.stock.carCount == 4)
        // `expect error` sees it by its id.
        #expect(h.run("expect error stock-too-large car suv").diagnostics.isEmpty)
        #expect(h.run("remove 1; car compact 5").diagnostics.isEmpty)
        #expect(h.session.stock.lines.map(\.count) == [1, 1, 5])
    }

    @Test func files_that_source_each_other_twice_stop_at_the_bound() {
        // Each file sources the one below it twice: 2^6 lines from a few bytes of files.
        var files = ["b0.carfab": "car sports\n"]
        for level in 1...6 { files["b\(level).carfab"] = "source b\(level - 1).carfab\nsource b\(level - 1).carfab\n" }
        let h = harness(lines: 40, files: files)
        let run = h.run("try source b6.carfab")
        #expect(run.diagnostics.map { "\($0.file):\($0.line):\($0.column) \($0.id)" } == ["b0.carfab:1:1 stock-too-large"])
        // `try` took the file's 40 lines back.
        #expect(h.session.stock.lineCount == 0)
    }

    @Test func undo_redo_and_rollback_stay_within_the_bound() {
        let h = harness(lines: 3)
        #expect(h.run("car suv; car suv; car sports; remove 2; car compact; clear; car suv").diagnostics.isEmpty)
        // Back to before `clear`, then before `remove 2`: three lines each time.
        #expect(h.run("undo 3; redo; undo 2").diagnostics.isEmpty)
        #expect(h.session.stock.lines.map(\.count) == [1, 1, 1])
        #expect(h.run("redo 3").diagnostics.isEmpty)
        #expect(h.session.stock.lineCount == 0)
        // In a transaction, the line past the bound rolls back every change since `begin`.
        let run = h.run("car suv; begin; car suv; car suv; car suv; commit")
        #expect(run.diagnostics.map(\.id) == ["stock-too-large"])
        #expect(h.session.stock.lineCount == 1)
    }

    @Test func begin_nests_at_most_a_bounded_depth() {
        let h = EngineHarness()
        let depth = UndoHistory.maximumTransactionDepth
        let run = h.run(String(repeating: "begin; ", count: depth) + "begin; car suv")
        #expect(
            run.diagnostics.map { "\($0.id) \($0.column) \($0.message)" } == [
                "transaction-depth \(depth * 7 + 1) transactions and savepoints nest at most \(depth) deep: nothing is opened"
            ])
        #expect(h.session.stock.lineCount == 0)
    }
}
