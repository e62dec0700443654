#if canImport(Glibc)
import Glibc
#endif

/// A buffered writer to a file descriptor: output leaves in large blocks, or when flushed.
///
/// Results are written straight into the waiting bytes (amounts are formatted in place).
public final class Output {
    private let pending: ByteBuffer
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
        pending = ByteBuffer(capacity: min(blockSize, 1 << 16) + 4096)
    }

    /// A writer that keeps everything in `buffer` (for capturing output, e.g. in tests).
    public static func memory() -> Output {
        Output(fd: -1, blockSize: Int.max)
    }

    /// The bytes waiting to be written; setting it replaces them.
    public var buffer: [UInt8] {
        get { pending.array }
        set {
            pending.removeAll()
            pending.append(newValue)
        }
    }

    /// Appends text.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { pending.append($0) }
    }

    /// Appends one byte.
    public func append(_ byte: UInt8) { pending.append(byte) }

    /// Appends bytes.
    public func append(_ bytes: UnsafeBufferPointer<UInt8>) { pending.append(bytes) }

    /// Appends a literal's bytes.
    public func append(_ text: StaticString) {
        pending.append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Lets `body` write up to `maximum` bytes in place; it returns how many it wrote.
    public func write(upTo maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        pending.write(upTo: maximum, body)
    }

    /// Writes out a full block, if there is one.
    public func flushIfFull() {
        if pending.count >= blockSize { flush() }
    }

    /// Writes out everything waiting.
    public func flush() {
        guard pending.count > 0, fd >= 0 else { return }
        defer { pending.removeAll() }
        guard !failed, let start = pending.bytes.baseAddress else { return }
        let count = pending.count
        var offset = 0
        while offset < count {
            let n = Glibc.write(fd, start + offset, count - offset)
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
