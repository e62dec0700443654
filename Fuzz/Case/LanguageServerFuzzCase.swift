import CarfabCLI

/// Runs `input` through `carfab --lsp`'s framing and dispatch, in memory, and checks that the
/// server ends (status 0 or 1) and that standard output holds framed JSON-RPC messages and
/// nothing else, whatever came in.
///
/// The first byte's low bit picks how the rest is read: as the raw byte stream (framing
/// fuzzed: headers, lengths, bodies cut short), or as message bodies separated by NUL bytes,
/// each framed with its own Content-Length after an `initialize` (dispatch fuzzed: every
/// method with malformed or hostile params, positions past the end, requests after shutdown).
public func checkLanguageServerInput(_ input: [UInt8]) throws(FuzzFinding) {
    guard let first = input.first else { return }
    var stream: [UInt8] = []
    if first & 1 == 0 {
        stream = Array(input.dropFirst())
    } else {
        let initialize = #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}"#
        for body in [Array(initialize.utf8)[...]] + input.dropFirst().split(separator: 0, omittingEmptySubsequences: false) {
            stream += Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        }
    }
    let (status, out, _) = LanguageServerFuzzing.serve(stream)
    guard status == 0 || status == 1 else { throw FuzzFinding(description: "exit status \(status)") }
    let (bodies, rest) = LanguageServerFuzzing.messages(in: out)
    guard rest.isEmpty else {
        throw FuzzFinding(
            description: "standard output holds bytes that are not a framed message: \(String(decoding: rest.prefix(200), as: UTF8.self))")
    }
    for body in bodies where !LanguageServerFuzzing.isJSONRPC(body) {
        throw FuzzFinding(description: "a message that is not JSON-RPC: \(String(decoding: body.prefix(200), as: UTF8.self))")
    }
}
