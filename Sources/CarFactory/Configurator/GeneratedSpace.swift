// Generated spaces far larger than the book's catalog, for the configurator's benchmark
// (Scripts/bench-configurator) and the tests that hold its search to a step budget: one
// generator, so the benchmark's rows and the tests' catalogs are the same.

/// SplitMix64: a small deterministic generator, so a catalog (or a failing test) names its seed;
/// the standard library's random functions take it too.
public struct SplitMix64: Sendable, RandomNumberGenerator {
    /// The generator's state.
    public var state: UInt64

    /// A generator starting from `state`.
    public init(state: UInt64) {
        self.state = state
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<n` (`n` > 0).
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

extension ConfigurationSpace {
    /// `families` families of `options` options each (prices of $0 to $4,900 in $100 steps)
    /// and `rules` distinct rules (a fifth of them `require`), none broken by `car`, a random
    /// car: the benchmark's catalogs (30 x 10 with 1,000 rules, 60 x 8 with 3,000).
    public static func generated(families: Int, options: Int, rules count: Int, seed: UInt64) -> (space: ConfigurationSpace, car: [Int]) {
        var random = SplitMix64(state: seed)
        let prices = (0..<families).map { _ in (0..<options).map { _ in Int64(random.below(50) * 10_000) } }
        let names = (0..<families).map { f in (0..<options).map { "f\(f)o\($0)" } }
        let car = (0..<families).map { _ in random.below(options) }
        var rules: [Constraint] = []
        var seen = Set<Constraint>()
        // Rules need two families; past every possible pair no more are made.
        let possible = families > 1 ? families * (families - 1) * options * options * 2 : 0
        while rules.count < min(count, possible / 4) {
            let f = random.below(families)
            var g = random.below(families - 1)
            if g >= f { g += 1 }
            let a = Choice(f, random.below(options))
            let b = Choice(g, random.below(options))
            let rule = Constraint(random.below(5) == 0 ? .require : .forbid, a, b)
            guard !rule.isBroken(by: car), seen.insert(rule).inserted else { continue }
            rules.append(rule)
        }
        return (ConfigurationSpace(prices: prices, names: names, rules: rules), car)
    }
}
