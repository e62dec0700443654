import CarFactory
import CarScript
import Foundation
import Testing

@testable import CarfabCLI

/// One version of a document is analysed with one budget of search steps for the repairs its
/// refused `set`s' notes name (trial 4, 7: each refusal searched 100,000 steps of its own, so
/// 30 refused `set`s made inlay hints take 18 s after each keystroke).
@Suite struct LanguageServerSearchBudgetTests {
    /// The refusals of `lines` refused `set floorplan long` on a sports car (its race suspension
    /// forbids it), in an analysis whose searches may take `steps`: whether each names its repair.
    private func repaired(_ lines: Int, steps: Int) -> (repaired: [Bool], spent: Int) {
        let text = "car sports\n" + String(repeating: "set floorplan long\n", count: lines)
        var settings = AnalysisSettings()
        settings.searchLimits = SearchLimits(steps: steps, repairs: SearchLimits.standard.repairs)
        let analysis = DocumentAnalysis(TextDocument(uri: "file:///tmp/budget.carfab", version: 1, text: text), settings: settings)
        let collector = DiagnosticCollector()
        _ = analysis.session(before: lines + 1, catalog: Engine.builtInCatalog, sink: collector)
        let refusals = collector.diagnostics.filter { $0.id == "rule-violation" }
        #expect(refusals.count == lines)
        let repaired = refusals.map { refusal in
            refusal.notes.contains { $0.message == "'fit floorplan long' would also set suspension road (+$4,100.00)" }
        }
        return (repaired, analysis.replay.searchBudget.spent)
    }

    @Test func the_refused_sets_of_a_version_share_one_search_budget() throws {
        // What one search takes: the fewest steps with which a refusal gets its repair.
        let each = try #require((1...1_000).first { repaired(1, steps: $0).repaired == [true] })
        // Every refusal has its repair while the budget holds them all.
        let all = repaired(10, steps: 10 * each)
        #expect(all.repaired == Array(repeating: true, count: 10))
        // A budget for four: the first four refusals get their repair, the others none (each
        // search past it ends at its start), so the version spends less than ten searches.
        let four = repaired(10, steps: 4 * each)
        #expect(four.repaired == Array(repeating: true, count: 4) + Array(repeating: false, count: 6), "\(each) steps a search")
        #expect(four.spent < all.spent)
    }
}
