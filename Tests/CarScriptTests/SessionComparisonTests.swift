import CarFactory
import Foundation
import Testing

@testable import CarScript

/// `diff FILE [FILE]`: a session saved and compared with itself is the same; after one change,
/// the comparison names exactly that change.
@Suite struct SessionComparisonTests {
    typealias SplitMix = SessionStateDifferentialTests.SplitMix

    /// The comparison's rows as (change, what, name), or nil if `diff` printed no table.
    static func rows(_ run: Evaluation) -> [(change: String, what: String, name: String)]? {
        guard case .table(let table)? = run.results.last?.result else { return nil }
        return table.rows.map { row in
            let texts = row.prefix(3).map { cell -> String in if case .text(let text) = cell { text } else { "" } }
            return (texts[0], texts[1], texts[2])
        }
    }

    /// An engine whose files are `files`, in memory.
    static func engine(_ files: MemoryHost = MemoryHost(), keepGoing: Bool = true) -> Engine {
        var options = EngineOptions()
        options.keepGoing = keepGoing
        options.keepsUndoHistory = true
        options.host = files
        return Engine(options: options)
    }

    @Test func each_kind_of_difference_is_named() throws {
        let engine = Self.engine()
        let first = "a.carfab"
        let second = "b.carfab"
        let run = engine.evaluate(
            """
            car sports; car suv 2; car compact; var who Ann; save \(first)
            remove 1; select 1; set drivetrain rear; rate GBP 0.5; var who Bo
            option drivetrain hybrid "H" price 10; model roadster "R" price 40000 floorplan short suspension race drivetrain rear
            currency CHF "CHF " digits 2 rate 0.88; forbid drivetrain rear with floorplan standard; save \(second)
            diff \(first); diff \(first) \(second); diff \(second) \(second); diff \(second)
            """)
        #expect(run.diagnostics.isEmpty, "\(run.diagnostics.map(\.message))")
        let expected = [
            ("added", "model", "roadster"), ("added", "option", "drivetrain hybrid"),
            ("added", "rule", "forbid drivetrain rear with floorplan standard"), ("added", "currency", "CHF"),
            ("changed", "rate", "GBP"), ("changed", "variable", "who"),
            ("removed", "line", "1"), ("changed", "line", "2 -> 1"), ("changed", "current line", ""),
            ("changed", "total", "")
        ]
        guard case .table(let fromFile) = run.results[0].result, case .table(let fromFiles) = run.results[1].result,
            case .table(let same) = run.results[2].result, case .table(let now) = run.results[3].result
        else {
            Issue.record("diff printed no tables: \(run.results.map(\.command))")
            return
        }
        for table in [fromFile, fromFiles] {
            let rows = table.rows.map { row in row.prefix(3).map { if case .text(let text) = $0 { text } else { "" } } }
            #expect(rows == expected.map { [$0.0, $0.1, $0.2] })
        }
        #expect(same.rowCount == 0)
        #expect(now.rowCount == 0)
        // The total: the first's value, the second's, and the difference, a typed change in the
        // base currency as `try`'s change row has (it was signed text).
        let total = fromFile.row(fromFile.rowCount - 1).suffix(3).map { if case .text(let text) = $0 { text } else { "" } }
        #expect(total.prefix(2) == ["4 cars, $260,085.00", "3 cars, $186,785.00"])
        guard case .moneyChange(let difference) = fromFile.row(fromFile.rowCount - 1).last else {
            Issue.record("the difference is no money change: \(String(describing: fromFile.row(fromFile.rowCount - 1).last))")
            return
        }
        #expect(difference.minorUnits == -7_330_000 && difference.currency.code == "USD")
        #expect(CarScriptTests.rows(run.results[0].result).last?.last == "-$73,300.00")
    }

    @Test func a_family_and_the_parts_cars_have_of_it_are_compared() throws {
        let engine = Self.engine()
        let run = engine.evaluate(
            """
            car sports; save a.carfab
            family paint "Paint" default white "White"; option paint red "Red" price 300; set paint red; save b.carfab
            diff a.carfab b.carfab
            """)
        #expect(run.diagnostics.isEmpty, "\(run.diagnostics.map(\.message))")
        let rows = Self.rows(run)?.map { [$0.change, $0.what, $0.name] }
        #expect(
            rows == [
                ["added", "family", "paint"], ["added", "option", "paint red"],
                ["changed", "line", "1 -> 1"], ["changed", "total", ""]
            ])
    }

    /// Two sessions that define the same families in another order `show` their cars apart
    /// and break the configurator's ties apart (trial 10, 3): a row says so, with each order of
    /// the families both define; the same order is no row, whatever else each defines.
    @Test func the_order_of_the_families_both_define_is_compared() throws {
        let wheels = #"family wheels "Wheels" default w16 "W16"; option wheels zw "ZW" price 5"#
        let paint = #"family paint "Paint" default white "White"; option paint zred "Red" price 5"#
        let roof = #"family roof "Roof" default solid "Solid""#
        let files = MemoryHost([
            "a.carfab": "\(wheels)\n\(roof)\n\(paint)\ncar sports\n",
            "b.carfab": "\(paint)\n\(wheels)\ncar sports\n",
            "c.carfab": "\(wheels)\n\(paint)\ncar sports\n"
        ])
        let run = Self.engine(files).evaluate("diff a.carfab b.carfab; diff a.carfab c.carfab")
        #expect(run.diagnostics.isEmpty, "\(run.diagnostics.map(\.message))")
        guard case .table(let reordered) = run.results[0].result, case .table(let same) = run.results[1].result else {
            Issue.record("diff printed no tables: \(run.results.map(\.command))")
            return
        }
        let rows = reordered.rows.map { row in row.prefix(5).map { if case .text(let text) = $0 { text } else { "" } } }
        #expect(
            rows.filter { $0[1].hasPrefix("family") } == [
                ["removed", "family", "roof", #"family roof "Roof" default solid "Solid" price 0"#, ""],
                ["changed", "family order", "", "wheels paint", "paint wheels"]
            ])
        #expect(!same.rows.contains { row in if case .text("family order") = row[1] { true } else { false } })
    }

    @Test func loading_writes_nothing_and_a_failure_names_its_place() throws {
        let files = MemoryHost(["saving.carfab": "car sports\nsave written.carfab\n", "plain.carfab": "car sports\n"])
        let run = Self.engine(files).evaluate("diff saving.carfab")
        #expect(
            run.diagnostics.map(\.message) == [
                "cannot load 'saving.carfab' to compare: saving.carfab:2: 'save' writes files and is refused while loading a session to compare"
            ])
        #expect(files.files["written.carfab"] == nil)
        var safe = EngineOptions()
        safe.host = files
        safe.fileAccess = .refused(by: "by --safe")
        #expect(Engine(options: safe).evaluate("diff plain.carfab").diagnostics.map(\.id) == ["refused"])
        let missing = Self.engine(files).evaluate("diff plain.carfab nowhere.carfab")
        #expect(missing.diagnostics.map(\.column) == [19])
        // A file sourced by the one compared is read through the same host.
        files.files["outer.carfab"] = Array("source plain.carfab\ncar suv\n".utf8)
        let nested = Self.engine(files).evaluate("car sports; car suv; diff outer.carfab")
        #expect(nested.diagnostics.isEmpty, "\(nested.diagnostics.map(\.message))")
        #expect(Self.rows(nested)?.isEmpty == true)
    }

    /// The kind of row one change makes: what it changes, and how.
    static func expectedRow(for command: String) -> (change: String, what: String)? {
        switch command.split(separator: " ").first.map(String.init) ?? "" {
        case "option": ("added", "option")
        case "model": ("added", "model")
        case "currency": ("added", "currency")
        case "forbid": ("added", "rule")
        case "rate": ("changed", "rate")
        case "car": ("added", "line")
        case "set": ("changed", "line")
        case "remove", "clear": ("removed", "line")
        case "select": ("changed", "current line")
        case "var": nil  // added or changed
        default: nil
        }
    }

    /// Random sessions (definitions, rates, clears, selects, failing commands), saved; then one
    /// random change that changes what `save` writes: `diff` names it and nothing else.
    @Test(arguments: Array(1...30) as [UInt64])
    func one_change_is_named_exactly(seed: UInt64) throws {
        let file = "saved.carfab"
        var random = SplitMix(state: seed &* 0x51ED)
        var serial = 0
        var checked = 0
        let engine = Self.engine()
        for step in 0..<40 {
            engine.evaluate(UndoHistoryTests.command(&random, serial: &serial))
            let before = UndoHistoryTests.saved(engine)
            try #require(engine.evaluate("save \(file)").diagnostics.isEmpty)
            let same = engine.evaluate("diff \(file)")
            #expect(Self.rows(same)?.isEmpty == true, "seed \(seed) step \(step): \(same.diagnostics.map(\.message))")
            let lines = engine.stock.lineCount
            let change = UndoHistoryTests.command(&random, serial: &serial)
            guard engine.evaluate(change).diagnostics.isEmpty, UndoHistoryTests.saved(engine) != before else { continue }
            checked += 1
            let run = engine.evaluate("diff \(file)")
            guard let rows = Self.rows(run) else {
                Issue.record("seed \(seed) step \(step): \(change): no table, \(run.diagnostics.map(\.message))")
                continue
            }
            let named = rows.filter { $0.what != "total" && !($0.what == "current line" && change.hasPrefix("select") == false) }
            let description = "seed \(seed) step \(step): \(change) gave \(rows)"
            if change.hasPrefix("clear") {
                #expect(named.count == lines && named.allSatisfy { $0.change == "removed" && $0.what == "line" }, "\(description)")
            } else if change.hasPrefix("var") {
                #expect(
                    named.count == 1 && named.first?.what == "variable"
                        && named.first?.name == change.split(separator: " ")[1].description, "\(description)")
            } else if let expected = Self.expectedRow(for: change) {
                #expect(
                    named.count == 1 && named.first?.change == expected.change && named.first?.what == expected.what,
                    "\(description)")
            } else {
                Issue.record("unexpected change \(change)")
            }
            // A change to the stock says what it did to the total; any other leaves it out.
            let stockChange = ["car", "set", "remove", "clear", "select"].contains { change.hasPrefix($0) }
            #expect(rows.contains { $0.what == "total" } == (stockChange && !change.hasPrefix("select")), "\(description)")
        }
        #expect(checked >= 5, "seed \(seed): only \(checked) changes checked")
    }

    /// An editor's analysis (`checksComparisons`) checks a `diff`'s files as `--check` does and
    /// compares nothing: no table, and a file is followed, not run (its cars are not built, so
    /// a `set` that a rule refuses when run is not met), as the document's diagnostics read it.
    @Test func an_analysis_checks_the_files_of_a_diff_and_compares_nothing() {
        let files = MemoryHost(["refused.carfab": "car sports\nset drivetrain front\n", "fine.carfab": "car suv 2\n"])
        let run = Self.engine(files).evaluate("diff fine.carfab; diff refused.carfab fine.carfab")
        #expect(run.results.count == 1 && run.diagnostics.map(\.message).map { $0.hasPrefix("cannot load 'refused.carfab'") } == [true])
        var options = EngineOptions()
        options.keepGoing = true
        options.host = files
        options.checksComparisons = true
        let analysed = Engine(options: options).evaluate("diff fine.carfab; diff refused.carfab fine.carfab; diff nosuch.carfab")
        #expect(analysed.results.isEmpty)
        // A file that cannot be read is still an error, as `--check` reports it.
        #expect(
            analysed.diagnostics.map(\.message).map { $0.contains("nosuch.carfab") } == [true], "\(analysed.diagnostics.map(\.message))")
    }

    /// Sessions that `diff` loads may load others only `maximumComparisonDepth` deep: each
    /// keeps its catalog (up to 16 MiB of definitions) while the ones it loads run, and 64 of
    /// them took 1.5 GB (trial 5, 6). The error names the bound, at the file past it, and
    /// `--check` (which follows a diff's files) and an editor's analysis give the same one.
    @Test func diffs_in_loaded_sessions_nest_a_few_deep() {
        var files: [String: String] = ["c9.carfab": "car sports\n"]
        for level in 0..<9 { files["c\(level).carfab"] = "car suv\ndiff c\(level + 1).carfab\n" }
        let host = MemoryHost(files)
        let fine = Self.engine(host).evaluate("diff c\(10 - maximumComparisonDepth).carfab")
        #expect(fine.diagnostics.isEmpty, "\(fine.diagnostics.map(\.message))")
        #expect(Self.rows(fine) != nil)
        let deep = "c\(9 - maximumComparisonDepth).carfab"
        let bound = "sessions that 'diff' loads nest at most \(maximumComparisonDepth) deep: <input> -> "
        let chain = (9 - maximumComparisonDepth...9).map { "c\($0).carfab" }.joined(separator: " -> ")
        for check in [false, true] {
            var options = EngineOptions()
            options.keepGoing = true
            options.host = host
            options.checkOnly = check
            let run = Engine(options: options).evaluate("diff \(deep)")
            let messages = run.diagnostics.map(\.message)
            #expect(messages.count == 1, "check: \(check)")
            #expect(
                messages.allSatisfy { $0.hasPrefix("cannot load '\(deep)' to compare: ") && $0.hasSuffix(bound + chain) }, "\(messages)")
            #expect(run.diagnostics.map(\.column) == [6])
        }
    }

    /// A stop ends a comparison's own walk through the lines, however they were matched:
    /// stocks that differ only at their ends are matched with no search (which polls the
    /// stop), and the rows were made to the last (trial 5, 3).
    @Test func a_stop_ends_the_comparison_however_its_lines_were_matched() {
        let engine = Self.engine()
        _ = engine.evaluate(String(repeating: "car sports\n", count: 20_000))
        let first = SessionContents(engine.session)
        _ = engine.evaluate("car suv")
        let second = SessionContents(engine.session)
        #expect(SessionComparison.table(first, second).rowCount == 3)
        let stop = StopRequest()
        stop.request()
        #expect(SessionComparison.table(first, second, stop: stop).rowCount == 0)
    }

    /// Standard input is read once: `diff - -` is an error at the second `-`, as `--diff - -`
    /// is a usage error (it compared standard input with the empty rest of it; trial 5, 5).
    /// A `quit` in a FILE ends only that FILE, as grammar.md says: the session compared is
    /// what ran before it.
    @Test func diff_reads_standard_input_once_and_a_quit_ends_only_its_file() {
        let run = Self.engine().evaluate("diff - -")
        #expect(run.diagnostics.map(\.message) == ["'diff' reads standard input once: at most one of its FILEs may be '-'"])
        #expect(run.diagnostics.map(\.column) == [8])
        let files = MemoryHost(["q3.carfab": "car sports\nquit 3\ncar suv\n", "one.carfab": "car sports\n"])
        let quits = Self.engine(files).evaluate("diff q3.carfab one.carfab; echo after")
        #expect(quits.diagnostics.isEmpty, "\(quits.diagnostics.map(\.message))")
        // The same sessions: `diff` prints nothing (an empty table), then `echo` runs.
        guard case .table(let table)? = quits.results.first?.result else {
            Issue.record("no table: \(quits.results.map(\.command))")
            return
        }
        #expect(table.rowCount == 0)
        #expect(quits.results.count == 2)
    }
}
