// The platform an engine runs on, given by its host (as Lua's lua_Reader, ShapeScript's
// EvaluationDelegate and GoAWK's interp.Config): the engine itself opens no file, reads no
// standard input and lists no folder. Everything crosses as owned values: paths and names
// as bytes (a file name need not be UTF-8), failures as typed errors in the words the
// engine reports. An engine with no host has no files (`source` and `save` of a file, and
// `source -`, are refused; file names are not completed).

/// What an engine asks of the platform: files, standard input and folder listings.
/// carfab's own, for POSIX systems, is `POSIXHost` in the `CarfabPOSIX` product; an
/// embedder may give its own (files held in memory, a sandbox) in ``EngineOptions/host``.
public protocol EngineHost: Sendable {
    /// Opens the file at `path` (relative to the host's working folder unless absolute) to read
    /// its lines; `stop` ends a wait (for a FIFO's writer) or a read. Throws
    /// ``LineSourceFailure/unreadable(_:)`` with the whole message, or
    /// ``LineSourceFailure/interrupted`` if a stop ended the wait.
    func openFile(_ path: [UInt8], stop: StopRequest) throws(LineSourceFailure) -> any LineSource

    /// Standard input, as a source of lines named `<stdin>` (for `source -`).
    func openStandardInput(stop: StopRequest) throws(LineSourceFailure) -> any LineSource

    /// What the file at `path` is, links followed; nil if there is none or it cannot be known.
    func kind(of path: [UInt8]) -> FileKind?

    /// One name for the file at `path`, whatever path reaches it (the canonical absolute
    /// path), to find a `source` cycle; nil if it cannot be known.
    func identity(of path: [UInt8]) -> [UInt8]?

    /// Replaces the file at `path` whole with `bytes` (`save`): a reader sees the old file or
    /// the new one, never a part; a stop request abandons the write and leaves the old file.
    func save(_ bytes: [UInt8], to path: [UInt8], stop: StopRequest) throws(SaveFailure)

    /// The entries of the folder at `path` (not `.` and `..`), in any order; nil if it cannot
    /// be listed. For completing file names.
    func entries(ofFolder path: [UInt8]) -> [FolderEntry]?
}

/// What a file is, as far as the engine cares.
public enum FileKind: Equatable, Sendable {
    /// A regular file.
    case regular
    /// A folder.
    case folder
    /// Anything else (a FIFO, a device, a socket).
    case other
}

/// A name in a folder, as its bytes, and whether it names a folder (links followed).
public struct FolderEntry: Equatable, Sendable {
    /// The name, as its bytes (it need not be UTF-8).
    public var name: [UInt8]
    /// Whether it names a folder.
    public var isFolder: Bool

    /// An entry called `name`.
    public init(name: [UInt8], isFolder: Bool) {
        self.name = name
        self.isFolder = isFolder
    }
}

/// Why a file could not be saved.
public enum SaveFailure: Error, Equatable, Sendable {
    /// The name leads to a process's open stream (`/dev/stdout`, `/proc/PID/fd/N`), which is
    /// never replaced: the file it writes to would lose what was written there before.
    case stream
    /// Anything else, in words ("it is a directory", "Permission denied").
    case reason(String)

    /// What to say of a failed save to `path`; `streamAdvice` follows the words for `.stream`.
    package func message(saving path: [UInt8], streamAdvice: String) -> String {
        // A very long name is cut, as names in every message are.
        let shown = ScriptError.shown(String(decoding: path, as: UTF8.self))
        return switch self {
        case .stream: "cannot save '\(shown)': it is a process's open stream (a link in /proc), not a file; \(streamAdvice)"
        case .reason(let reason): "cannot save '\(shown)': \(reason)"
        }
    }
}
