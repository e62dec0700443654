// Paths and whole-file writes, on the C library alone.
#if canImport(Glibc)
import Glibc
#endif

/// The directory part of `path` (`.` if it has none).
func directoryName(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
}

/// `path` resolved against `directory` unless it is absolute.
func resolvePath(_ path: String, against directory: String) -> String {
    if path.hasPrefix("/") || directory == "." { return path }
    return directory.hasSuffix("/") ? directory + path : directory + "/" + path
}

/// The canonical absolute path of an existing file.
func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}

/// The C library's text for the current `errno`.
func errnoText() -> String {
    String(cString: strerror(errno))
}

/// Writes `bytes` to `path` through a temporary file and a rename, so a failure leaves any old file whole.
func writeAtomically(_ bytes: [UInt8], to path: String) throws(ScriptError.Kind) {
    let directory = directoryName(path)
    let base = path.split(separator: "/").last.map(String.init) ?? path
    let temporary = resolvePath(".\(base).\(getpid()).tmp", against: directory == "." ? "." : directory)
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw .io("cannot save '\(path)': \(errnoText())") }
    var failure: String?
    bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                failure = errnoText()
                return
            }
            offset += n
        }
    }
    if failure == nil && fsync(fd) != 0 { failure = errnoText() }
    if close(fd) != 0 && failure == nil { failure = errnoText() }
    if failure == nil && rename(temporary, path) != 0 { failure = errnoText() }
    if let failure {
        unlink(temporary)
        throw .io("cannot save '\(path)': \(failure)")
    }
}
