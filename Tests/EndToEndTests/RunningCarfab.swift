import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// carfab running in the background, for tests that signal it while it reads, writes or waits:
/// its standard input is a pipe the test writes (or /dev/null), its standard output a file or
/// a pipe nobody reads, its standard error a file.
final class RunningCarfab {
    enum Output { case file, unreadPipe }

    let pid: pid_t
    /// The write end of carfab's standard input, or -1.
    private(set) var input: Int32 = -1
    private var unread: Int32 = -1
    private let scratch: URL

    init(_ arguments: [String], directory: URL? = nil, pipedInput: Bool = false, output: Output = .file) throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("carfab-running-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var toClose: [Int32] = []
        if pipedInput {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
            posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
            posix_spawn_file_actions_addclose(&actions, ends[1])
            toClose.append(ends[0])
            input = ends[1]
            _ = fcntl(input, F_SETFD, FD_CLOEXEC)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        switch output {
        case .file:
            posix_spawn_file_actions_addopen(&actions, 1, scratch.appendingPathComponent("out").path, O_WRONLY | O_CREAT, 0o644)
        case .unreadPipe:
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
            posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
            posix_spawn_file_actions_addclose(&actions, ends[0])
            toClose.append(ends[1])
            unread = ends[0]
            _ = fcntl(unread, F_SETFD, FD_CLOEXEC)
        }
        posix_spawn_file_actions_addopen(&actions, 2, scratch.appendingPathComponent("err").path, O_WRONLY | O_CREAT, 0o644)
        // env -C changes directory first: posix_spawn has no portable way to.
        let argv = (directory.map { ["/usr/bin/env", "-C", $0.path] } ?? []) + [carfabBinary] + arguments
        var cArgv: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        let environment: [String] = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" } + ["NO_COLOR=1"]
        var cEnv: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in cArgv { free(pointer) }
            for pointer in cEnv { free(pointer) }
        }
        // A test runner's thread may block signals; the child must start with none blocked.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signo in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&defaults, signo) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let status = posix_spawn(&pid, argv[0], &actions, &attributes, &cArgv, &cEnv)
        for descriptor in toClose { close(descriptor) }
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL) }
        self.pid = pid
    }

    deinit {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        if input >= 0 { close(input) }
        if unread >= 0 { close(unread) }
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Writes `bytes` to carfab's standard input; false once it stops reading.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(input, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        return true
    }

    /// Closes carfab's standard input.
    func closeInput() {
        if input >= 0 { close(input) }
        input = -1
    }

    var stdout: String { (try? String(contentsOf: scratch.appendingPathComponent("out"), encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: scratch.appendingPathComponent("err"), encoding: .utf8)) ?? "" }

    /// Waits until `condition` holds, or `timeout` seconds pass.
    func wait(timeout: Double = 10, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(2_000)
        }
        return condition()
    }

    /// Whether carfab is asleep in the kernel (blocked reading, writing or opening), not running.
    var isBlocked: Bool {
        guard let stat = try? String(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/stat"), encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(close, offsetBy: 2)] == "S"
    }

    /// The exit status (128 + the signal for a death by signal), once carfab ends within `timeout` seconds.
    func exitStatus(timeout: Double = 10) -> Int32? {
        var result: Int32?
        _ = wait(timeout: timeout) {
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return false }
            let signal = status & 0x7F
            result = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
            return true
        }
        return result
    }
}
