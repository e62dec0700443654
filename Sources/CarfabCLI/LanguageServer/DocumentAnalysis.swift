import CarFactory
import CarScript
import CarfabPOSIX

#if canImport(Glibc)
import Glibc
#endif

/// What the engine makes of one open document: its diagnostics, exactly as
/// `carfab --check --keep-going` reports them for the same text (the same engine options
/// and the same evaluation; `ScriptCheck.options` is the one place both take them from), the
/// rules' refusals running it meets (`refusals`), and the session as it stands before a given
/// line, for completion and hover.
struct DocumentAnalysis {
    /// The document analysed.
    let document: TextDocument
    /// The name diagnostics give it: its path for a `file:` URI, else the URI itself.
    let name: String
    /// Its path, if it is a file: `source` resolves against its directory.
    let path: String?

    /// What this version of the document replayed to, shared by the requests of the version.
    let replay: DocumentReplay

    init(_ document: TextDocument, settings: AnalysisSettings, replay: DocumentReplay = DocumentReplay()) {
        self.document = document
        self.settings = settings
        self.replay = replay
        path = DocumentURI.path(of: document.uri)
        name = path ?? document.uri
    }

    /// The directory relative names in the document resolve against.
    var directory: String { path.map(directoryName) ?? "." }

    /// What the command line gave: `--var`, `--safe`, how the environment is read.
    let settings: AnalysisSettings

    /// The diagnostics `carfab --check --keep-going` reports for the document's text.
    func diagnostics(catalog: Catalog) -> [Diagnostic] {
        if let known = replay.diagnostics { return known }
        let collector = DiagnosticCollector()
        var options = ScriptCheck.options(
            keepGoing: true, fileAccess: settings.fileAccess, environment: settings.environment, stop: settings.stop)
        options.host = replay.files
        let engine = Engine(catalog: catalog, options: options, sink: collector)
        settings.setVariables(in: engine)
        engine.evaluate(openLineSource(text: document.bytes, name: name, path: path))
        replay.diagnostics = collector.diagnostics
        return collector.diagnostics
    }

    /// The session before `line` (0-based) as `session(before:)` makes it, shared by the
    /// requests of this version: read it, run nothing on it. Past the last line, the session
    /// the pass over every line ends with.
    func state(before line: Int, catalog: Catalog) -> Engine {
        if line >= document.lineCount { return wholeSession(catalog: catalog) }
        return replay.session(before: line) { session(before: line, catalog: catalog) }
    }

    /// The session after every line of the document (see `lines(catalog:)`), shared.
    func wholeSession(catalog: Catalog) -> Engine {
        if replay.whole == nil { _ = lines(catalog: catalog) }
        return replay.whole ?? session(before: document.lineCount, catalog: catalog)
    }

    /// What the editor shows: `--check --keep-going`'s diagnostics (see `diagnostics(catalog:)`),
    /// then each refusal by a rule that running the document met (see `refusals(catalog:)`).
    func shownDiagnostics(catalog: Catalog) -> [Diagnostic] {
        diagnostics(catalog: catalog) + refusals(catalog: catalog)
    }

    /// The `rule-violation`s of running the document (a `car` or `set` a rule refuses, in it or
    /// in a file it sources), each as running reports it, with the rule's note: the check does
    /// not run `car` and `set`, whose refusals depend on the car, but a `set` refused at the
    /// prompt must be an error in the editor too (trial 9, 6). From the pass over the lines.
    func refusals(catalog: Catalog) -> [Diagnostic] {
        if replay.refusals == nil { _ = lines(catalog: catalog) }
        return replay.refusals ?? []
    }

    /// The document run a logical line at a time, once per version: what each line left
    /// (inlay hints and hover read the price after a `car` or `set` line) and the rules' refusals
    /// it met. A transaction still open at a line's end stays open for the lines after it, as in
    /// the session running them.
    func lines(catalog: Catalog) -> [DocumentReplay.LineOutcome] {
        if let known = replay.lines { return known }
        let refusals = DiagnosticCollector(only: "rule-violation")
        let engine = session(before: 0, catalog: catalog, sink: refusals)
        // Where the run may have gone another way (a question not run failing inside a
        // transaction rolls it back), the refusals and prices past it are not claimed: the
        // editor may show less than running, never more (trial 13, 2).
        refusals.keepsWhile = { [weak engine] in engine?.runMayHaveDiverged != true }
        var outcomes: [DocumentReplay.LineOutcome] = []
        var refusalEnds: [Int] = []
        // A logical line is one physical line or more: room for them all at once, not grown by doubling.
        outcomes.reserveCapacity(document.lineCount)
        for line in ScriptLines.each(document.bytes) {
            // A message that came stops the pass here, not only each line's run: the rest of a
            // long document's lines held an answer up (1.7 s on 350,000 lines). What is kept of
            // a stopped pass is made again when asked for (the server drops it).
            if settings.stop.isRequested { break }
            // Numbered as in the document, so that a diagnostic and a rule's place are where they are.
            let before = document.position(of: line.range.lowerBound).line
            engine.evaluate(
                openLineSource(text: Array(document.bytes[line.range]), name: name, path: path, linesBefore: before))
            while refusalEnds.count < refusals.diagnostics.count { refusalEnds.append(line.range.upperBound) }
            let configures = line.commands.contains { words in
                let name = engine.commands.lookup(words[0].text)?.name
                return name == "car" || name == "set"
            }
            // The line's end, before the CR of a CR LF (which LSP counts as the line's end, not part of it).
            var end = line.range.upperBound
            if end > line.range.lowerBound && document.bytes[end - 1] == 0x0D { end -= 1 }
            // The hint sits by the command: after the last word, before any comment.
            let hintOffset = line.comment != nil ? line.commands.last?.last?.range.upperBound ?? end : end
            outcomes.append(
                .init(
                    range: line.range, end: end, hintOffset: hintOffset, configures: configures,
                    price: configures && !engine.runMayHaveDiverged ? try? engine.stock.currentPriceMinorUnits() : nil))
        }
        replay.lines = outcomes
        replay.refusals = refusals.diagnostics
        replay.refusalEnds = refusalEnds
        replay.whole = engine
        return outcomes
    }

    /// An engine that has run the document's lines before `line` (0-based) for real, as
    /// far as it can (going on after errors, files read but never written): its variables,
    /// catalog and current car are those the line would see. A transaction the lines open
    /// stays open, as in the session running them (the end of the text is not the end of
    /// the script), so that a line inside an unclosed `begin` sees the changes above it.
    func session(before line: Int, catalog: Catalog, sink: DiagnosticCollector = DiagnosticCollector(keeping: false)) -> Engine {
        var options = EngineOptions()
        options.leavesTransactionOpen = true
        // Files sourced again and again end the analysis at a bound, as they end a check's.
        options.boundsSourcing = true
        // A comparison's table is never shown here and changes nothing: its files are checked, as diagnostics check them.
        options.checksComparisons = true
        // Nor are the questions (`cheapest`, `why`, `options`, ...) run: their words are checked.
        // What does run a search (`fit`) is given the analysis' limits; a refused `set` searches
        // no repair for a note (the diagnostics shown are `--check`'s; a code action searches its own).
        options.checksQuestions = true
        options.searchesRefusals = false
        options.searchLimits = settings.searchLimits
        options.stop = settings.stop
        options.host = replay.files
        options.keepGoing = true
        options.fileAccess = settings.fileAccess
        options.environment = settings.environment
        // carfab's own commands, known as `--check` knows them (and, as answers only, never run here).
        ProgramCommands.add(to: &options, center: nil)
        let engine = Engine(catalog: catalog, options: options, sink: sink)
        settings.setVariables(in: engine)
        let end = line < document.lineCount ? document.lineRange(line).lowerBound : document.bytes.count
        replay.runs += 1
        engine.evaluate(openLineSource(text: Array(document.bytes[..<end]), name: name, path: path))
        return engine
    }

    /// `diagnostic` as an LSP `Diagnostic`: its range in UTF-16 code units of the document,
    /// its id as `code`, its notes as related information. A problem in a sourced file is
    /// shown on the `source` line that led to it, with its own place as related information.
    func lspDiagnostic(_ diagnostic: Diagnostic, files: inout [String: TextDocument]) -> JSONValue {
        var range: JSONValue
        var related: [JSONValue] = []
        // A problem with a whole file (line 0) needs no text of it.
        let text = diagnostic.file == name ? document : diagnostic.line > 0 ? file(diagnostic.file, &files) : nil
        let ownRange = Self.range(of: diagnostic, in: text)
        if diagnostic.file == name {
            range = ownRange
        } else {
            let includingLine = diagnostic.includedFrom.first.flatMap(Self.lineNumber) ?? 0
            let text = document.scriptLineText(max(includingLine - 1, 0))
            let indent = text.unicodeScalars.prefix { $0 == " " || $0 == "\t" }.count
            range = .object([
                "start": document.position(line: max(includingLine - 1, 0), column: indent + 1).json,
                "end": document.position(line: max(includingLine - 1, 0), column: Int.max).json
            ])
            related.append(
                .object([
                    "location": .object(["uri": .string(uri(of: diagnostic.file)), "range": ownRange]),
                    "message": .string("\(diagnostic.severity.rawValue): \(diagnostic.message)")
                ]))
        }
        for note in diagnostic.notes {
            var location: JSONValue = .object(["uri": .string(uri(of: diagnostic.file)), "range": ownRange])
            if let place = note.place, let colon = place.lastIndex(of: ":"), let line = Int(place[place.index(after: colon)...]) {
                let position = TextPosition(line: max(line - 1, 0), character: 0).json
                location = .object([
                    "uri": .string(uri(of: String(place[..<colon]))),
                    "range": .object(["start": position, "end": position])
                ])
            }
            related.append(.object(["location": location, "message": .string(note.message)]))
        }
        var members: [JSONMember] = [
            JSONMember(key: "range", value: range),
            JSONMember(key: "severity", value: .integer(Self.severity(diagnostic.severity))),
            JSONMember(key: "code", value: .string(diagnostic.id)),
            JSONMember(key: "source", value: .string("carfab")),
            JSONMember(key: "message", value: .string(diagnostic.message))
        ]
        if !related.isEmpty { members.append(JSONMember(key: "relatedInformation", value: .array(related))) }
        return .object(members)
    }

    /// LSP's `DiagnosticSeverity`: 1 error, 2 warning, 3 information.
    static func severity(_ severity: Diagnostic.Severity) -> Int {
        switch severity {
        case .error: 1
        case .warning: 2
        case .note: 3
        }
    }

    /// The range of `diagnostic` in `document` (a problem with the whole file: its start).
    static func range(of diagnostic: Diagnostic, in document: TextDocument?) -> JSONValue {
        guard diagnostic.line > 0, let document else {
            let start = TextPosition(line: 0, character: 0).json
            return .object(["start": start, "end": start])
        }
        return .object([
            "start": document.position(line: diagnostic.line - 1, column: diagnostic.column).json,
            "end": document.position(line: diagnostic.line - 1, column: diagnostic.endColumn).json
        ])
    }

    /// The line number at the end of `FILE:LINE`.
    private static func lineNumber(_ place: String) -> Int? {
        place.lastIndex(of: ":").flatMap { Int(place[place.index(after: $0)...]) }
    }

    /// The URI of a file the engine names (a path, relative to the document's directory if not absolute).
    func uri(of file: String) -> String {
        if file == name { return document.uri }
        if file.hasPrefix("/") { return DocumentURI.uri(of: file) }
        return DocumentURI.uri(of: (directory == "/" ? "" : directory) + "/" + file)
    }

    /// A sourced file's text, for the UTF-16 columns of its diagnostics: as far as the analysis
    /// read it (`ReplayFiles`), where they all are; not read again (a file's every diagnostic
    /// read it up to 4 MiB more, 300 files took 1.65 GB; review of lsp6). `path` is the file's
    /// name in diagnostics, the path the engine opened.
    private func file(_ path: String, _ files: inout [String: TextDocument]) -> TextDocument? {
        if let known = files[path] { return known }
        guard let read = replay.files.file(path) else { return nil }
        let text = TextDocument(uri: uri(of: path), version: 0, text: String(decoding: read.text, as: UTF8.self))
        files[path] = text
        return text
    }

    /// A regular file's first `limit` bytes at most, and whether that is all of it; nil if it cannot be read.
    static func read(_ path: String, upTo limit: Int) -> (bytes: [UInt8], whole: Bool)? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            // One byte past the limit tells a file of exactly `limit` bytes from a longer one.
            let wanted = min(chunk.count, limit + 1 - bytes.count)
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, wanted) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { return (bytes, true) }
            bytes.append(contentsOf: chunk[..<n])
            if bytes.count > limit { return (Array(bytes[..<limit]), false) }
        }
    }
}

/// What `carfab --lsp`'s command line gives every analysis, as it gives `--check`: `--var`
/// settings, and `--safe` (no file read, no environment).
struct AnalysisSettings {
    var safe = false
    var variables: [(name: String, value: String)] = []
    /// How `${env:NAME}` and `~` are read: as carfab's own run would, refused under --safe.
    var environment = EnvironmentAccess.refused(by: "by the editor's analysis")
    /// What stops an analysis: `$/cancelRequest` of the request it serves, or a stop signal.
    var stop = StopRequest()

    /// What one search in an analysis may spend (`fit`): a tenth of a command's, as Tab
    /// completion's repairs (a keystroke's analysis must stay short).
    static let standardSearchLimits = SearchLimits(steps: SearchLimits.standard.steps / 10, repairs: SearchLimits.standard.repairs)
    /// What the analysis' searches take: `standardSearchLimits` (tests make them small).
    var searchLimits = AnalysisSettings.standardSearchLimits

    /// An editor's analysis reads the files a document sources and never writes one; under --safe it reads none.
    var fileAccess: FileAccess {
        safe ? .refused(by: "by --safe") : .readOnly(otherwiseRefusedBy: "while an editor analyses the script")
    }

    func setVariables(in engine: Engine) {
        for (name, value) in variables { _ = engine.setVariable(name, to: value) }
    }
}

/// Keeps the diagnostics an evaluation reports; results are dropped.
final class DiagnosticCollector: ResultSink {
    /// Whether diagnostics are kept (an editor's analysis may keep only those of one command).
    var keeping: Bool
    /// The one id kept, if only one is.
    private let only: String?
    /// Whether diagnostics are kept from now on, asked at each (see `DocumentAnalysis.lines`).
    var keepsWhile: () -> Bool = { true }
    private(set) var diagnostics: [Diagnostic] = []

    init(keeping: Bool = true, only: String? = nil) {
        self.keeping = keeping
        self.only = only
    }

    func receive(_ result: CommandResult, from command: CommandSpec) {}

    func receive(_ diagnostic: Diagnostic) {
        if keeping && (only == nil || diagnostic.id == only) && keepsWhile() { diagnostics.append(diagnostic) }
    }
}
