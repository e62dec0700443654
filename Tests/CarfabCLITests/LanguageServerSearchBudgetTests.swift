import CarFactory
import CarScript
import Foundation
import Testing

@testable import CarfabCLI

/// An editor's analysis searches no repair for a refused `set`: its note is never shown there
/// (the diagnostics are `--check`'s), and each search took up to 100,000 steps of every
/// keystroke (trial 4, 7: 30 refused `set`s made inlay hints take 18 s after each keystroke).
@Suite struct LanguageServerSearchBudgetTests {
    @Test func an_analysis_searches_no_repair_for_a_refused_set() throws {
        let lines = 30
        let text = "car sports\n" + String(repeating: "set floorplan long\nset floorplan long drivetrain rear\n", count: lines)
        let analysis = DocumentAnalysis(
            TextDocument(uri: "file:///tmp/refusals.carfab", version: 1, text: text), settings: AnalysisSettings())
        let collector = DiagnosticCollector()
        _ = analysis.session(before: 2 * lines + 1, catalog: Engine.builtInCatalog, sink: collector)
        let refusals = collector.diagnostics.filter { $0.id == "rule-violation" }
        #expect(refusals.count == 2 * lines)
        // The rule that refused it is named; no repair was looked for.
        #expect(refusals.allSatisfy { !$0.notes.isEmpty && !$0.notes.contains { $0.message.contains("would also set") } })
        // The same line run as a script names the repair.
        let run = Engine().evaluate("car sports\nset floorplan long")
        #expect(
            run.diagnostics.first?.notes.contains { $0.message == "'fit floorplan long' would also set suspension road (+$4,100.00)" }
                == true)
    }
}
