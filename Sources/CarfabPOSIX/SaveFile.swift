import CarScript

// Saving a file by name, on the C library alone: the walk of its links (by the one link
// rule), then the atomic replacement.
#if canImport(Glibc)
import Glibc
#endif

/// The canonical absolute path of an existing file (a name need not be UTF-8).
func realPath(_ path: [UInt8]) -> [UInt8]? {
    guard let resolved = realpath(cPath(path), nil) else { return nil }
    defer { free(resolved) }
    return Array(UnsafeBufferPointer(start: resolved, count: strlen(resolved))).map { UInt8(bitPattern: $0) }
}

/// Saves `bytes` as the file at `path` (a name need not be UTF-8) the way an editor does:
/// through a symbolic link to the file it names, if the link rule lets it (see `verdict`);
/// only over a regular file, keeping its mode (and owner, where allowed); a new file gets
/// mode 0644 less the umask. The file is replaced whole (see `Directory.replace`), so a
/// failure or a stop signal leaves the old file as it was and no temporary file behind.
///
/// The links are walked from open directories (`fstatat`, `readlinkat`, `openat`), so the
/// folder a link was judged in is the folder the file is written in.
package func save(_ bytes: [UInt8], to path: [UInt8], stop: StopRequest) throws(SaveFailure) {
    let target = try saveTarget(path)
    do throws(FileWriteFailure) {
        if let existing = target.existing {
            let owner = existing.st_uid != geteuid() || existing.st_gid != getegid() ? (existing.st_uid, existing.st_gid) : nil
            try target.directory.replace(target.name, with: bytes, mode: existing.st_mode & 0o7777, owner: owner, stop: stop)
        } else {
            try target.directory.replace(target.name, with: bytes, mode: 0o644 & ~fileCreationMask(), stop: stop)
        }
    } catch {
        throw .reason(error.text)
    }
}

/// Why `save` would refuse `path` (its walk of links: a directory, a device, a FIFO, a folder
/// that is not there, a link the rule refuses; then its write: a folder this user may not
/// write in, another user's file in a sticky folder); nil if it would write. A run that writes
/// only at its end (`--junit`) says so before its work, not after.
package func saveRefusal(at path: [UInt8]) -> SaveFailure? {
    do throws(SaveFailure) {
        return writeRefusal(try saveTarget(path))
    } catch {
        return error
    }
}

/// What `save`'s write would meet at `target` that its walk does not: `replace` makes its
/// temporary file in the folder (EACCES in a folder this user may not write in, EROFS on a
/// read-only file system), then renames it over the file, which a sticky folder allows only
/// the file's or the folder's owner (EPERM; root may). Without it a --junit report to such a
/// place failed after every test had run, with a failed test's status (review of b1c2af9).
private func writeRefusal(_ target: borrowing SaveTarget) -> SaveFailure? {
    if faccessat(target.directory.fd, ".", W_OK | X_OK, AT_EACCESS) != 0 { return .system(errno) }
    guard let existing = target.existing else { return nil }
    var folder = stat()
    guard fstat(target.directory.fd, &folder) == 0 else { return .system(errno) }
    let user = geteuid()
    if folder.st_mode & mode_t(S_ISVTX) != 0 && user != 0 && existing.st_uid != user && folder.st_uid != user {
        return .system(EPERM)
    }
    return nil
}

/// Where `save` writes: the folder open, the name in it, and the regular file there if any.
private struct SaveTarget: ~Copyable {
    let directory: Directory
    let name: [UInt8]
    let existing: stat?
}

/// The walk of `path`'s links to the file `save` would replace (see `save`).
private func saveTarget(_ path: [UInt8]) throws(SaveFailure) -> SaveTarget {
    let start = splitPath(path)
    var name = start.name
    var mustBeFolder = start.mustBeFolder
    guard !name.isEmpty else { throw .system(ENOENT) }
    // The path as walked, to name a refused link.
    var walked = path
    // The links followed, in the folders on the way and as the last name alike: at most 40
    // in all, as the kernel follows at most 40 resolving one path.
    var hops = 0
    var directory = try openFolder(start.folder, relativeTo: AT_FDCWD, hops: &hops)
    var existing: stat?
    while true {
        var info = stat()
        if fstatat(directory.fd, cPath(name), &info, AT_SYMLINK_NOFOLLOW) != 0 {
            guard errno == ENOENT else { throw .system(errno) }
            // A name ending in '/' names a folder, which cannot be created as a file (open(2)
            // says EISDIR, "Is a directory", of a folder that is not there).
            if mustBeFolder { throw .reason("it names a folder (it ends in '/'), and there is no such folder") }
            break
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            if mustBeFolder { throw .system(ENOTDIR) }
            // A file this user may not write (read-only, or immutable: EPERM even for root) is
            // not replaced, though the folder would let a rename replace it: as a shell's
            // redirection, sqlite3's .output and vim refuse it (trial 14, 3 and 4).
            if faccessat(directory.fd, cPath(name), W_OK, AT_EACCESS) != 0 { throw .system(errno) }
            existing = info
        case S_IFLNK:
            hops += 1
            guard hops <= 40 else { throw .system(ELOOP) }
            let fd = directory.fd
            try mayFollow(info, in: fd, walked: walked)
            guard let link = readLink(name, in: directory.fd) else { throw .system(errno) }
            let next = splitPath(link)
            guard !next.name.isEmpty else { throw .system(ENOENT) }
            mustBeFolder = mustBeFolder || next.mustBeFolder
            walked = followed(walked, to: link)
            directory = try openFolder(next.folder, relativeTo: fd, hops: &hops)
            name = next.name
            continue
        case S_IFDIR: throw .reason("it is a directory")
        case S_IFIFO: throw .reason("it is a FIFO, not a regular file")
        case S_IFCHR, S_IFBLK: throw .reason("it is a device, not a regular file")
        case S_IFSOCK: throw .reason("it is a socket, not a regular file")
        default: throw .reason("it is not a regular file")
        }
        break
    }
    return SaveTarget(directory: directory, name: name, existing: existing)
}

extension SaveFailure {
    /// The C library's words for `code`.
    static func system(_ code: Int32) -> SaveFailure { .reason(String(cString: strerror(code))) }
}

/// What `body` makes, or its failure as a `SaveFailure`.
private func orFailure<T: ~Copyable>(_ body: () throws(FileWriteFailure) -> T) throws(SaveFailure) -> T {
    do { return try body() } catch { throw .reason(error.text) }
}

/// Opens the folder `path` names (from the folder open on `base` if it is relative), walking
/// each link on the way by the one link rule, as the last name is walked: a link another user
/// planted in a sticky folder anyone may write to is refused wherever it stands in the path
/// (`save dirlink/x` followed one that named a folder; trial 14, 1). A refused link is named
/// by the path walked to it; `hops` counts the links followed on the whole path (see `saveTarget`).
private func openFolder(_ path: [UInt8], relativeTo base: Int32, hops: inout Int) throws(SaveFailure) -> Directory {
    let slash = UInt8(ascii: "/")
    let absolute = path.first == slash
    var current = try orFailure { () throws(FileWriteFailure) in
        try Directory(absolute ? [slash] : [UInt8(ascii: ".")], relativeTo: absolute ? AT_FDCWD : base)
    }
    var walked: [UInt8] = absolute ? [slash] : []
    for part in path.split(separator: slash) where part != [UInt8(ascii: ".")] {
        let name = Array(part)
        if !walked.isEmpty && walked.last != slash { walked.append(slash) }
        walked += name
        var info = stat()
        guard fstatat(current.fd, cPath(name), &info, AT_SYMLINK_NOFOLLOW) == 0 else { throw .system(errno) }
        guard info.st_mode & S_IFMT == S_IFLNK else {
            let fd = current.fd
            current = try orFailure { () throws(FileWriteFailure) in try Directory(name, relativeTo: fd, following: false) }
            continue
        }
        hops += 1
        guard hops <= 40 else { throw .system(ELOOP) }
        let fd = current.fd
        try mayFollow(info, in: fd, walked: walked)
        guard let target = readLink(name, in: fd) else { throw .system(errno) }
        current = try openFolder(target, relativeTo: fd, hops: &hops)
    }
    return current
}

/// Throws unless the link rule lets `save` follow the link `info` (its `lstat`) in the folder
/// open on `directory`, reached as `walked` (which names it in the refusal).
private func mayFollow(_ info: stat, in directory: Int32, walked: [UInt8]) throws(SaveFailure) {
    switch try orFailure({ () throws(FileWriteFailure) in try verdict(onLink: info, inDirectory: directory) }) {
    case .follow: return
    case .processStream: throw .stream
    case .planted(let owner):
        throw .reason(
            "the symbolic link '\(String(decoding: walked, as: UTF8.self))' belongs to another user (uid \(owner)) "
                + "and is in a sticky folder anyone may write to; it is not followed")
    }
}

/// `path` as the folder to open (`.` or `/` when it names none) and the name in that folder;
/// and whether it ended in `/` (so it must name a folder). `/` itself is `.` in `/`.
func splitPath(_ path: [UInt8]) -> (folder: [UInt8], name: [UInt8], mustBeFolder: Bool) {
    let slash = UInt8(ascii: "/")
    var end = path.count
    while end > 0 && path[end - 1] == slash { end -= 1 }
    let mustBeFolder = end < path.count
    if end == 0 { return mustBeFolder ? ([slash], [UInt8(ascii: ".")], false) : ([UInt8(ascii: ".")], [], false) }
    guard let last = path[..<end].lastIndex(of: slash) else { return ([UInt8(ascii: ".")], Array(path[..<end]), mustBeFolder) }
    return (last == 0 ? [slash] : Array(path[..<last]), Array(path[(last + 1)..<end]), mustBeFolder)
}

/// The path a link at `path` that holds `link` leads to, as written (to show where a link was met).
private func followed(_ path: [UInt8], to link: [UInt8]) -> [UInt8] {
    let slash = UInt8(ascii: "/")
    guard link.first != slash, let last = path.lastIndex(of: slash) else { return link }
    return Array(path[...last]) + link
}

/// The target of the symbolic link `name` in the directory open on `directory`, as its bytes.
private func readLink(_ name: [UInt8], in directory: Int32) -> [UInt8]? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlinkat(directory, cPath(name), &buffer, buffer.count - 1)
    guard length >= 0 else { return nil }
    return buffer[0..<length].map { UInt8(bitPattern: $0) }
}

/// Writes `bytes` to `path` as `save` does (whole, or the old file left as it was); nil, or
/// why it could not.
package func writeWhole(_ bytes: [UInt8], to path: [UInt8], stop: StopRequest) -> SaveFailure? {
    do throws(SaveFailure) {
        try save(bytes, to: path, stop: stop)
        return nil
    } catch {
        return error
    }
}

/// A path given as its bytes (a name need not be UTF-8), NUL-terminated for the system's calls.
package func cPath(_ path: [UInt8]) -> [CChar] {
    path.map { CChar(bitPattern: $0) } + [0]
}
