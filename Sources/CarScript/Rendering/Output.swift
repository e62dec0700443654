#if canImport(Glibc)
import Glibc
#endif

/// A buffered writer to a file descriptor: output leaves in large blocks, or when flushed.
///
/// The bytes wait in raw storage: results are written straight into it (amounts are
/// formatted in place), with no array bookkeeping per byte.
public final class Output {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes are waiting.
    public private(set) var count = 0
    private let fd: Int32
    private let blockSize: Int
    /// Set once a write fails (e.g. the reader of a pipe went away); later writes are dropped.
    public private(set) var failed = false
    /// Whether the failure was a closed pipe, which ends the program quietly.
    public private(set) var pipeClosed = false

    /// A writer to `fd` that writes whenever `blockSize` bytes are waiting.
    public init(fd: Int32, blockSize: Int = 1 << 16) {
        self.fd = fd
        self.blockSize = blockSize
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
            append(newValue)
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
    public func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        (storage + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends bytes.
    public func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Lets `body` write up to `maximum` bytes in place; it returns how many it wrote.
    public func write(upTo maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if count + maximum > capacity { grow(to: count + maximum) }
        count += body(storage + count)
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
    public func flush() {
        guard count > 0, fd >= 0 else { return }
        defer { count = 0 }
        guard !failed else { return }
        var offset = 0
        while offset < count {
            let n = Glibc.write(fd, storage + offset, count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                failed = true
                pipeClosed = errno == EPIPE
                return
            }
            offset += n
        }
    }
}
