import CarFactory

// `source FILE`: a nested script with its own frame, relative paths, and cycle and depth checks.
extension Session {
    func source(_ call: Invocation) throws(ScriptError) {
        let name = call.word(1)
        // `-` is standard input: no file is touched, so it is always allowed.
        if name != "-" { try admitFiles(for: call) }
        guard let parent = frames.last else { return }
        let path = name == "-" ? name : try filePath(name, for: call)
        // A file the checked script saved holds what only running makes: passed over as a
        // command the check does not run, a step for `undo` (see `SavedFiles.swift`).
        if options.checkOnly && name != "-" && isSavedByScript(path) {
            effectsUnknown = true
            if history != nil { recordUnchecked() }
            passUnrun()
            return
        }
        let identity = try checkNesting(of: path, for: call, argument: 1)
        let followed = options.boundsSourcing && name != "-" ? identity.map { followingKey($0, directory: directoryName(path)) } : nil
        if let followed, let identity, !mayFollow(followed, identity: identity, for: call) { return }
        let file = name == "-" ? try openStandardInput(for: call) : try openFile(path, for: call)
        let line = parent.lines.lineNumber(at: call.range(0).start)
        let failuresBefore = failureCount
        let before = followed == nil ? nil : analysisMark
        let frame = ScriptFrame(
            source: file, directory: directoryName(path), identity: identity,
            includedFrom: parent.includedFrom + ["\(parent.lines.file):\(line)"], session: self)
        run(frame)
        // A read that failed after the open is this `source`'s error, as a failed open is (trial 9, 4).
        if let message = frame.readFailure { report(ScriptError(.io(message), at: call.range(1))) }
        if let followed, let before { noteFollowed(followed, from: before, failuresBefore: failuresBefore) }
        if failureCount > failuresBefore && !options.keepGoing {
            throw ScriptError(.reported, at: call.range(0))
        }
    }
}

extension Session {
    /// The host identity of `path`, which `call` (`source`, or `diff` at argument `argument`)
    /// is about to run; an error if that would nest scripts more than `maximumSourceDepth`
    /// deep or run a file inside itself. The scripts of sessions loading this one for `diff`
    /// count too: each such session is fresh, so its own frames alone would never see them.
    func checkNesting(of path: String, for call: Invocation, argument: Int) throws(ScriptError) -> [UInt8]? {
        let running = enclosingScripts + frames.map { (file: $0.lines.file, identity: $0.identity) }
        // Made only for an error: each name cut as every name in a message is.
        func chain() -> String { (running.map(\.file) + [path]).map(ScriptError.shown).joined(separator: " -> ") }
        let name = call.spec.name
        guard running.count < maximumSourceDepth else {
            throw ScriptError(
                .sourceDepth("'\(name)' nested more than \(maximumSourceDepth) deep: " + chain()),
                at: call.range(argument))
        }
        let identity = options.host?.identity(of: Array(path.utf8))
        if let identity, running.contains(where: { $0.identity == identity }) {
            throw ScriptError(.sourceCycle("'\(name)' cycle: " + chain()), at: call.range(argument))
        }
        return identity
    }
}

extension LineSource {
    /// Whether this source is a script read from standard input (`<stdin>` or a name of it,
    /// not the prompt).
    var readsStandardInput: Bool { (name == "<stdin>" || readsProcessInput) && !isInteractive }
}
