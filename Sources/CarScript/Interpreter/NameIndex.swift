import CarFactory

// Case-insensitive name lookup straight from a word's bytes: the hot path of every command
// looks names up without building a String or hashing one.

/// Maps names, folded to lower case, to small integers; looked up from raw UTF-8 bytes.
struct NameIndex: Sendable {
    /// The table in raw memory owned by one object, so a lookup touches no reference counts
    /// and no array checks. Names are only ever added while an index is being built.
    ///
    /// Sendable as an array's storage is: `NameIndex` copies a table before changing it unless
    /// it holds the only reference, so a table two indexes share is never changed (the
    /// command table's, shared by every session, is finished before anyone sees it).
    fileprivate final class Table: @unchecked Sendable {
        struct Entry: BitwiseCopyable {
            var key: Key
            var start: Int
            var value: Int
        }

        /// What an empty slot holds in `residents`: a key no name has. (An `Entry`, not a type of
        /// its own: a type of its own had its pointer's metadata made at every start-up.)
        static var noResident: Entry { Entry(key: Key(low: 0, high: 0, length: -1), start: 0, value: -1) }

        var slotCount: Int
        /// 64 less log2 of `slotCount` (slots are taken from the top bits of the hash), and
        /// `slotCount - 1`: kept so that a lookup reads them instead of working them out, with
        /// their overflow checks, each time.
        var shift: UInt64
        var mask: Int
        var slots: UnsafeMutablePointer<Int32>  // -1 empty, else an entry number
        /// Each slot's entry again, its key and value copied in (an empty slot's key has length
        /// -1, which no name has): kept in step with `slots` by `setSlot`, so that a lookup
        /// that finds its name in its first slot reads the slot alone, not the slot and then the
        /// entry it points to. That second load, waited for on every name a command looks up,
        /// was ~15% of the benchmark's time by `perf record -e cpu-clock` on NameIndex's lines.
        var residents: UnsafeMutablePointer<Entry>
        var entries: UnsafeMutablePointer<Entry>
        var entryCount = 0
        var entryCapacity: Int
        var keys: UnsafeMutablePointer<UInt8>  // folded names, back to back (for names over 16 bytes)
        var keyCount = 0
        var keyCapacity: Int
        /// Entries not in their first slot: small tables are rearranged until there are none.
        var displaced = 0
        /// Set when two names hash alike under every seed (see `hasInseparableNames`): `arrange`
        /// then leaves the table as it is until names are taken out.
        var inseparable = false
        /// Mixed into every hash; chosen so that no two names share a first slot.
        var seed: UInt64 = 0
        /// The names that are not ASCII (folded, as strings) and their values, first entry
        /// first: a `String` compares and hashes by canonical equivalence, so a word in another
        /// normal form (`e` and U+0301 for `é`) finds its name here. Nil while there are none,
        /// as for every table of the built-in catalog: an ASCII word not in the slots is then no
        /// name, and no dictionary keyed by `String` is set up (see `NameMap` in the domain).
        /// (Boxed: a dictionary as the field itself had its type set up at every start-up,
        /// ~12k instructions.)
        var canonical: CanonicalNames?
        /// Whether `canonical` holds any name: a plain flag for lookups to read, as a read of the
        /// dictionary itself is checked for exclusive access (and cost ~170 instructions a
        /// command on the benchmark mix; callgrind, 10^5 commands).
        var holdsOtherNames = false

        init(slots count: Int) {
            slotCount = count
            shift = UInt64(64 - count.trailingZeroBitCount)
            mask = count - 1
            slots = .allocate(capacity: count)
            slots.initialize(repeating: -1, count: count)
            residents = Self.allocateEntries(count)
            Self.clear(residents, count)
            entryCapacity = count / 2
            entries = Self.allocateEntries(entryCapacity)
            keyCapacity = 64
            keys = .allocate(capacity: keyCapacity)
        }

        deinit {
            slots.deallocate()
            residents.deallocate()
            entries.deallocate()
            keys.deallocate()
        }

        @inline(__always)
        func slot(of key: Key) -> Int {
            Int(truncatingIfNeeded: key.hash(seed: seed) &>> shift)
        }

        @inline(__always)
        func find(_ bytes: UnsafeBufferPointer<UInt8>, key: Key) -> Int? {
            view.find(bytes, key: key)
        }

        @inline(__always)
        var view: View {
            View(
                slots: slots, residents: residents, entries: entries, keys: keys, seed: seed, shift: shift, mask: mask,
                holdsOtherNames: holdsOtherNames)
        }

        /// Adds a folded name; `ascii` says whether it is all ASCII.
        func add(_ folded: [UInt8], key: Key, value: Int, ascii: Bool) {
            if (entryCount + 1) * 2 > slotCount { grow() }
            if entryCount == entryCapacity {
                (entries, entryCapacity) = RawStorage.grow(
                    entries, capacity: entryCapacity, moving: entryCount, toHold: entryCount + 1)
            }
            if keyCount + folded.count > keyCapacity {
                (keys, keyCapacity) = RawStorage.grow(
                    keys, capacity: keyCapacity, moving: keyCount, toHold: keyCount + folded.count)
            }
            (keys + keyCount).update(from: folded, count: folded.count)
            (entries + entryCount).initialize(to: Entry(key: key, start: keyCount, value: value))
            keyCount += folded.count
            if !ascii { holdCanonically(String(decoding: folded, as: UTF8.self), value) }
            place(entryCount)
            entryCount += 1
        }

        /// Tables up to this many slots (4 KiB) are made collision-free.
        static let collisionFreeLimit = 1 << 10

        /// Small tables (commands, models, options, currencies) are made collision-free, so a
        /// lookup reads one slot: first by trying other seeds, then with more slots. Kept
        /// small, the slots stay in cache; spreading names over many slots cost more in
        /// cache misses than the probing it saved.
        func arrange() {
            // A large table keeps its probing: arranging it on every insert would cost time in
            // proportion to its size each time.
            guard displaced > 0, !inseparable, slotCount <= Self.collisionFreeLimit else { return }
            // The residents are filled in once, for the seed that is kept.
            defer { fillResidents() }
            while true {
                for attempt in 1...16 {
                    seed = UInt64(attempt) &* 0x9E37_79B9_7F4A_7C15
                    placeAll(fillingResidents: false)
                    if displaced == 0 { return }
                }
                // No seed and no size parts two names that hash alike under every seed: without
                // this, the table grew to its limit and every later definition tried 16 seeds again.
                if hasInseparableNames() {
                    inseparable = true
                    return
                }
                guard slotCount < Self.collisionFreeLimit else { return }
                grow()
            }
        }

        /// Whether two entries hash alike under every seed: names that differ only in bit 5 of
        /// bytes that are not letters (`a[1`, `a{1`), which the hash leaves out so that a word
        /// need not be folded before its slot is found (see `Key.hash`).
        private func hasInseparableNames() -> Bool {
            var seen: Set<HashInput> = []
            for number in 0..<entryCount {
                let key = entries[number].key
                guard seen.insert(HashInput(key: key)).inserted else { return true }
            }
            return false
        }

        /// What a key's hash reads of it: two keys with the same hash alike under every seed.
        private struct HashInput: Hashable {
            let low: UInt64
            let high: UInt64
            init(key: Key) {
                let unfolded = ~(0x20 &* Key.ones)
                (low, high) = (key.low & unfolded, (key.high & unfolded) ^ UInt64(truncatingIfNeeded: key.length))
            }
        }

        /// Drops the entries added for values `value` and above: the names of the last
        /// definitions, taken back (entries are added in the order of their values).
        func removeEntries(from value: Int) {
            var kept = entryCount
            while kept > 0 && entries[kept - 1].value >= value { kept -= 1 }
            guard kept < entryCount else { return }
            inseparable = false
            // The names dropped that are held by canonical equivalence too: each is the
            // canonical entry only if no name kept (all added before it) is equivalent.
            if holdsOtherNames, let names = canonical {
                for number in kept..<entryCount {
                    let entry = entries[number]
                    let folded = UnsafeBufferPointer(start: keys + entry.start, count: entry.key.length)
                    guard folded.contains(where: { $0 >= 0x80 }) else { continue }
                    let name = String(decoding: folded, as: UTF8.self)
                    if let held = names.values[name], held >= value { names.values[name] = nil }
                }
                if names.values.isEmpty {
                    canonical = nil
                    holdsOtherNames = false
                }
            }
            if slotCount <= Self.collisionFreeLimit {
                keyCount = entries[kept].start
                entryCount = kept
                placeAll()
                arrange()
                return
            }
            // A large table takes each dropped entry out of its slot: placing every entry
            // again for each definition taken back made rolling back N options of one family
            // cost N squared (60,000 took 4.5 s; trial 4, 13).
            for number in stride(from: entryCount - 1, through: kept, by: -1) { unplace(number) }
            keyCount = entries[kept].start
            entryCount = kept
        }

        /// Frees the slot of entry `entry`, and closes the hole (see `LinearProbing`).
        private func unplace(_ entry: Int) {
            let mask = slotCount - 1
            var hole = slot(of: entries[entry].key)
            while slots[hole] != Int32(entry) {
                guard slots[hole] >= 0 else { return }
                hole = (hole + 1) & mask
            }
            setSlot(hole, to: -1)
            var table = self
            table.closeHole(at: hole)
        }

        /// Keeps a non-ASCII name for lookups by canonical equivalence; the first entry for a name wins.
        private func holdCanonically(_ name: String, _ value: Int) {
            let names = canonical ?? CanonicalNames()
            canonical = names
            holdsOtherNames = true
            if names.values[name] == nil { names.values[name] = value }
        }

        /// Places every entry again; the residents too, unless the caller fills them in later.
        private func placeAll(fillingResidents: Bool = true) {
            slots.update(repeating: -1, count: slotCount)
            displaced = 0
            for number in 0..<entryCount { place(number, fillingResident: false) }
            if fillingResidents { fillResidents() }
        }

        /// Copies every slot's entry into `residents` (empty slots' too).
        private func fillResidents() {
            for slot in 0..<slotCount { setSlot(slot, to: slots[slot]) }
        }

        private func place(_ entry: Int, fillingResident: Bool = true) {
            let mask = slotCount - 1
            var slot = slot(of: entries[entry].key)
            if slots[slot] >= 0 { displaced += 1 }
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            if fillingResident { setSlot(slot, to: Int32(entry)) } else { slots[slot] = Int32(entry) }
        }

        /// Storage for `count` entries, uninitialized. One place allocates them all: each place
        /// that allocates them looks the type's metadata up by name the first time it runs
        /// (~3,000 instructions of every start-up each).
        @inline(never)
        static func allocateEntries(_ count: Int) -> UnsafeMutablePointer<Entry> {
            .allocate(capacity: count)
        }

        /// Initializes `count` residents to none.
        static func clear(_ residents: UnsafeMutablePointer<Entry>, _ count: Int) {
            for slot in 0..<count { (residents + slot).initialize(to: noResident) }
        }

        /// Puts entry number `entry` (-1: none) in `slot`, in `slots` and `residents` alike.
        func setSlot(_ slot: Int, to entry: Int32) {
            slots[slot] = entry
            residents[slot] = entry < 0 ? Self.noResident : entries[Int(entry)]
        }

        private func grow() {
            slots.deallocate()
            residents.deallocate()
            slotCount *= 2
            shift -= 1
            mask = slotCount - 1
            slots = .allocate(capacity: slotCount)
            slots.initialize(repeating: -1, count: slotCount)
            // Filled in by `placeAll`.
            residents = Self.allocateEntries(slotCount)
            Self.clear(residents, slotCount)
            placeAll()
        }

    }

    /// Names by canonical equivalence, for a table that holds names that are not ASCII.
    fileprivate final class CanonicalNames {
        var values: [String: Int] = [:]
    }

    /// A table's storage as plain values, read once for a lookup. A view lives only inside
    /// one lookup (made from the table and used in the same expression, never stored), and
    /// nothing changes a table during a lookup, so it cannot go stale: its reads need no check
    /// of the table's changes.
    fileprivate struct View: BitwiseCopyable {
        fileprivate let slots: UnsafeMutablePointer<Int32>
        fileprivate let residents: UnsafeMutablePointer<Table.Entry>
        fileprivate let entries: UnsafeMutablePointer<Table.Entry>
        fileprivate let keys: UnsafeMutablePointer<UInt8>
        fileprivate let seed: UInt64
        fileprivate let shift: UInt64
        fileprivate let mask: Int
        /// Whether some name is not ASCII: an ASCII word that misses may still be one of them.
        fileprivate let holdsOtherNames: Bool

        @inline(__always)
        fileprivate func find(_ bytes: UnsafeBufferPointer<UInt8>, key: Key) -> Int? {
            // No index here is checked, as each is in range by construction: the first slot is
            // the hash's top bits (below the slot count), the next is masked, an occupied slot
            // holds the number of an entry made before it, and an entry's key bytes were
            // stored with it.
            // (`&>>`: the shift is below 64, as a table has at least 16 slots.)
            var slot = Int(truncatingIfNeeded: key.hash(seed: seed) &>> shift)
            while true {
                let number = Int(slots[slot])
                if number < 0 { return nil }
                let entry = entries[number]
                if entry.key == key && (key.length <= 16 || Self.equal(bytes, keys + entry.start)) {
                    return entry.value
                }
                slot = (slot + 1) & mask
            }
        }

        private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ key: UnsafePointer<UInt8>) -> Bool {
            for index in 0..<bytes.count where fold(bytes[index]) != key[index] { return false }
            return true
        }
    }

    /// A name's first 16 folded bytes packed into two words, and its length: equal keys
    /// mean equal names up to 16 bytes, compared in two instructions. A longer name's other
    /// bytes are mixed into the second word (see `tail(of:)`); its bytes are compared too.
    struct Key: Equatable {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var length: Int

        /// `==` as one test of the three fields' differences together, not a branch for
        /// each: the inline lookup's compare, run for every name a command looks up.
        @inline(__always)
        func isSame(as other: Key) -> Bool {
            (low ^ other.low) | (high ^ other.high) | UInt64(bitPattern: Int64(length ^ other.length)) == 0
        }

        /// The key of `bytes`, ASCII letters folded; `ascii` says whether every byte was ASCII.
        @inline(__always)
        init(_ bytes: UnsafeBufferPointer<UInt8>, ascii: inout Bool) {
            length = bytes.count
            var low: UInt64 = 0
            var high: UInt64 = 0
            var beyond: UInt8 = 0
            var tail: UInt64 = 0
            for index in 0..<min(length, 8) { low |= UInt64(bytes[index]) << UInt64(index * 8) }
            if length > 8 {
                for index in 8..<min(length, 16) { high |= UInt64(bytes[index]) << UInt64((index - 8) * 8) }
                if length > 16 { (beyond, tail) = Self.tail(of: bytes) }
            }
            ascii = (low | high) & (0x80 * Self.ones) == 0 && beyond < 0x80
            self.low = Self.fold(low)
            self.high = Self.fold(high) ^ tail
        }

        /// The bytes past a long name's sixteenth, OR-ed (for the ASCII test) and mixed, folded,
        /// into one word that goes into `high`: names that agree in their first sixteen bytes
        /// and their length (`interior-leather-00001`, `-00002`, ...) then hash apart. With the
        /// first sixteen alone every such name took the same slot, and a lookup compared them one
        /// by one (4,000 options of that shape: 100,000 `set`s took 2.8 s; trial 7, 12).
        @inline(__always)
        static func tail(of bytes: UnsafeBufferPointer<UInt8>) -> (beyond: UInt8, mixed: UInt64) {
            var beyond: UInt8 = 0
            var mixed: UInt64 = 0xCBF2_9CE4_8422_2325
            for index in 16..<bytes.count {
                let byte = bytes[index]
                beyond |= byte
                mixed = (mixed ^ UInt64(NameIndex.fold(byte))) &* 0x0000_0100_0000_01B3
            }
            // FNV's low bits are its best mixed: spread them over the word, whose top bits the
            // slot is taken from after `hash` multiplies.
            return (beyond, mixed ^ (mixed &>> 29) ^ (mixed &<< 31))
        }

        static let ones: UInt64 = 0x0101_0101_0101_0101

        /// The key of a name of at most sixteen bytes, already folded.
        @inline(__always)
        init(low: UInt64, high: UInt64 = 0, length: Int) {
            self.low = low
            self.high = high
            self.length = length
        }

        /// Sets the lower-case bit of every ASCII capital among eight packed bytes at once.
        @inline(__always)
        static func fold(_ word: UInt64) -> UInt64 {
            let heptets = word & (0x7F * ones)
            // A byte's top bit is set here when its low seven bits are at least `A` (then `[`);
            // no byte carries into the next.
            let fromA = heptets &+ (0x80 - 0x41) * ones
            let pastZ = heptets &+ (0x80 - 0x5B) * ones
            let capitals = fromA & ~pastZ & ~word & (0x80 * ones)
            return word | (capitals >> 2)
        }

        /// The key of a word that may be read 16 bytes past its start: two loads and masks.
        @inline(__always)
        init(_ word: PaddedBytes, ascii: inout Bool) {
            let bytes = word.bytes
            length = bytes.count
            guard let base = bytes.baseAddress else {
                low = 0
                high = 0
                ascii = true
                return
            }
            let raw = UnsafeRawPointer(base)
            let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            // Most names fit in eight bytes: one word to mask, test and fold.
            if length <= 8 {
                let low = length == 8 ? first : first & ((1 &<< UInt64(length &* 8)) &- 1)
                ascii = low & (0x80 * Self.ones) == 0
                self.low = Self.fold(low)
                high = 0
                return
            }
            var high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            if length < 16 { high &= (1 &<< UInt64((length &- 8) &* 8)) &- 1 }
            var beyond: UInt8 = 0
            var tail: UInt64 = 0
            if length > 16 { (beyond, tail) = Self.tail(of: bytes) }
            ascii = (first | high) & (0x80 * Self.ones) == 0 && beyond < 0x80
            self.low = Self.fold(first)
            self.high = Self.fold(high) ^ tail
        }

        /// The key of bytes already folded.
        init(folded bytes: UnsafeBufferPointer<UInt8>) {
            var ascii = true
            self.init(bytes, ascii: &ascii)
        }

        /// Mixes both words, the length and `seed`, for the slot's top bits.
        @inline(__always)
        func hash(seed: UInt64) -> UInt64 {
            Self.hash(low: low, high: high, length: length, seed: seed)
        }

        /// The hash of a key whose words are `low` and `high`, folded or not: bit 5 of every
        /// byte is cleared before mixing, and that bit is all that folding changes (it sets it
        /// in capitals), so a word's slot is found from its bytes as they are while the key it
        /// is compared with is folded beside it. (With the fold on the way to the slot, every
        /// lookup waited for it before it could load the slot.)
        @inline(__always)
        static func hash(low: UInt64, high: UInt64, length: Int, seed: UInt64) -> UInt64 {
            let unfolded = ~(0x20 &* ones)
            // Slots come from the top bits, which a multiply mixes from every bit below.
            return (((low & unfolded) ^ seed) &* 0x9E37_79B9_7F4A_7C15)
                &+ (((high & unfolded) ^ UInt64(truncatingIfNeeded: length)) &* 0xC2B2_AE3D_27D4_EB4F)
        }
    }

    fileprivate static func fold(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    private var table: Table

    /// How many slots the table has (the tests see it grow, or not).
    var slotCount: Int { table.slotCount }

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
        arrange()
    }

    /// Once every name is in: spreads the names so that each lookup reads one slot (see `Table.arrange`).
    mutating func arrange() {
        if !isKnownUniquelyReferenced(&table) { table = copy(of: table) }
        table.arrange()
    }

    /// Adds `name` for `value` to the table itself, shared or not: only for an index whose
    /// owner never copies it (the catalog index, which adds each definition's names).
    func addInPlace(_ name: String, value: Int) {
        let folded = Array(name.lowercased().utf8)
        folded.withUnsafeBufferPointer { bytes in
            var ascii = true
            let key = Key(bytes, ascii: &ascii)
            guard find(folded: bytes, key: key, ascii: ascii) == nil else { return }
            table.add(folded, key: key, value: value, ascii: ascii)
        }
    }

    /// Drops the names of values `value` and above from the table itself (see `addInPlace`).
    func removeInPlace(from value: Int) {
        table.removeEntries(from: value)
    }

    /// `arrange`, on the table itself (see `addInPlace`).
    func arrangeInPlace() {
        table.arrange()
    }

    /// Adds `name` for `value`; the first entry for a name wins.
    mutating func insert(_ name: String, value: Int) {
        let folded = Array(name.lowercased().utf8)
        folded.withUnsafeBufferPointer { bytes in
            var ascii = true
            let key = Key(bytes, ascii: &ascii)
            guard find(folded: bytes, key: key, ascii: ascii) == nil else { return }
            if !isKnownUniquelyReferenced(&table) { table = copy(of: table) }
            table.add(folded, key: key, value: value, ascii: ascii)
        }
    }

    /// The value of the name spelled by `bytes`, in any case and any normal form.
    func lookup(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var ascii = true
        let key = Key(bytes, ascii: &ascii)
        guard ascii else { return lookupCanonically(bytes) }
        if let value = table.find(bytes, key: key) { return value }
        return table.holdsOtherNames ? lookupCanonically(bytes) : nil
    }

    /// The value of the name spelled by a lexed word, in any case. The table's storage is read
    /// only once the key is made, and only for an ASCII name: the rare other kind is looked up
    /// out of line from the table itself, so that the common lookup keeps its reads in registers.
    /// (Its view made first and handed to that call cost ~10 instructions a lookup in stores.)
    ///
    /// Names are the same when they are canonically equivalent, as `String`s are (and as the
    /// catalog's definitions compare them): an ASCII word found in the slots is its own only
    /// canonical form, and one not found there can only be another form of a name that is
    /// not ASCII, which the table knows whether it holds.
    ///
    /// The common case is inlined where it is looked up: an ASCII word of at most eight bytes
    /// (every command and nearly every name) found in its first slot, as every name of a small
    /// table is (see `Table.arrange`). Anything else, a miss included, goes on out of line.
    /// (The whole lookup called as a function cost ~70 instructions a name, this ~25: 1,233 ->
    /// 1,168 instructions a command on the benchmark mix, 1,243 -> 1,182 on set/show; callgrind,
    /// 10^5 commands.)
    @inline(__always)
    func lookup(_ word: PaddedBytes) -> Int? {
        let bytes = word.bytes
        let length = bytes.count
        if length <= 8, let base = bytes.baseAddress {
            let first = UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(as: UInt64.self))
            let low = length == 8 ? first : first & ((1 &<< UInt64(truncatingIfNeeded: length &* 8)) &- 1)
            if low & (0x80 &* Key.ones) == 0, let value = firstSlot(Key(low: Key.fold(low), length: length), low: low, high: 0) {
                return value
            }
        }
        return lookupProbing(word)
    }

    /// `lookup(_:)` for a table whose names run longer (the families: `drivetrain` is ten
    /// bytes): words of nine to sixteen bytes are looked up inline too. Those went out of line
    /// at ~92 instructions each (inline: 1,147 -> 1,139 instructions a command on the benchmark mix, 1,139 -> 1,126 on set/show; callgrind, 10^5 commands); the extra test is not put
    /// on every command's lookup, where it cost ~12 instructions a command.
    @inline(__always)
    func lookupLonger(_ word: PaddedBytes) -> Int? {
        let bytes = word.bytes
        let length = bytes.count
        guard length > 8 && length <= 16, let base = bytes.baseAddress else { return lookup(word) }
        // Sixteen bytes may be read from a word's start (`PaddedBytes`).
        let raw = UnsafeRawPointer(base)
        let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        let second = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        let high = length == 16 ? second : second & ((1 &<< UInt64(truncatingIfNeeded: (length &- 8) &* 8)) &- 1)
        if (first | high) & (0x80 &* Key.ones) == 0,
            let value = firstSlot(Key(low: Key.fold(first), high: Key.fold(high), length: length), low: first, high: high)
        {
            return value
        }
        return lookupProbing(word)
    }

    /// The value of the entry in `key`'s first slot, if that entry is `key`'s: for a key of at
    /// most 16 bytes, equal keys are equal names. `low` and `high` are the key's words before
    /// folding (see `Key.hash(low:high:length:seed:)`).
    @inline(__always)
    private func firstSlot(_ key: Key, low: UInt64, high: UInt64) -> Int? {
        let view = table.view
        let hash = Key.hash(low: low, high: high, length: key.length, seed: view.seed)
        let resident = view.residents[Int(truncatingIfNeeded: hash &>> view.shift)]
        return resident.key.isSame(as: key) ? resident.value : nil
    }

    /// The rest of `lookup(_:)`: longer words, words that are not ASCII, names not in their
    /// first slot, and misses.
    @inline(never)
    private func lookupProbing(_ word: PaddedBytes) -> Int? {
        var ascii = true
        let key = Key(word, ascii: &ascii)
        guard ascii else { return lookupCanonically(word.bytes) }
        let view = table.view
        if let value = view.find(word.bytes, key: key) { return value }
        return view.holdsOtherNames ? lookupCanonically(word.bytes) : nil
    }

    /// The value of `name`, in any case.
    func lookup(_ name: String) -> Int? {
        var name = name
        return name.withUTF8 { lookup($0) }
    }

    /// Rare: a word that is not ASCII, or an ASCII word not found while the table holds names
    /// that are not: folded the way `insert` folded names, then compared by canonical
    /// equivalence.
    @inline(never)
    private func lookupCanonically(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let folded = Array(String(decoding: bytes, as: UTF8.self).lowercased().utf8)
        return folded.withUnsafeBufferPointer { bytes in
            var ascii = true
            let key = Key(bytes, ascii: &ascii)
            return find(folded: bytes, key: key, ascii: ascii)
        }
    }

    /// The value of a folded name: the same bytes, else a name canonically equivalent to it.
    @inline(__always)
    private func find(folded bytes: UnsafeBufferPointer<UInt8>, key: Key, ascii: Bool) -> Int? {
        if let value = table.find(bytes, key: key) { return value }
        guard table.holdsOtherNames || !ascii else { return nil }
        return findEquivalent(of: bytes, ascii: ascii)
    }

    /// A name canonically equivalent to folded `bytes`, which are not one byte for byte.
    @inline(never)
    private func findEquivalent(of bytes: UnsafeBufferPointer<UInt8>, ascii: Bool) -> Int? {
        let name = String(decoding: bytes, as: UTF8.self)
        if let value = table.canonical?.values[name] { return value }
        // An ASCII name can be written with characters that stand for ASCII ones (U+037E for
        // `;`, U+1FEF for the grave accent): its only other forms.
        guard !ascii, let plain = Self.asciiEquivalent(of: name) else { return nil }
        return plain.withUnsafeBufferPointer { table.find($0, key: Key(folded: $0)) }
    }

    /// The ASCII string canonically equivalent to `name`, if there is one. A canonical
    /// decomposition is a single character or a character and combining marks (never ASCII),
    /// so `name` has one exactly when each character that is not ASCII is equivalent to one
    /// that is: looked for among the 128, only until a character has none.
    private static func asciiEquivalent(of name: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        for scalar in name.unicodeScalars {
            if scalar.isASCII {
                bytes.append(UInt8(scalar.value))
                continue
            }
            let alone = String(scalar)
            guard let byte = (0..<128).first(where: { String(UnicodeScalar(UInt8($0))) == alone }) else { return nil }
            // Folded: `K` (U+212A) stands for a capital, though lowercasing makes it `k` first.
            bytes.append(fold(UInt8(byte)))
        }
        return bytes
    }

    /// A copy of `table`, so an index copied before an insert keeps its own names (value semantics).
    private func copy(of table: Table) -> Table {
        let copy = Table(slots: table.slotCount)
        for number in 0..<table.entryCount {
            let entry = table.entries[number]
            let folded = Array(UnsafeBufferPointer(start: table.keys + entry.start, count: entry.key.length))
            copy.add(folded, key: entry.key, value: entry.value, ascii: !folded.contains { $0 >= 0x80 })
        }
        return copy
    }
}

/// A removal's probing in the table's slots (see `unplace`).
extension NameIndex.Table: LinearProbing {
    var probeMask: Int { slotCount - 1 }
    func isOccupied(_ slot: Int) -> Bool { slots[slot] >= 0 }
    func homeSlot(ofEntryIn slot: Int) -> Int { self.slot(of: entries[Int(slots[slot])].key) }
    func moveEntry(from: Int, to: Int) {
        slots[to] = slots[from]
        residents[to] = residents[from]
        slots[from] = -1
        residents[from] = Self.noResident
    }
}
