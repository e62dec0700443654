import CarScript

// carfab's host on a POSIX system (Linux): the engine's files, standard input and folder
// listings, by the C library.
#if canImport(Glibc)
import Glibc
#endif

/// Files, standard input and folders as a POSIX process sees them, for an engine's
/// ``EngineOptions/host``: files opened by name (a FIFO waits for its writer, a stop ends the
/// wait), standard input as descriptor 0, `save` as an editor saves (links followed by the
/// kernel's protected_symlinks rule, never to a process's open stream; the file replaced
/// whole, keeping its mode and owner).
public struct POSIXHost: EngineHost {
    /// The host of this process.
    public init() {}

    /// Opens the file at `path` (the bytes of its name).
    public func openFile(_ path: [UInt8], stop: StopRequest) throws(LineSourceFailure) -> any LineSource {
        try openLineSource(.filePath(path), stop: stop)
    }

    /// Standard input (descriptor 0), named `<stdin>`.
    public func openStandardInput(stop: StopRequest) throws(LineSourceFailure) -> any LineSource {
        try openLineSource(.standardInput, stop: stop)
    }

    /// What `stat(2)` says `path` is.
    public func kind(of path: [UInt8]) -> FileKind? {
        var info = stat()
        guard stat(cPath(path), &info) == 0 else { return nil }
        return switch info.st_mode & S_IFMT {
        case S_IFREG: .regular
        case S_IFDIR: .folder
        default: .other
        }
    }

    /// The canonical absolute path (`realpath(3)`).
    public func identity(of path: [UInt8]) -> [UInt8]? {
        realPath(path)
    }

    /// Saves as an editor does (see `save(_:to:stop:)`).
    public func save(_ bytes: [UInt8], to path: [UInt8], stop: StopRequest) throws(SaveFailure) {
        try CarfabPOSIX.save(bytes, to: path, stop: stop)
    }

    /// The folder's entries by `readdir(3)`, each a folder if `stat(2)` (links followed) says so.
    public func entries(ofFolder path: [UInt8]) -> [FolderEntry]? {
        guard let directory = opendir(cPath(path)) else { return nil }
        defer { closedir(directory) }
        var entries: [FolderEntry] = []
        while let entry = readdir(directory) {
            // The name read where it is: `entry.pointee.d_name` would copy all 256 bytes of the
            // field, past the end of a short record at the end of readdir's buffer (found by
            // the language server's fuzz target, under ASan).
            let field = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
            let start = UnsafeRawPointer(entry).advanced(by: field).assumingMemoryBound(to: CChar.self)
            let name = Array(UnsafeRawBufferPointer(start: start, count: strlen(start)))
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            var info = stat()
            let isFolder = stat(cPath(path + [UInt8(ascii: "/")] + name), &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            entries.append(FolderEntry(name: name, isFolder: isFolder))
        }
        return entries
    }
}
