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

    /// The keys of each row of a `rows` object.
    func rowKeys(_ object: (keys: [String], value: [String: Any])) -> [[String]] {
        (object.value["rows"] as? [[String: Any]] ?? []).map { Array($0.keys).sorted() }
    }

    @Test func the_configurators_try_and_diff_objects_have_their_documented_keys() throws {
        // Schema version 4: the objects of options, why, fit, cheapest, try and diff.
        let result = try carfab([
            "--format", "json", "-e",
            "car sports; options drivetrain; why drivetrain front; why drivetrain rear; fit drivetrain front; fit drivetrain front; cheapest suv in GBP; try car suv"
        ])
        #expect(result.status == 0 && result.stderr.isEmpty)
        let out = try objects(result.stdout)
        #expect(
            out.map { $0.value["command"] as? String } == [
                "options", "why", "why", "why", "fit", "fit", "cheapest", "cheapest", "cheapest", "try"
            ])
        let rows = ["type", "command", "rows"]
        let text = ["type", "command", "text"]
        #expect(
            out.map(\.keys) == [
                rows, rows, rows, text, rows, text,
                ["type", "command", "model", "car_type", "seats", "engine", "suspension", "drive", "options", "price"], text,
                ["type", "command", "amount"], rows
            ])
        #expect(rowKeys(out[0]).allSatisfy { $0 == ["family", "option", "price_change", "repair", "rules", "status"] })
        #expect(rowKeys(out[1]) == [["defined_at", "rule"]])
        #expect(rowKeys(out[2]).first == ["changes", "commands", "price_change", "rank"])
        // The option the car has already: the message text output prints (it was `{"rows":[]}`).
        #expect(out[3].value["text"] as? String == "The car has the rear drivetrain already.")
        #expect(rowKeys(out[4]).allSatisfy { $0 == ["family", "from", "price_change", "to"] })
        #expect(out[5].value["text"] as? String == "The car has the front drivetrain already.")
        #expect((out[8].value["amount"] as? [String: Any]).map { Array($0.keys).sorted() } == money.sorted())
        #expect(rowKeys(out[9]) == Array(repeating: ["cars", "stock", "total_value"], count: 3))
        #expect((out[9].value["rows"] as? [[String: Any]])?.map { $0["stock"] as? String } == ["before", "after", "change"])

        let dir = try temporaryDirectory(with: ["a.carfab": "car sports\n", "b.carfab": "car suv\nrate GBP 0.5\n"])
        let diff = try objects(try carfab(["--format", "json", "--diff", "a.carfab", "b.carfab"], directory: dir).stdout)
        #expect(diff.map(\.keys) == [rows])
        let diffRows = try #require(diff.first?.value["rows"] as? [[String: Any]])
        #expect(!diffRows.isEmpty)
        for row in diffRows { #expect(Array(row.keys).sorted() == ["change", "difference", "first", "name", "second", "what"]) }
        // The difference is money, or null, as `try`'s change is (it was signed text).
        for row in diffRows {
            #expect(row["difference"] is NSNull || (row["difference"] as? [String: Any]).map { Array($0.keys).sorted() } == money.sorted())
        }
        #expect(diffRows.contains { ($0["difference"] as? [String: Any])?["minor_units"] as? Int == 1_359_500 })
    }
}
