/// Plain values by small integer keys, in raw storage the table owns: a value that cannot be
/// copied, kept inline in its owner, so reading it on the hot path counts no reference (an
/// array's buffer, or an object reached through another, would be retained around calls).
/// Keys not yet set read as the table's filler; setting a key past the end grows the table.
struct DenseTable<Value: BitwiseCopyable>: ~Copyable {
    // Read on every command (see ARCHITECTURE.md, "Speed without flags").
    private var storage: UnsafeMutablePointer<Value>
    private var capacity: Int
    private let filler: Value

    /// A table whose every key reads as `filler`.
    init(filler: Value, capacity: Int = 16) {
        self.filler = filler
        self.capacity = max(capacity, 1)
        storage = RawStorage.allocate(self.capacity, filler: filler)
    }

    deinit {
        storage.deallocate()
    }

    /// The value at `key` (the filler if never set).
    @inline(__always)
    subscript(key: Int) -> Value {
        get {
            // One unsigned comparison checks both ends, in every build.
            UInt(bitPattern: key) < UInt(bitPattern: capacity) ? storage[key] : filler
        }
        set {
            precondition(key >= 0, "negative key \(key)")
            if key >= capacity { grow(toHold: key) }
            storage[key] = newValue
        }
    }

    /// Sets every key back to the filler.
    func reset() {
        storage.update(repeating: filler, count: capacity)
    }

    private mutating func grow(toHold key: Int) {
        (storage, capacity) = RawStorage.grow(storage, capacity: capacity, moving: capacity, toHold: key + 1, filler: filler)
    }
}
