import CarFactory

@testable import CarScript

extension Catalog {
    /// The built-in catalog, loaded from its script as carfab loads it.
    static let builtIn: Catalog = Engine.builtInCatalog
}

/// The engine's own test host: a session whose results and diagnostics are kept as data, with
/// no renderer of the program's (engine tests import only the engine), and files in memory.
final class EngineHarness {
    let kept = Evaluation()
    let session: Session
    /// The files `source` and `save` see (unless the options give a host of their own).
    let files: MemoryHost

    init(options: EngineOptions = EngineOptions(), files: MemoryHost = MemoryHost()) {
        var options = options
        if options.host == nil { options.host = files }
        self.files = files
        session = Session(catalog: .builtIn, sink: kept, options: options)
    }

    /// Runs `text` (named `t`) and returns the results and diagnostics it made.
    @discardableResult
    func run(_ text: String) -> (results: [CommandResult], diagnostics: [Diagnostic]) {
        let results = kept.results.count
        let diagnostics = kept.diagnostics.count
        session.run(text: text, name: "t")
        return (kept.results[results...].map(\.result), Array(kept.diagnostics[diagnostics...]))
    }
}

/// Files held in memory, for engine tests that `source`, `save` and complete file names
/// without a disk: the engine's host as an embedder without a file system would give it.
/// Paths are taken as written, `.` parts dropped, relative to an empty working folder.
final class MemoryHost: EngineHost, @unchecked Sendable {
    /// Each file's bytes by its path (folders are the paths' leading parts, and `folders`).
    /// Unchecked Sendable: a test uses one host from one thread.
    var files: [String: [UInt8]]
    /// Folders with nothing in them.
    var folders: Set<String> = []
    /// The lines standard input holds (`source -`).
    var standardInput: String = ""

    init(_ files: [String: String] = [:]) {
        self.files = files.mapValues { Array($0.utf8) }
    }

    /// `path` as a key: split at each `/` byte (a `/` before a combining mark too), no `.`
    /// parts, `..` taking the folder before it away, no `/` at the end.
    static func key(_ path: [UInt8]) -> String {
        var parts: [ArraySlice<UInt8>] = []
        for part in path.split(separator: UInt8(ascii: "/")) {
            if part.elementsEqual([0x2E]) { continue }
            if part.elementsEqual([0x2E, 0x2E]) {
                _ = parts.popLast()
                continue
            }
            parts.append(part)
        }
        return parts.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "/")
    }

    func isFolder(_ key: String) -> Bool {
        key.isEmpty || folders.contains(key) || (Array(files.keys) + Array(folders)).contains { Self.isInside($0, key + "/") }
    }

    /// Whether `key` lies under `prefix` (compared as bytes: a `/` before a combining mark is a `/`).
    static func isInside(_ key: String, _ prefix: String) -> Bool {
        key.utf8.count > prefix.utf8.count && key.utf8.starts(with: prefix.utf8)
    }

    func openFile(_ path: [UInt8], stop: StopRequest) throws(LineSourceFailure) -> any LineSource {
        let name = String(decoding: path, as: UTF8.self)
        if isFolder(Self.key(path)) { throw .unreadable("cannot read '\(name)': it is a directory") }
        guard let bytes = files[Self.key(path)] else { throw .unreadable("cannot open '\(name)': No such file or directory") }
        return openLineSource(text: bytes, name: name, path: name)
    }

    func openStandardInput(stop: StopRequest) throws(LineSourceFailure) -> any LineSource {
        openLineSource(text: Array(standardInput.utf8), name: "<stdin>")
    }

    func kind(of path: [UInt8]) -> FileKind? {
        let key = Self.key(path)
        return files[key] != nil ? .regular : isFolder(key) ? .folder : nil
    }

    func identity(of path: [UInt8]) -> [UInt8]? {
        files[Self.key(path)] != nil ? Array(Self.key(path).utf8) : nil
    }

    func save(_ bytes: [UInt8], to path: [UInt8], stop: StopRequest) throws(SaveFailure) {
        let key = Self.key(path)
        if isFolder(key) { throw .reason("it is a directory") }
        files[key] = bytes
    }

    func entries(ofFolder path: [UInt8]) -> [FolderEntry]? {
        let key = Self.key(path)
        guard isFolder(key) else { return nil }
        let prefix = key.isEmpty ? "" : key + "/"
        var names: Set<String> = []
        for inside in Array(files.keys) + Array(folders) where Self.isInside(inside, prefix) {
            let rest = inside.utf8.dropFirst(prefix.utf8.count)
            names.insert(String(decoding: rest.prefix { $0 != UInt8(ascii: "/") }, as: UTF8.self))
        }
        return names.map { FolderEntry(name: Array($0.utf8), isFolder: isFolder(prefix + $0)) }
    }
}
