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
    private let chunk: UnsafeMutableBufferPointer<UInt8>
    private var start = 0
    private var end = 0
    private var atEOF = false
    /// Where in `chunk` the line last lent lies (nil once the source reads again).
    private var lent: Range<Int>?

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
        chunk = .allocate(capacity: chunkSize)
    }

    deinit {
        chunk.deallocate()
        if ownsDescriptor { close(fd) }
    }

    /// Set once a line ran over the limit: the rest of it is read and dropped before the next line.
    private var skipping = false

    func readLine(into out: ByteBuffer, continuation: Bool) throws(LineSourceFailure) -> Bool {
        lent = nil
        if skipping {
            // Dropped as it is read, never held: an endless line (`< /dev/zero`) costs no memory.
            while true {
                if start < end, let base = chunk.baseAddress,
                    let newline = memchr(base + start, 0x0A, end - start)
                {
                    start += (base + start).distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
                    break
                }
                start = end
                if atEOF { return false }
                try refill()
            }
            skipping = false
        }
        var copied = 0
        var sawAny = false
        while true {
            if start < end {
                sawAny = true
                let base = chunk.baseAddress! + start
                let available = end - start
                let newline = memchr(base, 0x0A, available)
                let length = newline.map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? available
                // Over the limit, the line is reported at once, with what was read of it.
                if copied + length > maximumPhysicalLineLength {
                    let kept = maximumPhysicalLineLength - copied
                    out.append(UnsafeBufferPointer(start: base, count: kept))
                    start += kept
                    skipping = true
                    throw .lineTooLong(limit: maximumLineLength)
                }
                out.append(UnsafeBufferPointer(start: base, count: length))
                copied += length
                if newline != nil {
                    start += length + 1
                    break
                }
                start = end
            }
            if atEOF {
                if !sawAny { return false }
                break
            }
            try refill()
        }
        return true
    }

    func nextLineInPlace() -> UnsafeBufferPointer<UInt8>? {
        // The rest of an over-long line is dropped first, by `readLine`.
        guard !skipping, start < end, let base = chunk.baseAddress else { return nil }
        let first = base + start
        // Offsets within the chunk (`start < end <= chunk.count`), so the sums cannot overflow
        // and the range is ordered: worked out without the checks (~8 instructions a line).
        guard let newline = memchr(first, 0x0A, end &- start) else { return nil }
        let length = first.distance(to: newline.assumingMemoryBound(to: UInt8.self))
        lent = Range(uncheckedBounds: (start, start &+ length))
        start &+= length &+ 1
        return UnsafeBufferPointer(start: first, count: length)
    }

    func lentLine() -> UnsafeBufferPointer<UInt8>? {
        lent.map { UnsafeBufferPointer(rebasing: chunk[$0]) }
    }

    private func refill() throws(LineSourceFailure) {
        lent = nil
        start = 0
        end = 0
        while true {
            let n = read(fd, chunk.baseAddress, chunk.count)
            // Input that never pauses (`< /dev/zero`) is never interrupted: look for a stop anyway.
            if stop.isRequested { throw .interrupted }
            if n > 0 {
                end = n
                return
            }
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
