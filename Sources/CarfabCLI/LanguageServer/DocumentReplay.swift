import CarFactory
import CarScript
import CarfabPOSIX

/// What one version of an open document replays to, kept for every request of that version:
/// the files it reads, its diagnostics, one pass over its lines (the price after each, and the
/// session after the last), and the sessions before the few lines asked about last. The server drops it when the
/// document changes or closes, so that a document sourcing or comparing large files (`diff`
/// of two 40,000-line sessions, F6 of trial 2) is run once per keystroke, not once per request.
///
/// Sessions kept here are shared: a request reads them and runs nothing on them (one that
/// runs commands, as a code action's check of a `set`, takes a session of its own).
final class DocumentReplay {
    /// The files the version reads, each read once (see `ReplayFiles`); those open in the
    /// editor from `buffers`, their texts by the identity of their files.
    let files: ReplayFiles

    init(buffers: [[UInt8]: [UInt8]] = [:]) { files = ReplayFiles(POSIXHost(), buffers: buffers) }

    /// What a logical line of the document left: its bytes, where its inlay hint sits, whether
    /// it configures a car (`car` or `set` among its commands), and then the current car's price
    /// after it, if there is a car. Kept for every line, so only that (the lexer's `ScriptLine`,
    /// its words and their text, took some 200 bytes a line: trial 9, 1).
    struct LineOutcome {
        /// The line's bytes, as `ScriptLine.range`.
        let range: Range<Int>
        /// Its end, before the CR of a CR LF (which LSP counts as the line's end, not part of it).
        let end: Int
        /// Where its inlay hint goes: after the last word if a comment follows, else `end`.
        let hintOffset: Int
        let configures: Bool
        let price: Int64?
    }

    /// The pass over every line, once made.
    var lines: [LineOutcome]?
    /// The session after the pass: the catalog and variables the whole document builds.
    var whole: Engine?
    /// The diagnostics of the version, once checked.
    var diagnostics: [Diagnostic]?
    /// The rules' refusals the pass over the lines met (see `DocumentAnalysis.refusals`).
    var refusals: [Diagnostic]?
    /// Where the logical line whose run met each refusal ends (`ScriptLine.range.upperBound`),
    /// one for each of `refusals`: text after it cannot change the refusal.
    var refusalEnds: [Int] = []
    /// Sessions before a line, most recently asked for last; at most `keptSessions`.
    var sessions: [(line: Int, engine: Engine)] = []

    /// How many times the version was run from its start (`DocumentAnalysis.session(before:)`):
    /// a request runs it at most once, however many lines it covers.
    var runs = 0

    /// How many sessions before a line are kept (a hover and a completion at one place, a few places).
    static let keptSessions = 4

    /// The session before `line`, made by `make` unless one is kept; it becomes the most recent.
    func session(before line: Int, make: () -> Engine) -> Engine {
        if let index = sessions.firstIndex(where: { $0.line == line }) {
            let kept = sessions.remove(at: index)
            sessions.append(kept)
            return kept.engine
        }
        let engine = make()
        if sessions.count == Self.keptSessions { sessions.removeFirst() }
        sessions.append((line, engine))
        return engine
    }
}
