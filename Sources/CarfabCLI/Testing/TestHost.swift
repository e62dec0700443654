import CarScript
import CarfabPOSIX

#if canImport(Glibc)
import Glibc
#endif

/// The files of a `carfab --test` run: the process's own (`POSIXHost`), but no test may
/// `save` over a test file of the run, nor over its `--init` or `--catalog` files (nor may
/// `--junit` name one). One that did would decide what a later test runs (turning its
/// failure into `ok`), or race with it under `-j`: a CI user expects each file's result to be
/// its own, whatever the order and N.
struct TestHost: EngineHost {
    let files = POSIXHost()
    /// The test files of the run, as listed (device and inode: a link or another name for
    /// one is the same file).
    let tested: Set<FileIdentity>
    /// The `--init` file every test runs first: a test that rewrote it would decide what the
    /// later tests (and the next run) begin with.
    let initFile: FileIdentity?
    /// The `--catalog` files every test's catalog is read from: a test that rewrote one would
    /// decide what the later tests (and the next run) are checked against.
    let catalogs: Set<FileIdentity>

    /// A host that refuses saves onto any of `entries`' files, onto `initFile` and onto `catalogs`.
    init(protecting entries: [TestEntry], initFile: [UInt8]? = nil, catalogs: [[UInt8]] = []) {
        tested = Set(entries.lazy.filter { !$0.isFolder && $0.problem == nil }.compactMap { Self.identity(of: $0.path) })
        self.initFile = initFile.flatMap(Self.identity)
        self.catalogs = Set(catalogs.compactMap(Self.identity))
    }

    func openFile(_ path: [UInt8], stop: StopRequest) throws(LineSourceFailure) -> any LineSource {
        try files.openFile(path, stop: stop)
    }

    func openStandardInput(stop: StopRequest) throws(LineSourceFailure) -> any LineSource {
        try files.openStandardInput(stop: stop)
    }

    func kind(of path: [UInt8]) -> FileKind? { files.kind(of: path) }

    func identity(of path: [UInt8]) -> [UInt8]? { files.identity(of: path) }

    func save(_ bytes: [UInt8], to path: [UInt8], stop: StopRequest) throws(SaveFailure) {
        if let refusal = refusal(toWrite: path) {
            throw .reason("\(refusal.reason), and a test may not rewrite \(refusal.oneOfMany ? "one" : "it") (save elsewhere)")
        }
        try files.save(bytes, to: path, stop: stop)
    }

    /// Why `path` may not be written during the run (a test's `save`, or `--junit`), or nil:
    /// the file it names is one the run reads (`oneOfMany`: one of a kind the run has several of).
    func refusal(toWrite path: [UInt8]) -> (reason: String, oneOfMany: Bool)? {
        guard let identity = Self.identity(of: path) else { return nil }
        if tested.contains(identity) { return ("it is a test file of this run", true) }
        if identity == initFile { return ("it is the --init file of this run", false) }
        if catalogs.contains(identity) { return ("it is a --catalog file of this run", true) }
        return nil
    }

    func entries(ofFolder path: [UInt8]) -> [FolderEntry]? { files.entries(ofFolder: path) }

    /// Which of the run's standard output and standard error `path` leads to (links followed:
    /// `/dev/stdout`, `/proc/self/fd/2`, or the file output was sent to), if either: the
    /// `--junit` report may share neither (trial 12, L3: refused only once written, after
    /// every test had run, with the status of a failed test).
    static func standardStream(at path: [UInt8]) -> String? {
        guard let target = identity(of: path) else { return nil }
        for (fd, name) in [(Int32(1), "standard output"), (2, "standard error")] {
            var info = stat()
            if fstat(fd, &info) == 0 && FileIdentity(info) == target { return name }
        }
        return nil
    }

    /// The file `path` leads to (links followed), if it exists.
    private static func identity(of path: [UInt8]) -> FileIdentity? {
        var info = stat()
        guard stat(cPath(path), &info) == 0 else { return nil }
        return FileIdentity(info)
    }
}
