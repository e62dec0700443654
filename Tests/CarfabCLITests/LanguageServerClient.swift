import Foundation

// A small LSP client for the tests: frames messages the way editors do, runs a whole
// session through `carfab --lsp` in process, and splits what came back into messages,
// checking that standard output held framed messages and nothing else.

/// One message as JSON text (compact, keys in the order given).
func lspMessage(_ object: [String: Any]) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    return String(decoding: data, as: UTF8.self)
}

/// `body` framed with its Content-Length header.
func framed(_ body: String) -> Data { framed(Data(body.utf8)) }

func framed(_ body: Data) -> Data {
    Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body
}

/// A request's framed bytes.
func request(_ id: Int, _ method: String, _ params: [String: Any]? = nil) -> Data {
    var object: [String: Any] = ["jsonrpc": "2.0", "id": id, "method": method]
    if let params { object["params"] = params }
    return framed(lspMessage(object))
}

/// A notification's framed bytes.
func notification(_ method: String, _ params: [String: Any]? = nil) -> Data {
    var object: [String: Any] = ["jsonrpc": "2.0", "method": method]
    if let params { object["params"] = params }
    return framed(lspMessage(object))
}

let initializeRequest = request(1, "initialize", ["processId": NSNull(), "rootUri": NSNull(), "capabilities": [String: Any]()])
let initialized = notification("initialized", [:])
let shutdownAndExit = request(99, "shutdown") + notification("exit")

func didOpen(_ uri: String, _ text: String, version: Int = 1) -> Data {
    notification("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "carfab", "version": version, "text": text]])
}

func at(_ uri: String, _ line: Int, _ character: Int) -> [String: Any] {
    ["textDocument": ["uri": uri], "position": ["line": line, "character": character]]
}

/// What a session with the server gave back.
struct ServerSession {
    /// Each message body the server wrote, in order.
    var messages: [String]
    var stderr: String
    var status: Int32
    /// Bytes on standard output that were not a framed message (must be empty).
    var stray: String

    /// The messages as JSON objects.
    var objects: [[String: Any]] {
        messages.map { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:] }
    }

    /// The message answering request `id`.
    func response(_ id: Int) -> [String: Any]? {
        objects.first { ($0["id"] as? Int) == id && $0["method"] == nil }
    }

    /// Each publishDiagnostics' params, in order.
    var published: [[String: Any]] {
        objects.filter { $0["method"] as? String == "textDocument/publishDiagnostics" }.compactMap { $0["params"] as? [String: Any] }
    }
}

/// Runs `carfab --lsp` in process over `input` (everything the client sends, then the end).
func serve(_ input: Data, arguments: [String] = []) throws -> ServerSession {
    let result = try carfab(["--lsp"] + arguments, stdinData: input)
    var bytes = Array(result.stdout.utf8)[...]
    var messages: [String] = []
    while !bytes.isEmpty {
        let prefix = Array("Content-Length: ".utf8)
        guard bytes.starts(with: prefix), let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)),
            let length = Int(String(decoding: bytes[(bytes.startIndex + prefix.count)..<end.lowerBound], as: UTF8.self)),
            bytes.count - (end.upperBound - bytes.startIndex) >= length
        else { break }
        messages.append(String(decoding: bytes[end.upperBound..<(end.upperBound + length)], as: UTF8.self))
        bytes = bytes[(end.upperBound + length)...]
    }
    return ServerSession(messages: messages, stderr: result.stderr, status: result.status, stray: String(decoding: bytes, as: UTF8.self))
}

/// A position's params with more members (`newName`, `context`).
func at(_ uri: String, _ line: Int, _ character: Int, _ more: [String: Any]) -> [String: Any] {
    at(uri, line, character).merging(more) { _, new in new }
}
