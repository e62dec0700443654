// Paths, and saving a file, on the C library alone.
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

/// Saves `bytes` as the file at `path` the way an editor does: through a symbolic link to
/// the file it names; only over a regular file, keeping its mode (and owner, where allowed);
/// a new file gets mode 0644 less the umask. The file is replaced whole (see `Directory.replace`),
/// so a failure or a stop signal leaves the old file as it was and no temporary file behind.
func save(_ bytes: [UInt8], to path: String, stop: StopRequest) throws(ScriptError.Kind) {
    func failure(_ reason: String) -> ScriptError.Kind { .io("cannot save '\(path)': \(reason)") }
    var target = path
    var existing: stat?
    for hop in 0... {
        var info = stat()
        if lstat(target, &info) != 0 {
            guard errno == ENOENT else { throw failure(errnoText()) }
            break
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            existing = info
        case S_IFLNK:
            guard hop < 40 else { throw failure(String(cString: strerror(ELOOP))) }
            guard let link = readLink(target) else { throw failure(errnoText()) }
            target = resolvePath(link, against: directoryName(target))
            continue
        case S_IFDIR: throw failure("it is a directory")
        case S_IFIFO: throw failure("it is a FIFO, not a regular file")
        case S_IFCHR, S_IFBLK: throw failure("it is a device, not a regular file")
        case S_IFSOCK: throw failure("it is a socket, not a regular file")
        default: throw failure("it is not a regular file")
        }
        break
    }
    let name = target.split(separator: "/").last.map(String.init) ?? target
    do throws(FileWriteFailure) {
        let directory = try Directory(directoryName(target))
        if let existing {
            let owner = existing.st_uid != geteuid() || existing.st_gid != getegid() ? (existing.st_uid, existing.st_gid) : nil
            try directory.replace(name, with: bytes, mode: existing.st_mode & 0o7777, owner: owner, stop: stop)
        } else {
            try directory.replace(name, with: bytes, mode: 0o644 & ~currentUmask(), stop: stop)
        }
    } catch {
        throw failure(error.text)
    }
}

/// The target of the symbolic link at `path`.
private func readLink(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink(path, &buffer, buffer.count - 1)
    guard length >= 0 else { return nil }
    return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Writes `bytes` to `path` as `save` does (whole, or the old file left as it was); nil, or
/// why it could not.
package func writeWhole(_ bytes: [UInt8], to path: String, stop: StopRequest) -> String? {
    do throws(ScriptError.Kind) {
        try save(bytes, to: path, stop: stop)
        return nil
    } catch {
        return ScriptError(error, at: SourceRange(0, 0)).message
    }
}

/// A path given as its bytes (a name need not be UTF-8), NUL-terminated for the system's calls.
package func cPath(_ path: [UInt8]) -> [CChar] {
    path.map { CChar(bitPattern: $0) } + [0]
}
