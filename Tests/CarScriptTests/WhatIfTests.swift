import CarFactory
import CarScript
import Foundation
import Testing

/// `try COMMAND`: shows what COMMAND would change and leaves the session as it was, judged by
/// `save -` (the whole session) and by what `undo` and `redo` do afterwards.
@Suite struct WhatIfTests {
    typealias SplitMix = SessionStateDifferentialTests.SplitMix

    @Test func trying_four_wheel_drive_on_the_sports_car_says_what_it_adds() {
        let engine = UndoHistoryTests.engine(keepGoing: false)
        engine.evaluate("car sports")
        let before = UndoHistoryTests.saved(engine)
        let run = engine.evaluate("try set drivetrain 4wd")
        #expect(run.diagnostics.isEmpty)
        #expect(
            rows(run.results.last?.result) == [
                ["before", "1", "$68,300.00"], ["after", "1", "$70,800.00"], ["change", "+0", "+$2,500.00"]
            ])
        #expect(UndoHistoryTests.saved(engine) == before)
        // Its results are shown before the change: `try show` shows the car as it is.
        let shown = engine.evaluate("try car suv 2; total")
        #expect(rows(shown.results.first?.result).last == ["change", "+2", "+$163,790.00"])
        guard case .total(let count, _, _)? = shown.results.last?.result else {
            Issue.record("no total")
            return
        }
        #expect(count == 1)
        let removed = engine.evaluate("try clear")
        #expect(rows(removed.results.last?.result).last == ["change", "-1", "-$68,300.00"])
    }

    @Test func a_failing_command_is_the_error_of_try_and_changes_nothing() {
        let engine = UndoHistoryTests.engine(keepGoing: true)
        engine.evaluate("car sports")
        let before = UndoHistoryTests.saved(engine)
        let run = engine.evaluate("try set drivetrain front")
        #expect(run.diagnostics.map(\.id) == ["rule-violation"])
        #expect(run.results.isEmpty)
        #expect(UndoHistoryTests.saved(engine) == before)
        let missing = engine.evaluate("try")
        #expect(missing.diagnostics.map(\.id) == ["missing-argument"])
    }

    @Test func history_commands_are_not_tried() {
        let engine = UndoHistoryTests.engine(keepGoing: true)
        engine.evaluate("car sports")
        for command in ["undo", "redo", "begin", "commit", "rollback", "try car suv", "UNDO 2"] {
            let run = engine.evaluate("try \(command)")
            #expect(run.diagnostics.map(\.id) == ["refused"], "try \(command)")
            #expect(run.diagnostics.first?.message.contains("'begin' ... 'rollback'") == true)
        }
        #expect(engine.stock.lineCount == 1)
    }

    @Test func try_is_not_a_step_and_keeps_transactions_and_redo_as_they_were() {
        let engine = UndoHistoryTests.engine(keepGoing: false)
        engine.evaluate("car sports; car suv; undo")
        let afterUndo = UndoHistoryTests.saved(engine)
        engine.evaluate("try car compact 3; try rate GBP 0.5; try var x 1; try option drivetrain hybrid \"H\" price 1")
        #expect(UndoHistoryTests.saved(engine) == afterUndo)
        // Redo still replays the `car suv` undone before the tries.
        #expect(engine.evaluate("redo").diagnostics.isEmpty)
        #expect(engine.stock.lineCount == 2)
        // Inside a transaction (one input: its end would roll the transaction back): tried
        // against its changes, not part of it.
        let inside = engine.evaluate(
            """
            begin; car compact; try remove 3; try car suv 5; undo; expect count 2
            expect error history undo
            rollback
            """)
        #expect(inside.diagnostics.isEmpty, "\(inside.diagnostics.map(\.message))")
        #expect(
            rows(inside.results.first?.result) == [
                ["before", "3", "$178,190.00"], ["after", "2", "$150,195.00"], ["change", "-1", "-$27,995.00"]
            ])
        #expect(engine.stock.lineCount == 2)
        // The two steps before the transaction are still there.
        #expect(engine.evaluate("undo 2").diagnostics.isEmpty)
        #expect(engine.stock.lineCount == 0)
    }

    @Test func try_in_a_script_without_history_leaves_it_without_one() {
        let engine = UndoHistoryTests.engine(keepGoing: true, history: false)
        engine.evaluate("car sports; try car suv")
        #expect(engine.stock.lineCount == 1)
        #expect(engine.evaluate("undo").diagnostics.map(\.id) == ["history"])
    }

    @Test func try_source_tries_a_whole_file_and_writes_nothing() throws {
        let files = MemoryHost([
            "quote.carfab": "car suv 2\nset drivetrain rear\nrate GBP 0.5\nbegin\ncar compact\nundo\ncommit\nvar q yes\nquit\ncar sports\n"
        ])
        var options = EngineOptions()
        options.host = files
        let engine = Engine(options: options)
        engine.evaluate("car sports")
        let before = UndoHistoryTests.saved(engine)
        let run = engine.evaluate("try source quote.carfab")
        #expect(run.diagnostics.isEmpty, "\(run.diagnostics.map(\.message))")
        // suv with rear drive: 2 x (81,895 + 1,500 - 4,000).
        #expect(rows(run.results.last?.result).last == ["change", "+2", "+$158,790.00"])
        #expect(UndoHistoryTests.saved(engine) == before)
        #expect(!engine.quitRequested)
        let save = engine.evaluate("try save written.carfab")
        #expect(save.diagnostics.map(\.message) == ["'save' writes files and is refused inside 'try'"])
        #expect(files.files["written.carfab"] == nil)
        #expect(engine.evaluate("try save -").results.count == 2)
    }

    /// Random sessions (definitions, rates, clears, selects, failing commands), then a random
    /// command tried: `save` is byte-identical, and `undo` to the start walks the same states.
    @Test(arguments: Array(1...30) as [UInt64])
    func a_tried_command_leaves_save_byte_identical(seed: UInt64) {
        var random = SplitMix(state: seed &* 0x9E37)
        var serial = 0
        let engine = UndoHistoryTests.engine(keepGoing: true)
        let start = UndoHistoryTests.saved(engine)
        for step in 0..<80 {
            engine.evaluate(UndoHistoryTests.command(&random, serial: &serial))
            if step % 20 == 7 { engine.evaluate("begin") }
            if step % 20 == 15 { engine.evaluate(Bool.random(using: &random) ? "commit" : "rollback") }
            let before = UndoHistoryTests.saved(engine)
            var tried = serial
            let command = UndoHistoryTests.command(&random, serial: &tried)
            engine.evaluate("try " + command)
            #expect(UndoHistoryTests.saved(engine) == before, "seed \(seed) step \(step): try \(command)")
        }
        engine.evaluate("commit; commit; commit")
        while engine.evaluate("undo").diagnostics.isEmpty {}
        #expect(UndoHistoryTests.saved(engine) == start, "seed \(seed)")
    }
}

/// The history's bound: past it the oldest steps are forgotten, and what is left undoes to
/// the states it passed through (the stock's journal is cut with the steps that held it).
@Suite struct UndoBoundTests {
    @Test func steps_past_the_bound_are_forgotten_oldest_first_and_the_rest_undo_exactly() {
        let engine = UndoHistoryTests.engine(keepGoing: false)
        let value = String(repeating: "x", count: 900_000)
        struct State: Equatable {
            var lines: Int
            var value: Int64
            var current: Int?
            var variable: String?
        }
        func state() -> State {
            State(
                lines: engine.stock.lineCount, value: engine.stock.valueMinorUnits, current: engine.stock.currentNumber,
                variable: engine.variables.first { $0.name == "v" }?.value.prefix(8).description)
        }
        var states = [state()]
        for round in 0..<70 {
            for step in ["car sports", "set drivetrain 4wd", "var v \"\(round)\(value)\"", "clear", "car suv \(round + 1)"] {
                #expect(engine.evaluate(step).diagnostics.isEmpty)
                states.append(state())
            }
        }
        var undone = 0
        while engine.evaluate("undo").diagnostics.isEmpty {
            undone += 1
            #expect(state() == states[states.count - 1 - undone], "after \(undone) undos")
        }
        // 70 values of 900 KB are more than the bound: the oldest steps went.
        #expect(undone < states.count - 1)
        #expect(undone > 100)
        engine.evaluate("redo \(undone)")
        #expect(state() == states.last)
    }

    /// The steps of an open transaction are never forgotten, so the bound holds there by
    /// refusing the command that would pass it (trial finding 9: a few hundred bytes of
    /// script took GBs): in a script, that error rolls the transaction back like any other.
    @Test func inside_a_transaction_the_command_that_would_pass_the_bound_fails_and_rolls_it_back() {
        let engine = UndoHistoryTests.engine(keepGoing: false)
        engine.evaluate("var b x" + String(repeating: "; var b $b$b", count: 19) + "; car sports")
        let before = UndoHistoryTests.saved(engine)
        // Each `var` keeps the 512 KiB value it replaces: 48 MiB is passed near the 96th.
        var script = "begin\n"
        for round in 0..<400 { script += "car suv; var v \"${b}\(round)\"\n" }
        script += "commit\n"
        let run = engine.evaluate(script, name: "t.carfab")
        #expect(run.diagnostics.map(\.id) == ["history-too-large"])
        #expect(run.diagnostics.map(\.column) == [10])
        #expect((90...110).contains(run.diagnostics.first?.line ?? 0), "\(run.diagnostics)")
        #expect(run.diagnostics.map(\.notes) == [[.init("the open transaction was rolled back")]])
        #expect(UndoHistoryTests.saved(engine) == before)
        // The history goes on (the steps before `begin` were forgotten first, to make room).
        #expect(engine.evaluate("car compact; undo").diagnostics.isEmpty)
        #expect(UndoHistoryTests.saved(engine) == before)
        // With --keep-going the script goes on after the rollback, outside a transaction,
        // where the oldest steps are forgotten instead: no further error but `commit`'s.
        let going = UndoHistoryTests.engine(keepGoing: true)
        going.evaluate("var b x" + String(repeating: "; var b $b$b", count: 19))
        #expect(going.evaluate(script, name: "t.carfab").diagnostics.map(\.id) == ["history-too-large", "history"])
        #expect(going.stock.lineCount > 300)
    }
}
