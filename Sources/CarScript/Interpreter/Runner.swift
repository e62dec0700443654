import CarFactory

/// The most bytes one logical line may hold.
package let maximumLineLength = 1 << 20

/// How deeply `source` may nest.
package let maximumSourceDepth = 64

/// How deeply sessions that `diff` loads may load others: each holds a catalog of up to
/// `Catalog.textLimit` bytes while the ones it loads run, so 64 of them (as files nest) took
/// 1.5 GB; at this depth at most seven sessions (four nested, and a first file's kept while
/// each level's second loads) are alive at once (trial 5, 6).
package let maximumComparisonDepth = 3

/// One script being run: its source, the logical line being run, and where it was included from.
final class ScriptFrame {
    let source: any LineSource
    /// The source again if it is one of the engine's own, which read into its buffer and lend
    /// lines in place.
    private let buffered: (any BufferedLineSource)?
    /// The input such a source holds, whose whole lines are taken where they lie.
    private let chunk: LineChunk?
    var lines: SourceLines
    let lexer = Lexer()
    var lineNumber = 0
    /// Set while the line being run is the one the source lent in place (not in `lines.buffer`):
    /// the byte of it the line starts from (3 past a byte-order mark, else 0).
    var lentFrom: Int?
    /// The directory `source` and `save` paths in this script are relative to.
    let directory: String
    /// The file's one name from its host, to find `source` cycles (nil for stdin and text).
    let identity: [UInt8]?
    /// `FILE:LINE` of each `source` that led here, outermost first.
    let includedFrom: [String]
    /// Whether the first error ends this script (not at the prompt, nor with `--keep-going`).
    let stopsOnError: Bool
    /// Errors reported before this script began.
    let failuresAtStart: Int
    /// Why a sourced file could not be read on after it was opened (EIO, ...): the `source`
    /// that ran it reports that at the file's name, where it reports one it cannot open.
    var readFailure: String?

    /// A frame for any source: one of the engine's own is found by a cast.
    convenience init(source: any LineSource, directory: String, identity: [UInt8]?, includedFrom: [String], session: Session) {
        // A class cast first: a cast to the protocol scans every conformance record of the
        // binary the first time per source type (~80k instructions of each start-up, callgrind),
        // and the built-in catalog and `-e` text are always a TextLineSource.
        let buffered: (any BufferedLineSource)? =
            if let text = source as? TextLineSource { text } else { source as? any BufferedLineSource }
        self.init(
            source: source, buffered: buffered, directory: directory, identity: identity, includedFrom: includedFrom,
            session: session)
    }

    /// A frame for a source, given again as `buffered` if it is one of the engine's own
    /// (a host's files come typed so: no cast, and no conformance scan, to find it out).
    init(
        source: any LineSource, buffered: (any BufferedLineSource)?, directory: String, identity: [UInt8]?,
        includedFrom: [String], session: Session
    ) {
        self.source = source
        self.buffered = buffered
        chunk = buffered?.chunk
        stopsOnError = !session.options.keepGoing && !source.isInteractive
        failuresAtStart = session.failureCount
        lineNumber = buffered?.linesBefore ?? 0
        lines = SourceLines(file: source.name)
        self.directory = directory
        self.identity = identity
        self.includedFrom = includedFrom
    }

    /// Appends the next physical line to `bytes`; false at the end of input.
    func readLine(into bytes: ByteBuffer, continuation: Bool) throws(LineSourceFailure) -> Bool {
        if let buffered { return try buffered.readLine(into: bytes, continuation: continuation) }
        guard let line = try source.readLine(continuation: continuation) else { return false }
        bytes.append(line)
        return true
    }

    /// The next physical line where the source holds it, if it can lend it.
    @inline(__always)
    func nextLineInPlace() -> UnsafeBufferPointer<UInt8>? {
        chunk?.nextLine()
    }

    /// Positions `error` in the line being run: where the source lent it, or in the buffer.
    func diagnostic(_ error: ScriptError, width: Int) -> Diagnostic {
        if let from = lentFrom, let line = chunk?.lentLine() {
            return lines.diagnostic(
                error, in: UnsafeBufferPointer(rebasing: line[from...]), includedFrom: includedFrom, width: width)
        }
        return lines.diagnostic(error, includedFrom: includedFrom, width: width)
    }
}

// Reads logical lines from a source, lexes each whole, then runs its commands in order.
extension Session {
    /// Runs every line of `source` until it ends, `quit`, or (unless going on) the first error.
    func run(_ source: any LineSource) {
        run(source, buffered: nil, known: false)
    }

    /// Runs one of the engine's own sources (a host's file, stdin, text): as `run(_:)`, with
    /// no cast to find out what it is.
    func run(buffered source: any BufferedLineSource) {
        run(source, buffered: source, known: true)
    }

    /// `buffered` is the source again, or nil; `known` says whether that is already known.
    private func run(_ source: any LineSource, buffered: (any BufferedLineSource)?, known: Bool) {
        let path = source.path
        if history == nil && (source.isInteractive || options.keepsUndoHistory) && !options.rehearsing {
            startHistory(reserving: !options.checkOnly)
        }
        let directory = path.map(directoryName) ?? "."
        let identity = path.flatMap { options.host?.identity(of: Array($0.utf8)) }
        let frame =
            known
            ? ScriptFrame(
                source: source, buffered: buffered, directory: directory, identity: identity, includedFrom: [], session: self)
            : ScriptFrame(source: source, directory: directory, identity: identity, includedFrom: [], session: self)
        run(frame)
        if frames.isEmpty && !options.leavesTransactionOpen {
            if endsInputsTogether { lastInput = (frame.lines.file, frame.lineNumber) } else { endOfInput(frame) }
        }
    }

    /// Runs `text` as if it were a file called `name`.
    func run(text: String, name: String) {
        run(buffered: TextLineSource(bytes: Array(text.utf8), name: name))
    }

    func run(_ frame: ScriptFrame) {
        frames.append(frame)
        defer { frames.removeLast() }
        let interactive = frame.source.isInteractive
        let line = frame.lines.buffer
        while !quitRequested {
            // At the prompt, Ctrl-C only interrupts what was running (saying where a sourced
            // file stopped); the prompt starts on a new line.
            if interactive && frame.source.withdrawInterrupt(from: stop) {
                sink.flush()
                frame.source.interrupted(at: interruptedAt)
                interruptedAt = nil
                stoppedInLine = false
            }
            if stop.isRequested {
                if !interactive && interruptedAt == nil {
                    interruptedAt = "\(frame.lines.file):\(frame.lineNumber)" + (stoppedInLine ? ", part of its line run" : "")
                }
                return
            }
            if frame.stopsOnError && failureCount > frame.failuresAtStart { return }
            line.removeAll()
            frame.lentFrom = nil
            // Most logical lines are one physical line: leave the list of starts alone then.
            if frame.lines.lineStarts.count != 1 {
                frame.lines.lineStarts.removeAll(keepingCapacity: true)
                frame.lines.lineStarts.append(0)
            }
            frame.lines.firstLine = frame.lineNumber + 1
            do {
                // A line the source holds whole is lexed where it lies; one that goes on to
                // the next line, or that the source must read, is gathered in the buffer.
                if var inPlace = frame.nextLineInPlace() {
                    frame.lineNumber += 1
                    var from = 0
                    if frame.lineNumber == 1 && inPlace.starts(with: [0xEF, 0xBB, 0xBF]) {
                        inPlace = UnsafeBufferPointer(rebasing: inPlace[3...])
                        from = 3
                    }
                    frame.lentFrom = from
                    let outcome = try frame.lexer.tokenize(inPlace)
                    if outcome != .complete || interactive {
                        frame.lentFrom = nil
                        line.append(inPlace)
                        try assemble(frame, line, after: outcome)
                    }
                } else {
                    guard try frame.readLine(into: line, continuation: false) else { return }
                    frame.lineNumber += 1
                    // A byte-order mark that some editors put first is not part of the script.
                    if frame.lineNumber == 1 && line.bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                        line.removeFirst(3)
                    }
                    try assemble(frame, line)
                }
            } catch let failure as LineSourceFailure {
                switch failure {
                case .interrupted:
                    if !interactive && interruptedAt == nil { interruptedAt = "\(frame.lines.file):\(frame.lineNumber + 1)" }
                    return
                case .abandoned:
                    continue
                case .lineTooLong(let limit):
                    // The source reads on to drop the rest of it; the logical line it belonged to is dropped.
                    frame.lineNumber += 1
                    report(ScriptError(.lineTooLong(limit: limit), at: SourceRange(0, 0)))
                    continue
                case .unreadable(let message):
                    // A file on the command line has no line to point at; a sourced one, its `source`'s.
                    if frame.includedFrom.isEmpty {
                        failureCount += 1
                        sink.receive(.file(frame.lines.file, message, includedFrom: frame.includedFrom))
                    } else {
                        frame.readFailure = message
                    }
                    return
                }
            } catch let error as ScriptError {
                if error.kind != .reported { report(error) }
                continue
            } catch {
                preconditionFailure("unexpected error \(error)")
            }
            executeLine(frame)
        }
    }

    /// Reads continuation lines until the logical line is whole, leaving its tokens in the
    /// frame's lexer. Each physical line is lexed once: the lexer goes on where it stopped.
    /// `first` is what lexing the first line gave, if it is lexed already.
    ///
    /// The limit counts what the logical line holds: not the `\` and line break that join
    /// two lines, nor the CR of a CR LF line end. A line over it is reported, and the rest
    /// of it read and dropped.
    private func assemble(_ frame: ScriptFrame, _ line: ByteBuffer, after first: Lexer.Outcome? = nil) throws {
        var length = line.count - Self.lineEndLength(line.bytes, from: 0)
        // At the prompt, the command goes into the history as one line that means the same:
        // its physical lines but the last, joined; the last is added as it is kept.
        var entry: [UInt8] = []
        do {
            var outcome = try first ?? frame.lexer.tokenize(line.bytes)
            while true {
                if length > maximumLineLength {
                    let error = ScriptError(.lineTooLong(limit: maximumLineLength), at: SourceRange(0, 0))
                    report(error)
                    try skipRest(of: frame, after: outcome)
                    throw ScriptError(.reported, at: SourceRange(0, 0))
                }
                guard outcome != .complete else { break }
                let stop = frame.lexer.pendingPosition ?? line.count
                let physicalStart = frame.lines.lineStarts[frame.lines.lineStarts.count - 1]
                let bytes = line.bytes
                // The `\` (and CR) that join the lines count for nothing; a line break inside a
                // string counts as the one byte it is.
                let escaped = stop < bytes.count && bytes[stop] == UInt8(ascii: "\\")
                if case .openQuote = outcome, !escaped { length += 1 } else if escaped { length -= 1 }
                // This line as the history's entry holds it, added once the next line comes:
                // at the end of input, the line is the last and is kept as it is.
                let kept = escaped ? stop : bytes.count - Self.lineEndLength(bytes, from: physicalStart)
                let joined = frame.source.isInteractive ? Array(UnsafeBufferPointer(rebasing: bytes[physicalStart..<kept])) : []
                line.append(0x0A)
                frame.lines.lineStarts.append(line.count)
                let start = line.count
                guard try frame.readLine(into: line, continuation: true) else {
                    frame.lines.lineStarts.removeLast()
                    line.removeLast()
                    outcome = try frame.lexer.resume(line.bytes, atEnd: true)
                    break
                }
                if frame.source.isInteractive {
                    entry += joined
                    if case .openQuote = outcome { if !escaped { entry += Array("\\n".utf8) } } else { entry.append(0x20) }
                }
                frame.lineNumber += 1
                length += line.count - start - Self.lineEndLength(line.bytes, from: start)
                outcome = try frame.lexer.resume(line.bytes)
            }
        } catch let error as ScriptError where error.kind != .reported {
            // A line the lexer refuses is kept too (as sqlite3, psql and bash keep every line
            // entered), so that Up brings it back to be mended (trial 13, 6).
            keepInHistory(entry, frame, line)
            throw error
        }
        keepInHistory(entry, frame, line)
    }

    /// At the prompt, hands the history the command: `entry`, its physical lines before the
    /// last joined, then the last as it is.
    private func keepInHistory(_ entry: [UInt8], _ frame: ScriptFrame, _ line: ByteBuffer) {
        guard frame.source.isInteractive else { return }
        let physicalStart = frame.lines.lineStarts[frame.lines.lineStarts.count - 1]
        frame.source.record(entry + UnsafeBufferPointer(rebasing: line.bytes[physicalStart...]))
    }

    /// 1 if the physical line from `start` to the end of `bytes` ends in a CR (of a CR LF line end), else 0.
    private static func lineEndLength(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        bytes.count > start && bytes[bytes.count - 1] == 0x0D ? 1 : 0
    }

    /// Reads and drops the physical lines that finish a logical line over the limit, lexing
    /// each alone only to see whether the line goes on (a string still open, a trailing `\`).
    private func skipRest(of frame: ScriptFrame, after outcome: Lexer.Outcome) throws(LineSourceFailure) {
        var outcome = outcome
        let line = frame.lines.buffer
        while outcome != .complete {
            line.removeAll()
            // A string left open is reopened, so that the lexer reads on inside it.
            if case .openQuote = outcome { line.append(UInt8(ascii: "\"")) }
            do {
                guard try frame.readLine(into: line, continuation: true) else { return }
                frame.lineNumber += 1
                outcome = (try? frame.lexer.tokenize(line.bytes)) ?? .complete
            } catch .lineTooLong {
                // Its rest is dropped unseen: take it as the end of the logical line.
                frame.lineNumber += 1
                return
            }
        }
    }

    /// Runs the commands of one lexed line; a failed command ends the line unless going on.
    private func executeLine(_ frame: ScriptFrame) {
        // A command runs to the next separator, whose places the lexer lists, the line's end
        // last: no token's kind is tested to find them (that loop, whose exit fell at a
        // different token each line, was the runner's most mispredicted branch).
        let ends = frame.lexer.commandEnds()
        let last = ends.count - 1
        let count = ends[last]
        var start = 0
        var next = 0
        while true {
            let end = ends[next]
            if end > start {
                do {
                    try execute(start..<end, in: frame)
                } catch {
                    // The rest of the line is not run, unless going on after errors.
                    if !failed(error) {
                        if stop.isRequested && end + 1 < count { stoppedInLine = true }
                        return
                    }
                }
                if quitRequested || stop.isRequested {
                    // Stopped between commands: the line is left part run if more of it follows.
                    if !quitRequested && end + 1 < count { stoppedInLine = true }
                    return
                }
            }
            if next == last { return }
            start = end + 1
            next += 1
        }
    }

    /// Runs the command made of tokens `words` of the frame's line: inlined into the loop over
    /// the line's commands (see `executeInline`).
    private func execute(_ words: Range<Int>, in frame: ScriptFrame) throws(ScriptError) {
        try executeInline(words, lexer: frame.lexer)
    }

    /// Looks the command up, resolves its arguments, and runs it (unless only checking).
    func execute(_ words: Range<Int>, lexer: Lexer) throws(ScriptError) {
        try executeInline(words, lexer: lexer)
    }

    /// `execute(_:lexer:)`, inlined where a line's commands are run: as a function of its own
    /// between the line's loop and dispatch, its frame, and the words and lexer passed on
    /// through it, cost 989.5 instructions a command on the benchmark mix against 963.6 inlined,
    /// 972.8 against 947.5 on set/show (callgrind, 10^5 commands).
    @inline(__always)
    private func executeInline(_ words: Range<Int>, lexer: Lexer) throws(ScriptError) {
        if !lexer.references.isEmpty { try expandVariables(words, lexer: lexer) }
        let nameToken = lexer.tokens[words.lowerBound]
        guard let position = commands.position(of: lexer.word(nameToken)) else {
            let name = lexer.string(nameToken)
            throw ScriptError(
                .unknownCommand(name, suggestion: closestName(to: name, in: commands.allNames)),
                at: nameToken.range)
        }
        // The spec is borrowed from the table, counting no reference (see `CommandTable.withSpec`).
        try commands.withSpec(at: position) { spec throws(ScriptError) in
            try dispatch(spec, words: words, lexer: lexer, nameRange: nameToken.range)
        }
    }

    /// Resolves the arguments of `spec` from `words` and runs it (unless only checking).
    @inline(__always)
    private func dispatch(_ spec: CommandSpec, words: Range<Int>, lexer: Lexer, nameRange: SourceRange) throws(ScriptError) {
        if restrictsCommands && options.definitionsOnly && !spec.definesCatalog {
            throw ScriptError(.onlyDefinitions(spec.name), at: nameRange)
        }
        let block = arguments.take()
        defer { arguments.giveBack() }
        let catalogIndex = index
        let count = try resolve(spec, words: words, lexer: lexer, index: catalogIndex, into: block)
        // The spec, the argument block, the lexer and the index all outlive the command, so
        // the invocation refers to them without counting references.
        let invocation = Invocation(
            specRef: .passUnretained(spec), block: block, count: count,
            lexerRef: .passUnretained(lexer), indexRef: .passUnretained(catalogIndex))
        // Called through the optional, not bound to a local first: a bound copy retained and
        // released the closure's context on every `set` (1,331 -> 1,322 instructions a command
        // on the mix, 1,326 -> 1,312 on set/show; callgrind, 10^5 commands).
        try spec.check?(self, invocation)
        if restrictsCommands && !mayRun(spec, invocation) { return }
        if history == nil { try spec.run(self, invocation) } else { try runRecorded(spec, invocation) }
        withExtendedLifetime(catalogIndex) {}
    }

    /// Whether `spec`, resolved and checked, runs under the options that hold some commands
    /// back (`--check`, an editor's analysis, a rehearsal): a command not run may still be a
    /// step for `undo`.
    @inline(never)
    private func mayRun(_ spec: CommandSpec, _ invocation: Invocation) -> Bool {
        if options.checkOnly && !spec.runsWhenChecking {
            // Not run, it may still be a step for `undo` when run (see `recordUnchecked`): so may
            // `expect error ID COMMAND` where the run can go on after its COMMAND did not fail
            // (see `ExpectCommand.mayLeaveAStep`).
            if history != nil && (Self.changesWhenRun(spec) || ExpectCommand.mayLeaveAStep(self, invocation)) {
                recordUnchecked()
            }
            passUnrun()
            return false
        }
        // A completion's copy asks no questions either: they change nothing it completes against.
        if (options.checksQuestions || options.rehearsing) && spec.answersOnly {
            // An analysis runs those the state alone answers, cheaply: failing (`show 2` with no
            // line 2), they roll back an open transaction as running does (trial 13, 2).
            if !options.rehearsing && spec.answersFromStateAlone { return true }
            // Not run, one may fail when run, rolling back the transactions open: as `--check`
            // passes over a command it does not run (not one that cannot fail).
            if !options.rehearsing && !spec.neverFailsOnceResolved { passUnrun() }
            return false
        }
        // A rehearsal that has the history follows the line's `undo`, `begin` ... (see `Session.rehearsal`).
        if options.rehearsing && !Self.rehearses(spec) && !(history != nil && Self.movesHistory(spec)) { return false }
        return true
    }

    /// A command of a line failed with `error`: reports it; whether the line goes on (going on
    /// after errors, or where only the check may fail: see `mayBeTheChecksAlone`). Out of line,
    /// so that the loop over a line's commands stays small enough to be inlined where it runs.
    @inline(never)
    private func failed(_ error: ScriptError) -> Bool {
        if error.kind != .reported { report(error) }
        return options.keepGoing || mayBeTheChecksAlone(error)
    }

    /// Reports `error` at its place in the line being run.
    func report(_ error: ScriptError) {
        if mayBeTheChecksAlone(error) {
            // Or the run's too: then, going on, it rolled back every open transaction.
            if options.keepGoing && history?.inTransaction == true { runMayHaveFailed() }
            return
        }
        failureCount += 1
        guard let frame = frames.last else { return }
        var diagnostic = frame.diagnostic(error, width: sink.sourceWindowWidth)
        // In a script, an error inside a transaction rolls it back (see `UndoHistory.swift`).
        let inTransaction = history?.inTransaction == true
        // Inside `try source FILE`, the transaction open outside the `try` is rolled back as
        // the `try` ends (see `WhatIf.swift`), with the note on the first error that does it.
        let outside = transactionOutsideWhatIf && !rollBackAfterWhatIf
        if inTransaction || outside, !atPrompt, error.kind != .reported {
            if inTransaction { rollBackEverything() }
            if outside { rollBackAfterWhatIf = true }
            diagnostic.notes.append(.init("the open transaction was rolled back"))
        }
        sink.receive(diagnostic)
    }

    /// Reports a file named on the command line that could not be opened.
    func reportUnreadable(path: String, failure: LineSourceFailure, notes: [Diagnostic.Note] = []) {
        failureCount += 1
        let message = if case .unreadable(let text) = failure { text } else { "cannot read '\(path)'" }
        var diagnostic = Diagnostic.file(path, message)
        diagnostic.notes = notes
        sink.receive(diagnostic)
    }
}
