/// The allocation and the one growth routine that the engine's raw buffers share (`ByteBuffer`,
/// `GrowingList`, `DenseTable`, the lexer's tokens and text, a name table's entries and keys):
/// capacities double, so a buffer filled a piece at a time costs time in proportion to what it
/// holds, and what a buffer holds is moved, never copied twice.
enum RawStorage {
    /// Storage for `capacity` elements and `padding` more, every one of them initialized to
    /// `filler` if given (else none is).
    static func allocate<Element>(_ capacity: Int, filler: Element? = nil, padding: Int = 0) -> UnsafeMutablePointer<Element> {
        precondition(capacity >= 0 && padding >= 0, "a negative capacity")
        let storage = UnsafeMutablePointer<Element>.allocate(capacity: capacity + padding)
        if let filler { storage.initialize(repeating: filler, count: capacity + padding) }
        return storage
    }

    /// Storage that holds at least `needed` elements, in place of `storage`: `capacity` (at
    /// least 1) doubles until it does, the first `count` elements move to the new storage, the
    /// rest of it (and `padding` more, past the capacity) is initialized to `filler` if given, and
    /// the old storage is freed. Buffers call it only when full, off their hot paths.
    ///
    /// It takes and returns values rather than `inout` fields: an `inout` access to a class's
    /// field that spans a call is one the optimizer cannot prove unnested, and it then checks
    /// every access to that field at run time (callgrind, 10^5 commands of the benchmark mix:
    /// 2,231 instructions a command with the lexer's, name tables' and lists' fields passed
    /// `inout`, 1,455 with them passed by value, the build otherwise the same).
    @inline(never)
    static func grow<Element>(
        _ storage: UnsafeMutablePointer<Element>, capacity: Int, moving count: Int, toHold needed: Int,
        filler: Element? = nil, padding: Int = 0
    ) -> (storage: UnsafeMutablePointer<Element>, capacity: Int) {
        precondition(capacity > 0 && count >= 0 && count <= capacity, "moving \(count) of \(capacity)")
        var grown = capacity
        // Overflow traps (checked arithmetic) long before memory runs out.
        while grown < needed { grown *= 2 }
        guard grown > capacity else { return (storage, capacity) }
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: grown + padding)
        bigger.moveInitialize(from: storage, count: count)
        if let filler { (bigger + count).initialize(repeating: filler, count: grown + padding - count) }
        storage.deallocate()
        return (bigger, grown)
    }
}
