// The one rule for following a symbolic link wherever carfab writes a file by a name it
// resolves itself (`save`, `--junit`, the folders on the way to the history file, which
// itself follows no link at all). carfab walks the links of such a name itself, so the kernel's own check (fs.protected_symlinks)
// never sees them: this is that check, made whatever the sysctl says, and one more.
#if canImport(Glibc)
import Glibc
#endif

/// What a write does on meeting a symbolic link.
package enum LinkVerdict: Equatable {
    /// The link is followed to the name it holds.
    case follow
    /// Another user's link in a sticky folder anyone may write to (as /tmp), which the
    /// kernel's protected_symlinks rule refuses: whoever planted it would choose what is written.
    case planted(owner: uid_t)
    /// A link procfs keeps for a process (`/proc/PID/fd/N`, which `/dev/stdout`, `/dev/stderr`
    /// and `/dev/fd/N` lead to): an open stream, not a file's name. Replacing it would
    /// replace the file the stream writes to, losing what was written there before.
    case processStream
}

/// The verdict on the symbolic link `link` (its `lstat`), found in the directory open on
/// `directory`, for a write by this process.
package func verdict(onLink link: stat, inDirectory directory: Int32) throws(FileWriteFailure) -> LinkVerdict {
    var folder = stat()
    guard fstat(directory, &folder) == 0 else { throw .system(errno) }
    if isProcFileSystem(folder.st_dev) { return .processStream }
    // The kernel's rule (fs/namei.c, may_follow_link): the follower's own link, a link in a
    // folder that is not both sticky and writable by all, or the folder owner's link.
    if link.st_uid == geteuid() { return .follow }
    let stickyAndOpen = mode_t(S_ISVTX) | mode_t(S_IWOTH)
    if folder.st_mode & stickyAndOpen != stickyAndOpen { return .follow }
    return link.st_uid == folder.st_uid ? .follow : .planted(owner: link.st_uid)
}

/// Whether `device` is that of the proc file system at /proc, known by its `self` link (an
/// unmounted /proc is a plain folder without one). The C library's headers in Swift's Glibc
/// module lack `fstatfs`, which would name the file system's type.
private func isProcFileSystem(_ device: dev_t) -> Bool {
    var proc = stat()
    var own = stat()
    guard stat("/proc", &proc) == 0, proc.st_dev == device, lstat("/proc/self", &own) == 0 else { return false }
    return own.st_mode & S_IFMT == S_IFLNK && own.st_dev == device
}
