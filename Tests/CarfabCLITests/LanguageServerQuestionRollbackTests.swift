import Foundation
import Testing

@testable import CarfabCLI

/// Trial 13, finding 2: a question the editor's analysis did not run (`show 2`, `cheapest`,
/// `save`, `diff`) may fail when run, and inside a transaction that failure rolls it back.
/// The server kept what the run took back, and showed a refusal and prices the run never
/// gives. Now it runs the questions the state alone answers that may fail on it (`show`, `price`, `total`),
/// as running does, and claims no refusal, price or repair past one it does not run inside
/// a transaction: it may show less than running, never more.
@Suite struct LanguageServerQuestionRollbackTests {
    /// What the server shows for `text` (saved as `name` in `dir`): its inlay hints (`LINE:
    /// LABEL`, 0-based), the lines of its rules' refusals, and how many code actions line 4 has.
    private func shown(_ text: String, as name: String, in dir: URL) throws -> (hints: [String], refusals: [Int], actions: Int) {
        let uri = DocumentURI.uri(of: dir.path + "/" + name)
        let range: [String: Any] = ["start": ["line": 0, "character": 0], "end": ["line": 9, "character": 0]]
        let session = try serve(
            initializeRequest + didOpen(uri, text)
                + request(2, "textDocument/inlayHint", ["textDocument": ["uri": uri], "range": range])
                + request(
                    3, "textDocument/codeAction",
                    [
                        "textDocument": ["uri": uri],
                        "range": ["start": ["line": 4, "character": 0], "end": ["line": 4, "character": 0]],
                        "context": ["diagnostics": [Any]()]
                    ]) + shutdownAndExit)
        #expect(session.status == 0 && session.stderr == "" && session.stray == "")
        let hints = (session.response(2)?["result"] as? [[String: Any]] ?? []).map { hint in
            "\((hint["position"] as? [String: Int])?["line"] ?? -1): \(hint["label"] as? String ?? "")"
        }
        let refusals = (session.published.last?["diagnostics"] as? [[String: Any]] ?? []).compactMap { diagnostic in
            diagnostic["code"] as? String == "rule-violation"
                ? (diagnostic["range"] as? [String: [String: Int]])?["start"]?["line"] : nil
        }
        return (hints, refusals, (session.response(3)?["result"] as? [Any])?.count ?? -1)
    }

    /// The price the run's last line prints (`price`), going on after errors as the server shows them.
    private func runPrice(_ name: String, in dir: URL) throws -> String? {
        try carfab(["--keep-going", dir.path + "/" + name]).stdout.split(separator: "\n").last.map(String.init)
    }

    @Test(arguments: [
        // Followed: no line 2, it fails, and the transaction is rolled back (road suspension again).
        ("show 2", ["0: $27,995.00", "2: $30,395.00", "4: $32,495.00"], [Int](), "$32,495.00"),
        // Not run, these may fail: no claim past them.
        ("cheapest floorplan short drivetrain front", ["0: $27,995.00", "2: $30,395.00"], [], "$32,495.00"),
        ("save $DIR", ["0: $27,995.00", "2: $30,395.00"], [], "$32,495.00"),
        ("diff $DIR/missing.carfab", ["0: $27,995.00", "2: $30,395.00"], [], "$32,495.00"),
        // A failure inside `try` is the `try`'s, which rolls the transaction back too.
        ("try cheapest floorplan short drivetrain front", ["0: $27,995.00", "2: $30,395.00"], [], "$32,495.00"),
        // Expected to fail, it does, and the refusal after it is the run's: less shown, never more.
        ("expect error no-valid-car cheapest floorplan short drivetrain front", ["0: $27,995.00", "2: $30,395.00"], [], "$27,995.00"),
        // Followed, and it cannot fail here: the refusal and its rollback, as running.
        ("show", ["0: $27,995.00", "2: $30,395.00", "4: $27,995.00"], [4], "$27,995.00"),
        // Not run, and they cannot fail: nothing is lost past them.
        ("list", ["0: $27,995.00", "2: $30,395.00", "4: $27,995.00"], [4], "$27,995.00"),
        ("vars; models; parts; currencies; echo hi; help set", ["0: $27,995.00", "2: $30,395.00", "4: $27,995.00"], [4], "$27,995.00")
    ])
    func inside_a_transaction_no_refusal_or_price_the_run_does_not_give(
        question: String, hints: [String], refusals: [Int], price: String
    ) throws {
        let dir = try temporaryDirectory(with: [:])
        let text =
            "car compact\nbegin\nset suspension race\n\(question.replacingOccurrences(of: "$DIR", with: dir.path))\nset floorplan long\nprice\n"
        try writeFile(text, to: dir.appendingPathComponent("q.carfab"))
        let seen = try shown(text, as: "q.carfab", in: dir)
        #expect(seen.hints == hints)
        #expect(seen.refusals == refusals)
        // A repair only for a refusal shown.
        #expect(seen.actions == refusals.count)
        #expect(try runPrice("q.carfab", in: dir) == price)
    }

    /// `price` with no car fails, which rolls back the rule the transaction defined: `set
    /// drivetrain 4wd` is allowed, and the server, which now runs `price`, says so.
    @Test func a_price_with_no_car_rolls_back_as_running() throws {
        let dir = try temporaryDirectory(with: [:])
        let text = "begin\nforbid drivetrain 4wd with floorplan standard\nprice\ncar compact\nset drivetrain 4wd\nprice\n"
        try writeFile(text, to: dir.appendingPathComponent("p.carfab"))
        let seen = try shown(text, as: "p.carfab", in: dir)
        #expect(seen.hints == ["3: $27,995.00", "4: $31,995.00"])
        #expect(seen.refusals == [])
        #expect(try runPrice("p.carfab", in: dir) == "$31,995.00")
    }

    /// Outside a transaction a failure takes nothing back: the refusal after each question is
    /// shown, and every price, as before.
    @Test(arguments: ["show 2", "cheapest floorplan short drivetrain front", "save $DIR", "diff $DIR/missing.carfab", "show"])
    func outside_a_transaction_nothing_changes(question: String) throws {
        let dir = try temporaryDirectory(with: [:])
        let text =
            "car compact\nset suspension race\n\(question.replacingOccurrences(of: "$DIR", with: dir.path))\n\nset floorplan long\nprice\n"
        try writeFile(text, to: dir.appendingPathComponent("q.carfab"))
        let seen = try shown(text, as: "q.carfab", in: dir)
        #expect(seen.hints == ["0: $27,995.00", "1: $30,395.00", "4: $30,395.00"])
        #expect(seen.refusals == [4])
        #expect(seen.actions == 1)
        #expect(try runPrice("q.carfab", in: dir) == "$30,395.00")
    }
}
