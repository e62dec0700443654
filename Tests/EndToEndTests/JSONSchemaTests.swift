import Foundation
import TestSupport
import Testing

/// Every kind of result and error in --format json has the keys grammar.md documents, in order.
@Suite struct JSONSchemaTests {
    /// Each line of `text` as a JSON object, with its keys in the order they appear.
    func objects(_ text: String) throws -> [(keys: [String], value: [String: Any])] {
        try jsonObjects(text)
    }

    let money = ["currency", "minor_units", "amount", "formatted"]

    @Test func errors_have_their_documented_keys() throws {
        let dir = try temporaryDirectory(with: ["inner.carfab": "car sprots\n"])
        let result = try carfab(["--format", "json", "--keep-going", "-e", "cra; source inner.carfab"], directory: dir)
        #expect(result.status == 1 && result.stdout.isEmpty)
        let errors = try objects(result.stderr)
        #expect(errors.count == 2)
        for error in errors {
            #expect(
                error.keys == [
                    "type", "id", "severity", "file", "line", "column", "end_column", "message", "source",
                    "source_column", "included_from", "notes", "fixits"
                ])
            #expect(error.value["type"] as? String == "error")
        }
        #expect(errors[0].value["column"] as? Int == 1 && errors[0].value["end_column"] as? Int == 4)
        #expect(errors[0].value["id"] as? String == "unknown-command" && errors[0].value["severity"] as? String == "error")
        let fix = try #require((errors[0].value["fixits"] as? [[String: Any]])?.first)
        #expect(fix["replacement"] as? String == "car" && fix["column"] as? Int == 1 && fix["end_column"] as? Int == 4)
        #expect(errors[1].value["id"] as? String == "unknown-model")
        #expect(errors[0].value["source"] as? String == "cra; source inner.carfab" && errors[0].value["source_column"] as? Int == 1)
        #expect(errors[1].value["file"] as? String == "inner.carfab" && errors[1].value["line"] as? Int == 1)
        #expect(errors[1].value["included_from"] as? [String] == ["<command-line>:1"])
    }
}
