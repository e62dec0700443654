/// A growable run of bytes in raw storage, emptied and refilled many times: the line being
/// read, and the bytes carfab's `Output` has waiting to be written. Unlike an array it has no
/// per-append uniqueness check or generic growth path, which the hot path paid for on every
/// line. The one byte buffer of the engine and the program edge (it grows by
/// `RawStorage.grow`, as the engine's other buffers do); what is written on every
/// result is inlinable, so that the program edge's renderers call no function per byte.
///
/// Nothing of it is public but its name: an embedder can neither make one nor reach its bytes.
// The type is public only so that its `package` members inline in the program edge: Swift
// 6.3 inlines no `@inlinable package` member of a `package` type in another module (each
// append, `write(upTo:)` and even `count` was a call from carfab's renderers), and does of a
// public type (1,139 -> 1,113 instructions a command on the benchmark mix, 1,126 -> 1,112 on
// set/show: price, total, show and echo; callgrind, 10^5 commands).
public final class ByteBuffer {
    // Read and written on every command; nothing else reaches them while a method runs, so
    // they skip run-time exclusivity checks: with the checks, 3.7 calls of swift_beginAccess
    // a command on the benchmark mix, 233 instructions of its 1,397 (callgrind, 10^5
    // commands), the most of any type (see ARCHITECTURE.md, "Raw memory").
    @usableFromInline @exclusivity(unchecked) var storage: UnsafeMutablePointer<UInt8>
    @usableFromInline @exclusivity(unchecked) var capacity: Int
    /// How many bytes it holds.
    @usableFromInline @exclusivity(unchecked) var held = 0
    /// How many bytes it holds.
    @inlinable package var count: Int { held }

    /// An empty buffer with room for `capacity` bytes before it grows.
    package init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        storage = .allocate(capacity: self.capacity)
    }

    deinit {
        storage.deallocate()
    }

    /// The bytes held; valid until the buffer next changes.
    package var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage, count: held) }

    /// Lends the bytes held to `body`, as a span that cannot outlive the call.
    package func withSpan<Result>(_ body: (Span<UInt8>) -> Result) -> Result {
        body(bytes.span)
    }

    /// The bytes held, copied.
    package var array: [UInt8] { Array(bytes) }

    /// Empties the buffer, keeping its storage.
    package func removeAll() { held = 0 }

    /// Drops the last byte.
    package func removeLast() {
        precondition(held > 0, "removeLast on an empty buffer")
        held -= 1
    }

    /// Drops the first `k` bytes.
    package func removeFirst(_ k: Int) {
        precondition(k <= held, "removeFirst beyond the end")
        storage.update(from: storage + k, count: held - k)
        held -= k
    }

    /// Drops the bytes from `start` on.
    package func removeAll(from start: Int) {
        precondition(start >= 0 && start <= held, "from \(start) of \(held)")
        held = start
    }

    /// Appends one byte.
    @inlinable @inline(__always) package func append(_ byte: UInt8) {
        if held == capacity { grow(to: held + 1) }
        storage[held] = byte
        held += 1
    }

    /// Appends `count` copies of `byte` (blanks that pad a table's cell).
    @inlinable @inline(__always) package func append(_ byte: UInt8, count: Int) {
        precondition(count >= 0, "a negative count")
        if held + count > capacity { grow(to: held + count) }
        (storage + held).initialize(repeating: byte, count: count)
        held += count
    }

    /// Appends bytes.
    @inlinable package func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        if held + bytes.count > capacity { grow(to: held + bytes.count) }
        (storage + held).update(from: source, count: bytes.count)
        held += bytes.count
    }

    /// Appends bytes.
    package func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Lets `body` write up to `maximum` bytes in place at the end; it returns how many it wrote.
    @inlinable @inline(__always) package func write(upTo maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if held + maximum > capacity { grow(to: held + maximum) }
        let written = body(storage + held)
        precondition(written >= 0 && written <= maximum, "wrote past the room asked for")
        held += written
    }

    // Never inlined: now one call, it would otherwise be inlined into the appends, which then
    // grow too big to inline where they are used (JSON 4,690 -> 4,847 instructions a result).
    @usableFromInline @inline(never) func grow(to needed: Int) {
        (storage, capacity) = RawStorage.grow(storage, capacity: capacity, moving: held, toHold: needed)
    }
}
