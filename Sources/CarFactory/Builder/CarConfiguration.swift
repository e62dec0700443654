import Synchronization

/// One way a model can be built: its factory, its part of each family and their price.
///
/// A flyweight: the rule set a builder works under makes each configuration once and
/// hands the same object to every car built that way, so a car is one reference, and
/// copying or replacing a car touches one reference count instead of four.
public final class CarConfiguration: Sendable {
    /// The factory (and so the model).
    public let factory: any CarFactory
    /// The floorplan.
    public let floorplan: any Floorplan
    /// The suspension.
    public let suspension: any Suspension
    /// The drivetrain.
    public let drivetrain: any Drivetrain
    /// Its parts of the catalog's defined families, in family order (family 3 first). A car
    /// made before a family was defined holds fewer: it has that family's default option
    /// (`Catalog.part(of:on:)`, and a builder completes it before any change).
    public let others: [any Part]
    /// Unit price in base-currency minor units: base price plus option differences.
    public let priceMinorUnits: Int64
    /// The first rule these parts break, if any: such a configuration is never built into a car.
    package var brokenRule: Rule? { broken?.rule }
    /// `brokenRule`, boxed: a rule is some 120 bytes inline, which every configuration paid
    /// though few break one.
    private let broken: BrokenRule?
    /// The identities it is kept under (its list of parts shared with `others`, not copied).
    let key: ConfigurationKey

    init(
        factory: any CarFactory, floorplan: any Floorplan, suspension: any Suspension,
        drivetrain: any Drivetrain, others: [any Part] = [], priceMinorUnits: Int64, brokenRule: Rule?
    ) {
        self.factory = factory
        self.floorplan = floorplan
        self.suspension = suspension
        self.drivetrain = drivetrain
        self.others = others
        self.priceMinorUnits = priceMinorUnits
        broken = brokenRule.map(BrokenRule.init)
        key = ConfigurationKey(factory, floorplan, suspension, drivetrain, others: others)
    }

    /// The part of `family`, if it holds one (every configuration holds one of the book's three).
    public func part(of family: PartFamily) -> (any Part)? {
        switch family.index {
        case 0: floorplan
        case 1: suspension
        case 2: drivetrain
        default: family.index - 3 < others.count ? others[family.index - 3] : nil
        }
    }

    /// Its parts of every family it holds, in family order.
    public var parts: [any Part] { [floorplan, suspension, drivetrain] + others }

    /// About how many bytes one takes in memory with `families` families (the book's three
    /// among them): the object, its list of parts (16 bytes a part), and its places in the
    /// stock's lists and tables. Measured in a release build: 61 families, 80,000 distinct
    /// configurations held by a stock's lines took some 1,150 bytes each.
    package static func storageEstimate(families: Int) -> Int { 256 + 16 * max(0, families - 3) }

    /// `storageEstimate` of this one.
    package var storageEstimate: Int { Self.storageEstimate(families: 3 + others.count) }
}

/// A rule a configuration breaks, boxed (see `CarConfiguration.brokenRule`).
private final class BrokenRule: Sendable {
    let rule: Rule
    init(_ rule: Rule) { self.rule = rule }
}

/// The identities of a configuration's factory and parts.
///
/// The defined families' parts are the configuration's own list, shared (an array is copied
/// only when changed): a second list of their identities took 8 bytes a family more in every
/// configuration, some 500 bytes with 61 families (trial 8, 2).
struct ConfigurationKey: Equatable, Sendable {
    var factory: ObjectIdentifier
    var floorplan: ObjectIdentifier
    var suspension: ObjectIdentifier
    var drivetrain: ObjectIdentifier
    /// The defined families' parts (empty in a catalog of the book's three alone).
    var others: [any Part]
    /// How many of `others` tell it apart: those up to the last that is not the model's default
    /// of its family. A car kept from before a family was defined lacks it, and so has the
    /// model's default: it is the same car as one made since with that default, and the stock
    /// finds it so, without giving every configuration the family when it is defined (a
    /// `try family` over 200,000 configurations took 1.2 s; trial 10, 2).
    var significant: Int

    init(
        _ factory: any CarFactory, _ floorplan: any Floorplan, _ suspension: any Suspension, _ drivetrain: any Drivetrain,
        others: [any Part] = []
    ) {
        self.factory = ObjectIdentifier(factory)
        self.floorplan = ObjectIdentifier(floorplan)
        self.suspension = ObjectIdentifier(suspension)
        self.drivetrain = ObjectIdentifier(drivetrain)
        self.others = others
        significant = others.isEmpty ? 0 : Self.significantCount(others, of: factory)
    }

    /// How many of `others` come before the trailing ones that are `factory`'s defaults: a
    /// model's default of a family is the option its `model` line named (`otherDefaults`, of
    /// the same definition of the family), else the family's first option.
    private static func significantCount(_ others: [any Part], of factory: any CarFactory) -> Int {
        let defaults = factory.otherDefaults
        var count = others.count
        while count > 0 {
            let part = others[count - 1]
            guard case .defined(let option) = part.kind else { break }
            if count - 1 < defaults.count, case .defined(let named) = defaults[count - 1].kind, named.label === option.label {
                guard defaults[count - 1] === part else { break }
            } else {
                guard option.name == option.label.defaultOption else { break }
            }
            count -= 1
        }
        return count
    }

    /// The key a factory's default configuration is kept under: the factory's identity in
    /// every place (no part is a factory, so it cannot be any real configuration's key).
    init(defaultsOf factory: any CarFactory) {
        let identity = ObjectIdentifier(factory)
        self.factory = identity
        floorplan = identity
        suspension = identity
        drivetrain = identity
        others = []
        significant = 0
    }

    /// Whether both hold the same factory and the same parts (by identity), a family's model
    /// default and no part of the family being the same (see `significant`).
    static func == (a: ConfigurationKey, b: ConfigurationKey) -> Bool {
        guard a.factory == b.factory && a.floorplan == b.floorplan && a.suspension == b.suspension && a.drivetrain == b.drivetrain,
            a.significant == b.significant
        else { return false }
        for index in 0..<a.significant where a.others[index] !== b.others[index] { return false }
        return true
    }

    /// The identity of its part of `family`, if it holds one.
    func part(of family: PartFamily) -> ObjectIdentifier? {
        switch family.index {
        case 0: floorplan
        case 1: suspension
        case 2: drivetrain
        default: family.index - 3 < others.count ? ObjectIdentifier(others[family.index - 3]) : nil
        }
    }

    /// A multiply-xorshift mix of the addresses.
    var hash: UInt64 {
        func bits(_ identity: ObjectIdentifier) -> UInt64 { UInt64(UInt(bitPattern: identity)) }
        var h = bits(factory) &* 0x9E37_79B9_7F4A_7C15
        h ^= bits(floorplan) &* 0xC2B2_AE3D_27D4_EB4F
        h ^= bits(suspension) &* 0x1656_67B1_9E37_79F9
        h ^= bits(drivetrain) &* 0x85EB_CA77_C2B2_AE63
        for other in others[0..<significant] { h = (h ^ bits(ObjectIdentifier(other))) &* 0x9E37_79B9_7F4A_7C15 }
        return h ^ (h >> 32)
    }
}

/// The configurations made so far under one rule set, by key (open addressing).
struct ConfigurationTable {
    /// The most configurations kept; past it, new ones are made each time and not kept,
    /// so a catalog with very many options cannot grow the table without bound.
    static let limit = 1 << 16
    /// The most bytes (`CarConfiguration.storageEstimate`) of configurations kept, for the
    /// same reason: 65,536 configurations of 61 families took some 80 MB (trial 8, 2).
    static let byteLimit = 1 << 24

    /// How many configurations this table keeps (`limit`, or fewer in tests).
    let keeping: Int

    init(keeping: Int = limit) {
        self.keeping = keeping
    }

    // Empty until the first configuration is kept: every rule added makes a rule set, and the
    // undo history keeps the one before each rule (64 slots were 3.6 KB a rule).
    private var keys: [ConfigurationKey?] = []
    private var values: [CarConfiguration?] = []
    private var count = 0
    /// The configurations' bytes, against `byteLimit`.
    private var bytes = 0

    /// The configuration kept for `key`, or the one `make` makes (kept if there is room).
    mutating func configuration(for key: ConfigurationKey, make: () -> CarConfiguration) -> CarConfiguration {
        if let found = existing(key) { return found }
        let made = make()
        keep(made, for: key)
        return made
    }

    /// The configuration kept for `key`, if any.
    func existing(_ key: ConfigurationKey) -> CarConfiguration? {
        guard !keys.isEmpty else { return nil }
        let mask = keys.count - 1
        var slot = Int(truncatingIfNeeded: key.hash) & mask
        while let found = keys[slot] {
            if found == key { return values[slot] }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Keeps `configuration` for `key` (not already kept), if there is room.
    /// Called once per configuration, so kept out of line from the lookups around it.
    @inline(never)
    mutating func keep(_ configuration: CarConfiguration, for key: ConfigurationKey) {
        let size = configuration.storageEstimate
        guard count < keeping && bytes + size <= Self.byteLimit else { return }
        bytes += size
        if keys.isEmpty {
            keys = Array(repeating: nil, count: 64)
            values = Array(repeating: nil, count: 64)
        }
        place(configuration, for: key)
        count += 1
        if count * 2 > keys.count { grow() }
    }

    /// Puts `configuration` in the first free slot from `key`'s.
    private mutating func place(_ configuration: CarConfiguration?, for key: ConfigurationKey) {
        let mask = keys.count - 1
        var slot = Int(truncatingIfNeeded: key.hash) & mask
        while keys[slot] != nil { slot = (slot + 1) & mask }
        keys[slot] = key
        values[slot] = configuration
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        keys = Array(repeating: nil, count: oldKeys.count * 2)
        values = Array(repeating: nil, count: oldKeys.count * 2)
        for (index, key) in oldKeys.enumerated() {
            if let key { place(oldValues[index], for: key) }
        }
    }
}
