import CarFactory
import CarScript
import Testing

/// `undo`, `redo` and transactions, judged by `save -`, which writes the whole session
/// (definitions, rates, variables, every stock line and the current one).
@Suite struct UndoHistoryTests {
    typealias SplitMix = SessionStateDifferentialTests.SplitMix

    static func engine(keepGoing: Bool = true, history: Bool = true) -> Engine {
        var options = EngineOptions()
        options.keepGoing = keepGoing
        options.keepsUndoHistory = history
        options.fileAccess = .refused(by: "in this test")
        return Engine(options: options)
    }

    /// The session as `save -` writes it.
    static func saved(_ engine: Engine) -> String {
        let run = engine.evaluate("save -")
        guard case .text(let text)? = run.results.last?.result else { return "<save printed no text: \(run.diagnostics)>" }
        return text
    }

    /// Definitions named afresh each time, so each succeeds once (a second is a failing command).
    static func command(_ random: inout SplitMix, serial: inout Int) -> String {
        func pick(_ words: [String]) -> String { words[Int.random(in: 0..<words.count, using: &random)] }
        serial += 1
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<10:
            return "option drivetrain d\(serial % 7) \"D \(serial)\" price \(serial * 10) alias dd\(serial % 5)"
        case 10..<14:
            return "model m\(serial % 6) \"M \(serial)\" price \(1000 + serial) floorplan short suspension race drivetrain "
                + pick(["rear", "front", "d1", "d2"])
        case 14..<17: return "currency C\(pick(["AA", "BB", "CC"])) \"c \" digits 2 rate 1.5"
        case 17..<22: return "car " + pick(["m1", "m2", "m3", "nosuch"]) + pick(["", " 2"])
        default: return SessionStateDifferentialTests.command(&random)
        }
    }

    @Test(arguments: Array(1...40) as [UInt64])
    func undo_to_the_start_and_redo_to_the_end_give_the_same_save(seed: UInt64) {
        var random = SplitMix(state: seed)
        var serial = 0
        let engine = Self.engine()
        let start = Self.saved(engine)
        // The state after each command (each is a step), distinct from the one before it.
        var states = [start]
        for command in ["car sports", "var start yes"] {
            engine.evaluate(command)
            states.append(Self.saved(engine))
        }
        for _ in 0..<(60 + Int(seed % 5) * 40) {
            engine.evaluate(Self.command(&random, serial: &serial))
            let now = Self.saved(engine)
            if now != states.last { states.append(now) }
        }
        let end = states.last ?? start
        // Back one step at a time: the distinct states come back in reverse, down to the start.
        var back = [Self.saved(engine)]
        while engine.evaluate("undo").diagnostics.isEmpty {
            let now = Self.saved(engine)
            if now != back.last { back.append(now) }
        }
        #expect(back.reversed().suffix(states.count) == states[...], "seed \(seed)")
        #expect(Self.saved(engine) == start, "seed \(seed)")
        let refused = engine.evaluate("undo")
        #expect(refused.diagnostics.map(\.message) == ["nothing to undo"])
        // Forward again, all at once.
        while engine.evaluate("redo 3").diagnostics.isEmpty {}
        while engine.evaluate("redo").diagnostics.isEmpty {}
        #expect(Self.saved(engine) == end, "seed \(seed)")
    }

    @Test func each_kind_of_change_is_undone_and_redone() {
        let engine = Self.engine(keepGoing: false)
        let steps = [
            "car sports 2", "set drivetrain 4wd", "car suv", "select 1", "rate GBP 0.5",
            "option drivetrain hybrid \"Hybrid\" price 6500", "set drivetrain hybrid",
            "forbid drivetrain rear with floorplan long", "var colour red", "var colour blue", "remove 1",
            "clear", "car compact 3",
            "model roadster \"Mazda MX-5\" price 31000 floorplan short suspension race drivetrain hybrid",
            "car roadster", "currency CHF \"CHF \" digits 2 rate 0.88"
        ]
        var states = [Self.saved(engine)]
        for step in steps {
            let run = engine.evaluate(step)
            #expect(run.diagnostics.isEmpty, "\(step): \(run.diagnostics)")
            states.append(Self.saved(engine))
        }
        for index in stride(from: steps.count - 1, through: 0, by: -1) {
            engine.evaluate("undo")
            #expect(Self.saved(engine) == states[index], "undo of \(steps[index])")
        }
        engine.evaluate("redo \(steps.count)")
        #expect(Self.saved(engine) == states.last)
        // What was defined and undone is gone from the names too, and comes back with redo.
        engine.evaluate("undo 3")
        let gone = engine.evaluate("car roadster")
        #expect(gone.diagnostics.map(\.id) == ["unknown-model"])
        engine.evaluate("redo")
        #expect(engine.evaluate("car roadster; total").diagnostics.isEmpty)
    }

    /// `clear` moves the stock into the history whole, lines and all (trial 9, 2: packing its
    /// lines walked them at every `clear` and every undo of one): undo, redo, `rollback` and
    /// `try` put back the exact stock, its list and current line, and it changes as before after.
    @Test(arguments: ["car sports 5000; car suv 2; select 1", "car sports 4095; car suv 2; select 1", "many"])
    func a_cleared_stock_comes_back_exact_by_undo_redo_rollback_and_try(lines: String) {
        let engine = Self.engine()
        // Many: lines of several blocks, some taken from the front and the middle.
        let many =
            (1...700).map { "car \(["sports", "suv", "compact"][$0 % 3]) \($0)" } + Array(repeating: "remove 1", count: 50)
            + Array(repeating: "remove 300", count: 50) + ["select 123"]
        engine.evaluate(lines == "many" ? many.joined(separator: "\n") : lines)
        let before = Self.saved(engine)
        func listed() -> String { String(describing: engine.evaluate("list").results.map(\.result)) }
        let list = listed()
        engine.evaluate("clear; car compact 3")
        let after = Self.saved(engine)
        engine.evaluate("undo; undo")
        #expect(Self.saved(engine) == before)
        #expect(listed() == list)
        engine.evaluate("redo 2")
        #expect(Self.saved(engine) == after)
        engine.evaluate("undo 2")
        engine.evaluate("begin; remove 1; clear; car suv; rollback")
        engine.evaluate("try clear")
        #expect(Self.saved(engine) == before)
        #expect(listed() == list)
        engine.evaluate("set drivetrain 4wd; remove 1")
        #expect(engine.evaluate("total").diagnostics.isEmpty)
        #expect(engine.stock.lineCount == (lines == "many" ? 599 : 1))
    }

    /// Lines taken from the front and the middle of a stock of many blocks keep their numbers
    /// as a plain list would, and come back at them when the removals are undone.
    @Test func lines_removed_from_the_front_and_the_middle_keep_their_numbers_and_come_back() {
        let engine = Self.engine()
        engine.evaluate((1...900).map { "car sports \($0)" }.joined(separator: "\n"))
        let before = Self.saved(engine)
        var model = Array(1...900)
        var removals: [String] = []
        for step in 0..<400 {
            let number = step % 2 == 0 ? 1 : (model.count + 1) / 2
            removals.append("remove \(number)")
            model.remove(at: number - 1)
        }
        engine.evaluate(removals.joined(separator: "\n"))
        #expect(engine.stock.lines.map(\.count) == model.map(Int64.init))
        for number in [1, 250, 251, model.count] {
            #expect((try? engine.stock.line(number).count) == Int64(model[number - 1]))
        }
        engine.evaluate("undo 400")
        #expect(Self.saved(engine) == before)
        engine.evaluate("redo 400")
        #expect(engine.stock.lines.map(\.count) == model.map(Int64.init))
    }

    @Test func commands_that_change_nothing_are_not_steps_and_a_new_change_forgets_redo() {
        let engine = Self.engine()
        engine.evaluate("car sports; car suv")
        engine.evaluate("show; list; total GBP; echo hi; help undo; vars; price; select 2")
        engine.evaluate("undo")
        #expect(engine.stock.lineCount == 1)
        engine.evaluate("car compact")
        let redo = engine.evaluate("redo")
        #expect(redo.diagnostics.map(\.message) == ["nothing to redo"])
        let over = engine.evaluate("undo 3")
        #expect(over.diagnostics.map(\.message) == ["only 2 steps to undo"])
        #expect(engine.stock.lineCount == 2)
    }

    /// A `clear` of an empty stock, a `var` of the value it has and a `rate` of the rate a
    /// currency has change nothing, as a `set` of the option the car has: none is a step (trial
    /// 12, L4: each was, and the `undo` after it took back nothing to see).
    @Test(arguments: [
        ("car suv; clear; clear", "undo", "car suv 1"),
        ("var a 1; var a 2; var a 2", "undo", "var a 1"),
        ("rate GBP 0.5; rate GBP 0.7; rate GBP 0.7", "undo", "rate GBP 0.5")
    ])
    func repeating_what_is_there_is_no_step(script: String, undo: String, kept: String) {
        let engine = Self.engine()
        engine.evaluate(script)
        let run = engine.evaluate(undo)
        #expect(run.diagnostics.isEmpty, "\(run.diagnostics.map(\.message))")
        #expect(Self.saved(engine).contains(kept), "\(Self.saved(engine))")
        let fresh = Self.engine()
        #expect(fresh.evaluate("clear; undo").diagnostics.map(\.message) == ["nothing to undo"])
    }

    @Test func scripts_keep_no_history_until_begin() {
        let engine = Self.engine(history: false)
        let run = engine.evaluate("car sports; undo")
        #expect(run.diagnostics.map(\.message) == ["no undo history is kept in a script: 'undo' works at the prompt, or after 'begin'"])
        let transaction = engine.evaluate("begin; car suv 4; set drivetrain 4wd; rollback; total")
        #expect(transaction.diagnostics.isEmpty)
        #expect(engine.stock.lineCount == 1)
    }

    /// Random transaction structures against a model, a stack of the states at each open
    /// `begin`, in one script (a transaction lasts until its input ends): `save -` after every
    /// line shows the state there.
    @Test(arguments: Array(1...30) as [UInt64])
    func transactions_give_the_state_a_model_predicts(seed: UInt64) {
        var random = SplitMix(state: seed &* 77)
        var serial = 0
        var lines: [String] = []
        for _ in 0..<150 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: lines.append("begin")
            case 1: lines.append("commit")
            case 2: lines.append("rollback")
            default: lines.append(Self.command(&random, serial: &serial))
            }
        }
        let script = "car sports\nsave -\n" + lines.map { $0 + "\nsave -\n" }.joined()
        let engine = Self.engine(history: false)
        let run = engine.evaluate(script, name: "t.carfab")
        let saves: [String] = run.results.compactMap { if case .text(let text) = $0.result { text } else { nil } }
        let failedLines = Set(run.diagnostics.filter { $0.severity == .error }.map(\.line))
        guard saves.count == lines.count + 1 else {
            Issue.record("seed \(seed): \(saves.count) saves for \(lines.count) lines")
            return
        }
        var stack: [String] = []
        for (index, line) in lines.enumerated() {
            let before = saves[index]
            let after = saves[index + 1]
            let failed = failedLines.contains(2 * index + 3)
            switch line {
            case "begin":
                stack.append(before)
                #expect(!failed && after == before)
            case "commit":
                #expect(failed == stack.isEmpty && after == before, "seed \(seed) line \(index)")
                _ = stack.popLast()
            case "rollback":
                #expect(failed == stack.isEmpty, "seed \(seed) line \(index)")
                #expect(after == stack.popLast() ?? before, "seed \(seed) line \(index)")
            default:
                // An error inside a transaction rolls every open one back; outside, it changes nothing.
                if failed {
                    #expect(after == stack.first ?? before, "seed \(seed) line \(index): \(line)")
                    stack = []
                }
            }
        }
        let warnings = run.diagnostics.filter { $0.severity == .warning }.map(\.message)
        #expect(
            warnings
                == (stack.isEmpty
                    ? []
                    : ["end of input with \(stack.count == 1 ? "a transaction" : "\(stack.count) nested transactions") open: rolled back"]))
        if let outermost = stack.first { #expect(Self.saved(engine) == outermost, "seed \(seed)") }
    }

    @Test func an_error_in_a_script_transaction_rolls_it_back_and_says_so() {
        let engine = Self.engine(keepGoing: true, history: false)
        let run = engine.evaluate("car sports\nbegin\ncar suv\ncar nosuch\ntotal\n", name: "t.carfab")
        #expect(run.diagnostics.map(\.notes) == [[.init("the open transaction was rolled back")]])
        #expect(engine.stock.lineCount == 1)
        let open = engine.evaluate("begin\ncar suv\n", name: "u.carfab")
        #expect(open.diagnostics.map(\.severity) == [.warning])
        #expect(open.diagnostics.map(\.message) == ["end of input with a transaction open: rolled back"])
        #expect(engine.stock.lineCount == 1)
    }

    @Test func a_committed_transaction_is_one_step() {
        let engine = Self.engine()
        engine.evaluate("car sports; begin; car suv; begin; car compact; commit; set drivetrain 4wd; commit")
        #expect(engine.stock.lineCount == 3)
        engine.evaluate("undo")
        #expect(engine.stock.lineCount == 1)
        engine.evaluate("redo")
        #expect(engine.stock.lineCount == 3)
        let inside = engine.evaluate("begin; undo")
        // The error rolls the transaction back (a script): no warning at the end of input.
        #expect(inside.diagnostics.map(\.message) == ["nothing to undo since 'begin'"])
        #expect(inside.diagnostics.map(\.notes) == [[.init("the open transaction was rolled back")]])
    }
}
