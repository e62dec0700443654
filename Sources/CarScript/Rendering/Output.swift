#if canImport(Glibc)
import Glibc
#endif

/// A buffered writer to a file descriptor: output leaves in large blocks, or when flushed.
public final class Output {
    /// The bytes waiting to be written.
    public var buffer: [UInt8] = []
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
        buffer.reserveCapacity(min(blockSize, 1 << 16) + 4096)
    }

    /// A writer that keeps everything in `buffer` (for capturing output, e.g. in tests).
    public static func memory() -> Output {
        Output(fd: -1, blockSize: Int.max)
    }

    /// Appends text.
    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    /// Writes out a full block, if there is one.
    public func flushIfFull() {
        if buffer.count >= blockSize { flush() }
    }

    /// Writes out everything waiting.
    public func flush() {
        guard !buffer.isEmpty, fd >= 0 else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        guard !failed else { return }
        buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
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
}
