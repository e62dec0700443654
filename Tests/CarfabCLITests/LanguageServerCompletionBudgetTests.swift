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
        #expect(details.first == "repair +$500.00 (not with the short floorplan)")
        let priced = details.filter { $0.hasPrefix("repair ") }.count
        #expect(priced > 1_000 && priced < 3_001, "\(priced)")
        // The last option (before 4wd's other names all and awd) is past the budget: its rule alone.
        #expect(Array(details.suffix(3)) == ["(not with the short floorplan)", "(4wd) +$2,500.00", "(4wd) +$2,500.00"])
        #expect(details.contains("repair +$502.00 (not with the short floorplan)"))
    }

    /// At most 5,000 items, the allowed options first, and the list said to be incomplete: a
    /// family of 60,000 options sent 13 MB at every keystroke (trial 4, 10). Typing more of
    /// the word narrows it to a complete list.
    @Test func a_completion_of_more_than_5000_options_is_cut_and_incomplete() throws {
        let uri = "file:///tmp/many.carfab"
        var text = "family paint \"Paint\" default p0 \"P0\"\n"
        for i in 1..<6_000 { text += "option paint p\(i) \"P\" price 1\n" }
        text += "forbid paint p1 with floorplan short\ncar sports\nset paint \nset paint p59\n"
        let session = try serve(
            initializeRequest + didOpen(uri, text) + request(2, "textDocument/completion", at(uri, 6_002, 10))
                + request(3, "textDocument/completion", at(uri, 6_003, 13)) + shutdownAndExit)
        let all = try #require(session.response(2)?["result"] as? [String: Any])
        #expect(all["isIncomplete"] as? Bool == true)
        let labels = try #require(all["items"] as? [[String: Any]]).map { $0["label"] as? String ?? "" }
        #expect(labels.count == 5_000)
        // p1 (a rule keeps it off this car) goes after the allowed ones, so past the cut.
        #expect(labels.first == "p0" && labels[1] == "p2" && labels.last == "p5000" && !labels.contains("p1"))
        let narrowed = try #require(session.response(3)?["result"] as? [String: Any])
        #expect(narrowed["isIncomplete"] as? Bool == false)
        let narrowedLabels = try #require(narrowed["items"] as? [[String: Any]]).map { $0["label"] as? String ?? "" }
        #expect(narrowedLabels == ["p59"] + (590..<600).map { "p\($0)" } + (5_900..<6_000).map { "p\($0)" })
    }
}
