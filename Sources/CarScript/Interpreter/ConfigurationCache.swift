import CarFactory

// `car` and `set` on the direct path come down to integers: a model's default configuration
// and the outcome of putting an option on a configuration are worked out once (by the rule
// set, as the general path does) and remembered by the stock's configuration ids, so a
// repeated command is a table lookup and a stock entry, with no object touched.

/// What the direct path remembers about configurations, by the stock's ids: each model's
/// default configuration, each change's outcome, and each configuration's `show` text.
/// Good for one generation of the stock's ids under one set of rules: `validate` forgets
/// everything when either has changed. Kept inline in the session and never copied (see `DenseTable`).
struct ConfigurationCache: ~Copyable {
    /// A configuration id and its unit price; an id of `unknown` or `refused` says there is none.
    struct Known: BitwiseCopyable {
        var id: Int32
        var price: Int64
        static let unknown = Known(id: -1, price: 0)
        static let refused = Known(id: -2, price: 0)
    }

    /// Where a configuration's `show` text lies in `shownText`; a start of -1 when not yet made.
    struct Span: BitwiseCopyable {
        var start: Int
        var count: Int
        static let none = Span(start: -1, count: 0)
    }

    private var generation = -1
    private var rulesVersion = -1
    /// By model position.
    var defaults = DenseTable(filler: Known.unknown)
    /// By (configuration id, family, option).
    var transitions = TransitionTable()
    /// By configuration id.
    var shown = DenseTable(filler: Span.none)
    /// The `show` texts, back to back.
    private var shownText = DenseTable(filler: UInt8(0), capacity: 1024)
    private var shownCount = 0

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
        defaults.reset()
        transitions.reset()
        shown.reset()
        shownCount = 0
    }

    /// Keeps `text` as configuration `id`'s `show` text.
    mutating func keepText(_ text: [UInt8], for id: Int32) -> Span {
        let span = Span(start: shownCount, count: text.count)
        for byte in text {
            shownText[shownCount] = byte
            shownCount += 1
        }
        shown[Int(id)] = span
        return span
    }

    /// The text of `span`; valid until the next `keepText`.
    func text(_ span: Span) -> UnsafeBufferPointer<UInt8> {
        shownText.values(span.start..<span.start + span.count)
    }
}

/// The outcome of each change made so far: (configuration id, family, option) to the changed
/// configuration's id and price, or `refused`. Open addressing over raw storage it owns; it
/// holds at most `limit` outcomes and starts again when full, so it cannot grow without bound.
struct TransitionTable: ~Copyable {
    private struct Slot: BitwiseCopyable {
        /// 0 for an empty slot (no real key is 0: see `key`).
        var key: UInt64
        var outcome: ConfigurationCache.Known
    }

    static let limit = 1 << 16

    private var slots: UnsafeMutablePointer<Slot>
    private var mask: Int
    private var count = 0

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
        guard option < 1 << 29 else { return nil }
        return UInt64(UInt32(bitPattern: id)) << 32 | UInt64(option) << 2 | UInt64(family) | 1 << 31
    }

    /// The outcome kept for `key` (`unknown` if none).
    @inline(__always)
    func outcome(_ key: UInt64) -> ConfigurationCache.Known {
        var slot = Self.slot(key) & mask
        while true {
            let found = slots[slot]
            if found.key == key { return found.outcome }
            if found.key == 0 { return .unknown }
            slot = (slot + 1) & mask
        }
    }

    /// Keeps `outcome` for `key` (not already kept).
    mutating func keep(_ outcome: ConfigurationCache.Known, for key: UInt64) {
        if count >= Self.limit { reset() }
        if (count + 1) * 2 > mask + 1 { grow() }
        place(Slot(key: key, outcome: outcome))
        count += 1
    }

    /// Forgets every outcome.
    mutating func reset() {
        slots.update(repeating: Slot(key: 0, outcome: .unknown), count: mask + 1)
        count = 0
    }

    private func place(_ entry: Slot) {
        var slot = Self.slot(entry.key) & mask
        while slots[slot].key != 0 { slot = (slot + 1) & mask }
        slots[slot] = entry
    }

    private mutating func grow() {
        let old = slots
        let oldCount = mask + 1
        mask = oldCount * 2 - 1
        slots = .allocate(capacity: mask + 1)
        slots.initialize(repeating: Slot(key: 0, outcome: .unknown), count: mask + 1)
        for index in 0..<oldCount where old[index].key != 0 { place(old[index]) }
        old.deallocate()
    }

    @inline(__always)
    private static func slot(_ key: UInt64) -> Int {
        let mixed = key &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> 32)
    }
}
