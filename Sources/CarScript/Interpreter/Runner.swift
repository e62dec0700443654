import CarFactory

/// The most bytes one logical line may hold.
public let maximumLineLength = 1 << 20

// Reads logical lines from a source, lexes each whole, then runs its commands in order.
extension Session {
    /// Runs every line of `source` until it ends, `quit`, or (unless going on) the first error.
    public func run(_ source: any LineSource) {
        var lexer = Lexer()
        var lines = SourceLines(file: source.name)
        var lineNumber = 0
        while !shouldStop && !stopRequested {
            lines.bytes.removeAll(keepingCapacity: true)
            lines.lineStarts.removeAll(keepingCapacity: true)
            lines.lineStarts.append(0)
            lines.firstLine = lineNumber + 1
            do {
                guard try source.readLine(into: &lines.bytes, continuation: false) else { return }
                lineNumber += 1
                try assemble(&lines, lexer: &lexer, from: source, lineNumber: &lineNumber)
            } catch let failure as LineSourceFailure {
                if case .interrupted = failure { return }
                report(failure, in: &lines)
                if case .unreadable = failure { return }
                continue
            } catch let error as ScriptError {
                report(error, in: lines)
                continue
            } catch {
                preconditionFailure("unexpected error \(error)")
            }
            execute(lexer, lines)
        }
    }

    /// Runs `text` as if it were a file called `name`.
    public func run(text: String, name: String) {
        run(TextLineSource(text: text, name: name))
    }

    /// Reads continuation lines until the logical line is whole, then leaves its tokens in `lexer`.
    private func assemble(_ lines: inout SourceLines, lexer: inout Lexer, from source: any LineSource,
                          lineNumber: inout Int) throws {
        while true {
            if lines.bytes.count > maximumLineLength {
                throw ScriptError(.lineTooLong(limit: maximumLineLength), at: SourceRange(0, 0))
            }
            let outcome = try lines.bytes.withUnsafeBufferPointer { (bytes) throws(ScriptError) in
                try lexer.tokenize(bytes)
            }
            if outcome == .complete { return }
            lines.bytes.append(0x0A)
            lines.lineStarts.append(lines.bytes.count)
            guard try source.readLine(into: &lines.bytes, continuation: true) else {
                lines.lineStarts.removeLast()
                lines.bytes.removeLast()
                _ = try lines.bytes.withUnsafeBufferPointer { (bytes) throws(ScriptError) in
                    try lexer.tokenize(bytes, atEnd: true)
                }
                return
            }
            lineNumber += 1
        }
    }

    /// Runs the commands of one lexed line; a failed command ends the line unless going on.
    private func execute(_ lexer: Lexer, _ lines: SourceLines) {
        let tokens = lexer.tokens
        var start = 0
        while start < tokens.count {
            var end = start
            while end < tokens.count && tokens[end].kind == .word { end += 1 }
            if end > start {
                do {
                    try execute(tokens[start..<end], lexer: lexer)
                } catch {
                    report(error, in: lines)
                    if shouldStop || stopsOnError == false { return }
                }
                if quitRequested || renderer.outputFailed { return }
            }
            start = end + 1
        }
    }

    /// Looks the command up, resolves its arguments, and runs it (unless only checking).
    func execute(_ words: ArraySlice<Token>, lexer: Lexer) throws(ScriptError) {
        let nameToken = words[words.startIndex]
        let name = lexer.string(nameToken)
        guard let spec = commands.lookup(name) else {
            throw ScriptError(.unknownCommand(name, suggestion: closestName(to: name, in: commands.allNames)),
                              at: nameToken.range)
        }
        let invocation = try resolve(spec, words: words, lexer: lexer)
        if options.checkOnly { return }
        try spec.run(self, invocation)
    }

    func report(_ error: ScriptError, in lines: SourceLines) {
        hasFailed = true
        renderer.render(lines.diagnostic(error))
    }

    /// Reports a file that could not be opened, naming the file.
    public func reportUnreadable(path: String, failure: LineSourceFailure) {
        var lines = SourceLines(file: "carfab")
        lines.firstLine = 1
        report(failure, in: &lines)
    }

    private func report(_ failure: LineSourceFailure, in lines: inout SourceLines) {
        switch failure {
        case .lineTooLong(let limit):
            report(ScriptError(.lineTooLong(limit: limit), at: SourceRange(0, 0)), in: lines)
        case .unreadable(let message):
            hasFailed = true
            renderer.render(Diagnostic(file: lines.file, line: 0, column: 0, message: message, sourceLine: "", width: 0))
        case .interrupted:
            break
        }
    }
}
