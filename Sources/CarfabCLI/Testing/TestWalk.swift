import CarScript
import CarfabPOSIX

#if canImport(Glibc)
import Glibc
#endif

// Finding the tests `carfab --test PATH...` runs. Folders are walked relative to their
// descriptors (openat, fstatat, fdopendir), so no path length hides a test, and whatever
// cannot be reached (a folder that cannot be read or searched, a named path that is missing
// or holds no test, a link that --safe refuses) is kept as an entry that fails as a test
// point of its own: nothing is passed over in silence.

/// Linux's O_PATH (open to look at, not read: no permission needed, and a FIFO does not wait
/// for a writer), which Glibc's module leaves out without _GNU_SOURCE.
private let pathOnly: Int32 = 0o10000000

/// A test file to run, or an entry that cannot be, and why.
struct TestEntry: Equatable {
    var path: [UInt8]
    var problem: String?
    /// A folder or a named path rather than a test file: `--filter` never drops it, since
    /// what it could not show may match.
    var isFolder = false
    /// Under --safe, the file as it was listed: the test's process reads it only if it is
    /// still the same file, so a link swapped in afterwards is not followed.
    var identity: FileIdentity?
}

/// A file's identity: its device and inode numbers.
struct FileIdentity: Hashable {
    let device: UInt64
    let inode: UInt64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

/// The test entries under the paths named on the command line.
struct TestWalk {
    /// Under --safe: a test file or folder reached through a link that leads outside the
    /// named paths is refused, never read.
    let safe: Bool
    /// Folders walked under the current named path: one met twice (through a link) is walked once.
    private var visited: Set<FileIdentity> = []
    /// Under --safe: every file and folder under the named paths reached without a link.
    private var inside: Set<FileIdentity> = []

    private static let suffix = Array(".carfab".utf8)

    /// The entries `paths` name, each path's in byte order of their paths, a path named twice
    /// (or a file reached twice) listed once.
    static func entries(_ paths: [[UInt8]], safe: Bool) -> [TestEntry] {
        var walk = TestWalk(safe: safe)
        if safe {
            for path in paths { walk.survey(path) }
        }
        var entries: [TestEntry] = []
        var seen: Set<[UInt8]> = []
        for path in paths {
            for entry in walk.entries(path) where seen.insert(entry.path).inserted { entries.append(entry) }
        }
        return entries
    }

    /// The entries of one named path: itself if it is not a folder, else every `*.carfab`
    /// entry under it; an entry of its own if it cannot be read or holds no test.
    private mutating func entries(_ path: [UInt8]) -> [TestEntry] {
        // Each named path is walked whole (`t` and `t/sub` both hold tests); what two list
        // alike is listed once by the caller.
        visited = []
        let named = Self.openPath(path, pathOnly | O_CLOEXEC)
        guard named >= 0 else {
            return [TestEntry(path: path, problem: "cannot read: \(Self.reason())", isFolder: true)]
        }
        var info = stat()
        guard fstat(named, &info) == 0 else {
            let entry = TestEntry(path: path, problem: "cannot read: \(Self.reason())", isFolder: true)
            close(named)
            return [entry]
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            close(named)
            // A FIFO would wait for a writer for ever, a device never end: named or found in
            // a folder, only a regular file is a test.
            guard info.st_mode & S_IFMT == S_IFREG else { return [TestEntry(path: path, problem: "not a regular file")] }
            return [TestEntry(path: path, identity: safe ? FileIdentity(info) : nil)]
        }
        let directory = openat(named, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        let error = errno
        close(named)
        guard directory >= 0 else {
            return [TestEntry(path: path, problem: "cannot read the folder: \(Self.reason(error))", isFolder: true)]
        }
        var found: [TestEntry] = []
        walk(directory, path: path, identity: FileIdentity(info), into: &found)
        if found.isEmpty {
            return [TestEntry(path: path, problem: "no test files (*.carfab) in the folder", isFolder: true)]
        }
        return found.sorted { $0.path.lexicographicallyPrecedes($1.path) }
    }

    /// Adds the `*.carfab` entries under the open folder `directory` (closed on return), whose
    /// path is `path`; a folder met twice (through a link) is walked once.
    private mutating func walk(_ directory: Int32, path: [UInt8], identity: FileIdentity, into found: inout [TestEntry]) {
        guard visited.insert(identity).inserted else {
            close(directory)
            return
        }
        guard let stream = fdopendir(directory) else {
            found.append(TestEntry(path: path, problem: "cannot read the folder: \(Self.reason())", isFolder: true))
            close(directory)
            return
        }
        defer { closedir(stream) }
        for name in Self.names(in: stream) {
            let full = path.last == 0x2F ? path + name : path + [0x2F] + name
            let isTest = name.count > Self.suffix.count && name.suffix(Self.suffix.count).elementsEqual(Self.suffix)
            var own = stat()
            guard fstatat(directory, cPath(name), &own, AT_SYMLINK_NOFOLLOW) == 0 else {
                let error = errno
                if error == ENOENT { continue }  // Removed since it was listed.
                if error == EACCES {
                    // Readable but not searchable: its names are listed, nothing under them is reached.
                    found.append(TestEntry(path: path, problem: "cannot search the folder: \(Self.reason(error))", isFolder: true))
                    return
                }
                found.append(TestEntry(path: full, problem: "cannot read: \(Self.reason(error))", isFolder: !isTest))
                continue
            }
            let isLink = own.st_mode & S_IFMT == S_IFLNK
            var info = own
            if isLink && fstatat(directory, cPath(name), &info, 0) != 0 {
                // A link to nowhere is no test unless it is named as one; one that cannot be
                // followed for another reason may lead to tests.
                let error = errno
                if isTest || error != ENOENT {
                    found.append(TestEntry(path: full, problem: "cannot read: \(Self.reason(error))", isFolder: !isTest))
                }
                continue
            }
            let isFolder = info.st_mode & S_IFMT == S_IFDIR
            if safe && isLink && !inside.contains(FileIdentity(info)) {
                if isTest || isFolder {
                    found.append(
                        TestEntry(
                            path: full, problem: "refused by --safe: a link to outside the folders named",
                            isFolder: isFolder))
                }
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                let child = openat(directory, cPath(name), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                guard child >= 0 else {
                    found.append(TestEntry(path: full, problem: "cannot read the folder: \(Self.reason())", isFolder: true))
                    continue
                }
                // The folder opened must be the one looked at (a link may have been changed between).
                var opened = stat()
                guard fstat(child, &opened) == 0, FileIdentity(opened) == FileIdentity(info) else {
                    close(child)
                    found.append(
                        TestEntry(
                            path: full, problem: "cannot read the folder: it changed while it was listed",
                            isFolder: true))
                    continue
                }
                walk(child, path: full, identity: FileIdentity(info), into: &found)
            case S_IFREG where isTest:
                found.append(TestEntry(path: full, identity: safe ? FileIdentity(info) : nil))
            case _ where isTest:
                found.append(TestEntry(path: full, problem: "not a regular file"))
            default:
                break
            }
        }
    }

    /// Under --safe, records what the named path holds without following a link: what a link
    /// may lead to.
    private mutating func survey(_ path: [UInt8]) {
        let named = Self.openPath(path, pathOnly | O_CLOEXEC)
        guard named >= 0 else { return }
        var info = stat()
        guard fstat(named, &info) == 0 else {
            close(named)
            return
        }
        inside.insert(FileIdentity(info))
        guard info.st_mode & S_IFMT == S_IFDIR else {
            close(named)
            return
        }
        let directory = openat(named, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        close(named)
        if directory >= 0 { survey(folder: directory) }
    }

    private mutating func survey(folder directory: Int32) {
        guard let stream = fdopendir(directory) else {
            close(directory)
            return
        }
        defer { closedir(stream) }
        for name in Self.names(in: stream) {
            var info = stat()
            guard fstatat(directory, cPath(name), &info, AT_SYMLINK_NOFOLLOW) == 0,
                info.st_mode & S_IFMT != S_IFLNK, inside.insert(FileIdentity(info)).inserted
            else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                let child = openat(directory, cPath(name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if child >= 0 { survey(folder: child) }
            }
        }
    }

    /// The names in a folder, but `.` and `..`, in byte order: a folder reached twice (through a
    /// link) is walked under the same name whatever order the file system lists them in.
    private static func names(in stream: OpaquePointer) -> [[UInt8]] {
        var names: [[UInt8]] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            guard name != [0x2E], name != [0x2E, 0x2E] else { continue }
            names.append(name)
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Opens `path` with `flags` as open(2) does, also when it is longer than PATH_MAX: then a
    /// component at a time, each folder opened relative to the one before it.
    static func openPath(_ path: [UInt8], _ flags: Int32) -> Int32 {
        let whole = open(cPath(path), flags)
        guard whole < 0 && errno == ENAMETOOLONG else { return whole }
        var components = path.split(separator: 0x2F).map(Array.init)
        guard let last = components.popLast() else { return -1 }
        var directory = path.first == 0x2F ? open("/", pathOnly | O_DIRECTORY | O_CLOEXEC) : AT_FDCWD
        guard directory != -1 else { return -1 }
        defer {
            if directory != AT_FDCWD {
                let error = errno
                close(directory)
                errno = error
            }
        }
        for component in components {
            let next = openat(directory, cPath(component), pathOnly | O_DIRECTORY | O_CLOEXEC)
            guard next >= 0 else { return -1 }
            if directory != AT_FDCWD { close(directory) }
            directory = next
        }
        return openat(directory, cPath(last), flags)
    }

    private static func reason(_ error: Int32 = errno) -> String {
        String(cString: strerror(error))
    }
}
