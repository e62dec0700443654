/// The language server as the fuzz target (Fuzz/Case) drives it: a whole session over bytes in memory.
package enum LanguageServerFuzzing {
    /// Serves `input` (everything a client sends, then the end) with the built-in catalog and
    /// no command-line settings: the exit status, standard output and standard error.
    package static func serve(_ input: [UInt8]) -> (status: Int32, out: [UInt8], err: [UInt8]) {
        let out = Output.memory()
        let err = Output.memory()
        let server = LanguageServer(input: MemoryInput(input), out: out, err: err, settings: AnalysisSettings())
        let status = server.run()
        return (status, out.buffer, err.buffer)
    }

    /// Each body `output` frames, in order, and whatever follows the last whole one (empty if nothing).
    package static func messages(in output: [UInt8]) -> (bodies: [[UInt8]], rest: [UInt8]) {
        var bodies: [[UInt8]] = []
        var bytes = output[...]
        let prefix = Array("Content-Length: ".utf8)
        let end = Array("\r\n\r\n".utf8)
        while bytes.starts(with: prefix), let stop = bytes.firstRange(of: end),
            let length = Int(String(decoding: bytes[(bytes.startIndex + prefix.count)..<stop.lowerBound], as: UTF8.self)),
            length >= 0, bytes.endIndex - stop.upperBound >= length
        {
            bodies.append(Array(bytes[stop.upperBound..<(stop.upperBound + length)]))
            bytes = bytes[(stop.upperBound + length)...]
        }
        return (bodies, Array(bytes))
    }

    /// Whether `body` is a JSON object with `"jsonrpc":"2.0"`, read by the server's own parser.
    package static func isJSONRPC(_ body: [UInt8]) -> Bool {
        guard let message = try? JSONParser.parse(body) else { return false }
        return message.isObject && message["jsonrpc"]?.string == "2.0"
    }
}
