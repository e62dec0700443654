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
        var byPair = PartPairMap()
        /// Positions of rules naming options by name only, checked the slow way.
        var byName: [Int] = []
        /// Positions of `require` rules, by the identity of the option that needs another.
        var requiresByPart: [ObjectIdentifier: [Int]] = [:]
        /// The parts of defined families some rule of `byPair` names, each as a pair of itself
        /// (no rule's pair: its two parts are of two families): a car's check looks up only
        /// the pairs of those with the parts before them, where it looked up every pair of
        /// its parts (1,830 with 61 families). (The book's parts are left out: the built-in
        /// catalog's rules, made at every start, then make no entry.)
        var pairedParts = PartPairMap()

        mutating func append(_ rule: Rule) {
            if rule.kind == .require, let part = rule.first.part {
                requiresByPart[part, default: []].append(all.count)
            } else if rule.kind == .require {
                byName.append(all.count)
            } else if let pair = PartPair(identifying: rule) {
                if byPair[pair] == nil { byPair.set(all.count, for: pair) }
                // Each part by itself, not from a list of the two: a list's type was set up at
                // run time at every start, for the built-in catalog's rules (~2,800 instructions).
                if let part = rule.first.part, !rule.first.family.isBook { notePaired(part) }
                if let part = rule.second.part, !rule.second.family.isBook { notePaired(part) }
            } else {
                byName.append(all.count)
            }
            all.append(rule)
        }

        /// Adds `part` to `pairedParts`, by the rule about to be appended.
        private mutating func notePaired(_ part: ObjectIdentifier) {
            let alone = PartPair(alone: part)
            if pairedParts[alone] == nil { pairedParts.set(all.count, for: alone) }
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
    /// The default option of each family the catalog defined (family 3 first): what a car
    /// made before its family was defined has, and what a model that names none has.
    package let familyDefaults: [any Part]

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
        familyDefaults = []
    }

    private init(sharing shared: SharedRules, count: Int, familyDefaults: [any Part]) {
        self.shared = shared
        self.count = count
        self.familyDefaults = familyDefaults
        made = Mutex(ConfigurationTable())
    }

    /// These rules, with a new family whose default option is `part`; no configuration made yet.
    package func adding(familyDefault part: any Part) -> RuleSet {
        RuleSet(sharing: shared, count: count, familyDefaults: familyDefaults + [part])
    }

    /// These rules and `rule`, with no configuration made yet.
    public func adding(_ rule: Rule) -> RuleSet {
        shared.rules.withLock { rules in
            // Only the newest rule set of a line extends it; any other starts its own.
            guard rules.all.count == count else {
                var copy = Rules()
                for earlier in rules.all[0..<count] { copy.append(earlier) }
                copy.append(rule)
                return RuleSet(sharing: SharedRules(copy), count: count + 1, familyDefaults: familyDefaults)
            }
            rules.append(rule)
            return RuleSet(sharing: shared, count: count + 1, familyDefaults: familyDefaults)
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
            let others = familyDefaults.indices.map { modelDefault(of: factory, family: $0) }
            let key = ConfigurationKey(factory, floorplan, suspension, drivetrain, others: others)
            let configuration = table.configuration(for: key) {
                make(factory, floorplan, suspension, drivetrain, others, priceMinorUnits: factory.basePriceMinorUnits)
            }
            table.keep(configuration, for: defaults)
            return configuration
        }
    }

    /// `factory`'s default option of defined family `position` (family 3 is 0).
    private func modelDefault(of factory: any CarFactory, family position: Int) -> any Part {
        let others = factory.otherDefaults
        let standard = familyDefaults[position]
        return position < others.count && Self.sameFamily(others[position], standard) ? others[position] : standard
    }

    /// Whether two parts of a defined family's place are of one definition of it (a family
    /// undone and another defined in its place is another family).
    private static func sameFamily(_ a: any Part, _ b: any Part) -> Bool {
        guard case .defined(let x) = a.kind, case .defined(let y) = b.kind else { return false }
        return x.label === y.label
    }

    /// `configuration` with a part of every family these rules know: one made before a family
    /// was defined takes its model's default of it (and so keeps its price). The same object
    /// when it holds them all already, which is one comparison in a catalog of the book's three.
    package func completed(_ configuration: CarConfiguration) -> CarConfiguration {
        if configuration.others.count == familyDefaults.count,
            familyDefaults.isEmpty || zip(configuration.others, familyDefaults).allSatisfy({ Self.sameFamily($0, $1) })
        {
            return configuration
        }
        return complete(configuration)
    }

    @inline(never)
    private func complete(_ configuration: CarConfiguration) -> CarConfiguration {
        let factory = configuration.factory
        var price = configuration.priceMinorUnits
        var others: [any Part] = []
        for position in familyDefaults.indices {
            let standard = modelDefault(of: factory, family: position)
            if position < configuration.others.count, Self.sameFamily(configuration.others[position], standard) {
                others.append(configuration.others[position])
            } else {
                others.append(standard)
            }
        }
        // Parts of families no longer defined leave the price; their model defaults are gone
        // with them, so the price is summed again from the base price.
        if configuration.others.count > 0 {
            var sum = factory.basePriceMinorUnits
            var overflow = false
            let book: [any Part] = [configuration.floorplan, configuration.suspension, configuration.drivetrain]
            for (position, part) in (book + others).enumerated() {
                let standard =
                    position < 3 ? factory.defaultPart(of: PartFamily(index: position)) : modelDefault(of: factory, family: position - 3)
                let delta = part.listPriceMinorUnits.subtractingReportingOverflow(standard?.listPriceMinorUnits ?? part.listPriceMinorUnits)
                let next = sum.addingReportingOverflow(delta.partialValue)
                overflow = overflow || delta.overflow || next.overflow
                sum = next.partialValue
            }
            if !overflow { price = sum }
        }
        let key = ConfigurationKey(factory, configuration.floorplan, configuration.suspension, configuration.drivetrain, others: others)
        return made.withLock { table in
            table.configuration(for: key) {
                make(
                    factory, configuration.floorplan, configuration.suspension, configuration.drivetrain, others,
                    priceMinorUnits: price)
            }
        }
    }

    /// The shared configuration of `factory` with these parts (a part of every family these
    /// rules know), priced `priceMinorUnits`, made and checked the first time. A `set` of many
    /// parts comes here once for the car they make together: made one part at a time, each car
    /// on the way was made and checked too (61 families: 61 configurations a line, each checked
    /// pair by pair; trial 8, 2).
    func configuration(
        of factory: any CarFactory, _ floorplan: any Floorplan, _ suspension: any Suspension, _ drivetrain: any Drivetrain,
        others: [any Part], priceMinorUnits: Int64
    ) -> CarConfiguration {
        made.withLock { table in
            table.configuration(for: ConfigurationKey(factory, floorplan, suspension, drivetrain, others: others)) {
                make(factory, floorplan, suspension, drivetrain, others, priceMinorUnits: priceMinorUnits)
            }
        }
    }

    private func make(
        _ factory: any CarFactory, _ floorplan: any Floorplan, _ suspension: any Suspension,
        _ drivetrain: any Drivetrain, _ others: [any Part], priceMinorUnits: Int64
    ) -> CarConfiguration {
        CarConfiguration(
            factory: factory, floorplan: floorplan, suspension: suspension, drivetrain: drivetrain,
            others: others, priceMinorUnits: priceMinorUnits,
            brokenRule: firstBroken(floorplan, suspension, drivetrain, others: others))
    }

    /// The first rule (in definition order) a car with these parts breaks, if any.
    public func firstBroken(
        _ floorplan: any Floorplan, _ suspension: any Suspension,
        _ drivetrain: any Drivetrain, others: [any Part] = []
    ) -> Rule? {
        let count = self.count
        return shared.rules.withLock { rules in
            var first = count
            for pair in [PartPair(floorplan, suspension), PartPair(floorplan, drivetrain), PartPair(suspension, drivetrain)] {
                if let position = rules.byPair[pair], position < first { first = position }
            }
            if !others.isEmpty && !rules.pairedParts.isEmpty {
                // Each defined family's part that some rule pairs with every part before it that
                // may be its pair (the book's three, and defined ones rules pair): n lookups, and
                // about k(k+5)/2 more for the k parts rules pair.
                let parts: [any Part] = [floorplan, suspension, drivetrain] + others
                let paired = [0, 1, 2] + (3..<parts.count).filter { rules.pairedParts[PartPair(alone: ObjectIdentifier(parts[$0]))] != nil }
                for (place, later) in paired.enumerated() where later >= 3 {
                    for earlier in paired[..<place] {
                        if let position = rules.byPair[PartPair(parts[earlier], parts[later])], position < first { first = position }
                    }
                }
            }
            if !rules.requiresByPart.isEmpty {
                let parts: [any Part] = [floorplan, suspension, drivetrain] + others
                for part in parts {
                    for position in rules.requiresByPart[ObjectIdentifier(part)] ?? [] where position < first {
                        let rule = rules.all[position]
                        let index = rule.second.family.index
                        if index >= parts.count || !rule.second.matches(parts[index]) { first = position }
                    }
                }
            }
            for position in rules.byName where position < first {
                let broken = rules.all[position].isBroken { family -> (any Part)? in
                    switch family.index {
                    case 0: floorplan
                    case 1: suspension
                    case 2: drivetrain
                    default: family.index - 3 < others.count ? others[family.index - 3] : nil
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
