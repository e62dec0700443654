import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs carfab on a pseudo-terminal this test makes itself (no terminal needs to be attached),
/// types into it, and reads what it prints.
final class PseudoTerminal {
    private let master: Int32
    let pid: pid_t
    private(set) var output = ""

    /// carfab on a new terminal of `columns` (0: a size never set); its standard output goes to
    /// `standardOutput` instead if given (with `asJob`, its output and errors to `outputAndErrors`,
    /// the shell's own on the terminal); the variables named in `unset` are not set at all.
    /// `asJob`: carfab runs as a job of a shell with job control (`bash` with `set -m`), as
    /// from a person's shell, so that Ctrl-Z stops it (the kernel drops the SIGTSTP of a
    /// session's leader); once it has stopped, the shell prints `[stopped]` and continues it
    /// (`fg`), then ends with its status. `shellReadsWhileStopped` (with `asJob`): before `fg`
    /// the shell reads a line from the terminal and prints `shell read: LINE`, as a person's
    /// shell takes the keys typed while carfab is stopped. `whenStopped` (with `asJob`): what
    /// the shell does then instead of `fg`.
    init(
        arguments: [String] = [], environment: [String: String], unset: Set<String> = [], directory: URL? = nil,
        standardOutput: URL? = nil, outputAndErrors: URL? = nil, columns: UInt16 = 100, asJob: Bool = false,
        shellReadsWhileStopped: Bool = false, whenStopped: String = "fg"
    ) throws {
        var master: Int32 = 0
        var slave: Int32 = 0
        var size = winsize(ws_row: columns == 0 ? 0 : 24, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else { throw POSIXError(.ENOTTY) }
        self.master = master
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd in Int32(0)...2 { posix_spawn_file_actions_adddup2(&actions, slave, fd) }
        if let standardOutput {
            posix_spawn_file_actions_addopen(&actions, 1, standardOutput.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }

        posix_spawn_file_actions_addclose(&actions, master)
        posix_spawn_file_actions_addclose(&actions, slave)
        // setsid -c makes the pty the controlling terminal, so Ctrl-C becomes SIGINT.
        // env -C starts carfab in `directory`.
        let read = shellReadsWhileStopped ? " IFS= read -r line; echo \"shell read: $line\";" : ""
        let redirect = outputAndErrors.map { " >'\($0.path)' 2>&1" } ?? ""
        let job = asJob ? ["/bin/bash", "-c", "set -m; \"$@\"\(redirect); echo '[stopped]';\(read) \(whenStopped)", "bash"] : []
        let argv =
            ["/usr/bin/setsid", "-c"] + (directory.map { ["/usr/bin/env", "-C", $0.path] } ?? []) + job + [carfabBinary]
            + arguments
        // The test's settings win over these; a value of nil-like "" still counts as set.
        // No pager unless a test asks for one: `less` would wait for a key.
        let defaults = ["TERM": "xterm", "NO_COLOR": "1", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PAGER": ""]
        let env = defaults.merging(environment) { _, given in given }.filter { !unset.contains($0.key) }
            .map { "\($0.key)=\($0.value)" }
        var cArgv = argv.map { strdup($0) } + [nil]
        var cEnv = env.map { strdup($0) } + [nil]
        defer {
            for pointer in cArgv { free(pointer) }
            for pointer in cEnv { free(pointer) }
        }
        // A job starts as from a person's shell: no signal blocked, job control's at their
        // defaults (this process may block or ignore them, and a child inherits both).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if asJob {
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigmask(&attributes, &none)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for signal in [SIGTSTP, SIGTTIN, SIGTTOU, SIGCONT] { sigaddset(&defaults, signal) }
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, argv[0], &actions, &attributes, &cArgv, &cEnv)
        close(slave)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL) }
        self.pid = pid
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(master)
    }

    /// Waits until libedit has switched the terminal to raw mode (it is ready for keys).
    func waitForPrompt(timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var attributes = termios()
        while Date() < deadline {
            drain()
            if tcgetattr(master, &attributes) == 0 && attributes.c_lflag & tcflag_t(ECHO) == 0 { return true }
            usleep(5_000)
        }
        return false
    }

    /// Whether carfab is stopped (by SIGSTOP).
    var isStopped: Bool {
        guard let stat = try? String(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/stat"), encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(close, offsetBy: 2)] == "T"
    }

    /// Whether the terminal is in libedit's mode (no echo by the terminal itself).
    var echoIsOff: Bool {
        var attributes = termios()
        return tcgetattr(master, &attributes) == 0 && attributes.c_lflag & tcflag_t(ECHO) == 0
    }

    /// Puts the terminal in a shell's cooked mode, echo on, as a shell does when it takes the terminal back.
    func makeCooked() {
        var attributes = termios()
        guard tcgetattr(master, &attributes) == 0 else { return }
        attributes.c_lflag |= tcflag_t(ECHO | ICANON)
        tcsetattr(master, TCSANOW, &attributes)
    }

    /// Types `keys` once the prompt is ready.
    func type(_ keys: String) {
        _ = waitForPrompt()
        var bytes = Array(keys.utf8)
        _ = write(master, &bytes, bytes.count)
    }

    /// Sends `keys` at once, without waiting for the prompt's mode: for keys read by another
    /// program on the terminal (a pager, the shell while carfab is stopped).
    func send(_ keys: String) {
        var bytes = Array(keys.utf8)
        _ = write(master, &bytes, bytes.count)
    }

    /// Types `bytes` as they are (not UTF-8, NUL) once the prompt is ready.
    func type(bytes: [UInt8]) {
        _ = waitForPrompt()
        var bytes = bytes
        _ = write(master, &bytes, bytes.count)
    }

    /// Types a line and waits until `expected` has been printed.
    @discardableResult
    func enter(_ line: String, expecting expected: String, timeout: Double = 10) -> Bool {
        type(line + "\r")
        return waitFor(expected, timeout: timeout)
    }

    /// Waits until the output holds `text` (counting from everything printed so far).
    @discardableResult
    func waitFor(_ text: String, timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            drain()
            if output.contains(text) { return true }
            usleep(5_000)
        }
        return false
    }

    /// Waits until `condition` holds.
    func wait(timeout: Double = 10, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            drain()
            if condition() { return true }
            usleep(5_000)
        }
        return condition()
    }

    /// How many times `text` has been printed so far.
    func count(_ text: String) -> Int {
        drain()
        return output.components(separatedBy: text).count - 1
    }

    /// Waits until `text` has been printed at least `times` times.
    @discardableResult
    func waitFor(_ text: String, times: Int, timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if count(text) >= times { return true }
            usleep(5_000)
        }
        return false
    }

    /// Types a control key (Ctrl-C) and waits for the prompt it leads back to.
    @discardableResult
    func interrupt() -> Bool {
        let prompts = count("carfab> ")
        type("\u{03}")
        return waitFor("carfab> ", times: prompts + 1)
    }

    /// Waits for the process to end; its exit status, or 128 + signal.
    func exitStatus(timeout: Double = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while Date() < deadline {
            drain()
            if waitpid(pid, &status, WNOHANG) == pid {
                drain()
                let signal = status & 0x7F
                return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
            }
            usleep(5_000)
        }
        return nil
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(master, &buffer, buffer.count)
            guard n > 0 else { return }
            output += String(decoding: buffer[0..<n], as: UTF8.self)
        }
    }
}
