#if canImport(Glibc)
import Glibc
#endif
import CarScript

/// A buffered writer to a file descriptor: output leaves in large blocks, or when flushed.
///
/// Results are written straight into the waiting bytes (amounts are formatted in place),
/// which it keeps in raw storage of its own: they are written to on every result, so they
/// skip run-time exclusivity checks, which an engine type's fields could not do from here.
public final class Output {
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var count = 0
    private let fd: Int32
    private let blockSize: Int
    /// Set once a write fails (a full disk, a closed descriptor, a reader that went away);
    /// later writes are dropped.
    @exclusivity(unchecked) public private(set) var failed = false
    /// Whether the failure was a closed pipe, which ends the program quietly.
    @exclusivity(unchecked) public private(set) var pipeClosed = false
    /// The `errno` of the failed write, for the program's one-line report.
    @exclusivity(unchecked) public private(set) var failureCode: Int32 = 0
    /// Set when a stop signal made a flush give up on a reader that does not read: the
    /// rest was dropped so that the program can stop promptly.
    @exclusivity(unchecked) public private(set) var abandoned = false

    /// Asked for when a write fails, so that evaluation stops; and looked at while flushing,
    /// so that a stop signal is not held up by a reader that does not read.
    private let stop: StopRequest?

    /// A writer to `fd` that writes whenever `blockSize` bytes are waiting, or after every
    /// result if `eachResult` (a terminal, where a person waits for each line, as stdio does).
    public init(fd: Int32, blockSize: Int = 1 << 16, eachResult: Bool = false, stop: StopRequest? = nil) {
        self.fd = fd
        self.blockSize = eachResult ? 1 : blockSize
        self.stop = stop
        capacity = min(blockSize, 1 << 16) + 4096
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deallocate()
    }

    /// A writer that keeps everything in `buffer` (for capturing output, e.g. in tests).
    public static func memory() -> Output {
        Output(fd: -1, blockSize: Int.max)
    }

    /// The bytes waiting to be written; setting it replaces them.
    public var buffer: [UInt8] {
        get { Array(UnsafeBufferPointer(start: storage, count: count)) }
        set {
            count = 0
            newValue.withUnsafeBufferPointer { append($0) }
        }
    }

    /// How many bytes are waiting.
    var waiting: Int { count }

    /// The bytes waiting from `start` on, copied.
    func suffix(from start: Int) -> [UInt8] {
        precondition(start >= 0 && start <= count, "suffix from \(start) of \(count)")
        return Array(UnsafeBufferPointer(start: storage + start, count: count - start))
    }

    /// Whether any byte from `start` on would need escaping in a JSON string.
    func hasEscapable(from start: Int) -> Bool {
        precondition(start >= 0 && start <= count, "from \(start) of \(count)")
        for index in start..<count where storage[index] < 0x20 || storage[index] == 0x22 || storage[index] == 0x5C
            || storage[index] == 0x7F { return true }
        return false
    }

    /// Drops the bytes waiting from `start` on.
    func removeWaiting(from start: Int) {
        precondition(start >= 0 && start <= count, "from \(start) of \(count)")
        count = start
    }

    /// Appends text that may be long, a block at a time, writing each full block out: a
    /// saved script of a million lines is not copied whole into the buffer first.
    public func write(inBlocks text: String) {
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                let end = start + min(bytes.count - start, 1 << 16)
                append(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                flushIfFull()
                start = end
            }
        }
    }

    /// Appends text.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Appends one byte.
    public func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        storage[count] = byte
        count += 1
    }

    /// Appends bytes.
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        (storage + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends a literal's bytes.
    public func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Lets `body` write up to `maximum` bytes in place; it returns how many it wrote.
    func write(upTo maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if count + maximum > capacity { grow(to: count + maximum) }
        let written = body(storage + count)
        assert(written <= maximum, "wrote past the room asked for")
        count += written
    }

    private func grow(to needed: Int) {
        var bigger = capacity * 2
        while bigger < needed { bigger *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
        grown.update(from: storage, count: count)
        storage.deallocate()
        storage = grown
        capacity = bigger
    }

    /// Writes out a full block, if there is one.
    public func flushIfFull() {
        if count >= blockSize { flush() }
    }

    /// Writes out everything waiting.
    ///
    /// A write interrupted by a stop signal goes on only while the descriptor takes bytes
    /// without waiting: a reader that stopped reading must not keep a stopped program alive.
    public func flush() {
        guard count > 0, fd >= 0 else { return }
        let start = storage
        let count = self.count
        defer { self.count = 0 }
        guard !failed, !abandoned else { return }
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
