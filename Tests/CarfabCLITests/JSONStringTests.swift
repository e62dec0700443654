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

    /// U+0085, U+2028 and U+2029 are line breaks to many readers of JSON lines (Python's
    /// `splitlines`): carfab's JSON writes them escaped, in results, errors and the language
    /// server's messages alike, and reads them back (trial 5, 5). `€` (E2 82 AC), `…` and
    /// `Â` share their first bytes and stay raw.
    @Test func line_breaks_beyond_ascii_are_written_escaped() throws {
        let text = "a\u{2028}b\u{85}c\u{2029}d € … Â\u{2027}"
        let quoted = JSONObject.quote(text)
        #expect(quoted == #""a\u2028b\u0085c\u2029d € … Â\#u{2027}""#)
        #expect(try parsed(quoted) == text)
        let script = #"echo "a\u{2028}b\u{85}c\u{2029}d €"; car nosuch\u{2028}"#
        let run = try carfab(["--format", "json", "--keep-going", "-e", script])
        for output in [run.stdout, run.stderr] {
            #expect(!output.unicodeScalars.contains { [0x85, 0x2028, 0x2029].contains($0.value) }, "\(output)")
        }
        #expect(run.stdout.contains(#"a\u2028b\u0085c\u2029d €"#), "\(run.stdout)")
        // The message shows the name as the text renderer does (`\u{2028}`), escaped again for JSON.
        #expect(run.stderr.contains(#"nosuch\\u{2028}"#), "\(run.stderr)")
    }

    /// U+0080 ... U+009F are control characters as C0 and DEL are (U+009B is an 8-bit CSI some
    /// terminals act on): escaped in results, errors and `JSONObject.quote` alike, as grammar.md
    /// says; the other characters led by C2 (no-break space, ©, ¿) stay raw (trial 7, 6).
    @Test func c1_control_characters_are_written_escaped() throws {
        let controls = String(String.UnicodeScalarView((0x80...0x9F).compactMap { Unicode.Scalar(UInt32($0)) }))
        let text = "a" + controls + "b\u{A0}©¿\u{BF}"
        let escaped = (0x80...0x9F).map { "\\u00" + String($0, radix: 16) }.joined()
        let quoted = JSONObject.quote(text)
        #expect(quoted == "\"a" + escaped + "b\u{A0}©¿\u{BF}\"")
        #expect(try parsed(quoted) == text)
        let script = #"echo "x\u{9b}31my\u{80}z\u{9f}\u{a0}"; car "m\u{9b}2J""#
        let run = try carfab(["--format", "json", "--keep-going", "-e", script])
        for output in [run.stdout, run.stderr] {
            #expect(!output.unicodeScalars.contains { (0x80...0x9F).contains($0.value) }, "\(output.debugDescription)")
        }
        #expect(run.stdout.contains(#""x\u009b31my\u0080z\u009f\#u{A0}""#), "\(run.stdout.debugDescription)")
        #expect(run.stderr.contains(#"unknown model 'm\u009b2J'"#), "\(run.stderr.debugDescription)")
    }

    @Test func bytes_that_are_not_utf8_beside_escapes_are_refused() {
        let bytes = Array("\"\\u00e9".utf8) + [0xA9] + Array("\"".utf8)
        #expect {
            try JSONParser.parse(bytes)
        } throws: { error in
            (error as? JSONParseError)?.message == "the message is not valid UTF-8"
        }
    }

    /// `JSONObject.quote` writes its escapes straight into the string it returns (it took a
    /// 68 KB `Output` for each string that needed one): byte for byte what the byte writer
    /// writes, escapes first, last, alone and side by side, around long plain runs.
    @Test func quote_writes_what_the_byte_writer_writes() throws {
        let pieces = [
            "", "a", "é", "€", "\"", "\\", "\n", "\t", "\r", "\u{0}", "\u{1F}", "\u{7F}", "\u{80}", "\u{9F}",
            "\u{A0}", "\u{2028}", "\u{2029}", "\u{2027}", String(repeating: "x", count: 300)
        ]
        for first in pieces {
            for second in pieces {
                for text in [first + second, second + "q" + first, first + first + second] {
                    let out = Output.memory()
                    out.jsonString(text)
                    #expect(JSONObject.quote(text) == String(decoding: out.buffer, as: UTF8.self), "\(text.debugDescription)")
                    #expect(try parsed(JSONObject.quote(text)) == text)
                }
            }
        }
    }
}
