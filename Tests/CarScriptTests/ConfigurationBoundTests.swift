import CarFactory
import Testing

@testable import CarScript

/// The stock's bound on distinct configurations (trial 8, 2: each took some 2 KB with 61
/// families, and only the lines were bounded), made small here (the real one is 2^18), and a
/// `set` of many pairs, which makes and checks only the car they make together.
@Suite struct ConfigurationBoundTests {
    private func harness(configurations: Int) -> EngineHarness {
        var options = EngineOptions()
        options.keepsUndoHistory = true
        let harness = EngineHarness(options: options)
        // On the session's stock, not an engine option: a field more in `EngineOptions` cost
        // start-up some 1,700 instructions (callgrind, an empty file).
        harness.session.stock.configurationLimit = configurations
        return harness
    }

    private func described(_ run: (results: [CommandResult], diagnostics: [Diagnostic])) -> [String] {
        run.diagnostics.map { "\($0.id) \($0.line):\($0.column) \($0.message)" }
    }

    private let refusal = "the stock keeps at most 3 distinct configurations: nothing is changed (remove or clear lines to make room)"

    @Test func a_configuration_past_the_bound_is_an_error_at_car_or_set_and_changes_nothing() {
        let h = harness(configurations: 3)
        #expect(h.run("car suv; car sports; car compact 2").diagnostics.isEmpty)
        let value = h.session.stock.valueMinorUnits
        // A fourth: by `set` of one part, of several, and by `car` of a model not in stock.
        #expect(described(h.run("set drivetrain rear")) == ["configurations-too-large 1:1 \(refusal)"])
        #expect(described(h.run("set drivetrain rear suspension race")) == ["configurations-too-large 1:1 \(refusal)"])
        #expect(described(h.run("car compact; set suspension race")) == ["configurations-too-large 1:14 \(refusal)"])
        // Nothing changed but the line `car compact` added (a configuration kept already).
        #expect(h.session.stock.lines.map(\.car.carType) == ["Cadillac Escalade", "Porsche Boxster", "VW Golf", "VW Golf"])
        #expect(h.session.stock.lines.map(\.car.drivetrain.name) == ["4wd", "rear", "front", "front"])
        #expect(h.session.stock.valueMinorUnits == value + 2_799_500)
        // `expect error` sees it by its id; configurations kept already go on being used.
        #expect(h.run("expect error configurations-too-large set drivetrain rear\ncar sports; set drivetrain rear").diagnostics.isEmpty)
        // Lines let go of theirs: the configurations no line holds are dropped to make room.
        #expect(h.run("remove 1; select 3; set drivetrain rear").diagnostics.isEmpty)
        #expect(h.session.stock.lines.map(\.car.drivetrain.name) == ["rear", "front", "rear", "rear"])
        #expect(h.session.stock.configurationCount <= 3)
    }

    @Test func undo_and_redo_stay_within_the_bound() {
        let h = harness(configurations: 2)
        #expect(h.run("car suv; car sports; remove 1; car compact").diagnostics.isEmpty)
        // Putting the suv back (undo of `remove 1`) drops the compact's, which no line holds then.
        #expect(h.run("undo 2").diagnostics.isEmpty)
        #expect(h.session.stock.lines.map(\.car.carType) == ["Cadillac Escalade", "Porsche Boxster"])
        #expect(h.run("redo 2").diagnostics.isEmpty)
        #expect(h.session.stock.lines.map(\.car.carType) == ["Porsche Boxster", "VW Golf"])
        // In a transaction, a configuration past the bound rolls back every change since `begin`.
        let run = h.run("begin; car sports; set drivetrain 4wd; commit")
        #expect(run.diagnostics.map(\.id) == ["configurations-too-large"])
        #expect(h.session.stock.lines.map(\.car.carType) == ["Porsche Boxster", "VW Golf"])
    }

    /// A step taken back or made again puts back a state the stock held under the bound, even
    /// one whose configuration was dropped since (review of stock10: the `undo` was refused
    /// halfway, left line 1 changed, lost its step, and `redo` then crashed).
    @Test func undo_and_redo_put_back_a_configuration_dropped_since() {
        // 32 lines of 32 configurations, at the bound: one dropped pays only once lines have let
        // go of an eighth of them.
        let h = harness(configurations: 32)
        let options = (1..<40).map { "option f o\($0) \"O\" price \($0)" }.joined(separator: "\n")
        let lines = (0..<32).map { "car suv; set f o\($0)" }.joined(separator: "\n")
        #expect(h.run("family f \"F\" default o0 \"O\"\n\(options)\n\(lines)").diagnostics.isEmpty)
        // Line 1 takes line 2's configuration and lets its own go; `car sports` drops it to make room.
        #expect(h.run("begin; select 1; set f o1; commit").diagnostics.isEmpty)
        #expect(h.run("car sports").diagnostics.isEmpty)
        let after = h.session.stock.valueMinorUnits
        let parts = { h.session.stock.lines.map { $0.car.configuration.others.map(\.name).joined() } }
        #expect(h.run("undo 2").diagnostics.isEmpty)
        #expect(parts() == (0..<32).map { "o\($0)" })
        #expect(h.run("redo 2").diagnostics.isEmpty)
        #expect(parts() == ["o1"] + (1..<32).map { "o\($0)" } + ["o0"])
        #expect(h.session.stock.valueMinorUnits == after)
        // What a rollback takes back is put back too.
        #expect(h.run("undo 2; begin; select 2; set f o3; remove 2; car sports; rollback").diagnostics.isEmpty)
        #expect(parts() == (0..<32).map { "o\($0)" })
    }

    /// Only the car the pairs make together is checked, against rules between defined families
    /// and between a defined family and the book's, however many families it names.
    @Test func a_set_of_many_pairs_is_checked_and_priced_as_one_car() {
        let h = EngineHarness()
        let families = (0..<40).map { "family f\($0) \"F\($0)\" default a \"A\"; option f\($0) b \"B\" price \($0 + 1)" }
        #expect(h.run(families.joined(separator: "\n")).diagnostics.isEmpty)
        #expect(h.run("forbid f3 b with f37 b\nforbid f5 b with floorplan long\ncar suv").diagnostics.isEmpty)
        let base = h.session.stock.valueMinorUnits
        #expect(described(h.run("set f3 b f37 b")) == ["rule-violation 1:5 b f3 cannot go with the b f37"])
        #expect(described(h.run("set f5 b")) == ["rule-violation 1:8 b f5 cannot go with the long floorplan"])
        #expect(described(h.run("set f37 b f3 b f1 b")) == ["rule-violation 1:5 b f3 cannot go with the b f37"])
        #expect(h.session.stock.valueMinorUnits == base)
        // Through a forbidden car one part at a time, allowed at once; each option priced once.
        let all = (0..<40).filter { $0 != 3 && $0 != 5 }.map { "f\($0) b" }.joined(separator: " ")
        #expect(h.run("set f5 b floorplan standard \(all)").diagnostics.isEmpty)
        let added = (0..<40).filter { $0 != 3 }.map { ($0 + 1) * 100 }.reduce(0, +)
        #expect(h.session.stock.valueMinorUnits == base + Int64(added) - 450_000)
        #expect(h.session.stock.lines[0].car.configuration.others.map(\.name) == (0..<40).map { $0 == 3 ? "a" : "b" })
    }
}
