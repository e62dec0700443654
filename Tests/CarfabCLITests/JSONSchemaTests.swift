import Foundation
import TestSupport
import Testing

@testable import CarfabCLI

/// Every kind of result and error in --format json has the keys grammar.md documents, in order.
@Suite struct JSONSchemaTests {
    /// Each line of `text` as a JSON object, with its keys in the order they appear.
    func objects(_ text: String) throws -> [(keys: [String], value: [String: Any])] {
        try jsonObjects(text)
    }

    let money = ["currency", "minor_units", "amount", "formatted"]

    /// Results are written into the output piece by piece: strings escaped where they need it
    /// (a symbol a script defined, `echo`'s lent words), amounts of every number of decimals.
    @Test func results_written_in_place_are_escaped_and_exact() throws {
        let script = #"""
            currency XAA "F\"r" digits 4 rate 0.0001
            currency XAB "\\y" digits 0 rate 0.00001
            car compact; price XAA; total XAB
            echo "tab\there" "q\"uote" "back\\slash"
            """#
        let run = try carfab(["--format", "json", "-e", script])
        #expect(run.stderr.isEmpty && run.status == 0, "\(run)")
        #expect(
            run.stdout == #"""
                {"type":"result","command":"price","amount":{"currency":"XAA","minor_units":27995,"amount":"2.7995","formatted":"F\"r2.7995"}}
                {"type":"result","command":"total","count":1,"value":{"currency":"XAB","minor_units":0,"amount":"0","formatted":"\\y0"}}
                {"type":"result","command":"echo","text":"tab\there q\"uote back\\slash"}

                """#)
    }

    /// `try`'s change row writes its changes as other results write numbers and money (before,
    /// they were signed text, `"+1"` and `"+$68,300.00"`); text output keeps the sign.
    @Test func trys_change_row_is_a_number_and_money() throws {
        let run = try carfab(["--format", "json", "-e", "car sports; try car suv"])
        #expect(run.stderr.isEmpty && run.status == 0, "\(run)")
        let change = try #require(try objects(run.stdout).last?.value["rows"] as? [[String: Any]]).last
        #expect(change?["stock"] as? String == "change")
        #expect(change?["cars"] as? Int == 1)
        let value = change?["total_value"] as? [String: Any]
        #expect(value?["currency"] as? String == "USD" && value?["minor_units"] as? Int == 8_189_500)
        #expect(value?["amount"] as? String == "81895.00" && value?["formatted"] as? String == "$81,895.00")
        let text = try carfab(["-e", "car sports; try clear"])
        #expect(text.stdout.split(separator: "\n").last == "change    -1  -$68,300.00")
    }

    @Test func every_result_kind_has_its_documented_keys() throws {
        let result = try carfab([
            "--format", "json", "-e",
            """
            car sports; set drivetrain 4wd; show; price GBP; total JPY; echo hi; list; models; parts floorplan
            currencies; var fleet suv; vars; help total
            """
        ])
        #expect(result.status == 0 && result.stderr.isEmpty)
        let lines = try objects(result.stdout)
        #expect(
            lines.map { $0.value["command"] as? String } == [
                "show", "price", "total", "echo", "list", "models", "parts", "currencies", "vars", "help"
            ])
        for line in lines { #expect(Array(line.keys.prefix(2)) == ["type", "command"] && line.value["type"] as? String == "result") }
        #expect(lines[0].keys == ["type", "command", "model", "car_type", "seats", "engine", "suspension", "drive", "options", "price"])
        #expect(lines[0].value["seats"] as? Int == 2)
        #expect((lines[0].value["options"] as? [String: String]) == ["floorplan": "short", "suspension": "race", "drivetrain": "4wd"])
        #expect((lines[0].value["price"] as? [String: Any]).map { Set($0.keys) } == Set(money))
        #expect(lines[1].keys == ["type", "command", "amount"])
        #expect((lines[1].value["amount"] as? [String: Any])?["formatted"] as? String == "£42,719.30")
        #expect((lines[1].value["amount"] as? [String: Any])?["amount"] as? String == "42719.30")
        #expect((lines[1].value["amount"] as? [String: Any])?["minor_units"] as? Int == 4_271_930)
        #expect(lines[2].keys == ["type", "command", "count", "value"])
        #expect((lines[2].value["value"] as? [String: Any])?["formatted"] as? String == "¥10,726,200")
        #expect(lines[3].keys == ["type", "command", "text"])
        for table in lines[4...8] { #expect(table.keys == ["type", "command", "rows"]) }
        let list = try #require((lines[4].value["rows"] as? [[String: Any]])?.first)
        #expect(Set(list.keys) == ["current", "line", "model", "car_type", "floorplan", "suspension", "drivetrain", "count", "unit_price"])
        #expect(list["current"] as? Bool == true && list["line"] as? Int == 1)
        let model = try #require((lines[5].value["rows"] as? [[String: Any]])?.first)
        #expect(Set(model.keys) == ["model", "car_type", "base_price", "floorplan", "suspension", "drivetrain"])
        let part = try #require((lines[6].value["rows"] as? [[String: Any]])?.first)
        #expect(Set(part.keys) == ["family", "option", "shown_as", "other_names", "list_price", "seats", "engine"])
        let currency = try #require((lines[7].value["rows"] as? [[String: Any]])?[1])
        #expect(currency["code"] as? String == "GBP" && currency["digits"] as? Int == 2 && currency["rate"] as? String == "0.60338")
        #expect(((lines[8].value["rows"] as? [[String: Any]])?.map { $0["name"] as? String }) == ["fleet"])
        #expect((lines[9].value["text"] as? String)?.hasPrefix("usage: total [CURRENCY]") == true)
    }

}

extension JSONSchemaTests {
    /// A warning is an error object whose `severity` is `"warning"`, and the run still succeeds:
    /// grammar.md gave `severity` as `"error"` alone. The end of input's has no source line.
    @Test func a_warning_is_an_error_object_of_severity_warning() throws {
        let run = try carfab(["--format", "json", "-e", "begin; car sports"])
        #expect(run.status == 0 && run.stdout.isEmpty, "\(run)")
        let warning = try #require(try objects(run.stderr).first)
        #expect(
            warning.keys == [
                "type", "id", "severity", "file", "line", "column", "end_column", "message", "source", "source_column", "included_from",
                "notes", "fixits"
            ])
        #expect(warning.value["type"] as? String == "error" && warning.value["severity"] as? String == "warning")
        #expect(warning.value["id"] as? String == "history" && warning.value["line"] as? Int == 1)
        #expect(warning.value["source"] as? String == "" && warning.value["source_column"] as? Int == 0)
        let grammar = try String(contentsOf: packageRoot.appendingPathComponent("grammar.md"), encoding: .utf8)
        #expect(grammar.contains("`severity` (`\"error\"`, or `\"warning\"` for what does not fail the run"))
    }
}
