import Foundation
import Testing

// The language server's completion after `set FAMILY ` prices repairs from the prompt's one
// budget of steps: a family of thousands of options that need a repair answers at once.
@Suite struct LanguageServerCompletionBudgetTests {
    @Test func completion_prices_repairs_up_to_the_budget_and_lists_the_rest_with_their_rule() throws {
        let uri = "file:///tmp/budget.carfab"
        var text = ""
        for i in 0..<3_000 { text += "option drivetrain d\(i) \"D\" price \(i % 97)\n" }
        for i in 0..<3_000 { text += "forbid drivetrain d\(i) with floorplan short\n" }
        text += "car sports\nset drivetrain \n"
        let session = try serve(
            initializeRequest + didOpen(uri, text) + request(2, "textDocument/completion", at(uri, 6_001, 15)) + shutdownAndExit)
        let result = try #require(session.response(2)?["result"] as? [String: Any])
        #expect(result["isIncomplete"] as? Bool == false)
        let items = try #require(result["items"] as? [[String: Any]])
        let details = items.map { $0["detail"] as? String ?? "" }
        #expect(items.count == 3_005)
        #expect(details.first == "repair +$500.00 (not with a short floorplan)")
        let priced = details.filter { $0.hasPrefix("repair ") }.count
        #expect(priced > 1_000 && priced < 3_001, "\(priced)")
        // The last option (before 4wd's other names all and awd) is past the budget: its rule alone.
        #expect(Array(details.suffix(3)) == ["(not with a short floorplan)", "(4wd) +$2,500.00", "(4wd) +$2,500.00"])
        #expect(details.contains("repair +$502.00 (not with a short floorplan)"))
    }
}
