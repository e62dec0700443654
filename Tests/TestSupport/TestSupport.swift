import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

// What both test tiers need: a run's whole output, scratch folders, and JSON lines read
// with their keys in order. (A library of the tests only: nothing ships it.)

/// What one run of carfab printed and returned.
public struct RunResult: Equatable, CustomStringConvertible {
    public var stdout: String
    public var stderr: String
    public var status: Int32

    public init(stdout: String, stderr: String, status: Int32) {
        self.stdout = stdout
        self.stderr = stderr
        self.status = status
    }

    public var description: String { "status \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)---" }
}

/// Folders made by `scratchFolder`, removed when the test process exits.
private let scratchFolders = Mutex<[URL]>([])

// Tests hand their folders to programs they start and to each other's helpers, so no test
// can tell when one is free: the process removes them all as it exits, and a test run leaves
// nothing in the temporary folder.
private let removeScratchFoldersAtExit: Void = {
    atexit {
        for folder in scratchFolders.withLock({ $0 }) {
            try? FileManager.default.removeItem(at: folder)
        }
    }
}()

/// A new, empty folder in the temporary folder (`carfab-NAME-UUID`), removed when the tests exit.
public func scratchFolder(_ name: String) throws -> URL {
    _ = removeScratchFoldersAtExit
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("carfab-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    scratchFolders.withLock { $0.append(folder) }
    return folder
}

/// Writes each text to a file of a new temporary directory (names may hold folders) and returns the directory.
public func temporaryDirectory(with files: [String: String]) throws -> URL {
    let directory = try scratchFolder("files")
    for (name, text) in files {
        let file = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try writeFile(text, to: file)
    }
    return directory
}

/// Writes `text` to `file` (created with `mode`, or emptied) through a descriptor no child
/// process inherits: a test may run what it writes while other tests start processes, and a
/// file still open for writing in any of them cannot be run (ETXTBSY), as Foundation's own
/// writes left it.
public func writeFile(_ text: String, to file: URL, mode: mode_t = 0o644) throws {
    let descriptor = open(file.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(descriptor) }
    var bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
        let count = bytes[written...].withUnsafeMutableBytes { write(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        written += count
    }
    guard fchmod(descriptor, mode) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
}

/// What the brief's first example prints (`car sports; set drivetrain 4wd; show; total GBP`).
public let briefExample = """
    Car type: Porsche Boxster
    Seats: 2
    Engine: Mid
    Suspension: Firm
    Drive: 4WD
    Price: $70,800.00
    1 Car in Stock. Total Value: £42,719.30

    """

/// A line of JSON output that is not an object.
public struct NotAJSONObject: Error, CustomStringConvertible {
    public let line: String
    public var description: String { "not a JSON object: \(line)" }
}

/// Each line of `text` as a JSON object, with its keys in the order they appear.
public func jsonObjects(_ text: String) throws -> [(keys: [String], value: [String: Any])] {
    try text.split(separator: "\n").map { line in
        let data = Data(line.utf8)
        guard let value = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw NotAJSONObject(line: String(line))
        }
        // Key order, from the text itself: JSONSerialization does not keep it.
        var keys: [String] = []
        var depth = 0
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if character == "{" || character == "[" { depth += 1 }
            if character == "}" || character == "]" { depth -= 1 }
            if character == "\"" {
                var end = line.index(after: index)
                while line[end] != "\"" { end = line[end] == "\\" ? line.index(end, offsetBy: 2) : line.index(after: end) }
                let after = line.index(after: end)
                if depth == 1 && after < line.endIndex && line[after] == ":" { keys.append(String(line[line.index(after: index)..<end])) }
                index = after
                continue
            }
            index = line.index(after: index)
        }
        return (keys, value)
    }
}
