import CarFactory

/// The text renderer's `show` texts, by configuration: a configuration is immutable and
/// shared by every car built the same way, so its text is made once and copied after.
///
/// Direct-mapped by the configuration's identity: each slot keeps its configuration alive
/// (so that no other object can take its address while the slot names it) and its text in
/// a region of its own. At most `slots` texts of at most `room` bytes each: a longer text
/// (a catalog's long names) is made each time.
struct CarTexts {
    static let slots = 64
    static let room = 256

    /// The configuration of each slot, kept alive; `keys` holds their addresses for comparing.
    private var owners = [CarConfiguration?](repeating: nil, count: slots)
    private var keys = [UInt](repeating: 0, count: slots)
    private var lengths = [Int](repeating: 0, count: slots)
    /// Each slot's text at `slot * room`; made at the first `show`.
    private var bytes: [UInt8] = []

    /// Writes `configuration`'s text to `out`, made by `make` the first time.
    mutating func write(_ configuration: CarConfiguration, to out: Output, make: (Output) -> Void) {
        let key = UInt(bitPattern: ObjectIdentifier(configuration))
        // Objects are 16-byte aligned: the bits above those pick the slot.
        let slot = Int((key >> 4) % UInt(Self.slots))
        if keys[slot] == key {
            let start = slot * Self.room
            let length = lengths[slot]
            bytes.withUnsafeBufferPointer { out.append(UnsafeBufferPointer(rebasing: $0[start..<start + length])) }
            return
        }
        let start = out.waiting
        make(out)
        let length = out.waiting - start
        guard length <= Self.room else { return }
        if bytes.isEmpty { bytes = [UInt8](repeating: 0, count: Self.slots * Self.room) }
        let text = out.suffix(from: start)
        bytes.replaceSubrange(slot * Self.room..<slot * Self.room + length, with: text)
        owners[slot] = configuration
        keys[slot] = key
        lengths[slot] = length
    }
}
