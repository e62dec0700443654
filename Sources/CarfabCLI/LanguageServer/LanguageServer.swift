import CarFactory
import CarScript
import CarfabPOSIX

/// `carfab --lsp`: a Language Server Protocol 3.17 server over standard input and output.
///
/// One thread answers requests in the order they came and pushes diagnostics; another reads
/// the messages (`MessageInbox`). Messages already waiting are read before the first of them
/// is handled, so that `$/cancelRequest` can cancel a request still queued and a run of
/// changes to one document is analysed once, after the last; a `$/cancelRequest` of the
/// request being answered stops its analysis (an error `RequestCancelled` answers it), and
/// a stop signal ends the server at once, with the status a signal gives carfab. A document's
/// diagnostics are published as checked, then again with the rules' refusals once it has run
/// (`publishRefusals`), a run made while no message waits. Standard output carries framed messages only;
/// what goes wrong with the input is answered as JSON-RPC says (an error response, with a
/// null id where the request's own cannot be known) and logged on standard error.
final class LanguageServer {
    /// Where the client is in the life cycle.
    private enum State {
        case waitingForInitialize, running, shutDown
    }

    /// JSON-RPC and LSP error codes.
    enum ErrorCode {
        static let parseError = -32700
        static let invalidRequest = -32600
        static let methodNotFound = -32601
        static let invalidParams = -32602
        static let serverNotInitialized = -32002
        static let requestCancelled = -32800
        static let requestFailed = -32803
    }

    /// How many waiting messages are read ahead of the one being handled.
    static let readAhead = 64

    /// The longest document analysed, in bytes (4 MiB, some 130,000 lines): a longer one gets
    /// one diagnostic saying so and no tokens, outline, hints or edits. Its analysis would keep
    /// some 37 times its size, and answers several times it (a 46 MB document: 1.7 GB kept,
    /// an outline of 387 MB, past the 64 MiB a message to the server may hold; trial 8, 4).
    /// The files a document sources are read up to as much in all (`ReplayFiles.largest`).
    static let largestAnalysed = 4 << 20

    /// Where the messages come from; nil if its thread could not be started.
    private let inbox: MessageInbox?
    /// What a cancellation or a stop signal asks of the analysis under way.
    private let stop: StopRequest
    private let out: Output
    private let err: Output
    private let catalog: Catalog
    /// What the command line gave every analysis: `--var`, `--safe`, the environment.
    private let environment: AnalysisSettings
    private var state = State.waitingForInitialize
    private var documents: [String: TextDocument] = [:]
    /// What each open document's current version replayed to (see `DocumentReplay`).
    private var replays: [String: DocumentReplay] = [:]
    /// Documents whose diagnostics were published without the rules' refusals yet (`publishRefusals`).
    private var refusalsPending: [String] = []
    /// Per document, the refusals of an earlier version that the changes since cannot have
    /// altered (each met running a logical line that ends before the first byte changed), with
    /// where that line ends: shown with each version's first diagnostics until its own pass
    /// has run. (That publication lacked every refusal and the next brought them back, so
    /// the editor's marks flickered at each key typed.)
    private var carriedRefusals: [String: [(diagnostic: Diagnostic, end: Int)]] = [:]
    private var queue: [MessageReader.Item] = []
    /// The exit status, once the client has said `exit` (or gone).
    private var exitStatus: Int32?

    init(
        input: sending any ByteInput, out: Output, err: Output, settings: AnalysisSettings,
        catalog: Catalog = Engine.builtInCatalog
    ) {
        inbox = MessageInbox.start(MessageReader(input: input), stop: settings.stop)
        stop = settings.stop
        environment = settings
        self.out = out
        self.err = err
        self.catalog = catalog
    }

    /// Serves until `exit`, the end of the input or a stop signal: 0 after `shutdown` then
    /// `exit`, else 1 (after a signal, the caller ends as the signal says: `stop.code`).
    func run() -> Int32 {
        guard let inbox else {
            log("cannot start reading messages")
            return 1
        }
        defer { inbox.close() }
        while exitStatus == nil {
            if stop.code > 0 { break }
            if queue.isEmpty {
                publishRefusals(knownOnly: false)
                if stop.code > 0 { break }
                guard let batch = inbox.next() else { break }
                queue = batch
            }
            let item = queue.removeFirst()
            switch item {
            case .end:
                if stop.code > 0 { break }
                log("the input ended without 'exit'")
                exitStatus = 1
            case .malformed(let reason):
                log("malformed message: \(reason)")
                sendError(id: .null, code: ErrorCode.parseError, message: "malformed message header: \(reason)")
            case .message(let body):
                handle(body)
                publishRefusals(knownOnly: true)
            }
            if out.failed { exitStatus = 1 }
        }
        out.flush()
        err.flush()
        return exitStatus ?? 1
    }

    private func handle(_ body: [UInt8]) {
        let message: JSONValue
        do throws(JSONParseError) {
            message = try JSONParser.parse(body)
        } catch {
            log("unreadable message: \(error.message) at byte \(error.offset)")
            sendError(id: .null, code: ErrorCode.parseError, message: "\(error.message) (at byte \(error.offset))")
            return
        }
        guard message.isObject, message["jsonrpc"]?.string == "2.0" else {
            sendError(id: .null, code: ErrorCode.invalidRequest, message: "not a JSON-RPC 2.0 message")
            return
        }
        let id = message["id"]
        if let id {
            switch id {
            case .number, .string: break
            default:
                sendError(id: .null, code: ErrorCode.invalidRequest, message: "a request's id must be a number or a string")
                return
            }
        }
        guard let methodValue = message["method"] else {
            // A response to a request of ours: the server sends none, so there is nothing to match.
            if id == nil { sendError(id: .null, code: ErrorCode.invalidRequest, message: "a message without a method") }
            return
        }
        guard let method = methodValue.string else {
            sendError(id: id ?? .null, code: ErrorCode.invalidRequest, message: "a method must be a string")
            return
        }
        let params = message["params"] ?? .null
        if let id {
            request(method, id: id, params: params)
        } else {
            notification(method, params: params)
        }
    }

    /// Answers request `id`, unless the inbox read a `$/cancelRequest` of it before it was
    /// begun; one read meanwhile stops the analysis.
    private func request(_ method: String, id: JSONValue, params: JSONValue) {
        guard let inbox, inbox.begin(id.text) else {
            sendError(id: id, code: ErrorCode.requestCancelled, message: "the request was cancelled")
            return
        }
        answer(method, id: id, params: params)
        inbox.end()
        // What a stopped analysis kept of each document is partial: it is made again when asked for.
        if stop.withdraw(-1) { replays.removeAll() }
    }

    private func answer(_ method: String, id: JSONValue, params: JSONValue) {
        switch state {
        case .waitingForInitialize where method != "initialize":
            sendError(id: id, code: ErrorCode.serverNotInitialized, message: "the server is not initialized yet")
            return
        case .shutDown:
            sendError(id: id, code: ErrorCode.invalidRequest, message: "the server has been shut down")
            return
        case .running where method == "initialize":
            sendError(id: id, code: ErrorCode.invalidRequest, message: "the server is initialized already")
            return
        default: break
        }
        if let uri = params["textDocument"]?["uri"]?.string, let document = documents[uri],
            document.bytes.count > Self.largestAnalysed, let nothing = Self.unanalysed(method)
        {
            sendResult(id: id, nothing)
            return
        }
        switch method {
        case "initialize":
            state = .running
            sendResult(id: id, Self.initializeResult)
        case "shutdown":
            state = .shutDown
            sendResult(id: id, .null)
        case "textDocument/completion":
            guard let (analysis, position) = located(params, id: id) else { return }
            sendResult(id: id, CompletionProvider.completions(in: analysis, at: position, catalog: catalog))
        case "textDocument/hover":
            guard let (analysis, position) = located(params, id: id) else { return }
            sendResult(id: id, HoverProvider.hover(in: analysis, at: position, catalog: catalog))
        case "textDocument/documentSymbol", "textDocument/semanticTokens/full", "textDocument/formatting":
            guard let uri = params["textDocument"]?["uri"]?.string else {
                sendError(id: id, code: ErrorCode.invalidParams, message: "expected textDocument.uri")
                return
            }
            guard let document = documents[uri] else {
                sendError(id: id, code: ErrorCode.invalidParams, message: "the document '\(uri)' is not open")
                return
            }
            let analysis = analysis(of: uri, document)
            switch method {
            case "textDocument/documentSymbol":
                sendResult(
                    id: id, DocumentSymbolProvider.symbols(in: document, commands: analysis.session(before: 0, catalog: catalog).commands))
            case "textDocument/formatting": sendResult(id: id, ScriptFormatter.textEdits(for: document))
            default:
                // Names are read with the catalog the whole document builds (its own families and
                // options among them), as definition and references read them.
                let engine = analysis.wholeSession(catalog: catalog)
                sendResult(id: id, SemanticTokensProvider.tokens(in: document, commands: engine.commands, catalog: engine.catalog))
            }
        case "textDocument/inlayHint":
            guard let (analysis, range) = locatedRange(params, id: id) else { return }
            sendResult(
                id: id,
                InlayHintProvider.hints(
                    in: analysis, lines: range.start.line...max(range.start.line, range.end.line),
                    catalog: catalog))
        case "textDocument/codeAction":
            guard let (analysis, range) = locatedRange(params, id: id) else { return }
            sendResult(id: id, CodeActionProvider.actions(in: analysis, range: range, catalog: catalog))
        case "textDocument/definition", "textDocument/references", "textDocument/rename":
            guard let (analysis, position) = located(params, id: id) else { return }
            let navigation = NavigationProvider(analysis, catalog: catalog)
            let answer: NavigationProvider.Answer
            switch method {
            case "textDocument/definition":
                answer = navigation.definition(at: position)
            case "textDocument/references":
                answer = navigation.references(at: position, includeDeclaration: params["context"]?["includeDeclaration"] == .bool(true))
            default:
                guard let newName = params["newName"]?.string else {
                    sendError(id: id, code: ErrorCode.invalidParams, message: "expected newName")
                    return
                }
                answer = navigation.rename(at: position, to: newName)
            }
            switch answer {
            case .result(let result, let message):
                if let message { showMessage(message) }
                sendResult(id: id, result)
            case .failure(let message):
                sendError(id: id, code: ErrorCode.requestFailed, message: message)
            }
        default:
            sendError(id: id, code: ErrorCode.methodNotFound, message: "unknown method '\(method)'")
        }
    }

    /// What a request about a document too large to analyse is answered: nothing found (nil
    /// for a method that names no document).
    private static func unanalysed(_ method: String) -> JSONValue? {
        switch method {
        case "textDocument/hover", "textDocument/definition", "textDocument/rename": .null
        case "textDocument/semanticTokens/full": .object(["data": .array([])])
        case "textDocument/completion", "textDocument/documentSymbol", "textDocument/inlayHint", "textDocument/codeAction",
            "textDocument/references", "textDocument/formatting":
            .array([])
        default: nil
        }
    }

    /// The one diagnostic of a document too large to analyse.
    private static func tooLarge(_ document: TextDocument) -> JSONValue {
        let start = TextPosition(line: 0, character: 0).json
        let mebibytes = (Double(document.bytes.count) / Double(1 << 20) * 10).rounded(.down) / 10
        return .object([
            "range": .object(["start": start, "end": start]),
            "severity": .integer(DocumentAnalysis.severity(.warning)),
            "code": .string("document-too-large"),
            "source": .string("carfab"),
            "message": .string(
                "the document is \(mebibytes) MiB, more than the \(largestAnalysed >> 20) MiB the editor analyses: it is not checked here (carfab --check checks it)"
            )
        ])
    }

    /// `document` (open as `uri`) analysed, with what its version has replayed to so far.
    private func analysis(of uri: String, _ document: TextDocument) -> DocumentAnalysis {
        if let replay = replays[uri] { return DocumentAnalysis(document, settings: environment, replay: replay) }
        // The other open documents are read from their buffers where this one sources them.
        var buffers: [[UInt8]: [UInt8]] = [:]
        for (other, text) in documents where other != uri {
            if let identity = Self.fileIdentity(of: other) { buffers[identity] = text.bytes }
        }
        let analysis = DocumentAnalysis(document, settings: environment, replay: DocumentReplay(buffers: buffers))
        replays[uri] = analysis.replay
        return analysis
    }

    /// The identity of the file on disk a document's `file:` URI names, if there is one.
    private static func fileIdentity(of uri: String) -> [UInt8]? {
        DocumentURI.path(of: uri).flatMap { POSIXHost().identity(of: Array($0.utf8)) }
    }

    /// `uri`'s buffer changed (opened, edited, closed): every other document whose replay read
    /// its file is replayed anew, and its diagnostics published again.
    private func dropReplays(reading uri: String) {
        guard let identity = Self.fileIdentity(of: uri) else { return }
        for (other, replay) in replays where other != uri && replay.files.readIdentities.contains(identity) {
            replays[other] = nil
            carriedRefusals[other] = nil
            publishUnlessChangesFollow(other)
        }
    }

    /// The open document and position a request names; answers the request with an error if there is none.
    private func located(_ params: JSONValue, id: JSONValue) -> (DocumentAnalysis, TextPosition)? {
        guard let uri = params["textDocument"]?["uri"]?.string, let position = TextPosition(json: params["position"]) else {
            sendError(id: id, code: ErrorCode.invalidParams, message: "expected textDocument.uri and a position")
            return nil
        }
        guard let document = documents[uri] else {
            sendError(id: id, code: ErrorCode.invalidParams, message: "the document '\(uri)' is not open")
            return nil
        }
        return (analysis(of: uri, document), position)
    }

    /// The open document and range a request names; answers the request with an error if there is none.
    private func locatedRange(_ params: JSONValue, id: JSONValue) -> (DocumentAnalysis, (start: TextPosition, end: TextPosition))? {
        guard let uri = params["textDocument"]?["uri"]?.string, let start = TextPosition(json: params["range"]?["start"]),
            let end = TextPosition(json: params["range"]?["end"])
        else {
            sendError(id: id, code: ErrorCode.invalidParams, message: "expected textDocument.uri and a range")
            return nil
        }
        guard let document = documents[uri] else {
            sendError(id: id, code: ErrorCode.invalidParams, message: "the document '\(uri)' is not open")
            return nil
        }
        return (analysis(of: uri, document), (start, end))
    }

    private func notification(_ method: String, params: JSONValue) {
        if method == "exit" {
            exitStatus = state == .shutDown ? 0 : 1
            return
        }
        // Before initialize, notifications are dropped; after shutdown, only exit counts.
        guard state == .running else { return }
        switch method {
        case "textDocument/didOpen":
            guard let item = params["textDocument"], let uri = item["uri"]?.string, let text = item["text"]?.string else {
                log("didOpen without textDocument.uri and text")
                return
            }
            documents[uri] = TextDocument(uri: uri, version: item["version"]?.int ?? 0, text: text)
            replays[uri] = nil
            carriedRefusals[uri] = nil
            publishUnlessChangesFollow(uri)
            dropReplays(reading: uri)
        case "textDocument/didChange":
            guard let uri = params["textDocument"]?["uri"]?.string, var document = documents[uri],
                let changes = params["contentChanges"]?.array
            else {
                log("didChange of a document not open, or without contentChanges")
                return
            }
            // Every change is looked at before any is applied: a range that is not one (malformed,
            // or its start after its end) means the client's text is not the server's, and the
            // notification is refused whole, logged, the document left as it was.
            var edits: [(range: (start: TextPosition, end: TextPosition)?, text: String)] = []
            for change in changes {
                guard let text = change["text"]?.string else { continue }
                guard let range = change["range"] else {
                    edits.append((nil, text))
                    continue
                }
                guard let start = TextPosition(json: range["start"]), let end = TextPosition(json: range["end"]) else {
                    log("didChange with a malformed range: the change is refused")
                    return
                }
                guard (start.line, start.character) <= (end.line, end.character) else {
                    log("didChange with a range whose start is after its end: the change is refused")
                    return
                }
                edits.append(((start, end), text))
            }
            // Where the text first changes: each edit's start in the text the edits before it left
            // (the bytes before the least of them are those of the version before).
            var changed = Int.max
            for edit in edits {
                changed = min(changed, edit.range.map { document.offset(of: $0.start) } ?? 0)
                document.apply(range: edit.range, text: edit.text)
            }
            if let version = params["textDocument"]?["version"]?.int { document.setVersion(version) }
            documents[uri] = document
            carryRefusals(of: uri, before: changed)
            replays[uri] = nil
            publishUnlessChangesFollow(uri)
            dropReplays(reading: uri)
        case "textDocument/didClose":
            guard let uri = params["textDocument"]?["uri"]?.string, documents.removeValue(forKey: uri) != nil else { return }
            replays[uri] = nil
            carriedRefusals[uri] = nil
            dropReplays(reading: uri)
            send(
                .object([
                    "jsonrpc": .string("2.0"), "method": .string("textDocument/publishDiagnostics"),
                    "params": .object(["uri": .string(uri), "diagnostics": .array([])])
                ]))
        default:
            // initialized, $/cancelRequest (handled as read), $/setTrace and anything unknown.
            break
        }
    }

    /// Publishes `uri`'s diagnostics, unless a change to it is already waiting (then after that one).
    private func publishUnlessChangesFollow(_ uri: String) {
        if case .message(let body) = queue.first, let next = try? JSONParser.parse(body),
            next["method"]?.string == "textDocument/didChange", next["params"]?["textDocument"]?["uri"]?.string == uri
        {
            return
        }
        guard let document = documents[uri] else { return }
        guard document.bytes.count <= Self.largestAnalysed else {
            carriedRefusals[uri] = nil
            return publish([Self.tooLarge(document)], of: uri, document)
        }
        let analysis = analysis(of: uri, document)
        var files: [String: TextDocument] = [:]
        let shown = analysis.diagnostics(catalog: catalog) + (carriedRefusals[uri] ?? []).map(\.diagnostic)
        publish(shown.map { analysis.lspDiagnostic($0, files: &files) }, of: uri, document)
        // Then the rules' refusals, which only running the document finds: see `publishRefusals`.
        if !refusalsPending.contains(uri) { refusalsPending.append(uri) }
    }

    /// Keeps for `uri`'s new version the refusals known of the one before (its pass's, or what it
    /// carried itself) that were met running logical lines ending before byte `changed`, where
    /// the change begins: a line's run depends on it and the lines before it only, unless the
    /// version read files (then none is kept).
    private func carryRefusals(of uri: String, before changed: Int) {
        let known: [(diagnostic: Diagnostic, end: Int)]
        if let replay = replays[uri], let refusals = replay.refusals {
            // A version that read files may meet other refusals in the next: a file it sources
            // can change on disk without a change to the document (review of the change).
            known = replay.files.reads > 0 ? [] : zip(refusals, replay.refusalEnds).map { (diagnostic: $0, end: $1) }
        } else {
            known = carriedRefusals[uri] ?? []
        }
        let kept = known.filter { $0.end < changed }
        carriedRefusals[uri] = kept.isEmpty ? nil : kept
    }

    /// Publishes the diagnostics again with the rules' refusals (`DocumentAnalysis.refusals`) for
    /// each document whose refusals are pending: those a request has found already (the pass
    /// over the lines that inlay hints, hover and code actions make), and, unless `known`, the
    /// others, found now while no message waits. That pass may search long (each `fit`), so it is
    /// not part of the first publication, and any message that comes stops it (trial 9, 6).
    private func publishRefusals(knownOnly known: Bool) {
        // After `shutdown` nothing more is worked out or published (a review saw a long pass
        // start again and publish seconds after the answer).
        guard state == .running else { return }
        var index = 0
        while index < refusalsPending.count {
            let uri = refusalsPending[index]
            guard let document = documents[uri], document.bytes.count <= Self.largestAnalysed else {
                refusalsPending.remove(at: index)
                continue
            }
            let analysis = analysis(of: uri, document)
            if analysis.replay.refusals == nil {
                guard !known, let inbox, inbox.beginOwnWork() else {
                    index += 1
                    continue
                }
                _ = analysis.refusals(catalog: catalog)
                inbox.endOwnWork()
                // Stopped, the pass is partial: made again later (a stop signal's pass is not
                // published at all).
                if stop.code > 0 { return }
                if stop.withdraw(-1) {
                    replays[uri] = nil
                    return
                }
            }
            refusalsPending.remove(at: index)
            let refusals = analysis.refusals(catalog: catalog)
            // Refusals carried from the version before were shown: the pass's own take their place.
            let carried = carriedRefusals.removeValue(forKey: uri) != nil
            guard !refusals.isEmpty || carried else { continue }
            var files: [String: TextDocument] = [:]
            publish(analysis.shownDiagnostics(catalog: catalog).map { analysis.lspDiagnostic($0, files: &files) }, of: uri, document)
        }
    }

    /// Sends `uri`'s `diagnostics`, for `document`'s version.
    private func publish(_ diagnostics: [JSONValue], of uri: String, _ document: TextDocument) {
        send(
            .object([
                "jsonrpc": .string("2.0"), "method": .string("textDocument/publishDiagnostics"),
                "params": .object([
                    "uri": .string(uri), "version": .integer(document.version),
                    "diagnostics": .array(diagnostics)
                ])
            ]))
    }

    /// What the server serves, and nothing else.
    static let initializeResult: JSONValue = .object([
        "capabilities": .object([
            "positionEncoding": .string("utf-16"),
            "textDocumentSync": .object(["openClose": .bool(true), "change": .integer(2)]),
            "completionProvider": .object(["triggerCharacters": .array(CompletionProvider.triggerCharacters.map(JSONValue.string))]),
            "hoverProvider": .bool(true),
            "definitionProvider": .bool(true),
            "referencesProvider": .bool(true),
            "renameProvider": .bool(true),
            "codeActionProvider": .object(["codeActionKinds": .array([.string("quickfix")])]),
            "documentSymbolProvider": .bool(true),
            "semanticTokensProvider": .object([
                "legend": .object([
                    "tokenTypes": .array(SemanticTokensProvider.tokenTypes.map(JSONValue.string)),
                    "tokenModifiers": .array(SemanticTokensProvider.tokenModifiers.map(JSONValue.string))
                ]),
                "full": .bool(true)
            ]),
            "documentFormattingProvider": .bool(true),
            "inlayHintProvider": .bool(true)
        ]),
        "serverInfo": .object(["name": .string("carfab"), "version": .string(Engine.version)])
    ])

    private func sendResult(id: JSONValue, _ result: JSONValue) {
        // A result made while a cancellation stopped the analysis may be partial.
        if stop.code == -1 {
            sendError(id: id, code: ErrorCode.requestCancelled, message: "the request was cancelled")
            return
        }
        send(.object(["jsonrpc": .string("2.0"), "id": id, "result": result]))
    }

    private func sendError(id: JSONValue, code: Int, message: String) {
        send(
            .object([
                "jsonrpc": .string("2.0"), "id": id,
                "error": .object(["code": .integer(code), "message": .string(message)])
            ]))
    }

    private func send(_ message: JSONValue) {
        let body = message.text
        out.write("Content-Length: \(body.utf8.count)\r\n\r\n")
        out.write(body)
        out.flush()
    }

    /// Tells the user something through the editor (`window/showMessage`, as information).
    private func showMessage(_ message: String) {
        send(
            .object([
                "jsonrpc": .string("2.0"), "method": .string("window/showMessage"),
                "params": .object(["type": .integer(3), "message": .string(message)])
            ]))
    }

    private func log(_ message: String) {
        err.write("carfab: lsp: \(DisplayText.escaped(message))\n")
        err.flush()
    }
}
