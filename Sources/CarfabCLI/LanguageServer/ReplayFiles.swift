import CarScript

/// The files one version of a document reads, each read from the host once: every replay of
/// the version (diagnostics, the pass over its lines, the sessions before a line) sees the
/// same text, and a request after the first reads no file. A file rewritten on disk is read
/// again at the document's next version. At most `largest` bytes are kept in all; a file
/// beyond that, or one that fails part way, is read from the host each time.
final class ReplayFiles: EngineHost, @unchecked Sendable {
    // Unchecked Sendable: the language server uses its analyses from its one thread.
    private let host: any EngineHost
    private var kept: [[UInt8]: (name: String, path: String?, text: [UInt8])] = [:]
    private var keptBytes = 0
    /// How many times a file was opened on the host (the tests count them).
    private(set) var reads = 0

    /// The most bytes kept: as much as one message to the server may hold.
    static let largest = MessageReader.maximumLength

    init(_ host: any EngineHost) { self.host = host }

    func openFile(_ path: [UInt8], stop: StopRequest) throws(LineSourceFailure) -> any LineSource {
        if let file = kept[path] { return openLineSource(text: file.text, name: file.name, path: file.path) }
        reads += 1
        let source = try host.openFile(path, stop: stop)
        return Recording(source) { [weak self] text in
            guard let self, self.keptBytes + text.count <= Self.largest else { return }
            self.kept[path] = (source.name, source.path, text)
            self.keptBytes += text.count
        }
    }

    func openStandardInput(stop: StopRequest) throws(LineSourceFailure) -> any LineSource {
        try host.openStandardInput(stop: stop)
    }

    func kind(of path: [UInt8]) -> FileKind? { host.kind(of: path) }
    func identity(of path: [UInt8]) -> [UInt8]? { host.identity(of: path) }
    func save(_ bytes: [UInt8], to path: [UInt8], stop: StopRequest) throws(SaveFailure) {
        try host.save(bytes, to: path, stop: stop)
    }
    func entries(ofFolder path: [UInt8]) -> [FolderEntry]? { host.entries(ofFolder: path) }

    /// A file's lines as they are read, handed on whole once the file ends without a failure.
    private final class Recording: LineSource {
        private let source: any LineSource
        private var text: [UInt8] = []
        private var failed = false
        private let finished: ([UInt8]) -> Void

        init(_ source: any LineSource, finished: @escaping ([UInt8]) -> Void) {
            self.source = source
            self.finished = finished
        }

        var name: String { source.name }
        var path: String? { source.path }

        func readLine(continuation: Bool) throws(LineSourceFailure) -> [UInt8]? {
            let line: [UInt8]?
            do throws(LineSourceFailure) {
                line = try source.readLine(continuation: continuation)
            } catch {
                failed = true
                throw error
            }
            guard let line else {
                if !failed { finished(text) }
                failed = true
                return nil
            }
            if !failed {
                text += line
                text.append(UInt8(ascii: "\n"))
                if text.count > ReplayFiles.largest {
                    failed = true
                    text = []
                }
            }
            return line
        }
    }
}
