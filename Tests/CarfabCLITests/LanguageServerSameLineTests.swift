import Foundation
import Testing

/// Completion and hover after other commands on the same line see the state those leave, as
/// the prompt's Tab does (trial 12, 2: after `car suv; set drivetrain ` the options were priced
/// for the line above's sports car, `$v` after `var v 1; echo ` was "not set here").
@Suite struct LanguageServerSameLineTests {
    @Test func completion_after_earlier_commands_on_the_line_sees_their_car() throws {
        let uri = "file:///tmp/sameline.carfab"
        let text = "car sports\ncar suv; set drivetrain \nvar zz 1; echo $\n"
        let session = try serve(
            initializeRequest + didOpen(uri, text) + request(2, "textDocument/completion", at(uri, 1, 24))
                + request(3, "textDocument/completion", at(uri, 2, 16)) + shutdownAndExit)
        let items = try #require((session.response(2)?["result"] as? [String: Any])?["items"] as? [[String: Any]])
        let details = Dictionary(items.map { ($0["label"] as? String ?? "", $0["detail"] as? String ?? "") }) { a, _ in a }
        // The suv's drive is 4wd: front and rear cost less, and need no repair.
        #expect(details["4wd"] == "(current)", "\(details)")
        #expect(details["front"]?.hasPrefix("-$") == true, "\(details)")
        let variables = try #require((session.response(3)?["result"] as? [String: Any])?["items"] as? [[String: Any]])
        #expect(variables.map { $0["label"] as? String ?? "" }.contains { $0 == "$zz" || $0 == "zz" }, "\(variables)")
    }

    @Test func hover_after_earlier_commands_on_the_line_sees_their_variables() throws {
        let uri = "file:///tmp/samehover.carfab"
        let text = "var v 1; echo $v\n"
        let session = try serve(
            initializeRequest + didOpen(uri, text) + request(2, "textDocument/hover", at(uri, 0, 15)) + shutdownAndExit)
        let contents = try #require(
            ((session.response(2)?["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String)
        #expect(contents == "`$v` is `1` here", "\(contents)")
    }
}
