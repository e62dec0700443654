import CarFactory

// `source FILE`: a nested script with its own frame, relative paths, and cycle and depth checks.
extension Session {
    func source(_ call: Invocation) throws(ScriptError) {
        let name = call.word(1)
        // `-` is standard input: no file is touched, so --safe allows it.
        if name != "-" { try refuseIfSafe(call) }
        guard let parent = frames.last else { return }
        let path = name == "-" ? name : resolvePath(name, against: parent.directory)
        let chain = frames.map(\.lines.file) + [path]
        guard frames.count < maximumSourceDepth else {
            throw ScriptError(.io("'source' nested more than \(maximumSourceDepth) deep: " + chain.joined(separator: " -> ")),
                              at: call.range(1))
        }
        let identity = realPath(path)
        if let identity, frames.contains(where: { $0.identity == identity }) {
            throw ScriptError(.io("'source' cycle: " + chain.joined(separator: " -> ")), at: call.range(1))
        }
        let file: any LineSource
        do {
            file = try openLineSource(.file(path))
        } catch .interrupted {
            // A stop signal while a FIFO waited for a writer: stopping says it all.
            throw ScriptError(.reported, at: call.range(1))
        } catch {
            let message = if case .unreadable(let text) = error { text } else { "cannot read '\(path)'" }
            throw ScriptError(.io(message), at: call.range(1))
        }
        let line = parent.lines.lineNumber(at: call.range(0).start)
        let failuresBefore = failureCount
        run(ScriptFrame(source: file, directory: directoryName(path), identity: identity,
                        includedFrom: parent.includedFrom + ["\(parent.lines.file):\(line)"], session: self))
        if failureCount > failuresBefore && !options.keepGoing {
            throw ScriptError(.reported, at: call.range(0))
        }
    }

    /// Refuses a command that touches files under `--safe`.
    func refuseIfSafe(_ call: Invocation) throws(ScriptError) {
        if options.safe {
            throw ScriptError(.refused("'\(call.spec.name)' touches files and is refused by --safe"), at: call.range(0))
        }
    }
}
