import CarScript

/// The files one version of a document reads, each read from the host once: every replay of
/// the version (diagnostics, the pass over its lines, the sessions before a line) sees the
/// same text, and a request after the first reads no file. A file rewritten on disk is read
/// again at the document's next version.
///
/// The files read in all are bounded as the document is (`LanguageServer.largestAnalysed`):
/// the file whose lines take them past the bound fails there, with a message saying so, and
/// is not kept (a 46 MB sourced file kept 1.9 GB and answered 187 MiB of references; trial 9, 1).
/// Every replay reads the kept files from here and fails the same file at the same line.
final class ReplayFiles: EngineHost, @unchecked Sendable {
    // Unchecked Sendable: the language server uses its analyses from its one thread.
    private let host: any EngineHost
    private var kept: [[UInt8]: (name: String, path: String?, text: [UInt8])] = [:]
    private var keptBytes = 0
    /// How many times a file was opened on the host (the tests count them).
    private(set) var reads = 0

    /// The most bytes read through `source` (and the files a comparison checks) in all.
    static let largest = LanguageServer.largestAnalysed

    init(_ host: any EngineHost) { self.host = host }

    func openFile(_ path: [UInt8], stop: StopRequest) throws(LineSourceFailure) -> any LineSource {
        if let file = kept[path] { return openLineSource(text: file.text, name: file.name, path: file.path) }
        reads += 1
        let source = try host.openFile(path, stop: stop)
        return Recording(source, room: Self.largest - keptBytes) { [weak self] text in
            guard let self else { return }
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

    /// What the file that takes the files read past `largest` fails with, after `lines` lines of it
    /// (it is named by the diagnostic's place, and shown on the `source` line that reads it).
    static func tooLarge(after lines: Int) -> LineSourceFailure {
        .unreadable(
            "the files this document sources are more than the \(largest >> 20) MiB the editor analyses in all: this one is not checked past line \(lines) (carfab --check checks it)"
        )
    }

    /// A file's lines as they are read, handed on whole once the file ends without a failure;
    /// past `room` bytes, it fails (`tooLarge`).
    private final class Recording: LineSource {
        private let source: any LineSource
        private let room: Int
        private var text: [UInt8] = []
        private var lines = 0
        private var failed = false
        private let finished: ([UInt8]) -> Void

        init(_ source: any LineSource, room: Int, finished: @escaping ([UInt8]) -> Void) {
            self.source = source
            self.room = room
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
            guard !failed else { return line }
            lines += 1
            text += line
            text.append(UInt8(ascii: "\n"))
            if text.count > room {
                failed = true
                text = []
                throw ReplayFiles.tooLarge(after: lines - 1)
            }
            return line
        }
    }
}
