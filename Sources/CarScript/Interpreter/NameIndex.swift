// Case-insensitive name lookup straight from a word's bytes: the hot path of every command
// looks names up without building a String or hashing one.

/// Maps names, folded to lower case, to small integers; looked up from raw UTF-8 bytes.
struct NameIndex: Sendable {
    /// The table in raw memory owned by one object, so a lookup touches no reference counts
    /// and no array checks. Names are only ever added while an index is being built.
    private final class Table: @unchecked Sendable {
        struct Entry {
            var hash: UInt64
            var start: Int
            var length: Int
            var value: Int
        }

        var slotCount: Int
        var slots: UnsafeMutablePointer<Int32>     // -1 empty, else an entry number
        var entries: UnsafeMutablePointer<Entry>
        var entryCount = 0
        var entryCapacity: Int
        var keys: UnsafeMutablePointer<UInt8>       // folded names, back to back
        var keyCount = 0
        var keyCapacity: Int

        init(slots count: Int) {
            slotCount = count
            slots = .allocate(capacity: count)
            slots.initialize(repeating: -1, count: count)
            entryCapacity = count / 2
            entries = .allocate(capacity: entryCapacity)
            keyCapacity = 64
            keys = .allocate(capacity: keyCapacity)
        }

        deinit {
            slots.deallocate()
            entries.deallocate()
            keys.deallocate()
        }

        func find(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int? {
            let mask = slotCount - 1
            var slot = Int(truncatingIfNeeded: hash) & mask
            while true {
                let number = Int(slots[slot])
                if number < 0 { return nil }
                let entry = entries[number]
                if entry.hash == hash && entry.length == bytes.count && Self.equal(bytes, keys + entry.start) {
                    return entry.value
                }
                slot = (slot + 1) & mask
            }
        }

        func add(_ folded: [UInt8], hash: UInt64, value: Int) {
            if (entryCount + 1) * 2 > slotCount { grow() }
            if keyCount + folded.count > keyCapacity {
                let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: max(keyCapacity * 2, keyCount + folded.count))
                bigger.update(from: keys, count: keyCount)
                keys.deallocate()
                keys = bigger
                keyCapacity = max(keyCapacity * 2, keyCount + folded.count)
            }
            (keys + keyCount).update(from: folded, count: folded.count)
            (entries + entryCount).initialize(to: Entry(hash: hash, start: keyCount, length: folded.count, value: value))
            keyCount += folded.count
            place(entryCount, hash: hash)
            entryCount += 1
        }

        private func place(_ entry: Int, hash: UInt64) {
            let mask = slotCount - 1
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(entry)
        }

        private func grow() {
            slots.deallocate()
            slotCount *= 2
            slots = .allocate(capacity: slotCount)
            slots.initialize(repeating: -1, count: slotCount)
            let bigger = UnsafeMutablePointer<Entry>.allocate(capacity: slotCount / 2)
            bigger.moveInitialize(from: entries, count: entryCount)
            entries.deallocate()
            entries = bigger
            entryCapacity = slotCount / 2
            for number in 0..<entryCount { place(number, hash: entries[number].hash) }
        }

        private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ key: UnsafePointer<UInt8>) -> Bool {
            for index in 0..<bytes.count {
                let byte = bytes[index]
                if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != key[index] { return false }
            }
            return true
        }
    }

    private var table: Table

    /// An index sized for about `capacity` names.
    init(capacity: Int = 16) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        table = Table(slots: size)
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
        guard folded.withUnsafeBufferPointer({ table.find($0, hash: hash) }) == nil else { return }
        if !isKnownUniquelyReferenced(&table) { table = copy(of: table) }
        table.add(folded, hash: hash, value: value)
    }

    /// The value of the name spelled by `bytes`, in any case.
    func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            if byte >= 0x80 { return lookupFolding(bytes) }
            hash = (hash ^ UInt64(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)) &* 0x0000_0100_0000_01B3
        }
        return table.find(bytes, hash: hash)
    }

    /// The value of `name`, in any case.
    func lookup(_ name: String) -> Int? {
        var name = name
        return name.withUTF8 { lookup($0) }
    }

    /// Rare: a non-ASCII name, folded the way `insert` folded it.
    private func lookupFolding(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let folded = Array(String(decoding: bytes, as: UTF8.self).lowercased().utf8)
        return folded.withUnsafeBufferPointer { table.find($0, hash: Self.hash($0)) }
    }

    /// A copy of `table`, so an index copied before an insert keeps its own names (value semantics).
    private func copy(of table: Table) -> Table {
        let copy = Table(slots: table.slotCount)
        for number in 0..<table.entryCount {
            let entry = table.entries[number]
            copy.add(Array(UnsafeBufferPointer(start: table.keys + entry.start, count: entry.length)),
                     hash: entry.hash, value: entry.value)
        }
        return copy
    }

    /// FNV-1a over the ASCII-lower-cased bytes.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
