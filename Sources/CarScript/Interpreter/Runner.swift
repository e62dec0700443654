#if canImport(Glibc)
import Glibc
#endif
import CarFactory

/// The most bytes one logical line may hold.
public let maximumLineLength = 1 << 20

/// How deeply `source` may nest.
public let maximumSourceDepth = 64

/// One script being run: its source, the logical line being run, and where it was included from.
final class ScriptFrame {
    let source: any LineSource
    var lines: SourceLines
    let lexer = Lexer()
    var lineNumber = 0
    /// The directory `source` and `save` paths in this script are relative to.
    let directory: String
    /// The file's real path, to find `source` cycles (nil for stdin and text).
    let identity: String?
    /// `FILE:LINE` of each `source` that led here, outermost first.
    let includedFrom: [String]
    /// Whether the first error ends this script (not at the prompt, nor with `--keep-going`).
    let stopsOnError: Bool
    /// Errors reported before this script began.
    let failuresAtStart: Int

    init(source: any LineSource, directory: String, identity: String?, includedFrom: [String], session: Session) {
        self.source = source
        stopsOnError = !session.options.keepGoing && !source.isInteractive
        failuresAtStart = session.failureCount
        lines = SourceLines(file: source.name)
        self.directory = directory
        self.identity = identity
        self.includedFrom = includedFrom
    }
}

// Reads logical lines from a source, lexes each whole, then runs its commands in order.
extension Session {
    /// Runs every line of `source` until it ends, `quit`, or (unless going on) the first error.
    public func run(_ source: any LineSource) {
        let path = source.path
        run(ScriptFrame(source: source, directory: path.map(directoryName) ?? ".",
                        identity: path.flatMap(realPath), includedFrom: [], session: self))
    }

    /// Runs `text` as if it were a file called `name`.
    public func run(text: String, name: String) {
        run(TextLineSource(bytes: Array(text.utf8), name: name))
    }

    func run(_ frame: ScriptFrame) {
        frames.append(frame)
        defer { frames.removeLast() }
        let interactive = frame.source.isInteractive
        let line = frame.lines.buffer
        while !quitRequested && !resultOutput.failed {
            // At the prompt, Ctrl-C only interrupts what was running; the prompt starts on a new line.
            if interactive
                && pendingStopSignal.compareExchange(expected: SIGINT, desired: 0, ordering: .relaxed).exchanged {
                renderer.flush()
                _ = write(1, "\n", 1)
            }
            if stopRequested || (frame.stopsOnError && failureCount > frame.failuresAtStart) { return }
            line.removeAll()
            frame.lines.lent = nil
            // Most logical lines are one physical line: leave the list of starts alone then.
            if frame.lines.lineStarts.count != 1 {
                frame.lines.lineStarts.removeAll(keepingCapacity: true)
                frame.lines.lineStarts.append(0)
            }
            frame.lines.firstLine = frame.lineNumber + 1
            do {
                // A line the source holds whole is lexed where it lies; one that goes on to
                // the next line, or that the source must read, is gathered in the buffer.
                if var inPlace = frame.source.nextLineInPlace() {
                    frame.lineNumber += 1
                    if frame.lineNumber == 1 && inPlace.starts(with: [0xEF, 0xBB, 0xBF]) {
                        inPlace = UnsafeBufferPointer(rebasing: inPlace[3...])
                    }
                    frame.lines.lent = inPlace
                    if try frame.lexer.tokenize(inPlace) != .complete {
                        frame.lines.lent = nil
                        line.append(inPlace)
                        try assemble(frame, line)
                    }
                } else {
                    guard try frame.source.readLine(into: line, continuation: false) else { return }
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
                    return
                case .abandoned:
                    continue
                case .lineTooLong(let limit):
                    report(ScriptError(.lineTooLong(limit: limit), at: SourceRange(0, 0)))
                    continue
                case .unreadable(let message):
                    failureCount += 1
                    renderer.render(Diagnostic(file: frame.lines.file, line: 0, column: 0, message: message,
                                               sourceLine: "", width: 0, includedFrom: frame.includedFrom))
                    return
                }
            } catch let error as ScriptError {
                report(error)
                continue
            } catch {
                preconditionFailure("unexpected error \(error)")
            }
            executeLine(frame)
        }
    }

    /// Reads continuation lines until the logical line is whole, leaving its tokens in the frame's lexer.
    private func assemble(_ frame: ScriptFrame, _ line: ByteBuffer) throws {
        while true {
            if line.count > maximumLineLength {
                throw ScriptError(.lineTooLong(limit: maximumLineLength), at: SourceRange(0, 0))
            }
            if try frame.lexer.tokenize(line.bytes) == .complete { return }
            line.append(0x0A)
            frame.lines.lineStarts.append(line.count)
            guard try frame.source.readLine(into: line, continuation: true) else {
                frame.lines.lineStarts.removeLast()
                line.removeLast()
                _ = try frame.lexer.tokenize(line.bytes, atEnd: true)
                return
            }
            frame.lineNumber += 1
        }
    }

    /// Runs the commands of one lexed line; a failed command ends the line unless going on.
    private func executeLine(_ frame: ScriptFrame) {
        let tokens = frame.lexer.tokens
        let count = tokens.count
        var start = 0
        while start < count {
            var end = start
            while end < count && tokens[end].kind == .word { end += 1 }
            if end > start {
                do {
                    try execute(start..<end, in: frame)
                } catch {
                    if error.kind != .reported { report(error) }
                    // The rest of the line is not run, unless going on after errors.
                    if !options.keepGoing { return }
                }
                if quitRequested || resultOutput.failed || stopRequested { return }
            }
            start = end + 1
        }
    }

    /// Runs the command made of tokens `words` of the frame's line.
    private func execute(_ words: Range<Int>, in frame: ScriptFrame) throws(ScriptError) {
        try execute(words, lexer: frame.lexer)
    }

    /// Looks the command up, resolves its arguments, and runs it (unless only checking).
    func execute(_ words: Range<Int>, lexer: Lexer) throws(ScriptError) {
        let nameToken = lexer.tokens[words.lowerBound]
        guard let position = commands.position(of: lexer.word(nameToken)) else {
            let name = lexer.string(nameToken)
            throw ScriptError(.unknownCommand(name, suggestion: closestName(to: name, in: commands.allNames)),
                              at: nameToken.range)
        }
        // The command table keeps its specs alive: dispatch borrows the spec rather than
        // counting a reference to it on every command.
        let outcome = commands.unretainedSpec(at: position)._withUnsafeGuaranteedRef { spec -> DispatchOutcome in
            do throws(ScriptError) {
                try dispatch(spec, words: words, lexer: lexer, nameRange: nameToken.range)
                return .done
            } catch {
                return .failed(error)
            }
        }
        if case .failed(let error) = outcome { throw error }
    }

    /// How dispatching a command ended, carried out of the borrow of its spec.
    private enum DispatchOutcome {
        case done
        case failed(ScriptError)
    }

    /// Resolves the arguments of `spec` from `words` and runs it (unless only checking).
    @inline(__always)
    private func dispatch(_ spec: CommandSpec, words: Range<Int>, lexer: Lexer, nameRange: SourceRange) throws(ScriptError) {
        if options.definitionsOnly && !spec.definesCatalog {
            throw ScriptError(.onlyDefinitions(spec.name), at: nameRange)
        }
        let block = arguments.take()
        defer { arguments.giveBack() }
        // A command naming nothing in the catalog resolves against the index at hand, rather
        // than rebuilding one after each definition of a catalog file.
        let catalogIndex = spec.usesCatalogIndex ? index : indexAtHand
        let count = try resolve(spec, words: words, lexer: lexer, index: catalogIndex, into: block)
        if options.checkOnly && !spec.runsWhenChecking { return }
        // The spec, the argument block, the lexer and the index all outlive the command, so
        // the invocation refers to them without counting references.
        try spec.run(self, Invocation(specRef: .passUnretained(spec), block: block, count: count,
                                      lexerRef: .passUnretained(lexer), indexRef: .passUnretained(catalogIndex)))
        withExtendedLifetime(catalogIndex) {}
    }

    /// Reports `error` at its place in the line being run.
    func report(_ error: ScriptError) {
        failureCount += 1
        guard let frame = frames.last else { return }
        renderer.render(frame.lines.diagnostic(error, includedFrom: frame.includedFrom))
    }

    /// Reports a file named on the command line that could not be opened.
    public func reportUnreadable(path: String, failure: LineSourceFailure) {
        failureCount += 1
        let message = if case .unreadable(let text) = failure { text } else { "cannot read '\(path)'" }
        renderer.render(Diagnostic(file: "carfab", line: 0, column: 0, message: message, sourceLine: "", width: 0))
    }
}
