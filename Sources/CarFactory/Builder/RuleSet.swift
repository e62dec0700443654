import Synchronization

// Checking a car against the rules is on the path of every `car` and `set`: each rule is
// found by the pair of parts it forbids, so a check is three lookups however many rules
// there are; and each configuration is checked once, when it is first made.

/// A catalog's rules, arranged for checking cars quickly, and the configurations made under them.
public final class RuleSet: Sendable {
    /// Rules in definition order, each also found by the pair of parts it forbids.
    private struct Rules {
        var all: [Rule] = []
        /// The position of the first rule forbidding each pair of the catalog's parts.
        var byPair: [PartPair: Int] = [:]
        /// Positions of rules naming options by name only, checked the slow way.
        var byName: [Int] = []
        /// Positions of `require` rules, by the identity of the option that needs another.
        var requiresByPart: [ObjectIdentifier: [Int]] = [:]

        mutating func append(_ rule: Rule) {
            if rule.kind == .require, let part = rule.first.part {
                requiresByPart[part, default: []].append(all.count)
            } else if rule.kind == .require {
                byName.append(all.count)
            } else if let pair = PartPair(rule) {
                if byPair[pair] == nil { byPair[pair] = all.count }
            } else {
                byName.append(all.count)
            }
            all.append(rule)
        }
    }

    /// Rules that rule sets made by `adding` share, each seeing the first `count` of them: a
    /// catalog that gains rule after rule extends them in place instead of copying them all.
    private final class SharedRules: Sendable {
        let rules: Mutex<Rules>
        init(_ rules: Rules) { self.rules = Mutex(rules) }
    }

    private let shared: SharedRules
    /// How many of the shared rules are this set's.
    private let count: Int
    /// Every configuration made under these rules, each made and checked once (see `CarConfiguration`).
    private let made: Mutex<ConfigurationTable>

    /// The rules, in definition order.
    public var rules: [Rule] { shared.rules.withLock { Array($0.all[0..<count]) } }

    /// Arranges `rules` for checking.
    public convenience init(_ rules: [Rule]) {
        self.init(rules, keeping: ConfigurationTable.limit)
    }

    /// Arranges `rules` for checking, keeping at most `limit` configurations.
    init(_ rules: [Rule], keeping limit: Int) {
        var arranged = Rules()
        for rule in rules { arranged.append(rule) }
        shared = SharedRules(arranged)
        count = rules.count
        made = Mutex(ConfigurationTable(keeping: limit))
    }

    private init(sharing shared: SharedRules, count: Int) {
        self.shared = shared
        self.count = count
        made = Mutex(ConfigurationTable())
    }

    /// These rules and `rule`, with no configuration made yet.
    public func adding(_ rule: Rule) -> RuleSet {
        shared.rules.withLock { rules in
            // Only the newest rule set of a line extends it; any other starts its own.
            guard rules.all.count == count else {
                var copy = Rules()
                for earlier in rules.all[0..<count] { copy.append(earlier) }
                copy.append(rule)
                return RuleSet(sharing: SharedRules(copy), count: count + 1)
            }
            rules.append(rule)
            return RuleSet(sharing: shared, count: count + 1)
        }
    }

    /// No rules.
    public static var none: RuleSet { RuleSet([]) }

    /// The shared configuration of `factory`'s default parts, made and checked the first time.
    ///
    /// Kept under the factory's identity too, so a new car finds it without asking the
    /// factory for its parts.
    package func defaultConfiguration(of factory: any CarFactory) -> CarConfiguration {
        made.withLock { table in
            let defaults = ConfigurationKey(defaultsOf: factory)
            if let found = table.existing(defaults) { return found }
            let floorplan = factory.makeFloorplan()
            let suspension = factory.makeSuspension()
            let drivetrain = factory.makeDrivetrain()
            let configuration = table.configuration(for: ConfigurationKey(factory, floorplan, suspension, drivetrain)) {
                make(factory, floorplan, suspension, drivetrain, priceMinorUnits: factory.basePriceMinorUnits)
            }
            table.keep(configuration, for: defaults)
            return configuration
        }
    }

    /// The shared configuration of `current` with `part` in place of its part of that family,
    /// priced `priceMinorUnits`, made and checked the first time. Finding one already made
    /// needs only the part's identity.
    func configuration(_ current: CarConfiguration, with part: any Part, of family: PartFamily,
                       priceMinorUnits: Int64) -> CarConfiguration {
        made.withLock { table in
            table.configuration(for: current.key.replacing(family, with: ObjectIdentifier(part))) {
                switch part.kind {
                case .floorplan(let new):
                    make(current.factory, new, current.suspension, current.drivetrain, priceMinorUnits: priceMinorUnits)
                case .suspension(let new):
                    make(current.factory, current.floorplan, new, current.drivetrain, priceMinorUnits: priceMinorUnits)
                case .drivetrain(let new):
                    make(current.factory, current.floorplan, current.suspension, new, priceMinorUnits: priceMinorUnits)
                }
            }
        }
    }

    private func make(_ factory: any CarFactory, _ floorplan: any Floorplan, _ suspension: any Suspension,
                      _ drivetrain: any Drivetrain, priceMinorUnits: Int64) -> CarConfiguration {
        CarConfiguration(factory: factory, floorplan: floorplan, suspension: suspension, drivetrain: drivetrain,
                         priceMinorUnits: priceMinorUnits, brokenRule: firstBroken(floorplan, suspension, drivetrain))
    }

    /// The first rule (in definition order) a car with these parts breaks, if any.
    public func firstBroken(_ floorplan: any Floorplan, _ suspension: any Suspension,
                            _ drivetrain: any Drivetrain) -> Rule? {
        let count = self.count
        return shared.rules.withLock { rules in
            var first = count
            for pair in [PartPair(floorplan, suspension), PartPair(floorplan, drivetrain), PartPair(suspension, drivetrain)] {
                if let position = rules.byPair[pair], position < first { first = position }
            }
            if !rules.requiresByPart.isEmpty {
                let parts: [any Part] = [floorplan, suspension, drivetrain]
                for part in parts {
                    for position in rules.requiresByPart[ObjectIdentifier(part)] ?? [] where position < first {
                        let rule = rules.all[position]
                        if !rule.second.matches(parts[rule.second.family.index]) { first = position }
                    }
                }
            }
            for position in rules.byName where position < first {
                let broken = rules.all[position].isBroken { family -> any Part in
                    switch family {
                    case .floorplan: floorplan
                    case .suspension: suspension
                    case .drivetrain: drivetrain
                    }
                }
                if broken {
                    first = position
                    break
                }
            }
            return first < count ? rules.all[first] : nil
        }
    }
}
