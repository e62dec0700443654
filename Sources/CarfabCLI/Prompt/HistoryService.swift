import CarFactory
import CarScript
import CarfabPOSIX

#if canImport(Glibc)
import Glibc
#endif

/// The prompt's history: read when set up; when stopped, on every way out, this session's
/// new commands are added to what the file holds then, so that two prompts open at once
/// both keep their commands.
///
/// The file is `$XDG_STATE_HOME/carfab/history` (default `~/.local/state/carfab/history`),
/// private (mode 0600) and bounded. Its folder is made when the service is set up (0700,
/// each missing folder in turn, as the XDG spec asks of `$XDG_STATE_HOME`), so that a
/// history that cannot be kept is said before the session, not after it; a link on the way
/// to it is followed only as the rule `save` and `--junit` follow allows
/// (`verdict(onLink:inDirectory:)`). The file is written whole under an advisory lock,
/// through a temporary file and a rename; never through a symbolic link (stricter than that
/// rule), never over something that is not a history file, and never by creating `$HOME`
/// (each refusal is a one-line warning).
final class HistoryService: Service {
    let name = "history"
    /// The history libedit recalls, if libedit is there.
    let store: HistoryStore?
    private let location: Location?
    private let warn: (String) -> Void
    /// This session's commands, oldest first: what `stop` adds to the file.
    private var added: [[UInt8]] = []
    private var last: [UInt8]?
    /// False once the file turned out to be something carfab must not write over.
    private var writable = true
    /// Off with no file (no HOME), or once its file is left alone (not read, or never written):
    /// `services` then says so, as the warning did, where it said `running` (trial 5, 5).
    /// This session's commands are still recalled.
    var isOff: Bool { location == nil || !writable }

    /// How many entries the file keeps.
    static let size = 1000
    /// A history file larger than this is not read (1,000 entries of the 1 MiB line limit would
    /// fit; those past `HistoryFile.entryLimit` are passed over as they are read).
    static let readLimit = 1 << 30

    /// Where the history lives: a directory that must already exist, the directories to make
    /// below it, and the file's name.
    struct Location: Equatable {
        var base: String
        var below: [String]
        var file = "history"

        var directory: String { below.reduce(base) { $0.hasSuffix("/") ? $0 + $1 : $0 + "/" + $1 } }
        var path: String { directory + "/" + file }
    }

    init(environment: (String) -> String?, warn: @escaping (String) -> Void) {
        store = HistoryStore()
        location = Self.location(environment)
        self.warn = warn
    }

    /// Where the history lives, from the environment. Every missing folder of
    /// `$XDG_STATE_HOME` may be made, but not `$HOME` (nor one above it).
    static func location(_ environment: (String) -> String?) -> Location? {
        let home = environment("HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") {
            let components = state.split(separator: "/").map(String.init)
            if let home {
                let homeComponents = home.split(separator: "/").map(String.init)
                if !homeComponents.isEmpty && components.starts(with: homeComponents) {
                    return Location(base: home, below: Array(components.dropFirst(homeComponents.count)) + ["carfab"])
                }
            }
            return Location(base: "/", below: components + ["carfab"])
        }
        guard let home else { return nil }
        return Location(base: home, below: [".local", "state", "carfab"])
    }

    func setUp() throws {
        guard let location else { return }
        do throws(FolderFailure) {
            close(try Self.makeFolder(location))
        } catch {
            refuse("history will not be saved: cannot make its folder '\(location.directory)': \(error.reason)")
            return
        }
        let path = location.path
        let entries = read(path) { () throws(FileReadFailure) in
            try Self.lastEntries(of: open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC))
        }
        guard let entries else { return }
        for entry in entries {
            store?.add(entry)
            last = entry
        }
    }

    /// Takes a command typed at the prompt, as its bytes (the file holds any byte: NUL, controls,
    /// blanks and `\` as `\ooo`); one that repeats the one before is not kept twice.
    func record(_ command: [UInt8]) {
        var entry = command
        while let first = entry.first, first == 0x20 || first == 0x09 { entry.removeFirst() }
        while let final = entry.last, final == 0x20 || final == 0x09 { entry.removeLast() }
        guard !entry.isEmpty, entry != last else { return }
        store?.add(entry)
        // Recalled in this session, but saved only if the next start keeps it (see `HistoryFile.entryLimit`).
        if entry.count <= HistoryFile.entryLimit { added.append(entry) }
        last = entry
    }

    func stop() {
        guard let location, writable, !added.isEmpty else { return }
        defer { added = [] }
        let path = location.path
        let folder: Int32
        do throws(FolderFailure) {
            folder = try Self.makeFolder(location)
        } catch {
            warn("cannot write history file '\(path)': cannot make its folder: \(error.reason)")
            return
        }
        defer { close(folder) }
        do throws(FileWriteFailure) {
            let directory = try Directory(location.directory)
            // The folder opened by name is the one just walked to without links, or nothing is written.
            var walked = stat()
            var opened = stat()
            guard fstat(folder, &walked) == 0, fstat(directory.fd, &opened) == 0,
                walked.st_dev == opened.st_dev, walked.st_ino == opened.st_ino
            else {
                warn("history not saved: its folder '\(location.directory)' changed while it was written")
                return
            }
            // Another carfab may be saving too: one at a time, each adding to what the other wrote.
            guard lock(directory.fd) else {
                warn("history not saved: '\(path)' stayed locked by another carfab")
                return
            }
            defer { flock(directory.fd, LOCK_UN) }
            guard
                let onDisk = read(
                    path,
                    { () throws(FileReadFailure) in
                        try Self.lastEntries(of: openat(directory.fd, location.file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC))
                    })
            else { return }
            var merged = onDisk
            for entry in added where entry != merged.last { merged.append(entry) }
            try directory.replace(
                Array(location.file.utf8), with: HistoryFile.bytes(of: Array(merged.suffix(Self.size))), mode: 0o600, stop: nil)
        } catch {
            warn("cannot write history file '\(path)': \(error.text)")
        }
    }

    /// The last `size` entries of the history file `file` is open on (closed here), read a
    /// block at a time; nil if there is no file (`file` is -1 with ENOENT), or it is not history.
    private static func lastEntries(of file: Int32) throws(FileReadFailure) -> HistoryEntries {
        if file < 0 && errno == ENOENT { return .none }
        guard file >= 0 else { throw errno == ELOOP ? .link : .system(errno) }
        defer { close(file) }
        return try HistoryFile.lastEntries(size, of: file, atMost: readLimit).map { .entries($0) } ?? .notHistory
    }

    /// What a history file holds: nothing (there is none), entries, or it is not a history file.
    private enum HistoryEntries {
        case none
        case entries([[UInt8]])
        case notHistory
    }

    /// The entries of the file at `path` as `load` reads it; nil, with a warning and the file
    /// left alone from then on, if it cannot be read as history. A missing file has none.
    private func read(_ path: String, _ load: () throws(FileReadFailure) -> HistoryEntries) -> [[UInt8]]? {
        do throws(FileReadFailure) {
            switch try load() {
            case .none: return []
            case .entries(let entries): return entries
            case .notHistory:
                refuse("cannot read history file '\(path)': it is not a carfab history file; it is left as it is")
                return nil
            }
        } catch {
            switch error {
            case .link: refuse("history file '\(path)' is a symbolic link; it is neither read nor written")
            case .notRegular: refuse("history file '\(path)' is not a regular file; it is neither read nor written")
            case .tooLarge: refuse("history file '\(path)' is too large to read; it is left as it is")
            case .system(let code): refuse("cannot read history file '\(path)': \(String(cString: strerror(code)))")
            }
            return nil
        }
    }

    private func refuse(_ message: String) {
        writable = false
        warn(message)
    }

    /// Why the history's folder could not be made or opened, in words.
    struct FolderFailure: Error {
        let reason: String
    }

    /// Opens the history's folder (its descriptor, for the caller to close), making each
    /// missing folder below the base (which must exist: carfab never makes `$HOME`), private.
    /// Each step is made and opened relative to the one before, never following a symbolic
    /// link the kernel's protected_symlinks would refuse to follow either: one in a sticky
    /// folder anyone may write (`/tmp`) that neither the user nor that folder's owner owns
    /// (nor one of /proc's links to a process's streams).
    static func makeFolder(_ location: Location) throws(FolderFailure) -> Int32 {
        var fd = open(location.base, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw FolderFailure(
                reason: code == ENOENT
                    ? "'\(location.base)' does not exist (carfab never makes $HOME)"
                    : "'\(location.base)': \(String(cString: strerror(code)))")
        }
        var path = location.base
        for component in location.below {
            path += path.hasSuffix("/") ? component : "/" + component
            var next: Int32 = -1
            if mkdirat(fd, component, 0o700) == 0 || errno == EEXIST {
                next = openat(fd, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if next < 0 && (errno == ELOOP || errno == ENOTDIR) {
                    var link = stat()
                    if fstatat(fd, component, &link, AT_SYMLINK_NOFOLLOW) == 0 && link.st_mode & S_IFMT == S_IFLNK {
                        // The one link rule (LinkRule.swift): a planted link is not followed.
                        guard (try? verdict(onLink: link, inDirectory: fd)) == .follow else {
                            close(fd)
                            throw FolderFailure(reason: "'\(path)' is a symbolic link another user made in a shared folder")
                        }
                        next = openat(fd, component, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                    } else {
                        errno = ENOTDIR
                    }
                }
            }
            let code = errno
            close(fd)
            guard next >= 0 else { throw FolderFailure(reason: "'\(path)': \(String(cString: strerror(code)))") }
            fd = next
        }
        return fd
    }

    /// Takes the directory's advisory lock, waiting up to two seconds for another carfab.
    private func lock(_ fd: Int32) -> Bool {
        for _ in 0..<200 {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
            if errno != EWOULDBLOCK && errno != EINTR { return false }
            usleep(10_000)
        }
        return false
    }
}
