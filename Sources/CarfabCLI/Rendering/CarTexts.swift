import CarFactory

/// The text renderer's `show` texts, by configuration: a configuration is immutable and
/// shared by every car built the same way, so its text is made once and copied after.
///
/// Direct-mapped by the configuration's identity: each slot keeps its configuration alive
/// (so that no other object can take its address while the slot names it) and its text in
/// a region of its own. At most `slots` texts of at most `room` bytes each: a longer text
/// (a catalog's long names) is made each time.
struct CarTexts {
    /// 256 slots (64 KiB of text at most), picked by a multiplicative hash of the address: with
    /// 64 slots picked by the address's low bits, configurations allocated a fixed distance apart
    /// shared few slots and evicted each other, so that a `show` was made afresh (~8k instructions)
    /// at a rate that changed with where the heap put them (the set/show mix cost 1,403 or 1,421
    /// instructions a command with only the script's path changed; callgrind, 10^5 commands).
    static let slotBits = 8
    static let slots = 1 << slotBits
    static let room = 256

    /// The configuration of each slot, kept alive; `keys` holds their addresses for comparing.
    /// All four are made at the first `show` (a run without one does not pay for them).
    private var owners: [CarConfiguration?] = []
    private var keys: [UInt] = []
    private var lengths: [Int] = []
    /// Each slot's text at `slot * room`.
    private var bytes: [UInt8] = []

    /// Writes `configuration`'s text to `out`, made by `make` the first time.
    ///
    /// The configuration is looked up by its address alone first: passed whole to a function
    /// that may keep it, it was retained and released around every `show` (1,098 -> 1,093
    /// instructions a command on set/show; callgrind, 10^5 commands).
    ///
    /// The closure is made only when the text is not kept: made before the lookup, it
    /// captured the car, and so retained and released its configuration around every `show`
    /// (set/show 1,036.1 -> 1,028.5 instructions a command; callgrind, 10^5 commands).
    @inline(__always)
    mutating func write(_ car: Car, to out: Output, make: (Car, Output) -> Void) {
        if writeKept(UInt(bitPattern: ObjectIdentifier(car.configuration)), to: out) { return }
        keep(car, to: out, make: make)
    }

    /// The first of the two slots that may hold the text of the configuration at `key`.
    /// Fibonacci hashing: the top bits of the address times 2^64/phi pick the slot. Two ways:
    /// a text is in its slot or the slot's neighbour (`slot ^ 1`), so that two configurations
    /// whose addresses hash alike do not evict each other.
    private static func slot(of key: UInt) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt(UInt.bitWidth - slotBits))
    }

    /// Writes the kept text of the configuration at `key`, if there is one; whether it did.
    private func writeKept(_ key: UInt, to out: Output) -> Bool {
        guard !keys.isEmpty else { return false }
        var slot = Self.slot(of: key)
        if keys[slot] != key {
            guard keys[slot ^ 1] == key else { return false }
            slot ^= 1
        }
        let start = slot * Self.room
        let length = lengths[slot]
        bytes.withUnsafeBufferPointer { out.append(UnsafeBufferPointer(rebasing: $0[start..<start + length])) }
        return true
    }

    /// Makes `configuration`'s text with `make`, writing it to `out`, and keeps it.
    @inline(never)
    private mutating func keep(_ car: Car, to out: Output, make: (Car, Output) -> Void) {
        let configuration = car.configuration
        let key = UInt(bitPattern: ObjectIdentifier(configuration))
        var slot = Self.slot(of: key)
        // A free slot of the two if there is one; else the first is taken over.
        if !keys.isEmpty && keys[slot] != 0 && keys[slot ^ 1] == 0 { slot ^= 1 }
        let start = out.waiting
        make(car, out)
        let length = out.waiting - start
        guard length <= Self.room else { return }
        if keys.isEmpty {
            owners = [CarConfiguration?](repeating: nil, count: Self.slots)
            keys = [UInt](repeating: 0, count: Self.slots)
            lengths = [Int](repeating: 0, count: Self.slots)
            bytes = [UInt8](repeating: 0, count: Self.slots * Self.room)
        }
        let text = out.suffix(from: start)
        bytes.replaceSubrange(slot * Self.room..<slot * Self.room + length, with: text)
        owners[slot] = configuration
        keys[slot] = key
        lengths[slot] = length
    }
}
