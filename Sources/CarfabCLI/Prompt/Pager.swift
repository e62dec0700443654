import CEditLine
import CarfabPOSIX

#if canImport(Glibc)
import Glibc
#endif

/// Shows text taller than the terminal through the user's pager (`$PAGER`, default
/// `less -FRX`), as git and man do; only when standard output is a terminal, never under
/// `--safe` (the caller makes none).
struct Pager {
    /// The command run by `/bin/sh -c`; nil: never page.
    let command: String?
    /// Whether it is carfab's own default, `less`: it runs with `LESSSECURE=1`, so a page of
    /// help cannot become a shell (`!cmd`), an editor (`v`) or a file reader (`:e`, `s FILE`).
    let isDefault: Bool

    /// The pager `PAGER` names (unset: `less -FRX`, but none on a terminal `less` cannot draw
    /// on, `TERM` unset, empty, `dumb` or unknown to terminfo, where it would stop to warn
    /// first; set but empty: none).
    init(environment variable: (String) -> String?) {
        switch variable("PAGER") {
        case nil:
            let drawable = variable("TERM").map { cf_terminal_known($0) != 0 } ?? false
            (command, isDefault) = (drawable ? "less -FRX" : nil, true)
        case let value?: (command, isDefault) = (value.isEmpty ? nil : value, false)
        }
    }

    /// Shows `text` through the pager if it is taller than the terminal on standard output;
    /// false if it did not (short text, no pager, no terminal, a pager that could not be found
    /// or run), and the caller writes it as usual.
    func page(_ text: String) -> Bool {
        guard let command else { return false }
        let rows = Int(cf_terminal_rows(1))
        guard rows > 0, text.utf8.lazy.filter({ $0 == 0x0A }).count >= rows - 1 else { return false }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return false }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
        let argv = ["/bin/sh", "-c", command]
        var cArgv = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArgv { free(pointer) } }
        var cEnvironment = isDefault ? Self.secureLessEnvironment() : []
        defer { for pointer in cEnvironment { free(pointer) } }
        var pid: pid_t = 0
        // A job of its own in the terminal's foreground, as a shell runs it: Ctrl-Z stops the
        // page and carfab together (see `cf_wait_job`).
        let job =
            isDefault
            ? cf_spawn_job(&pid, "/bin/sh", &actions, &cArgv, &cEnvironment, 1)
            : cf_spawn_job(&pid, "/bin/sh", &actions, &cArgv, environ, 1)
        close(ends[0])
        guard job >= 0 else {
            close(ends[1])
            return false
        }
        // A pager that quits early closes the pipe: the rest is dropped (SIGPIPE is ignored).
        var bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeMutableBytes { write(ends[1], $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR && !Self.endsPager(programStop.code) { continue }
            if count <= 0 { break }
            sent += count
        }
        close(ends[1])
        var status: Int32 = 0
        // SIGTERM, SIGHUP and SIGQUIT end the page and carfab at once (SIGINT stays the
        // pager's, as at any program in the terminal). A page in carfab's own group (no job:
        // carfab not the terminal's foreground) is ended here, process by process.
        if cf_wait_job(pid, job, 1, &status, { Pager.endsPager(programStop.code) ? 1 : 0 }) == -2 {
            Self.terminate(Self.processTree(pid))
            _ = cf_wait_job(pid, job, 1, &status, nil)
        }
        // A pager the shell could not find or run (126, 127) showed nothing: the caller does.
        let exited = status & 0x7F == 0 ? (status >> 8) & 0xFF : -1
        return exited != 126 && exited != 127
    }

    /// Whether stop request `code` (a signal's number) ends the pager: every stop signal but SIGINT.
    private static func endsPager(_ code: Int32) -> Bool {
        code == SIGTERM || code == SIGHUP || code == SIGQUIT
    }

    /// `root` and every process under it, read from `/proc` before any is signalled: the
    /// pager runs under `/bin/sh -c`, which does not exec it, so signalling the shell alone
    /// would leave `less` reading the terminal.
    private static func processTree(_ root: pid_t) -> [pid_t] {
        var tree = [root]
        var index = 0
        while index < tree.count {
            let task = "/proc/\(tree[index])/task/\(tree[index])"
            index += 1
            guard let folder = try? Directory(task), let text = try? folder.read("children", atMost: 1 << 20) else {
                continue
            }
            for field in text.split(whereSeparator: { $0 == 0x20 || $0 == 0x0A }) {
                if let child = pid_t(String(decoding: field, as: UTF8.self)), !tree.contains(child) { tree.append(child) }
            }
        }
        return tree
    }

    /// Sends SIGTERM to each of `processes`: the one signal `less` ends on with the terminal
    /// put back as it found it (on SIGHUP it leaves it without echo; SIGQUIT it ignores).
    private static func terminate(_ processes: [pid_t]) {
        for process in processes { kill(process, SIGTERM) }
    }

    /// This process's environment with `LESSSECURE=1` and `LESSHISTFILE=-` in place of any
    /// such variables it holds (strdup'ed, nil-terminated: the caller frees it): a page of help
    /// writes no search history (`~/.lesshst`) into the home folder.
    private static func secureLessEnvironment() -> [UnsafeMutablePointer<CChar>?] {
        var entries: [UnsafeMutablePointer<CChar>?] = []
        var index = 0
        while let entry = environ[index] {
            if strncmp(entry, "LESSSECURE=", 11) != 0 && strncmp(entry, "LESSHISTFILE=", 13) != 0 {
                entries.append(strdup(entry))
            }
            index += 1
        }
        return entries + [strdup("LESSSECURE=1"), strdup("LESSHISTFILE=-"), nil]
    }
}
