// Case-insensitive name lookup straight from a word's bytes: the hot path of every command
// looks names up without building a String or hashing one.

/// Maps names, folded to lower case, to small integers; looked up from raw UTF-8 bytes.
struct NameIndex: Sendable {
    private struct Entry: Sendable {
        var hash: UInt64
        var start: Int32
        var length: Int32
        var value: Int32
    }

    private var slots: [Int32]        // -1 empty, else an entry number
    private var entries: [Entry] = []
    private var keys: [UInt8] = []    // folded names, back to back

    /// An index sized for about `capacity` names.
    init(capacity: Int = 16) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [Int32](repeating: -1, count: size)
    }

    /// An index of `names`, each mapped to its position.
    init(_ names: [String]) {
        self.init(capacity: names.count)
        for (position, name) in names.enumerated() { insert(name, value: position) }
    }

    /// Adds `name` for `value`; the first entry for a name wins.
    mutating func insert(_ name: String, value: Int) {
        let folded = Array(name.lowercased().utf8)
        let hash = folded.withUnsafeBufferPointer { Self.hash($0) }
        guard folded.withUnsafeBufferPointer({ find($0, hash: hash) }) == nil else { return }
        if entries.count * 2 >= slots.count { grow() }
        entries.append(Entry(hash: hash, start: Int32(keys.count), length: Int32(folded.count), value: Int32(value)))
        keys.append(contentsOf: folded)
        place(Int32(entries.count - 1), hash: hash)
    }

    /// The value of the name spelled by `bytes`, in any case.
    func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            if byte >= 0x80 { return lookupFolding(bytes) }
            hash = (hash ^ UInt64(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)) &* 0x0000_0100_0000_01B3
        }
        return find(bytes, hash: hash)
    }

    /// The value of `name`, in any case.
    func lookup(_ name: String) -> Int? {
        var name = name
        return name.withUTF8 { lookup($0) }
    }

    /// Rare: a non-ASCII name, folded the way `insert` folded it.
    private func lookupFolding(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let folded = Array(String(decoding: bytes, as: UTF8.self).lowercased().utf8)
        return folded.withUnsafeBufferPointer { find($0, hash: Self.hash($0)) }
    }

    private func find(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int? {
        slots.withUnsafeBufferPointer { slots in
            entries.withUnsafeBufferPointer { entries in
                keys.withUnsafeBufferPointer { keys in
                    let mask = slots.count - 1
                    var slot = Int(truncatingIfNeeded: hash) & mask
                    while true {
                        let number = Int(slots[slot])
                        if number < 0 { return nil }
                        let entry = entries[number]
                        if entry.hash == hash && Int(entry.length) == bytes.count
                            && Self.equal(bytes, UnsafeBufferPointer(rebasing: keys[Int(entry.start)..<Int(entry.start + entry.length)])) {
                            return Int(entry.value)
                        }
                        slot = (slot + 1) & mask
                    }
                }
            }
        }
    }

    private mutating func place(_ entry: Int32, hash: UInt64) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = entry
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        for number in entries.indices { place(Int32(number), hash: entries[number].hash) }
    }

    /// FNV-1a over the ASCII-lower-cased bytes.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in 0..<bytes.count {
            let byte = bytes[index]
            if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != key[index] { return false }
        }
        return true
    }
}
