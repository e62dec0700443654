import CarScript

// Replacing a file whole: a temporary file beside it, written, flushed to disk, then renamed
// over it, so a reader sees the old file or the new one and never a part; and the temporary
// file is removed on every way out but a kill.
#if canImport(Glibc)
import Glibc
#endif

/// Why a file could not be replaced.
package enum FileWriteFailure: Error, Equatable {
    /// A system call failed with this `errno`.
    case system(Int32)
    /// A stop signal arrived while writing; nothing was replaced.
    case interrupted

    /// The C library's words, or "interrupted".
    package var text: String {
        switch self {
        case .system(let code): String(cString: strerror(code))
        case .interrupted: "interrupted"
        }
    }
}

/// A directory opened for replacing files in it, by name, without following links.
package struct Directory: ~Copyable {
    package let fd: Int32

    /// Opens `path`, which must be a directory.
    package init(_ path: String) throws(FileWriteFailure) {
        try self.init(Array(path.utf8))
    }

    /// Opens `path` (a name need not be UTF-8), which must be a directory; a relative path
    /// is taken from the directory open on `base`. Without `following`, a link as its last
    /// name is not followed (ELOOP or ENOTDIR).
    package init(_ path: [UInt8], relativeTo base: Int32 = AT_FDCWD, following: Bool = true) throws(FileWriteFailure) {
        let fd = openat(base, cPath(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC | (following ? 0 : O_NOFOLLOW))
        guard fd >= 0 else { throw .system(errno) }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Replaces `name` with a file holding `bytes`, mode `mode` (owner `owner` where allowed).
    /// If `stop` is given, a stop request abandons the write (a `save` a person interrupted);
    /// otherwise it is finished (history saved on the way out after a signal).
    package func replace(
        _ name: [UInt8], with bytes: [UInt8], mode: mode_t, owner: (uid: uid_t, gid: gid_t)? = nil,
        stop: StopRequest?
    ) throws(FileWriteFailure) {
        // Private while it is written; given its final mode once whole.
        var temporary: [CChar] = []
        var file: Int32 = -1
        for attempt in 0..<100 {
            temporary = cPath(temporaryName(for: name, attempt: attempt))
            file = openat(fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if file >= 0 || errno != EEXIST { break }
        }
        guard file >= 0 else { throw .system(errno) }
        var failure: FileWriteFailure?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                if stop?.isRequested == true {
                    failure = .interrupted
                    return
                }
                // In blocks, so a stop signal is seen while a large file is written.
                let n = write(file, buffer.baseAddress! + offset, min(buffer.count - offset, 1 << 20))
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = .system(errno)
                    return
                }
                offset += n
            }
        }
        if failure == nil, let owner, fchown(file, owner.uid, owner.gid) != 0, errno != EPERM {
            failure = .system(errno)
        }
        if failure == nil && fchmod(file, mode) != 0 { failure = .system(errno) }
        if failure == nil && fsync(file) != 0 { failure = .system(errno) }
        if close(file) != 0 && failure == nil { failure = .system(errno) }
        if failure == nil && stop?.isRequested == true { failure = .interrupted }
        if failure == nil && renameat(fd, temporary, fd, cPath(name)) != 0 { failure = .system(errno) }
        if let failure {
            unlinkat(fd, temporary, 0)
            throw failure
        }
        // The rename itself reaches the disk with the directory.
        fsync(fd)
    }

    /// The name of the temporary file that becomes `name`: hidden, naming the file it is for
    /// and this process, and never longer than NAME_MAX (255 bytes), however long `name` is;
    /// so it holds at most 32 bytes of `name`, cut where a UTF-8 character begins.
    private func temporaryName(for name: [UInt8], attempt: Int) -> [UInt8] {
        var end = min(name.count, 32)
        // Back to the start of a character the cut would split (at most 3 continuation bytes).
        for _ in 0..<3 where end < name.count && name[end] & 0xC0 == 0x80 { end -= 1 }
        return [UInt8(ascii: ".")] + name[..<end] + Array(".carfab-\(getpid())-\(attempt)".utf8)
    }

    /// The whole of regular file `name`, opened without following a link; nil if there is none.
    package func read(_ name: String, atMost limit: Int) throws(FileReadFailure) -> [UInt8]? {
        let file = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else {
            if errno == ENOENT { return nil }
            throw errno == ELOOP ? .link : .system(errno)
        }
        defer { close(file) }
        return try readWhole(file, atMost: limit)
    }
}

/// Why a file could not be read whole.
package enum FileReadFailure: Error, Equatable {
    case system(Int32)
    /// It is a symbolic link, which is not followed.
    case link
    /// It is not a regular file (a directory, FIFO, device or socket).
    case notRegular
    /// It is larger than the limit.
    case tooLarge
}

/// Reads the regular file open on `file` to its end.
package func readWhole(_ file: Int32, atMost limit: Int) throws(FileReadFailure) -> [UInt8] {
    var info = stat()
    guard fstat(file, &info) == 0 else { throw .system(errno) }
    guard info.st_mode & S_IFMT == S_IFREG else { throw .notRegular }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            throw .system(errno)
        }
        if n == 0 { return bytes }
        bytes += chunk[0..<n]
        if bytes.count > limit { throw .tooLarge }
    }
}

/// The process's file-creation mask, as the kernel states it in /proc/self/status (its
/// `Umask:` line, since Linux 4.7), read without changing it: `umask(2)` only reads by
/// setting, which would race with any other thread of a program that embeds this host.
/// Without /proc (not mounted), the usual 022.
package func fileCreationMask() -> mode_t {
    guard let status = try? Directory("/proc/self").read("status", atMost: 1 << 16) else { return 0o022 }
    return umask(inStatus: status) ?? 0o022
}

/// The mask on the `Umask:` line of a /proc/PID/status text (an octal number), if it has one.
package func umask(inStatus status: [UInt8]) -> mode_t? {
    let key = Array("Umask:".utf8)
    var lineStart = 0
    while lineStart < status.count {
        let lineEnd = status[lineStart...].firstIndex(of: 0x0A) ?? status.count
        if status[lineStart..<lineEnd].starts(with: key) {
            var mask: mode_t = 0
            var digits = 0
            for byte in status[(lineStart + key.count)..<lineEnd] where byte != 0x09 && byte != 0x20 {
                guard (0x30...0x37).contains(byte), digits < 4 else { return nil }
                mask = mask * 8 + mode_t(byte - 0x30)
                digits += 1
            }
            return digits > 0 ? mask : nil
        }
        lineStart = lineEnd + 1
    }
    return nil
}
