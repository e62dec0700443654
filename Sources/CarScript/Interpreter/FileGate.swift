import CarFactory

// The one gate between commands and the file system: every command that reads or writes a
// file goes through it, so a new command cannot forget that files may be refused; and the
// files are the host's (`EngineOptions.host`), never the engine's own.
extension Session {
    /// Opens the file at `path` for `call` to read.
    func openFile(_ path: String, for call: Invocation) throws(ScriptError) -> any LineSource {
        let host = try admitFiles(for: call)
        if case .readOnly(let reason) = options.fileAccess {
            // Opening a FIFO would wait for a writer; a device may never end.
            if let kind = host.kind(of: Array(path.utf8)), kind != .regular {
                throw ScriptError(.refused("'\(call.spec.name)' reads only regular files \(reason)"), at: call.range(1))
            }
        }
        let source: any LineSource
        do {
            source = try host.openFile(Array(path.utf8), stop: stop)
        } catch .interrupted {
            // A stop while a FIFO waited for a writer: stopping says it all.
            throw ScriptError(.reported, at: call.range(1))
        } catch {
            let message = if case .unreadable(let text) = error { text } else { "cannot read '\(ScriptError.shown(path))'" }
            throw ScriptError(.io(message), at: call.range(1))
        }
        // `/dev/stdin` and its like, while a script is read from there: as `source -` (below).
        if source.readsProcessInput && frames.contains(where: { $0.source.readsStandardInput }) {
            throw ScriptError(
                .io(
                    "'\(ScriptError.shown(path))' is standard input, which is already being read: it holds the script that runs '\(call.spec.name)'"
                ),
                at: call.range(1))
        }
        return source
    }

    /// Standard input, for `call` (`source -`, `diff -`) to read.
    func openStandardInput(for call: Invocation) throws(ScriptError) -> any LineSource {
        if case .readOnly(let reason) = options.fileAccess {
            throw ScriptError(.refused("'\(call.spec.name) -' reads standard input and is refused \(reason)"), at: call.range(1))
        }
        // A script read from standard input cannot also hand standard input to another: the
        // two readers would take lines from each other. (At the prompt, `source -` reads the
        // terminal until Ctrl-D, and the prompt waits.)
        if frames.contains(where: { $0.source.readsStandardInput }) {
            throw ScriptError(
                .io("standard input is already being read: it holds the script that runs '\(call.spec.name) -'"),
                at: call.range(1))
        }
        guard let host = options.host else {
            throw ScriptError(.refused("'\(call.spec.name) -' reads standard input and is refused \(Self.noHost)"), at: call.range(1))
        }
        do {
            return try host.openStandardInput(stop: stop)
        } catch .unreadable(let message) {
            throw ScriptError(.io(message), at: call.range(1))
        } catch {
            throw ScriptError(.reported, at: call.range(1))
        }
    }

    /// Saves `bytes` as the file at `path` for `call`, through the host (see `EngineHost.save`).
    func writeFile(_ bytes: [UInt8], to path: String, for call: Invocation, argument: Int = 1) throws(ScriptError) {
        let host = try admitFiles(for: call, writing: true)
        do throws(SaveFailure) {
            try host.save(bytes, to: Array(path.utf8), stop: stop)
        } catch {
            throw ScriptError(
                .io(error.message(saving: Array(path.utf8), streamAdvice: "use 'save -' to print the script")), at: call.range(argument))
        }
    }

    /// File name `name` (argument `argument` of `call`) as the user means it: a leading `~` or
    /// `~/` is the home folder (`$HOME`, as a shell and psql's `\i ~/x.sql` take it); then
    /// resolved against the directory of the script that names it.
    func filePath(_ name: String, for call: Invocation, argument: Int = 1) throws(ScriptError) -> String {
        var name = name
        if name == "~" || name.hasPrefix("~/") {
            let word = call.range(argument)
            let home = try environmentVariable("HOME", at: SourceRange(word.start, word.start + 1))
            name = home + name.dropFirst()
        }
        return resolvePath(name, against: frames.last?.directory ?? ".")
    }

    /// The host whose files `call` may touch (or, `writing`, write); refused if there is none
    /// or files are refused.
    @discardableResult
    func admitFiles(for call: Invocation, writing: Bool = false) throws(ScriptError) -> any EngineHost {
        // A what-if leaves everything as it was, files included.
        if writing && whatIfDepth > 0 {
            throw ScriptError(.refused("'\(call.spec.name)' writes files and is refused inside 'try'"), at: call.range(0))
        }
        switch options.fileAccess {
        case .allowed: break
        case .refused(let reason):
            throw ScriptError(.refused("'\(call.spec.name)' touches files and is refused \(reason)"), at: call.range(0))
        case .readOnly(let reason):
            if writing { throw ScriptError(.refused("'\(call.spec.name)' writes files and is refused \(reason)"), at: call.range(0)) }
        }
        guard let host = options.host else {
            throw ScriptError(.refused("'\(call.spec.name)' touches files and is refused \(Self.noHost)"), at: call.range(0))
        }
        return host
    }

    /// Why an engine without a host touches no file, in the words `refused` takes.
    static let noHost = "by the program running the engine, which gives it no files"
}
