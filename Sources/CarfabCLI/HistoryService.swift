#if canImport(Glibc)
import Glibc
#endif
import CarFactory
import CarScript

/// The prompt's history: read when set up; when stopped, on every way out, this session's
/// new commands are added to what the file holds then, so that two prompts open at once
/// both keep their commands.
///
/// The file is `$XDG_STATE_HOME/carfab/history` (default `~/.local/state/carfab/history`),
/// private (mode 0600) and bounded. It is written whole under an advisory lock, through a
/// temporary file and a rename; never through a symbolic link (stricter than the rule `save`
/// and `--junit` follow, `verdict(onLink:inDirectory:)`), never over something that is not a
/// history file, and never by creating `$HOME` (each refusal is a one-line warning).
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

    /// How many entries the file keeps.
    static let size = 1000
    /// A history file larger than this is not read (1,000 entries of the 1 MiB line limit would fit).
    static let readLimit = 1 << 30

    /// Where the history lives: a directory that must already exist, the directories to make
    /// below it, and the file's name.
    struct Location: Equatable {
        var base: String
        var below: [String]
        var file = "history"

        var directory: String { ([base] + below).joined(separator: "/") }
        var path: String { directory + "/" + file }
    }

    init(environment: (String) -> String?, warn: @escaping (String) -> Void) {
        store = HistoryStore()
        location = Self.location(environment)
        self.warn = warn
    }

    /// Where the history lives, from the environment.
    static func location(_ environment: (String) -> String?) -> Location? {
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") { return Location(base: state, below: ["carfab"]) }
        guard let home = environment("HOME"), home.hasPrefix("/") else { return nil }
        return Location(base: home, below: [".local", "state", "carfab"])
    }

    func setUp() throws {
        guard let location else { return }
        let path = location.path
        let entries = read(path) { () throws(FileReadFailure) in
            let file = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            if file < 0 && errno == ENOENT { return nil }
            guard file >= 0 else { throw errno == ELOOP ? .link : .system(errno) }
            defer { close(file) }
            return try readWhole(file, atMost: Self.readLimit)
        }
        guard let entries else { return }
        for entry in entries.suffix(Self.size) {
            store?.add(entry)
            last = entry
        }
    }

    /// Takes a command typed at the prompt; one that repeats the one before is not kept twice.
    func record(_ command: String) {
        var entry = Array(command.utf8)
        while let first = entry.first, first == 0x20 || first == 0x09 { entry.removeFirst() }
        while let final = entry.last, final == 0x20 || final == 0x09 { entry.removeLast() }
        guard !entry.isEmpty, entry != last, !entry.contains(0) else { return }
        store?.add(entry)
        added.append(entry)
        last = entry
    }

    func stop() {
        guard let location, writable, !added.isEmpty else { return }
        defer { added = [] }
        let path = location.path
        do throws(FileWriteFailure) {
            let directory = try makeDirectory(location)
            // Another carfab may be saving too: one at a time, each adding to what the other wrote.
            guard lock(directory.fd) else {
                warn("history not saved: '\(path)' stayed locked by another carfab")
                return
            }
            defer { flock(directory.fd, LOCK_UN) }
            guard let onDisk = read(path, { () throws(FileReadFailure) in
                try directory.read(location.file, atMost: Self.readLimit)
            }) else { return }
            var merged = onDisk
            for entry in added where entry != merged.last { merged.append(entry) }
            try directory.replace(Array(location.file.utf8), with: HistoryFile.bytes(of: Array(merged.suffix(Self.size))), mode: 0o600, stop: nil)
        } catch {
            warn("cannot write history file '\(path)': \(error.text)")
        }
    }

    /// The entries of the file at `path` as `load` reads it; nil, with a warning and the file
    /// left alone from then on, if it cannot be read as history. A missing file has none.
    private func read(_ path: String, _ load: () throws(FileReadFailure) -> [UInt8]?) -> [[UInt8]]? {
        do throws(FileReadFailure) {
            guard let bytes = try load() else { return [] }
            guard let entries = HistoryFile.entries(of: bytes) else {
                refuse("cannot read history file '\(path)': it is not a carfab history file; it is left as it is")
                return nil
            }
            return entries
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

    /// The history's directory, made (private) below a base that must exist: carfab never makes `$HOME`.
    private func makeDirectory(_ location: Location) throws(FileWriteFailure) -> Directory {
        var info = stat()
        guard stat(location.base, &info) == 0 else { throw .system(errno) }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .system(ENOTDIR) }
        var path = location.base
        for component in location.below {
            path += "/" + component
            if mkdir(path, 0o700) != 0 && errno != EEXIST { throw .system(errno) }
        }
        return try Directory(path)
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
