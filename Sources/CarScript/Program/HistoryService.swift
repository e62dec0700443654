#if canImport(Glibc)
import Glibc
#endif
import CarFactory

/// The prompt's history: loaded when set up, saved when stopped, on every way out.
///
/// The file is `$XDG_STATE_HOME/carfab/history` (default `~/.local/state/carfab/history`),
/// private (mode 0600) and bounded; a file that cannot be read or written is a one-line warning.
final class HistoryService: Service {
    let name = "history"
    let store: HistoryStore?
    private let path: String?
    private let warn: (String) -> Void

    init(environment: (String) -> String?, warn: @escaping (String) -> Void) {
        store = HistoryStore()
        path = Self.path(environment)
        self.warn = warn
    }

    /// Where the history lives, from the environment.
    static func path(_ environment: (String) -> String?) -> String? {
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") { return state + "/carfab/history" }
        guard let home = environment("HOME"), !home.isEmpty else { return nil }
        return home + "/.local/state/carfab/history"
    }

    func setUp() throws {
        guard let path, let store else { return }
        if access(path, F_OK) == 0 && !store.load(from: path) {
            warn("cannot read history file '\(path)'")
        }
    }

    func stop() {
        guard let path, let store else { return }
        guard makeDirectories(directoryName(path)), store.save(to: path) else {
            warn("cannot write history file '\(path)': \(errnoText())")
            return
        }
    }

    private func makeDirectories(_ directory: String) -> Bool {
        var info = stat()
        if stat(directory, &info) == 0 { return (info.st_mode & S_IFMT) == S_IFDIR }
        let parent = directoryName(directory)
        guard parent != directory, makeDirectories(parent) else { return false }
        return mkdir(directory, 0o700) == 0 || errno == EEXIST
    }
}
