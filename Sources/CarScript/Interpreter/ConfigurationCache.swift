import CarFactory

// `car` and `set` on the direct path come down to integers: a model's default configuration
// and the outcome of putting an option on a configuration are worked out once (by the rule
// set, as the general path does) and remembered by the stock's configuration ids, so a
// repeated command is a table lookup and a stock entry, with no object touched.

/// What the direct path remembers about configurations, by the stock's ids: each model's
/// default configuration, each change's outcome, and each configuration's `show` text.
/// Good for one generation of the stock's ids under one set of rules: `validate` forgets
/// everything when either has changed, in constant time (each entry carries the stamp it
/// was made under, and a new stamp makes every older entry unknown). Kept inline in the
/// session and never copied (see `DenseTable`).
struct ConfigurationCache: ~Copyable {
    /// A configuration id and its unit price; an id of `unknown` or `refused` says there is none.
    struct Known: BitwiseCopyable {
        var id: Int32
        var stamp: UInt32 = 0
        var price: Int64
        static let unknown = Known(id: -1, price: 0)
        static let refused = Known(id: -2, price: 0)
    }

    /// Where a configuration's `show` text lies in `shownText`.
    struct Span: BitwiseCopyable {
        var start: Int
        var count: Int32
        var stamp: UInt32
        static let none = Span(start: -1, count: 0, stamp: 0)
    }

    /// The longest `show` text kept, and the most bytes of them kept in all: the cache stays
    /// small whatever names a catalog gives its models and options.
    static let longestText = 4096
    static let allTexts = 1 << 20

    private var generation = -1
    private var rulesVersion = -1
    /// The stamp entries made now carry (0 is never one).
    private var stamp: UInt32 = 1
    private var shownStamp: UInt32 = 1
    /// By model position.
    private var defaults = DenseTable(filler: Known.unknown)
    /// By (configuration id, family, option).
    var transitions = TransitionTable()
    /// By configuration id.
    private var shown = DenseTable(filler: Span.none)
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
        if stamp == UInt32.max {
            // Once in four billion resets, stamps start again from tables wiped whole.
            defaults.reset()
            shown.reset()
            stamp = 0
            shownStamp = 0
        }
        stamp += 1
        forgetTexts()
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

    /// Where configuration `id`'s `show` text is, if kept.
    @inline(__always)
    func shownSpan(_ id: Int32) -> Span? {
        let span = shown[Int(id)]
        return span.stamp == shownStamp ? span : nil
    }

    /// Keeps `text` as configuration `id`'s `show` text, unless it is too long to keep.
    mutating func keepText(_ text: [UInt8], for id: Int32) -> Span? {
        guard text.count <= Self.longestText else { return nil }
        if shownCount + text.count > Self.allTexts { forgetTexts() }
        let span = Span(start: shownCount, count: Int32(text.count), stamp: shownStamp)
        for byte in text {
            shownText[shownCount] = byte
            shownCount += 1
        }
        shown[Int(id)] = span
        return span
    }

    private mutating func forgetTexts() {
        if shownStamp == UInt32.max {
            shown.reset()
            shownStamp = 0
        }
        shownStamp += 1
        shownCount = 0
    }

    /// The text of `span`; valid until the next `keepText`.
    func text(_ span: Span) -> UnsafeBufferPointer<UInt8> {
        shownText.values(span.start..<span.start + Int(span.count))
    }
}

/// The outcome of each change made so far: (configuration id, family, option) to the changed
/// configuration's id and price, or `refused`. Open addressing over raw storage it owns; it
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
        guard option < 1 << 29 else { return nil }
        return UInt64(UInt32(bitPattern: id)) << 32 | UInt64(option) << 2 | UInt64(family) | 1 << 31
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
