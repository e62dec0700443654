import CarFactory

// `car` and `set` come down to integers: a model's default configuration and the outcome of
// putting an option on a configuration are worked out once (by the rule set, through
// `CarBuilder`) and remembered by the stock's configuration ids, so a repeated command is a
// table lookup and a stock entry by id, with no object touched.

/// What the session remembers about configurations, by the stock's ids: each model's default
/// configuration and each change's outcome. Good for one generation of the stock's ids under
/// one set of rules: `validate` forgets everything when either has changed, in constant time
/// (each entry carries the stamp it was made under, and a new stamp makes every older entry
/// unknown). Kept inline in the session and never copied (see `DenseTable`).
struct ConfigurationCache: ~Copyable {
    /// A configuration id; an id of `unknown` or `refused` says there is none.
    struct Known: BitwiseCopyable {
        var id: Int32
        var stamp: UInt32 = 0
        static let unknown = Known(id: -1)
        static let refused = Known(id: -2)
    }

    private var generation = -1
    private var rulesVersion = -1
    /// The stamp entries made now carry (0 is never one).
    private var stamp: UInt32 = 1
    /// By model position.
    private var defaults = DenseTable(filler: Known.unknown)
    /// By (configuration id, family, option).
    var transitions = TransitionTable()

    /// Forgets everything if the stock's ids or the rules are not what it was made under.
    @inline(__always)
    mutating func validate(generation: Int, rulesVersion: Int) {
        if generation != self.generation || rulesVersion != self.rulesVersion {
            reset(generation: generation, rulesVersion: rulesVersion)
        }
    }

    @inline(never)
    private mutating func reset(generation: Int, rulesVersion: Int) {
        self.generation = generation
        self.rulesVersion = rulesVersion
        if stamp == UInt32.max {
            // Once in four billion resets, stamps start again from a table wiped whole.
            defaults.reset()
            stamp = 0
        }
        stamp += 1
        transitions.reset()
    }

    /// Model `model`'s default configuration, if known.
    @inline(__always)
    func knownDefault(_ model: Int) -> Known {
        let known = defaults[model]
        return known.stamp == stamp ? known : .unknown
    }

    mutating func setDefault(_ known: Known, for model: Int) {
        var known = known
        known.stamp = stamp
        defaults[model] = known
    }
}

/// The outcome of each change made so far: (configuration id, family, option) to the changed
/// configuration's id, or `refused`. Open addressing over raw storage it owns; it
/// holds at most `limit` outcomes and starts again when full, so it cannot grow without bound.
struct TransitionTable: ~Copyable {
    private struct Slot: BitwiseCopyable {
        var key: UInt64
        /// The outcome; a slot is in use only if its stamp is the table's (see `reset`).
        var outcome: ConfigurationCache.Known
    }

    static let limit = 1 << 16

    private var slots: UnsafeMutablePointer<Slot>
    private var mask: Int
    private var count = 0
    /// The stamp of the slots in use: a new one frees every slot at once.
    private var stamp: UInt32 = 1

    init() {
        mask = 1023
        slots = .allocate(capacity: mask + 1)
        slots.initialize(repeating: Slot(key: 0, outcome: .unknown), count: mask + 1)
    }

    deinit {
        slots.deallocate()
    }

    /// The key of putting option `option` of family `family` on configuration `id`, or nil
    /// for an option number too large to pack (never the case in practice; then nothing is kept).
    @inline(__always)
    static func key(_ id: Int32, family: Int, option: Int) -> UInt64? {
        // The family in six bits (`PartFamily.limit` is 64), the option in the 25 above them.
        guard option < 1 << 25, family < 1 << 6 else { return nil }
        return UInt64(UInt32(bitPattern: id)) << 32 | UInt64(option) << 6 | UInt64(family) | 1 << 31
    }

    /// The outcome kept for `key` (`unknown` if none).
    @inline(__always)
    func outcome(_ key: UInt64) -> ConfigurationCache.Known {
        var slot = Self.slot(key) & mask
        while true {
            let found = slots[slot]
            // Slots are only ever added between resets, so a probe stops at the first free one.
            if found.outcome.stamp != stamp { return .unknown }
            if found.key == key { return found.outcome }
            slot = (slot + 1) & mask
        }
    }

    /// Keeps `outcome` for `key` (not already kept).
    mutating func keep(_ outcome: ConfigurationCache.Known, for key: UInt64) {
        assert(self.outcome(key).id == ConfigurationCache.Known.unknown.id, "an outcome kept twice")
        if count >= Self.limit { reset() }
        if (count + 1) * 2 > mask + 1 { grow() }
        var outcome = outcome
        outcome.stamp = stamp
        place(Slot(key: key, outcome: outcome))
        count += 1
    }

    /// Forgets every outcome, in constant time.
    mutating func reset() {
        if stamp == UInt32.max {
            slots.update(repeating: Slot(key: 0, outcome: .unknown), count: mask + 1)
            stamp = 0
        }
        stamp += 1
        count = 0
    }

    private func place(_ entry: Slot) {
        var slot = Self.slot(entry.key) & mask
        while slots[slot].outcome.stamp == stamp { slot = (slot + 1) & mask }
        slots[slot] = entry
    }

    private mutating func grow() {
        let old = slots
        let oldCount = mask + 1
        mask = oldCount * 2 - 1
        slots = .allocate(capacity: mask + 1)
        slots.initialize(repeating: Slot(key: 0, outcome: .unknown), count: mask + 1)
        for index in 0..<oldCount where old[index].outcome.stamp == stamp { place(old[index]) }
        old.deallocate()
    }

    @inline(__always)
    private static func slot(_ key: UInt64) -> Int {
        let mixed = key &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> 32)
    }
}
