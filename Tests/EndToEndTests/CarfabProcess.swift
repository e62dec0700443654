import Foundation
// The helpers both tiers share (RunResult, temporaryDirectory, jsonObjects), for every file of this target.
@_exported import TestSupport

/// The package root, found from this file's path.
let packageRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The binary under test: `CARFAB` if set, else the one built beside the test bundle.
let carfabBinary: String = {
    if let override = ProcessInfo.processInfo.environment["CARFAB"] { return override }
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for candidate in [bundle.appendingPathComponent("carfab"), bundle.deletingLastPathComponent().appendingPathComponent("carfab")]
    where FileManager.default.isExecutableFile(atPath: candidate.path) {
        return candidate.path
    }
    return packageRoot.appendingPathComponent(".build/debug/carfab").path
}()

/// Process `pid`'s processor time so far, in clock ticks (user and system): a wait for it to
/// grow tells that a program is at work, where a wait for it to block cannot.
func processorTicks(_ pid: pid_t) -> Int {
    guard let stat = try? String(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/stat"), encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return 0 }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // After the name: state is field 3, utime 14 and stime 15.
    guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return 0 }
    return user + system
}

/// Runs carfab with `arguments`, feeding `stdin` (none: /dev/null), in `directory`.
func carfab(
    _ arguments: [String], stdin: String? = nil, stdinData: Data? = nil, directory: URL? = nil,
    environment: [String: String] = [:]
) throws -> RunResult {
    try launch(carfabBinary, arguments, stdin: stdin, stdinData: stdinData, directory: directory, environment: environment)
}

/// Runs `script` in bash, with `$CARFAB` the binary under test: for what needs a shell
/// (`ulimit`, closed descriptors, `umask`, names that are not UTF-8).
func shell(_ script: String, directory: URL? = nil, environment: [String: String] = [:]) throws -> RunResult {
    try launch("/bin/bash", ["-c", script], directory: directory, environment: environment.merging(["CARFAB": carfabBinary]) { a, _ in a })
}

/// Runs `program` with `arguments`, feeding `stdin` (none: /dev/null), in `directory`.
func launch(
    _ program: String, _ arguments: [String], stdin: String? = nil, stdinData: Data? = nil, directory: URL? = nil,
    environment: [String: String] = [:]
) throws -> RunResult {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("carfab-e2e-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let outURL = scratch.appendingPathComponent("out")
    let errURL = scratch.appendingPathComponent("err")
    try Data().write(to: outURL)
    try Data().write(to: errURL)

    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.currentDirectoryURL = directory ?? packageRoot
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = "1"
    for (key, value) in environment { env[key] = value }
    process.environment = env
    if let input = stdinData ?? stdin.map({ Data($0.utf8) }) {
        let inURL = scratch.appendingPathComponent("in")
        try input.write(to: inURL)
        process.standardInput = try FileHandle(forReadingFrom: inURL)
    } else {
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
    }
    let outHandle = try FileHandle(forWritingTo: outURL)
    let errHandle = try FileHandle(forWritingTo: errURL)
    process.standardOutput = outHandle
    process.standardError = errHandle
    try process.run()
    process.waitUntilExit()
    try outHandle.close()
    try errHandle.close()
    let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    return RunResult(
        stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
        stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self),
        status: status)
}

/// Waits until process `pid` is asleep in a read (of a pipe or a terminal), as the kernel names
/// where it waits (/proc/PID/wchan: `pipe_read` or `anon_pipe_read` for a pipe, `wait_woken`
/// for a terminal), and `also` holds: a wait on a condition, not a guess of how long it takes.
func waitUntilBlockedReading(_ pid: pid_t, timeout: Double = 10, also: () -> Bool = { true }) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        let channel = (try? String(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/wchan"), encoding: .utf8)) ?? ""
        if channel.hasSuffix("pipe_read") || channel == "wait_woken", also() { return true }
        usleep(2_000)
    }
    return false
}
