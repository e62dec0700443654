// The configurator's compiled rules: per option, an edge to each family it has a forbidden
// partner in, holding that family's options it cannot go with as a bitset.
//
// A `require A with B` forbids A with every other option of B's family, so each of those
// options gets an edge back to A's family: on 20 families of 5,000 options with 5,000 rules
// that is 1.9 million edges of 79 words each (1.2 GB), and the list of every forbidden pair
// the tables used to be built from held 25 million more (trial 10, 1: 2.35 GB a question).
// So the tables are sized before anything is allocated (a pass that marks each option's
// neighbouring families), refused past `byteLimit` (`catalogTooWide`), and filled straight
// from the rules, an edge at a time, without the list of pairs. Every pass counts its work in
// the meter and asks for a stop now and then: a large catalog's set-up is bounded and
// interruptible like a search.

extension Configurator {
    /// The most bytes one configurator's edge tables may take (256 MiB): past it the catalog is
    /// refused with `catalogTooWide` before they are made. (20 families of 5,000 options with
    /// 100 rules take 152 MiB and answered before this bound, at 273 MB: it refuses none of
    /// those; with 500 rules, 575 MiB.)
    public static let tableByteLimit = 256 << 20

    /// The edge tables of `rules` over families of `optionCounts` options (`bases`: where each
    /// family's options start among all options; `words`: each family's words of 64 options).
    struct EdgeTables {
        var edgeStart: [Int] = [0]
        var edgeFamily: [Int] = []
        var edgeMask: [Int] = []
        var masks: [UInt64] = []
        var edgeRuleStart: [Int] = [0]
        var edgeRules: [Int] = []
        /// Per option (by global id), the families it has an edge to, as `familyWords` words.
        var near: [UInt64] = []
        var familyWords = 1
        /// What the tables and the clash table take, in bytes (`bytes(clashEntries:)`).
        var bytes = 0
    }

    /// Calls `body` once for each edge `rule` has a pair on: an option (family, position) and
    /// the other family its partners are in. A `require` has one from its first option and one
    /// from each other option of its second's family.
    static func forEachEdge(of rule: ConfigurationSpace.Constraint, optionCounts: [Int], _ body: (Int, Int, Int) -> Void) {
        body(rule.first.family, rule.first.option, rule.second.family)
        switch rule.kind {
        case .forbid:
            body(rule.second.family, rule.second.option, rule.first.family)
        case .require:
            for other in 0..<optionCounts[rule.second.family] where other != rule.second.option {
                body(rule.second.family, other, rule.first.family)
            }
        }
    }

    /// Adds to `masks` at `at` (a bitset of `family`'s options) the options `rule` forbids
    /// option `option` of family `owner` to go with there (`owner` and `family` an edge of the rule).
    static func addPairs(
        of rule: ConfigurationSpace.Constraint, from owner: Int, _ option: Int, in family: Int, optionCounts: [Int],
        to masks: inout [UInt64], at: Int
    ) {
        let isFirst = owner == rule.first.family && option == rule.first.option
        switch rule.kind {
        case .forbid:
            let partner = isFirst ? rule.second.option : rule.first.option
            masks[at + partner >> 6] |= 1 << UInt64(partner & 63)
        case .require where isFirst:
            // Every option of the required one's family but it (added to what other rules set).
            let count = optionCounts[family]
            let kept = rule.second.option
            for w in 0..<(count + 63) / 64 {
                var word = fullWord(w, of: count)
                if w == kept >> 6 { word &= ~(1 << UInt64(kept & 63)) }
                masks[at + w] |= word
            }
        case .require:
            masks[at + rule.first.option >> 6] |= 1 << UInt64(rule.first.option & 63)
        }
    }

    /// Word `w` of a bitset of all `count` options.
    static func fullWord(_ w: Int, of count: Int) -> UInt64 {
        let left = count - w << 6
        return left >= 64 ? ~0 : (1 << UInt64(left)) - 1
    }

    /// Builds the edge tables of `space`'s rules, their size checked first. Counts its work in
    /// `meter` (a word of 64 options, or an edge, a unit); past `limits`' steps of it
    /// `searchLimitReached`, on a stop request `searchStopped`, past `tableByteLimit` `catalogTooWide`.
    static func edgeTables(
        _ space: ConfigurationSpace, optionCounts: [Int], bases: [Int], words: [Int], limits: SearchLimits,
        shouldStop: () -> Bool, meter: WorkMeter
    ) throws(CarFactoryError) -> EdgeTables {
        let familyCount = optionCounts.count
        let options = optionCounts.reduce(0, +)
        var tables = EdgeTables()
        let familyWords = max(1, (familyCount + 63) / 64)
        tables.familyWords = familyWords
        var work = 0
        var counted = 0
        var nextCheck = 1 << 16
        // Asked between rules (a rule's passes are a few lengths of a family at most): the
        // work so far into the meter, held to the limit, and a stop request.
        func checkpoint() throws(CarFactoryError) {
            guard work >= nextCheck else { return }
            meter.units &+= work - counted
            counted = work
            nextCheck = work + (1 << 16)
            if work / unitsPerStep > limits.steps { throw .searchLimitReached(steps: limits.steps) }
            if shouldStop() { throw .searchStopped }
        }
        defer { meter.units &+= work - counted }
        // 1. Each option's neighbouring families, and each rule's edges (its pairs' rule entries).
        var near = [UInt64](repeating: 0, count: options * familyWords)
        var entries = 0
        for rule in space.rules {
            var count = 0
            forEachEdge(of: rule, optionCounts: optionCounts) { family, option, other in
                near[(bases[family] + option) * familyWords + other >> 6] |= 1 << UInt64(other & 63)
                count += 1
            }
            entries += count
            work += 1 + count / 64
            try checkpoint()
        }
        // 2. The edges and the words their masks take, and so the bytes, before any is made.
        var start = [Int](repeating: 0, count: options + 1)
        var maskWords = 0
        for id in 0..<options {
            var count = 0
            for v in 0..<familyWords {
                var bits = near[id * familyWords + v]
                count += bits.nonzeroBitCount
                while bits != 0 {
                    maskWords += words[v << 6 + bits.trailingZeroBitCount]
                    bits &= bits - 1
                }
            }
            start[id + 1] = start[id] + count
        }
        work += options * familyWords
        let edges = start[options]
        let clash = options * familyCount <= clashTableLimit ? options * familyCount * 2 : 0
        tables.bytes = 8 * (near.count + start.count + 4 * edges + 1 + maskWords + entries + clash)
        if tables.bytes > tableByteLimit { throw .catalogTooWide(bytes: tables.bytes, limit: tableByteLimit) }
        // 3. Each edge's family and mask place; the rules behind each edge, counted then placed
        // in rule order (a rule has at most one entry per edge).
        var family = [Int](repeating: 0, count: edges)
        var maskAt = [Int](repeating: 0, count: edges)
        var store = 0
        for id in 0..<options {
            var edge = start[id]
            for v in 0..<familyWords {
                var bits = near[id * familyWords + v]
                while bits != 0 {
                    let g = v << 6 + bits.trailingZeroBitCount
                    bits &= bits - 1
                    family[edge] = g
                    maskAt[edge] = store
                    store += words[g]
                    edge += 1
                }
            }
        }
        work += edges + maskWords
        try checkpoint()
        /// The edge of option `id` to family `g` (one it has).
        func edge(_ id: Int, _ g: Int) -> Int {
            var index = start[id]
            for v in 0..<g >> 6 { index += near[id * familyWords + v].nonzeroBitCount }
            return index + (near[id * familyWords + g >> 6] & ((1 << UInt64(g & 63)) - 1)).nonzeroBitCount
        }
        var ruleStart = [Int](repeating: 0, count: edges + 1)
        for rule in space.rules {
            forEachEdge(of: rule, optionCounts: optionCounts) { f, option, g in ruleStart[edge(bases[f] + option, g) + 1] += 1 }
        }
        for e in 0..<edges { ruleStart[e + 1] += ruleStart[e] }
        work += entries + edges
        try checkpoint()
        var next = ruleStart
        var rules = [Int](repeating: 0, count: entries)
        var masks = [UInt64](repeating: 0, count: maskWords)
        for (index, rule) in space.rules.enumerated() {
            var done = 0
            forEachEdge(of: rule, optionCounts: optionCounts) { f, option, g in
                let e = edge(bases[f] + option, g)
                rules[next[e]] = index
                next[e] += 1
                addPairs(of: rule, from: f, option, in: g, optionCounts: optionCounts, to: &masks, at: maskAt[e])
                done += 1
            }
            work += 1 + done / 64 + (rule.kind == .require ? words[rule.second.family] : 0)
            try checkpoint()
        }
        tables.edgeStart = start
        tables.edgeFamily = family
        tables.edgeMask = maskAt
        tables.masks = masks
        tables.edgeRuleStart = ruleStart
        tables.edgeRules = rules
        tables.near = near
        return tables
    }
}
