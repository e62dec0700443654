import CarFactory

/// Numbers the configurations of two sessions' stocks for `diff`: the same number in both for
/// the same model and option of every family, by name, whatever objects each session made.
///
/// A configuration is kept as the session and id that first had it, with a hash of its names'
/// numbers; its names are read again from its session to tell two of one hash apart. A string
/// of its words per configuration (and its parts' texts) took ~10 KB a line with 61 families,
/// far more than the sessions themselves (trial 11, 1); this keeps ~30 bytes a configuration.
struct ConfigurationNumbering {
    /// One session: its stock and catalog, its families in the order compared, and the number
    /// of each part and model it has met (a few per option, not per configuration).
    private struct Side {
        let stock: StockLedger
        let catalog: Catalog
        let families: [PartFamily]
        var parts: [ObjectIdentifier: Int32] = [:]
        var models: [ObjectIdentifier: Int32] = [:]
    }

    /// A configuration numbered: its hash, and the session and id it was first met in.
    private struct Entry {
        let hash: UInt64
        let side: Int32
        let id: Int32
    }

    private var sides: [Side] = []
    /// Each `family option` and model by its name key, as a number.
    private var names: [String: Int32] = [:]
    /// Open addressing: an entry's index + 1, or 0 for an empty slot.
    private var slots: [Int32] = []
    private var entries: [Entry] = []
    /// Two configurations' names' numbers, their storage reused for each.
    private var scratch: [Int32] = []
    private var other: [Int32] = []

    /// Adds a session; its number, for `number(_:of:)`.
    mutating func add(_ stock: StockLedger, catalog: Catalog, families: [PartFamily]) -> Int {
        sides.append(Side(stock: stock, catalog: catalog, families: families))
        return sides.count - 1
    }

    /// The number of configuration `id` of session `side`: the same for the same model and
    /// options by name, in either session.
    mutating func number(_ id: Int32, of side: Int) -> Int {
        // Taken out while filled, so that filling them does not copy them.
        var key: [Int32] = []
        var found: [Int32] = []
        swap(&key, &scratch)
        swap(&found, &other)
        defer {
            swap(&key, &scratch)
            swap(&found, &other)
        }
        names(of: id, side: side, into: &key)
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for number in key { hash = (hash ^ UInt64(UInt32(bitPattern: number))) &* 0x0000_0100_0000_01B3 }
        hash ^= hash >> 29
        if entries.count * 2 >= slots.count { grow() }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let index = Int(slots[slot] - 1)
            let entry = entries[index]
            if entry.hash == hash {
                names(of: entry.id, side: Int(entry.side), into: &found)
                if found == key { return index }
            }
            slot = (slot + 1) & mask
        }
        entries.append(Entry(hash: hash, side: Int32(side), id: id))
        slots[slot] = Int32(entries.count)
        return entries.count - 1
    }

    /// Doubles the slots and places every entry again.
    private mutating func grow() {
        slots = [Int32](repeating: 0, count: max(64, slots.count * 2))
        let mask = slots.count - 1
        for (index, entry) in entries.enumerated() {
            var slot = Int(truncatingIfNeeded: entry.hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index + 1)
        }
    }

    /// The numbers of configuration `id`'s model and of its option of each family, in the
    /// order compared, written over `buffer`.
    private mutating func names(of id: Int32, side index: Int, into buffer: inout [Int32]) {
        buffer.removeAll(keepingCapacity: true)
        let side = sides[index]
        let car = Car(configuration: side.stock.configuration(id))
        let factory = ObjectIdentifier(car.factory)
        if let known = side.models[factory] {
            buffer.append(known)
        } else {
            let number = name(nameKey(car.factory.model))
            sides[index].models[factory] = number
            buffer.append(number)
        }
        let parts = side.catalog.parts(on: car)
        for family in side.families where family.index < parts.count {
            let part = parts[family.index]
            if let known = sides[index].parts[ObjectIdentifier(part)] {
                buffer.append(known)
            } else {
                // NUL between them, which no name holds: a blank is in quoted names, and family
                // `a b` with option `c` was family `a` with option `b c`.
                let number = name(nameKey(side.catalog.name(of: family)) + "\u{0}" + nameKey(part.name))
                sides[index].parts[ObjectIdentifier(part)] = number
                buffer.append(number)
            }
        }
    }

    /// The number of a name key, given the first time it is met.
    private mutating func name(_ key: String) -> Int32 {
        if let known = names[key] { return known }
        let number = Int32(names.count)
        names[key] = number
        return number
    }
}
