/// A growable run of bytes in raw storage, emptied and refilled many times: the line being
/// read and the output waiting to be written. Unlike an array it has no per-append uniqueness
/// check or generic growth path, which the hot path paid for on every line.
package final class ByteBuffer {
    // Read and written on every command; nothing else reaches them while a method runs, so
    // they skip run-time exclusivity checks (see ARCHITECTURE.md, "Speed without flags").
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    /// How many bytes it holds.
    @exclusivity(unchecked) package private(set) var count = 0

    /// An empty buffer with room for `capacity` bytes before it grows.
    package init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        storage = .allocate(capacity: self.capacity)
    }

    deinit {
        storage.deallocate()
    }

    /// The bytes held; valid until the buffer next changes.
    package var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage, count: count) }

    /// Lends the bytes held to `body`, as a span that cannot outlive the call.
    package func withSpan<Result>(_ body: (Span<UInt8>) -> Result) -> Result {
        body(bytes.span)
    }

    /// The bytes held, copied.
    package var array: [UInt8] { Array(bytes) }

    /// Empties the buffer, keeping its storage.
    package func removeAll() { count = 0 }

    /// Drops the last byte.
    package func removeLast() {
        precondition(count > 0, "removeLast on an empty buffer")
        count -= 1
    }

    /// Drops the first `k` bytes.
    package func removeFirst(_ k: Int) {
        precondition(k <= count, "removeFirst beyond the end")
        storage.update(from: storage + k, count: count - k)
        count -= k
    }

    /// Appends one byte.
    package func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        storage[count] = byte
        count += 1
    }

    /// Appends bytes.
    package func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        (storage + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends bytes.
    package func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Lets `body` write up to `maximum` bytes in place at the end; it returns how many it wrote.
    package func write(upTo maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
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
}
