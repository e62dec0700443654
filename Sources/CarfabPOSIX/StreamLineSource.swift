import CarScript

// The line sources of a POSIX system: files, pipes and standard input, read in large chunks
// into the engine's buffer (or lent where they lie) on the command loop's hot path.
#if canImport(Glibc)
import Glibc
#endif

/// Where a line source reads from.
package enum LineOrigin {
    /// Standard input, whatever it is.
    case standardInput
    /// A file by the bytes of its path, which need not be UTF-8 (`-` for standard input).
    case filePath([UInt8])
    /// A file its host opened already (a path too long to open by name), with its path; the
    /// source owns the descriptor from then on.
    case descriptor(Int32, path: [UInt8])
}

/// Opens the line source for `origin` (text in memory is the engine's own, `openLineSource(text:)`).
/// A read that a stop request interrupts ends the source.
package func openLineSource(_ origin: LineOrigin, stop: StopRequest) throws(LineSourceFailure) -> any BufferedLineSource {
    switch origin {
    case .standardInput:
        return StreamLineSource(fd: 0, name: "<stdin>", path: nil, ownsDescriptor: false, readsProcessInput: true, stop: stop)
    case .filePath(let path):
        return path == [UInt8(ascii: "-")] ? try openLineSource(.standardInput, stop: stop) : try openFile(path, stop: stop)
    case .descriptor(let fd, let path):
        return try fileSource(fd, name: String(decoding: path, as: UTF8.self), stop: stop)
    }
}

/// A stream source reading the file at `path`.
private func openFile(_ path: [UInt8], stop: StopRequest) throws(LineSourceFailure) -> StreamLineSource {
    let name = String(decoding: path, as: UTF8.self)
    // Opening a FIFO waits for a writer: a stop signal ends the wait without an error of its own.
    let terminated = cPath(path)
    var fd: Int32
    repeat {
        fd = open(terminated, O_RDONLY | O_CLOEXEC)
        if fd < 0 && errno == EINTR && stop.isRequested { throw .interrupted }
    } while fd < 0 && errno == EINTR
    guard fd >= 0 else { throw .unreadable("cannot open '\(DisplayText.quotedName(name))': \(String(cString: strerror(errno)))") }
    return try fileSource(fd, name: name, stop: stop)
}

/// A stream source over `fd`, a file opened by name; refused (and closed) if it is a directory.
private func fileSource(_ fd: Int32, name: String, stop: StopRequest) throws(LineSourceFailure) -> StreamLineSource {
    var info = stat()
    let known = fstat(fd, &info) == 0
    if known && (info.st_mode & S_IFMT) == S_IFDIR {
        close(fd)
        throw .unreadable("cannot read '\(DisplayText.quotedName(name))': it is a directory")
    }
    return StreamLineSource(
        fd: fd, name: name, path: name, ownsDescriptor: true, readsProcessInput: known && isStandardInput(info), stop: stop)
}

/// Whether the file `info` describes is the one open as standard input (`/dev/stdin`,
/// `/proc/self/fd/0`, or the file standard input was redirected from).
private func isStandardInput(_ info: stat) -> Bool {
    var input = stat()
    return fstat(0, &input) == 0 && input.st_dev == info.st_dev && input.st_ino == info.st_ino
}

/// Lines of a file or pipe, read in large chunks: memory stays constant however long the input.
final class StreamLineSource: BufferedLineSource {
    let name: String
    let path: String?
    private let fd: Int32
    private let ownsDescriptor: Bool
    let readsProcessInput: Bool
    /// The chunk read last, whose whole lines are lent where they lie.
    let chunk: LineChunk
    private var atEOF = false

    private let stop: StopRequest

    init(
        fd: Int32, name: String, path: String?, ownsDescriptor: Bool, readsProcessInput: Bool, stop: StopRequest,
        chunkSize: Int = 1 << 16
    ) {
        self.fd = fd
        self.readsProcessInput = readsProcessInput
        self.stop = stop
        self.name = name
        self.path = path
        self.ownsDescriptor = ownsDescriptor
        chunk = LineChunk(capacity: chunkSize, search: memchr)
    }

    deinit {
        if ownsDescriptor { close(fd) }
    }

    func readLine(into out: ByteBuffer, continuation: Bool) throws(LineSourceFailure) -> Bool {
        try chunk.readLine(into: out) { () throws(LineSourceFailure) in
            if atEOF { return false }
            try refill()
            return !atEOF
        }
    }

    /// Reads the next chunk (none at the end of input).
    private func refill() throws(LineSourceFailure) {
        while true {
            let n = chunk.refill { storage in read(fd, storage.baseAddress, storage.count) }
            // Input that never pauses (`< /dev/zero`) is never interrupted: look for a stop anyway.
            if stop.isRequested { throw .interrupted }
            if n > 0 { return }
            if n == 0 {
                atEOF = true
                return
            }
            if errno == EINTR {
                if stop.isRequested { throw .interrupted }
                continue
            }
            throw .unreadable("cannot read '\(DisplayText.quotedName(name))': \(String(cString: strerror(errno)))")
        }
    }
}
