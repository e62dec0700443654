// `--check` of a script that `save`s a file and later `source`s or `diff`s it (a save and
// replay round trip): the check writes nothing and makes no stock, so what the file will hold
// is known only when run. Such a file is neither read (a copy an earlier run left there would
// be checked in its place) nor found missing ("cannot open" where the run passes): it is
// passed over as a command the check does not run, and the check finds less, never more
// (trial 10, 5).

/// The files a checked script has `save`d, each known by its path as the script's `save`
/// resolved it, and by the host identity of its folder and its name (the file itself may not
/// be there yet), or its own where it is (a link is saved to its file): another spelling of
/// its path names it too. A class, never changed once made: a session holds a reference, nil
/// until a `save`, and its start-up lays out no sets.
final class SavedFiles: Sendable {
    let paths: Set<String>
    let identities: Set<[UInt8]>

    init(paths: Set<String>, identities: Set<[UInt8]>) {
        self.paths = paths
        self.identities = identities
    }
}

extension Session {
    /// `--check`: the script `save`s `path` here, resolved as `source` and `diff` resolve theirs.
    func noteSaved(_ path: String) {
        savedFiles = SavedFiles(
            paths: (savedFiles?.paths ?? []).union([path]), identities: (savedFiles?.identities ?? []).union(identities(of: path)))
    }

    /// `--check`: whether `path` is a file the script `save`d on a line before this one.
    func isSavedByScript(_ path: String) -> Bool {
        guard let saved = savedFiles else { return false }
        return saved.paths.contains(path) || identities(of: path).contains(where: saved.identities.contains)
    }

    /// `path`'s identities: its folder's with its name, and its own if it is there.
    private func identities(of path: String) -> [[UInt8]] {
        guard let host = options.host else { return [] }
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        var found: [[UInt8]] = []
        if let folder = host.identity(of: Array(directoryName(path).utf8)) { found.append(folder + Array("/\(name)".utf8)) }
        if let own = host.identity(of: Array(path.utf8)) { found.append(own) }
        return found
    }
}
