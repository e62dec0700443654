import CarScript

#if canImport(Glibc)
import Glibc
#endif

/// A buffered writer to a file descriptor: output leaves in large blocks, or when flushed.
///
/// Results are written straight into the waiting bytes (amounts are formatted in place),
/// which it keeps in the engine's `ByteBuffer`: one growth routine for both.
public final class Output {
    /// The bytes waiting to be written.
    private let waitingBytes: ByteBuffer
    private let fd: Int32
    private let blockSize: Int
    /// Set once a write fails (a full disk, a closed descriptor, a reader that went away);
    /// later writes are dropped.
    public private(set) var failed = false
    /// Whether the failure was a closed pipe, which ends the program quietly.
    public private(set) var pipeClosed = false
    /// The `errno` of the failed write, for the program's one-line report.
    public private(set) var failureCode: Int32 = 0
    /// Set when a stop signal made a flush give up on a reader that does not read: the
    /// rest was dropped so that the program can stop promptly.
    public private(set) var abandoned = false

    /// Asked for when a write fails, so that evaluation stops; and looked at while flushing,
    /// so that a stop signal is not held up by a reader that does not read.
    private let stop: StopRequest?

    /// A writer to `fd` that writes whenever `blockSize` bytes are waiting, or after every
    /// result if `eachResult` (a terminal, where a person waits for each line, as stdio does).
    public init(fd: Int32, blockSize: Int = 1 << 16, eachResult: Bool = false, stop: StopRequest? = nil) {
        self.fd = fd
        self.blockSize = eachResult ? 1 : blockSize
        self.stop = stop
        waitingBytes = ByteBuffer(capacity: min(blockSize, 1 << 16) + 4096)
    }

    /// A writer that keeps everything in `buffer` (for capturing output, e.g. in tests).
    public static func memory() -> Output {
        Output(fd: -1, blockSize: Int.max)
    }

    /// The bytes waiting to be written; setting it replaces them.
    public var buffer: [UInt8] {
        get { waitingBytes.array }
        set {
            waitingBytes.removeAll()
            waitingBytes.append(newValue)
        }
    }

    /// How many bytes are waiting.
    var waiting: Int { waitingBytes.count }

    /// The bytes waiting from `start` on, copied.
    func suffix(from start: Int) -> [UInt8] {
        precondition(start >= 0 && start <= waiting, "suffix from \(start) of \(waiting)")
        return Array(waitingBytes.bytes[start...])
    }

    /// Whether any byte from `start` on would need escaping in a JSON string.
    func hasEscapable(from start: Int) -> Bool {
        let bytes = waitingBytes.bytes
        for index in start..<bytes.count where Output.mayBeEscaped(bytes[index]) {
            if Output.escapedLength(bytes, at: index) > 0 { return true }
        }
        return false
    }

    /// Drops the bytes waiting from `start` on.
    func removeWaiting(from start: Int) {
        waitingBytes.removeAll(from: start)
    }

    /// Appends text that may be long, a block at a time, writing each full block out: a
    /// saved script of a million lines is not copied whole into the buffer first. A block ends
    /// at a line break where it holds one, and a stop request ends the text there (`save -`
    /// at the prompt, Ctrl-C): false if it did.
    @discardableResult
    public func write(inBlocks text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                if stopRequested { return false }
                var end = start + min(bytes.count - start, 1 << 16)
                if end < bytes.count, let lineEnd = bytes[start..<end].lastIndex(of: 0x0A) { end = lineEnd + 1 }
                append(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                flushIfFull()
                start = end
            }
            return true
        }
    }

    /// Whether a stop was asked for: a long result ends between its lines then. The flush's
    /// own rule (give up on a reader that does not read) never cuts a terminal short, which
    /// always takes the bytes.
    var stopRequested: Bool { stop?.isRequested == true }

    /// Appends text.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Appends one byte.
    public func append(_ byte: UInt8) {
        waitingBytes.append(byte)
    }

    /// Appends bytes.
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        waitingBytes.append(bytes)
    }

    /// Appends a literal's bytes.
    public func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `count` blanks.
    func appendBlanks(_ count: Int) {
        if count > 0 { waitingBytes.append(0x20, count: count) }
    }

    /// Ends the line that began at `start` in the waiting bytes: drops its trailing blanks
    /// and appends a line break.
    func endLine(from start: Int) {
        var end = waitingBytes.count
        waitingBytes.withSpan { bytes in
            while end > start && bytes[end - 1] == 0x20 { end -= 1 }
        }
        waitingBytes.removeAll(from: end)
        waitingBytes.append(0x0A)
    }

    /// Lets `body` write up to `maximum` bytes in place; it returns how many it wrote.
    func write(upTo maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        waitingBytes.write(upTo: maximum, body)
    }

    /// Fails as a write would if the descriptor is closed or not open for writing: for a
    /// program whose every answer goes there (the language server), found before it serves.
    public func failUnlessWritable() {
        guard fd >= 0, !failed else { return }
        let flags = fcntl(fd, F_GETFL)
        guard flags < 0 || flags & O_ACCMODE == O_RDONLY else { return }
        failed = true
        failureCode = flags < 0 ? errno : EBADF
    }

    /// Writes out a full block, if there is one.
    public func flushIfFull() {
        if waitingBytes.count >= blockSize { flush() }
    }

    /// Writes out everything waiting.
    ///
    /// A write interrupted by a stop signal goes on only while the descriptor takes bytes
    /// without waiting: a reader that stopped reading must not keep a stopped program alive.
    public func flush() {
        guard waitingBytes.count > 0, fd >= 0 else { return }
        defer { waitingBytes.removeAll() }
        guard !failed, !abandoned else { return }
        let waiting = waitingBytes.bytes
        guard let start = waiting.baseAddress else { return }
        let count = waiting.count
        var offset = 0
        while offset < count {
            var chunk = count - offset
            if stop?.isRequested == true {
                guard Self.acceptsBytesNow(fd) else {
                    abandoned = true
                    return
                }
                // A pipe that polls writable takes at least this much without blocking.
                chunk = min(chunk, Int(PIPE_BUF))
            }
            let n = Glibc.write(fd, start + offset, chunk)
            if n < 0 {
                if errno == EINTR { continue }
                failed = true
                failureCode = errno
                pipeClosed = errno == EPIPE
                // Nothing more can be shown: evaluation stops (the program says why).
                stop?.request()
                return
            }
            offset += n
        }
    }

    /// Whether `fd` can take bytes within a moment.
    private static func acceptsBytesNow(_ fd: Int32) -> Bool {
        var item = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        while true {
            let ready = poll(&item, 1, 20)
            if ready < 0 && errno == EINTR { continue }
            return ready > 0 && item.revents & Int16(POLLOUT) != 0
        }
    }
}
