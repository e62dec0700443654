import Foundation
import Testing

@testable import CarfabCLI

/// The language server matches names as the engine resolves them: a name typed in another
/// Unicode normal form than its definition's (`cafe` and U+0301 for `caf\u{E9}`) is completed,
/// hovered and found as the name it runs as (completion compared bytes, and offered nothing).
@Suite struct LanguageServerNormalFormTests {
    @Test func a_name_in_another_normal_form_is_completed_and_hovered() throws {
        let uri = "file:///tmp/normal-form.carfab"
        let text =
            "model caf\u{E9} \"C\" price 30000 floorplan short suspension race drivetrain rear\n"
            + "family p\u{E9}int \"P\" default caf\u{E9}r \"R\"\ncar cafe\u{301}\nset pe\u{301}int cafe\u{301}\n"
        let session = try serve(
            initializeRequest + didOpen(uri, text)
                + request(2, "textDocument/completion", at(uri, 2, 9))
                + request(3, "textDocument/completion", at(uri, 3, 16))
                + request(4, "textDocument/hover", at(uri, 2, 5)) + shutdownAndExit)
        let labels = { (id: Int) in
            ((session.response(id)?["result"] as? [String: Any])?["items"] as? [[String: Any]])?.compactMap { $0["label"] as? String }
        }
        #expect(labels(2) == ["caf\u{E9}"])
        #expect(labels(3) == ["caf\u{E9}r"])
        let hover = ((session.response(4)?["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String
        #expect(hover?.hasPrefix("**caf\u{E9}**: C") == true, "\(String(describing: hover))")
    }
}
