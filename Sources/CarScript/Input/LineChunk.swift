/// Finds the first of `count` bytes from a start equal to a byte, as the C library's `memchr`
/// does (it may be `memchr`, called through this pointer without a stub between).
package typealias ByteSearch = @convention(c) (UnsafeRawPointer, Int32, Int) -> UnsafeMutableRawPointer?

/// `memchr` in Swift, for a chunk whose host gives none.
private func firstByte(_ start: UnsafeRawPointer, _ byte: Int32, _ count: Int) -> UnsafeMutableRawPointer? {
    let bytes = start.assumingMemoryBound(to: UInt8.self)
    let wanted = UInt8(truncatingIfNeeded: byte)
    var index = 0
    while index < count {
        if bytes[index] == wanted { return UnsafeMutableRawPointer(mutating: start + index) }
        index &+= 1
    }
    return nil
}

/// Input a line source holds in memory that stays put (a file's chunk, a text whole) and the
/// one owner of that memory: it lends the whole lines of it where they lie, and reads the rest
/// a piece at a time for its source.
///
/// The runner takes lent lines from it with a direct call: through the source's protocol, each
/// line was a call by witness table (and its thunk) into the source.
package final class LineChunk {
    /// The bytes, allocated once.
    private let storage: UnsafeMutableBufferPointer<UInt8>
    /// Where the input not yet read begins in `storage`.
    private var start = 0
    /// Where the input held ends in `storage`.
    private var end = 0
    /// Set once a line ran over the limit: the rest of it is dropped, by `readLine`, before
    /// another line is read or lent.
    private var skipping = false
    /// Where the line last lent lies (nil once the source reads again).
    private var lent: Range<Int>?
    /// How line breaks are found.
    private let search: ByteSearch

    /// Room for `capacity` bytes, holding none yet, whose line breaks `search` finds (the C
    /// library's `memchr`, from a host that has it).
    package init(capacity: Int, search: ByteSearch) {
        storage = .allocate(capacity: capacity)
        self.search = search
    }

    /// `bytes`, held whole (text: its lines are found by a loop in Swift, as the engine has no
    /// C library of its own).
    init(holding bytes: [UInt8]) {
        storage = .allocate(capacity: bytes.count)
        _ = storage.initialize(from: bytes)
        end = bytes.count
        search = firstByte
    }

    deinit {
        storage.deallocate()
    }

    /// The next line, without its line break, where it lies, if it lies here whole with its
    /// line break and within the limit (valid until the source reads again); nil, having taken
    /// nothing, if it does not.
    @inline(__always)
    func nextLine() -> UnsafeBufferPointer<UInt8>? {
        // Only a text held whole can hold a line over the limit: `readLine` reports it.
        guard !skipping, let length = lineLength(), length <= maximumPhysicalLineLength, let base = storage.baseAddress else {
            return nil
        }
        let first = base + start
        lent = Range(uncheckedBounds: (start, start &+ length))
        start &+= length &+ 1
        return UnsafeBufferPointer(start: first, count: length)
    }

    /// The line `nextLine` lent last, where it still lies; nil if nothing has been lent since
    /// the last read.
    func lentLine() -> UnsafeBufferPointer<UInt8>? {
        lent.map { UnsafeBufferPointer(rebasing: storage[$0]) }
    }

    /// Appends the next physical line, without its line break, to `out`; false at the end of
    /// input. `more` reads more input into the chunk when what it holds runs out (see
    /// `refill(_:)`), false at the end of input. A line over the limit is reported with what was
    /// read of it, and its rest dropped as it is read before the next line (never held: an
    /// endless line, `< /dev/zero`, costs no memory).
    package func readLine(
        into out: ByteBuffer, more: () throws(LineSourceFailure) -> Bool
    ) throws(LineSourceFailure) -> Bool {
        lent = nil
        if skipping {
            while true {
                if let length = lineLength() {
                    start &+= length &+ 1
                    break
                }
                start = end
                guard try more() else { return false }
            }
            skipping = false
        }
        var copied = 0
        var sawAny = false
        while true {
            if start < end, let base = storage.baseAddress {
                sawAny = true
                let newline = lineLength()
                let length = newline ?? end &- start
                // Over the limit, the line is reported at once, with what was read of it.
                if copied + length > maximumPhysicalLineLength {
                    let kept = maximumPhysicalLineLength - copied
                    out.append(UnsafeBufferPointer(start: base + start, count: kept))
                    start += kept
                    skipping = true
                    throw .lineTooLong(limit: maximumLineLength)
                }
                out.append(UnsafeBufferPointer(start: base + start, count: length))
                copied += length
                if newline != nil {
                    start += length + 1
                    return true
                }
                start = end
            }
            guard try more() else { return sawAny }
        }
    }

    /// How many bytes from `start` come before the next line break, if one is held. (Offsets
    /// within the storage, `start < end <= storage.count`: their sums cannot overflow.)
    @inline(__always)
    private func lineLength() -> Int? {
        guard start < end, let base = storage.baseAddress, let newline = search(base + start, 0x0A, end &- start) else {
            return nil
        }
        return (base + start).distance(to: newline.assumingMemoryBound(to: UInt8.self))
    }

    /// Replaces what the chunk holds with what `read` puts in its storage (the count it
    /// returns, at most the storage's size; 0 or less: nothing), and returns that count.
    package func refill(_ read: (UnsafeMutableBufferPointer<UInt8>) -> Int) -> Int {
        lent = nil
        start = 0
        end = 0
        let count = read(storage)
        if count > 0 {
            precondition(count <= storage.count, "read \(count) bytes into \(storage.count)")
            end = count
        }
        return count
    }
}
