import Foundation
import Testing

@testable import CarfabCLI

/// The server's diagnostics are `carfab --check --keep-going --format json`'s for the same
/// file, converted to LSP: the same ids, severities and messages, columns in UTF-16 code units.
@Suite struct LanguageServerCheckTests {
    /// The UTF-16 offset of 1-based character `column` (Unicode scalars, as `--check` counts) in `line`.
    private func utf16(_ line: String, column: Int) -> Int {
        String(String.UnicodeScalarView(line.unicodeScalars.prefix(max(column - 1, 0)))).utf16.count
    }

    @Test(arguments: [
        "car spörts\necho \"🚗 𝄞\"; car 𝄞sprots # 🚗\nset suspension rcae\n",
        "var m suv\n  car $m; set drivetrain 4wdd\ntotal XYZ; rate GBP abc\nsource \"othér 🚗.carfab\"\nvar\ncar\n",
        "\u{FEFF}car sprots\nmodel 𝄞 \"Caf é\" 10 short road front\nsave out.carfab\n",
        // Names past the limit as `save` writes them (`name-too-long`): one check for both.
        "var n \"\(String(repeating: "\u{1}", count: 819))\"\nmodel \"m$n\" \"M\" price 9000 floorplan short suspension race drivetrain rear\n"
            + "var \(String(repeating: "v", count: 4097)) 1\n"
    ])
    func diagnostics_match_check_json(_ text: String) throws {
        try compare(text, options: [])
    }

    /// --catalog, --var and --safe apply to the server's analysis as to --check's (a `save`
    /// refused under --safe, or inside `try`, is reported by both: trial 6, 5).
    @Test(arguments: [
        ["--catalog", "$DIR/catalog.carfab"], ["--var", "m=roadster", "--var", "n=x"], ["--safe"],
        ["--safe", "--var", "m=suvv", "--catalog", "$DIR/catalog.carfab"]
    ])
    func command_line_settings_apply_as_they_do_to_check(_ options: [String]) throws {
        let text =
            "car $m\ncar roadster $n\nset drivetrain electric\nsource \"othér 🚗.carfab\"\necho ${env:HOME}\nvar m suv\n"
            + "save out.carfab\ntry save --minimal out.carfab\n"
        try compare(text, options: options)
    }

    private func compare(_ text: String, options: [String]) throws {
        let directory = try temporaryDirectory(with: [
            "quoté 🚗.carfab": text, "othér 🚗.carfab": "car ✈️plane\necho fine\n\tcar x\n",
            "catalog.carfab": "model roadster \"Mazda MX-5\" price 31000 floorplan short suspension race drivetrain rear\n"
                + "option drivetrain hybrid \"Hybrid AWD\" price 6500 alias electric\n"
        ])
        let options = options.map { $0.replacingOccurrences(of: "$DIR", with: directory.path) }
        let path = directory.appendingPathComponent("quoté 🚗.carfab").path
        let check = try carfab(["--check", "--keep-going", "--format", "json"] + options + [path])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var expected: [[String: AnyHashable]] = []
        for (_, object) in try jsonObjects(check.stderr) {
            let file = object["file"] as? String ?? ""
            var line = (object["line"] as? Int ?? 1) - 1
            var start = 0
            var end = 0
            if file == path {
                // An editor counts the byte-order mark the engine leaves out.
                let bom = line == 0 && text.hasPrefix("\u{FEFF}") ? 1 : 0
                start = utf16(lines[line], column: object["column"] as? Int ?? 1) + bom
                end = utf16(lines[line], column: object["end_column"] as? Int ?? 1) + bom
            } else {
                // A problem in a sourced file is shown on the `source` line.
                let place = (object["included_from"] as? [String])?.first ?? ""
                line = (Int(place.split(separator: ":").last ?? "") ?? 1) - 1
                start = lines[line].prefix { $0 == " " || $0 == "\t" }.count
                end = lines[line].utf16.count
            }
            expected.append([
                "line": line, "start": start, "end": end, "code": object["id"] as? String ?? "",
                "severity": ["error": 1, "warning": 2, "note": 3][object["severity"] as? String ?? ""] ?? 0,
                "message": object["message"] as? String ?? ""
            ])
        }
        let uri = DocumentURI.uri(of: path)
        let session = try serve(initializeRequest + didOpen(uri, text) + shutdownAndExit, arguments: options)
        let diagnostics = session.published.first?["diagnostics"] as? [[String: Any]] ?? []
        let actual: [[String: AnyHashable]] = diagnostics.map { diagnostic in
            let range = diagnostic["range"] as? [String: [String: Int]]
            return [
                "line": range?["start"]?["line"] ?? -1, "start": range?["start"]?["character"] ?? -1,
                "end": range?["end"]?["character"] ?? -1, "code": diagnostic["code"] as? String ?? "",
                "severity": diagnostic["severity"] as? Int ?? 0, "message": diagnostic["message"] as? String ?? ""
            ]
        }
        #expect(!expected.isEmpty)
        #expect(actual == expected)
        #expect(session.published.first?["uri"] as? String == uri)
        // Analysing never writes: `save out.carfab` made no file.
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.carfab").path))
    }

    @Test func a_catalog_that_does_not_load_is_reported_and_the_server_does_not_start() throws {
        let directory = try temporaryDirectory(with: ["bad.carfab": "model x\n"])
        let session = try serve(
            initializeRequest + shutdownAndExit, arguments: ["--catalog", directory.appendingPathComponent("bad.carfab").path])
        #expect(session.messages.isEmpty)
        #expect(session.stderr.contains("bad.carfab:1:"))
        #expect(session.status == 1)
    }

    @Test func a_sourced_file_is_found_beside_the_document_and_its_problem_is_related_information() throws {
        let directory = try temporaryDirectory(with: [
            "sub/main.carfab": "car suv\n  source parts.carfab\n",
            "sub/parts.carfab": "set drivetrain 4wdd\n"
        ])
        let uri = DocumentURI.uri(of: directory.appendingPathComponent("sub/main.carfab").path)
        let session = try serve(initializeRequest + didOpen(uri, "car suv\n  source parts.carfab\n") + shutdownAndExit)
        let diagnostic = (session.published.first?["diagnostics"] as? [[String: Any]])?.first
        #expect(diagnostic?["message"] as? String == "unknown drivetrain option '4wdd'; did you mean '4wd'?")
        let related = (diagnostic?["relatedInformation"] as? [[String: Any]])?.first
        let location = related?["location"] as? [String: Any]
        #expect(location?["uri"] as? String == DocumentURI.uri(of: directory.appendingPathComponent("sub/parts.carfab").path))
        #expect((location?["range"] as? [String: [String: Int]])?["start"] == ["line": 0, "character": 15])
    }

    /// Trial 10, 5: as `--check` does, the diagnostics pass over a file the document saves and
    /// then sources or compares: no "cannot open" when it is missing, and a copy an earlier run
    /// left (with an error in it) is not read.
    @Test(arguments: [
        "car sports 3\nsave gen.carfab\nclear\nsource gen.carfab\nexpect count 3\n",
        "car sports\nsave gen.carfab\nset drivetrain 4wd\ndiff gen.carfab\n"
    ])
    func a_file_the_document_saved_is_not_followed(_ text: String) throws {
        for stale in [nil, "car nosuch\n"] {
            let directory = try temporaryDirectory(with: stale.map { ["gen.carfab": $0] } ?? [:])
            let uri = DocumentURI.uri(of: directory.appendingPathComponent("s.carfab").path)
            let session = try serve(initializeRequest + didOpen(uri, text) + shutdownAndExit)
            #expect(session.published.count == 1)
            #expect((session.published.first?["diagnostics"] as? [[String: Any]])?.isEmpty == true)
            #expect(
                FileManager.default.fileExists(atPath: directory.appendingPathComponent("gen.carfab").path) == (stale != nil))
        }
    }

    @Test func completion_and_hover_never_write_a_file_nor_read_standard_input() throws {
        let directory = try temporaryDirectory(with: [:])
        let path = directory.appendingPathComponent("q.carfab").path
        let uri = DocumentURI.uri(of: path)
        let text = "car suv\nsave written.carfab\nsource -\nset suspension \n"
        let session = try serve(
            initializeRequest + didOpen(uri, text) + request(2, "textDocument/completion", at(uri, 3, 15))
                + request(3, "textDocument/hover", at(uri, 3, 1)) + shutdownAndExit)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("written.carfab").path))
        let items = (session.response(2)?["result"] as? [String: Any])?["items"] as? [[String: Any]]
        #expect(items?.first?["label"] as? String == "road")
        #expect(session.response(3)?["result"] is [String: Any])
        #expect(session.status == 0)
    }
}
