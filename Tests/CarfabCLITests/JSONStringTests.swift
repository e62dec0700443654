import Testing

@testable import CarfabCLI

/// The language server's JSON strings: raw UTF-8 and every escape read into one string, as
/// a client's `json.dumps` (ASCII only) or a raw UTF-8 writer sends them.
@Suite struct JSONStringTests {
    private func parsed(_ json: String) throws -> String? {
        try JSONParser.parse(Array(json.utf8)).string
    }

    @Test func escapes_and_raw_text_read_as_one_string() throws {
        #expect(try parsed(#""a\nb\"c\\d\/e\tf\r\b\f""#) == "a\nb\"c\\d/e\tf\r\u{8}\u{C}")
        #expect(try parsed(#""caf\u00e9 \u20ac \ud83d\ude00 end""#) == "café € 😀 end")
        #expect(try parsed("\"café €😀\\n\"") == "café €😀\n")
        #expect(try parsed(#""""#) == "")
        #expect(try parsed(#""\n\n""#) == "\n\n")
    }

    @Test func a_document_of_many_lines_reads_back_whole() throws {
        // A didOpen's text: every line break an escape (the case that was quadratic, trial 4, 3).
        let lines = (0..<20_000).map { "car sports \($0) é" }
        let text = lines.joined(separator: "\n") + "\n"
        let wire = "\"" + lines.joined(separator: "\\n") + "\\n\""
        #expect(try parsed(wire) == text)
    }

    @Test func bytes_that_are_not_utf8_beside_escapes_are_refused() {
        let bytes = Array("\"\\u00e9".utf8) + [0xA9] + Array("\"".utf8)
        #expect {
            try JSONParser.parse(bytes)
        } throws: { error in
            (error as? JSONParseError)?.message == "the message is not valid UTF-8"
        }
    }
}
