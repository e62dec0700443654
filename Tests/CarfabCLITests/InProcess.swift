import CarScript
import Foundation
// The helpers both tiers share (RunResult, temporaryDirectory, jsonObjects), for every file of this target.
@_exported import TestSupport

@testable import CarfabCLI

/// The package root, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Runs carfab's program in this process, as the binary would run with `arguments`, standard
/// input `stdin` (none: empty) and no terminal: the whole of it (arguments, services, engine,
/// renderers, exit status) but the process around it. Relative paths are relative to the
/// current directory, the package root when the tests run from Scripts/test.
func carfab(
    _ arguments: [String], stdin: String? = nil, stdinData: Data? = nil,
    environment: [String: String] = [:]
) throws -> RunResult {
    var program = ProgramEnvironment.current
    program.colorOnStandardError = false
    program.colorOnStandardOutput = false
    program.standardInputIsTerminal = false
    program.standardOutputIsTerminal = false
    program.standardErrorIsTerminal = false
    program.variable = { name in environment[name] }
    program.stop = StopRequest()
    program.input = stdinData.map(Array.init) ?? Array((stdin ?? "").utf8)
    let out = Output.memory()
    let err = Output.memory()
    program.output = out
    program.errorOutput = err
    let status: Int32 =
        switch Program.run(arguments, environment: program) {
        case .exit(let status): status
        case .brokenPipe: 128 + 13
        case .stoppedBy(let signal): 128 + signal
        }
    return RunResult(
        stdout: String(decoding: out.buffer, as: UTF8.self), stderr: String(decoding: err.buffer, as: UTF8.self),
        status: status)
}
