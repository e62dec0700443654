import CarScript

/// The files one version of a document reads, each read from the host once: every replay of
/// the version (diagnostics, the pass over its lines, the sessions before a line) sees the
/// same text, and a request after the first reads no file. A file rewritten on disk is read
/// again at the document's next version.
///
/// What is read in all is bounded as the document is (`LanguageServer.largestAnalysed`), as it
/// is read: one budget, charged a line at a time by every file open at once (a file and the
/// files it sources while it is open), and by files that fail or are cut as much as by whole
/// ones. The line that takes it past the bound fails its file there, with a message saying
/// so, and every file opened after that fails at its first line (a 46 MB sourced file kept
/// 1.9 GB, trial 9, 1; 63 nested files of 4 MB were all read, 265 MB, and 300 files of 4 MB
/// one after another 1.65 GB, as each was charged only once whole; review of lsp6).
/// Every file is kept as far as it was read, with its failures where they came, so every
/// replay, the index and the diagnostics' places read the same lines of the same files.
final class ReplayFiles: EngineHost, @unchecked Sendable {
    // Unchecked Sendable: the language server uses its analyses from its one thread.
    private let host: any EngineHost
    private var kept: [[UInt8]: Kept] = [:]
    /// The bytes read through `source` so far, kept or not (a line too long is charged the bytes the source reads of it).
    private var readBytes = 0
    /// How many times a file was opened on the host (the tests count them).
    private(set) var reads = 0
    /// The identities of the files read: a change to one open in the editor makes the
    /// version's replay stale (see `LanguageServer.dropReplays(reading:)`).
    private(set) var readIdentities: Set<[UInt8]> = []

    /// The most bytes read through `source` (and the files a comparison checks) in all.
    static let largest = LanguageServer.largestAnalysed

    /// A file as far as it was read: its lines, and the failures met before a line (by its index).
    /// A line too long stands as an empty line, so that the lines after it keep their numbers.
    struct Kept {
        let name: String
        let path: String?
        let text: [UInt8]
        let failures: [Int: LineSourceFailure]

        /// Whether every line was read: no failure ended the file early (a line too long does not).
        var whole: Bool {
            !failures.values.contains { if case .unreadable = $0 { true } else { false } }
        }
    }

    /// The texts of the documents open in the editor, by the identity of the file each has on
    /// disk: such a file is read from its buffer, unsaved edits and all (LSP leaves an open
    /// document's text to the client). Read from disk, a sourced file with unsaved edits gave
    /// rename edits at the disk's positions, which corrupted the buffer (trial 12, 1).
    private let buffers: [[UInt8]: [UInt8]]

    init(_ host: any EngineHost, buffers: [[UInt8]: [UInt8]] = [:]) {
        self.host = host
        self.buffers = buffers
    }

    func openFile(_ path: [UInt8], stop: StopRequest) throws(LineSourceFailure) -> any LineSource {
        if let file = kept[path] {
            let lines = openLineSource(text: file.text, name: file.name, path: file.path)
            return file.failures.isEmpty ? lines : Replaying(lines, failures: file.failures)
        }
        reads += 1
        let identity = host.identity(of: path)
        if let identity { readIdentities.insert(identity) }
        if let identity, let text = buffers[identity] {
            let name = String(decoding: path, as: UTF8.self)
            return Recording(openLineSource(text: text, name: name, path: name), files: self, path: path)
        }
        let source = try host.openFile(path, stop: stop)
        return Recording(source, files: self, path: path)
    }

    /// The file the engine opened as `path` (its name in diagnostics), as far as it was read; nil if it was not.
    func file(_ path: String) -> Kept? { kept[Array(path.utf8)] }

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

    /// Charges `bytes` read to the budget; false, charging nothing, if they do not fit in it.
    fileprivate func charge(_ bytes: Int) -> Bool {
        guard bytes <= Self.largest - readBytes else { return false }
        readBytes += bytes
        return true
    }

    /// Gives back what a file read that is not kept (a stop ended it: the next replay reads it again).
    fileprivate func refund(_ bytes: Int) { readBytes -= bytes }

    fileprivate func keep(_ file: Kept, as path: [UInt8]) { kept[path] = file }

    /// A file's lines as they are read, each charged to the budget; kept once the file ends,
    /// whole or not. Past the budget, it fails (`tooLarge`).
    private final class Recording: LineSource {
        private let source: any LineSource
        private let key: [UInt8]
        private weak var files: ReplayFiles?
        private var text: [UInt8] = []
        private var failures: [Int: LineSourceFailure] = [:]
        private var lines = 0
        private var charged = 0
        private var ended = false

        init(_ source: any LineSource, files: ReplayFiles, path: [UInt8]) {
            self.source = source
            self.files = files
            key = path
        }

        var name: String { source.name }
        var path: String? { source.path }

        func readLine(continuation: Bool) throws(LineSourceFailure) -> [UInt8]? {
            guard !ended else { return nil }
            let line: [UInt8]?
            do throws(LineSourceFailure) {
                line = try source.readLine(continuation: continuation)
            } catch .lineTooLong(let limit) {
                // The source read at least this much of it; the lines after it go on being read and counted.
                try take(nil, bytes: maximumPhysicalLineLength + 1)
                failures[lines - 1] = .lineTooLong(limit: limit)
                throw .lineTooLong(limit: limit)
            } catch .unreadable(let message) {
                end(failing: .unreadable(message))
                throw .unreadable(message)
            } catch {
                // A stop: what was read is not kept, and the next replay reads it again.
                ended = true
                files?.refund(charged)
                throw error
            }
            guard let line else {
                end(failing: nil)
                return nil
            }
            try take(line, bytes: line.count + 1)
            return line
        }

        /// Keeps `line` (an empty one for a line too long) if `bytes` fit in the budget; else ends the file there.
        private func take(_ line: [UInt8]?, bytes: Int) throws(LineSourceFailure) {
            guard files?.charge(bytes) ?? false else {
                let failure = ReplayFiles.tooLarge(after: lines)
                end(failing: failure)
                throw failure
            }
            charged += bytes
            lines += 1
            if let line { text += line }
            text.append(UInt8(ascii: "\n"))
        }

        private func end(failing failure: LineSourceFailure?) {
            ended = true
            if let failure { failures[lines] = failure }
            files?.keep(Kept(name: source.name, path: source.path, text: text, failures: failures), as: key)
            text = []
        }
    }

    /// A kept file read again, failing where it failed when it was read.
    private final class Replaying: LineSource {
        private let lines: any LineSource
        private let failures: [Int: LineSourceFailure]
        private var index = 0

        init(_ lines: any LineSource, failures: [Int: LineSourceFailure]) {
            self.lines = lines
            self.failures = failures
        }

        var name: String { lines.name }
        var path: String? { lines.path }

        func readLine(continuation: Bool) throws(LineSourceFailure) -> [UInt8]? {
            defer { index += 1 }
            guard let failure = failures[index] else { return try lines.readLine(continuation: continuation) }
            // A line too long stands as an empty line: it is passed over.
            if case .lineTooLong = failure { _ = try lines.readLine(continuation: continuation) }
            throw failure
        }
    }
}
