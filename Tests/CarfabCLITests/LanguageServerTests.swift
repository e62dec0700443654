import Foundation
import Testing

@testable import CarfabCLI

/// `carfab --lsp` as a client sees it: whole transcripts of framed messages, in process.
@Suite struct LanguageServerTests {
    /// The golden transcript `Expected/LanguageServer/NAME.jsonl`: one server message per line.
    private func golden(_ name: String) throws -> [String] {
        let url = packageRoot.appendingPathComponent("Tests/CarfabCLITests/Expected/LanguageServer/\(name).jsonl")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func initialize_advertises_what_is_served_and_shutdown_then_exit_ends_with_0() throws {
        let session = try serve(initializeRequest + initialized + shutdownAndExit)
        #expect(
            session.messages == [
                #"{"jsonrpc":"2.0","id":1,"result":{"capabilities":{"positionEncoding":"utf-16","textDocumentSync":{"openClose":true,"change":2},"completionProvider":{"triggerCharacters":[" ","$"]},"hoverProvider":true,"definitionProvider":true,"referencesProvider":true,"renameProvider":true,"codeActionProvider":{"codeActionKinds":["quickfix"]},"documentSymbolProvider":true,"semanticTokensProvider":{"legend":{"tokenTypes":["function","keyword","enumMember","number","string","comment","variable"],"tokenModifiers":["declaration"]},"full":true},"documentFormattingProvider":true,"inlayHintProvider":true},"serverInfo":{"name":"carfab","version":"0.1.0"}}}"#,
                #"{"jsonrpc":"2.0","id":99,"result":null}"#
            ])
        #expect(session.stray == "")
        #expect(session.stderr == "")
        #expect(session.status == 0)
    }

    @Test func lsp_takes_no_inputs_and_no_other_mode() throws {
        for arguments in [["--lsp", "quote.carfab"], ["--lsp", "-e", "car suv"], ["--lsp", "--check"], ["--lsp", "-i"]] {
            let result = try carfab(arguments)
            #expect(
                result
                    == RunResult(
                        stdout: "",
                        stderr: """
                            carfab: error: --lsp reads the protocol on standard input: it takes no files, -e, -i, --check or --test
                            usage: carfab [OPTIONS] [FILE...] (see 'carfab --help')

                            """, status: 64), "\(arguments)")
        }
        // Nor does --init: the analysis runs no init file, and took it silently (docs13).
        #expect(
            try carfab(["--lsp", "--init", "defs.carfab"])
                == RunResult(
                    stdout: "",
                    stderr: """
                        carfab: error: --init does not apply to --lsp: the editor's analysis runs no init file; give definitions with --catalog FILE and variables with --var NAME=VALUE
                        usage: carfab [OPTIONS] [FILE...] (see 'carfab --help')

                        """, status: 64))
        // --format means nothing to the server: refused as the other combinations are.
        for arguments in [["--lsp", "--format", "json"], ["--format=text", "--lsp"]] {
            #expect(
                try carfab(arguments)
                    == RunResult(
                        stdout: "",
                        stderr: """
                            carfab: error: --format does not apply to --lsp: the protocol is JSON-RPC
                            usage: carfab [OPTIONS] [FILE...] (see 'carfab --help')

                            """, status: 64), "\(arguments)")
        }
    }

    @Test func exit_without_shutdown_or_the_end_of_input_ends_with_1() throws {
        let withoutShutdown = try serve(initializeRequest + notification("exit"))
        #expect(withoutShutdown.status == 1)
        let ended = try serve(initializeRequest)
        #expect(ended.status == 1)
        #expect(ended.stderr == "carfab: lsp: the input ended without 'exit'\n")
    }

    @Test func requests_before_initialize_are_refused_and_notifications_dropped() throws {
        let session = try serve(
            request(7, "textDocument/hover", at("file:///x.carfab", 0, 0))
                + didOpen("file:///x.carfab", "car sprots\n") + initializeRequest + shutdownAndExit)
        #expect(
            session.messages.first == #"{"jsonrpc":"2.0","id":7,"error":{"code":-32002,"message":"the server is not initialized yet"}}"#)
        #expect(session.published.isEmpty)
        #expect(session.status == 0)
    }

    @Test func unknown_methods_are_method_not_found_for_requests_and_ignored_as_notifications() throws {
        let session = try serve(
            initializeRequest + notification("$/unknownThing", [:]) + notification("workspace/noSuch")
                + request(2, "textDocument/noSuch", [:]) + request(3, "initialize", [:]) + shutdownAndExit
                + request(4, "textDocument/hover", [:]))
        #expect(
            Array(session.messages.dropFirst()) == [
                #"{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"unknown method 'textDocument/noSuch'"}}"#,
                #"{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"the server is initialized already"}}"#,
                #"{"jsonrpc":"2.0","id":99,"result":null}"#
            ])
        #expect(session.status == 0)
    }

    @Test func requests_after_shutdown_are_invalid() throws {
        let session = try serve(
            initializeRequest + request(2, "shutdown") + request(3, "textDocument/hover", at("file:///x", 0, 0))
                + notification("exit"))
        #expect(error(session.response(3)) == ErrorReply(-32600, "the server has been shut down"))
        #expect(session.status == 0)
    }

    /// Each hostile input is answered with an error (null id where the request's cannot be
    /// known) or ignored, and the server goes on to answer the next good request.
    @Test(
        arguments: [
            ("no colon", Data("Content-Length 5\r\n\r\nhello".utf8), -32700, "malformed message header: a header line without ':'"),
            // The bare LFs run this block into the next message's header, whose length must not be read past.
            ("bare LF", Data("Content-Length: 2\n\n{}".utf8), -32700, "malformed message header: a header line not ended by CR LF"),
            (
                "bare LF after another problem",
                Data("Content-Length: 2\r\nContent-Type: application/json; charset=latin1\r\nX: y\n\n{}".utf8), -32700,
                "malformed message header: only the utf-8 charset is served, not 'latin1'"
            ),
            (
                "bare LF after a bad length", Data("Content-Length: ten\r\nX: y\n\n{}".utf8), -32700,
                "malformed message header: Content-Length is not a number of bytes"
            ),
            (
                "no length", Data("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n".utf8), -32700,
                "malformed message header: a header block without Content-Length"
            ),
            (
                "not a number", Data("Content-Length: ten\r\n\r\n".utf8), -32700,
                "malformed message header: Content-Length is not a number of bytes"
            ),
            (
                "negative", Data("Content-Length: -4\r\n\r\n".utf8), -32700,
                "malformed message header: Content-Length is not a number of bytes"
            ),
            (
                "over the limit", Data("Content-Length: 67108865\r\n\r\n".utf8) + Data(count: 67_108_865), -32700,
                "malformed message header: Content-Length 67108865 is over the limit of 67108864 bytes"
            ),
            (
                "beyond Int", Data("Content-Length: 99999999999999999999999\r\n\r\n".utf8), -32700,
                "malformed message header: Content-Length is not a number of bytes"
            ),
            (
                "other charset", Data("Content-Length: 2\r\nContent-Type: application/json; charset=latin1\r\n\r\n".utf8) + Data("{}".utf8),
                -32700, "malformed message header: only the utf-8 charset is served, not 'latin1'"
            ),
            ("invalid JSON", framed("{\"jsonrpc\":\"2.0\",\"id\":5,"), -32700, "expected a string as an object's key (at byte 24)"),
            ("trailing comma", framed("{\"jsonrpc\":\"2.0\",\"id\":5,}"), -32700, "expected a string as an object's key (at byte 24)"),
            (
                "invalid UTF-8", framed(Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D])), -32700,
                "the message is not valid UTF-8 (at byte 0)"
            ),
            (
                "lone surrogate", framed(#"{"jsonrpc":"2.0","method":"x","params":"\ud800"}"#), -32700,
                "a lone surrogate in a string (at byte 46)"
            ),
            ("deep nesting", framed(String(repeating: "[", count: 10_000)), -32700, "JSON nested more than 128 deep (at byte 128)"),
            ("not an object", framed("[1,2]"), -32600, "not a JSON-RPC 2.0 message"),
            ("no jsonrpc", framed(#"{"id":5,"method":"shutdown"}"#), -32600, "not a JSON-RPC 2.0 message"),
            (
                "id an object", framed(#"{"jsonrpc":"2.0","id":{},"method":"shutdown"}"#), -32600,
                "a request's id must be a number or a string"
            ),
            ("method a number", framed(#"{"jsonrpc":"2.0","id":6,"method":6}"#), -32600, "a method must be a string")
        ] as [(String, Data, Int, String)])
    func hostile_input_is_an_error_response_and_the_server_goes_on(case: String, bytes: Data, code: Int, message: String) throws {
        let hover = request(2, "textDocument/hover", at("file:///x.carfab", 0, 1))
        let session = try serve(initializeRequest + bytes + didOpen("file:///x.carfab", "car sports\n") + hover + shutdownAndExit)
        let errors = session.objects.compactMap { $0["error"] as? [String: Any] }
        #expect(errors.count == 1, "\(`case`)")
        #expect(errors.first?["code"] as? Int == code, "\(`case`)")
        #expect(errors.first?["message"] as? String == message, "\(`case`)")
        #expect(session.response(2)?["result"] is [String: Any], "\(`case`): the next request is answered")
        #expect(session.stray == "")
        #expect(session.status == 0, "\(`case`)")
    }

    @Test func a_length_over_the_limit_is_refused_before_its_body_is_waited_for() {
        /// The header, then nothing yet: each later read is counted.
        final class HeaderThenWaiting: ByteInput {
            var header = Array("Content-Length: 67108865\r\n\r\n".utf8)
            var readsAfterHeader = 0
            func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
                guard !header.isEmpty else {
                    readsAfterHeader += 1
                    return 0
                }
                let n = min(count, header.count)
                for index in 0..<n { buffer[index] = header[index] }
                header.removeFirst(n)
                return n
            }
            var hasWaitingBytes: Bool { true }
        }
        let input = HeaderThenWaiting()
        let reader = MessageReader(input: input)
        #expect(reader.next() == .malformed("Content-Length 67108865 is over the limit of 67108864 bytes"))
        #expect(input.readsAfterHeader == 0, "the refusal came only after waiting for the body")
    }

    @Test func a_header_block_that_never_ends_is_dropped_without_holding_the_input() throws {
        let session = try serve(initializeRequest + Data(repeating: UInt8(ascii: "a"), count: 20_000))
        #expect(
            session.objects.compactMap { ($0["error"] as? [String: Any])?["message"] as? String }
                == ["malformed message header: a header block longer than 8192 bytes"])
        #expect(session.status == 1)
    }

    @Test func the_input_ending_inside_a_body_is_reported_and_ends_with_1() throws {
        let session = try serve(initializeRequest + Data("Content-Length: 100\r\n\r\n{\"jsonrpc\"".utf8))
        #expect(
            error(session.objects.last)
                == ErrorReply(-32700, "malformed message header: the input ended inside a message's body"))
        #expect(session.status == 1)
    }

    @Test func a_queued_request_can_be_cancelled() throws {
        let uri = "file:///x.carfab"
        let session = try serve(
            initializeRequest + didOpen(uri, "car sports\n") + request(2, "textDocument/hover", at(uri, 0, 1))
                + notification("$/cancelRequest", ["id": 2]) + request(3, "textDocument/hover", at(uri, 0, 1))
                + shutdownAndExit)
        #expect(error(session.response(2)) == ErrorReply(-32800, "the request was cancelled"))
        #expect(session.response(3)?["result"] is [String: Any])
    }

    @Test func diagnostics_are_pushed_on_open_and_on_incremental_change_in_utf16() throws {
        // '🚗' is two UTF-16 code units, 'é' one: the unknown model is at UTF-16 columns 17..<23.
        let uri = "file:///tmp/caf%C3%A9.carfab"
        let text = "echo \"🚗 é\"; car sprots\n"
        let change = notification(
            "textDocument/didChange",
            [
                "textDocument": ["uri": uri, "version": 2],
                "contentChanges": [
                    // "sprots" -> "suvv", then the echo's text gains an astral character before it.
                    ["range": ["start": ["line": 0, "character": 17], "end": ["line": 0, "character": 23]], "text": "suvv"],
                    ["range": ["start": ["line": 0, "character": 6], "end": ["line": 0, "character": 6]], "text": "𝄞"]
                ]
            ])
        // A request between them, so that the open is analysed before the change arrives.
        let session = try serve(
            initializeRequest + didOpen(uri, text) + request(2, "textDocument/hover", at(uri, 0, 0))
                + change + shutdownAndExit)
        #expect(
            session.messages.filter { $0.contains("publishDiagnostics") } == [
                #"{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///tmp/caf%C3%A9.carfab","version":1,"diagnostics":[{"range":{"start":{"line":0,"character":17},"end":{"line":0,"character":23}},"severity":1,"code":"unknown-model","source":"carfab","message":"unknown model 'sprots'; did you mean 'sports'?"}]}}"#,
                #"{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"file:///tmp/caf%C3%A9.carfab","version":2,"diagnostics":[{"range":{"start":{"line":0,"character":19},"end":{"line":0,"character":23}},"severity":1,"code":"unknown-model","source":"carfab","message":"unknown model 'suvv'; did you mean 'suv'?"}]}}"#
            ])
    }

    @Test func a_full_change_replaces_the_text_and_a_run_of_changes_is_analysed_once() throws {
        let uri = "file:///x.carfab"
        func full(_ text: String, _ version: Int) -> Data {
            notification("textDocument/didChange", ["textDocument": ["uri": uri, "version": version], "contentChanges": [["text": text]]])
        }
        let session = try serve(
            initializeRequest + didOpen(uri, "car suv\n") + full("car s\n", 2) + full("car sp\n", 3)
                + full("car spo\n", 4) + shutdownAndExit)
        // The open and the first two changes are overtaken by the last change before they are analysed.
        #expect(session.published.map { $0["version"] as? Int } == [4])
        let last = session.published.last?["diagnostics"] as? [[String: Any]]
        #expect(last?.first?["message"] as? String == "unknown model 'spo'; valid models: compact, sports, suv")
    }

    @Test func positions_past_the_end_are_taken_to_the_end() throws {
        let uri = "file:///x.carfab"
        let change = notification(
            "textDocument/didChange",
            [
                "textDocument": ["uri": uri, "version": 2],
                "contentChanges": [
                    ["range": ["start": ["line": 9, "character": 0], "end": ["line": 12, "character": 40]], "text": "car sprots"]
                ]
            ])
        let session = try serve(
            initializeRequest + didOpen(uri, "car suv\n") + change
                + request(2, "textDocument/hover", at(uri, 50, 3)) + request(3, "textDocument/completion", at(uri, 1, 99))
                + shutdownAndExit)
        let diagnostics = session.published.last?["diagnostics"] as? [[String: Any]]
        #expect((diagnostics?.first?["range"] as? [String: Any])?["start"] as? [String: Int] == ["line": 1, "character": 4])
        #expect(session.response(2)?["result"] is NSNull)
        #expect(session.response(3)?["result"] is [String: Any])
    }

    @Test func completion_transcript() throws {
        let uri = "file:///tmp/quote.carfab"
        let text = "var model suv\ncar $model\nset floorplan long\nset suspension \ntotal G\nca\necho $mo"
        let session = try serve(
            initializeRequest + didOpen(uri, text)
                + request(2, "textDocument/completion", at(uri, 3, 15))
                + request(3, "textDocument/completion", at(uri, 4, 7))
                + request(4, "textDocument/completion", at(uri, 5, 2))
                + request(5, "textDocument/completion", at(uri, 6, 8))
                + request(6, "textDocument/completion", at(uri, 1, 4))
                + shutdownAndExit)
        #expect(Array(session.messages.dropFirst(2).dropLast()) == (try golden("completion")))
    }

    @Test func hover_on_a_car_or_set_line_gives_the_price_the_script_has_reached() throws {
        let uri = "file:///tmp/quote.carfab"
        let session = try serve(
            initializeRequest + didOpen(uri, "car sports\nset drivetrain 4wd\ncar suv\n")
                + request(2, "textDocument/hover", at(uri, 1, 1)) + request(3, "textDocument/hover", at(uri, 0, 1))
                + shutdownAndExit)
        func contents(_ id: Int) -> String {
            ((session.response(id)?["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String ?? ""
        }
        #expect(contents(2).hasSuffix("\n\nThe current car's price after this line: $70,800.00"))
        #expect(contents(3).hasSuffix("\n\nThe current car's price after this line: $68,300.00"))
    }

    @Test func hover_on_a_currency_quotes_its_symbol() throws {
        // A symbol's trailing blank read as part of the text around it: `symbol CHF , 2 ...`.
        let uri = "file:///tmp/quote.carfab"
        let session = try serve(
            initializeRequest + didOpen(uri, "currency CHF \"CHF \" digits 2 rate 0.88\ntotal CHF\n")
                + request(2, "textDocument/hover", at(uri, 1, 7)) + shutdownAndExit)
        let contents = ((session.response(2)?["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String
        #expect(contents == "**CHF**: symbol \"CHF \", 2 minor digits, rate 0.88 per USD")
    }

    @Test func hover_transcript() throws {
        let uri = "file:///tmp/quote.carfab"
        let text = "var model suv\ncar $model\nset floorplan long\nset suspension race\ntotal GBP\ncar sports\n"
        let session = try serve(
            initializeRequest + didOpen(uri, text)
                + request(2, "textDocument/hover", at(uri, 0, 1))
                + request(3, "textDocument/hover", at(uri, 1, 6))
                + request(4, "textDocument/hover", at(uri, 3, 17))
                + request(5, "textDocument/hover", at(uri, 4, 7))
                + request(6, "textDocument/hover", at(uri, 5, 6))
                + request(7, "textDocument/hover", at(uri, 2, 5))
                + shutdownAndExit)
        #expect(Array(session.messages.dropFirst(2).dropLast()) == (try golden("hover")))
    }

    /// Inside a `begin` the document does not close (as while a script is being written),
    /// hover, completion and code actions see the state at the line with the transaction
    /// open, as the session running it would, and as the inlay hints do: not the state from
    /// before `begin` that the end of the text would roll back to.
    @Test func features_inside_an_open_transaction_see_its_changes() throws {
        let uri = "file:///tmp/open.carfab"
        let pending = "file:///tmp/pending.carfab"
        let text = "car compact\nbegin\ncar sports\nset drivetrain 4wd\nset drivetrain front\n"
        let range: [String: Any] = ["start": ["line": 4, "character": 0], "end": ["line": 4, "character": 20]]
        let whole: [String: Any] = ["start": ["line": 0, "character": 0], "end": ["line": 5, "character": 0]]
        let session = try serve(
            initializeRequest + didOpen(uri, text) + didOpen(pending, "car compact\nbegin\ncar sports\nset drivetrain ")
                + request(2, "textDocument/hover", at(uri, 2, 1))
                + request(3, "textDocument/hover", at(uri, 3, 1))
                + request(4, "textDocument/completion", at(pending, 3, 15))
                + request(5, "textDocument/codeAction", ["textDocument": ["uri": uri], "range": range, "context": ["diagnostics": []]])
                + request(6, "textDocument/inlayHint", ["textDocument": ["uri": uri], "range": whole])
                + shutdownAndExit)
        #expect(Array(session.messages.dropFirst(3).dropLast()) == (try golden("openTransaction")))
    }
}

/// An error response's code and message.
struct ErrorReply: Equatable {
    var code: Int
    var message: String
    init(_ code: Int, _ message: String) {
        self.code = code
        self.message = message
    }
}

/// The error of a response, if it is one.
func error(_ response: [String: Any]?) -> ErrorReply? {
    guard let error = response?["error"] as? [String: Any], let code = error["code"] as? Int,
        let message = error["message"] as? String
    else { return nil }
    return ErrorReply(code, message)
}
