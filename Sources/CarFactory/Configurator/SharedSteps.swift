// One count of steps for several answers: a completion prices many options, one search each,
// and the whole of it must end in bounded time, not each search alone.

/// Search steps that several answers share (every option one completion prices): each answer
/// asked with it spends from one count, held against the configurator's `limits.steps`.
public final class SearchBudget {
    // Its work is counted from each search's start (`countStart`).
    let effort = Configurator.Effort(reading: 0)

    /// A budget nothing has been spent from yet.
    public init() {}

    /// The steps spent so far.
    public var spent: Int { effort.spent }
}

extension Configurator {
    /// `repairs(of:wanting:fixed:limit:)`, the search's steps (and its start, see `countStart`)
    /// spent from `budget`: `searchLimitReached` once the steps of every answer asked with it
    /// pass `limits.steps`.
    public func repairs(
        of current: [Int], wanting wanted: ConfigurationSpace.Choice, fixed: [Bool] = [], limit: Int? = nil,
        spending budget: SearchBudget
    ) throws(CarFactoryError) -> [Repair] {
        // The configurator's set-up, if no answer has counted it, is spent from the budget too.
        budget.effort.work += meter.takeSetup()
        try countStart(budget.effort)
        return try repairs(of: current, wanting: wanted, fixed: fixed, limit: limit, budget.effort)
    }

    /// Counts the start of a search against `effort`: it sets up a bitset of every family's
    /// options, so a start counts a step per 64-bit word of them (`totalWords`). Without it
    /// `options` over a family of 60,000 options took 6.5 s in 240,000 steps, each search
    /// short but its start as long as the family. Asks for a stop each time, as a start
    /// counts many steps at once and would jump over `step`'s every 1,024th.
    func countStart(_ effort: Effort) throws(CarFactoryError) {
        // The search's work is counted from here: what the configurator did before (for
        // another answer, or after an earlier search's last step) is not this search's, so
        // answers sharing a budget spend the same whatever else the configurator did between them.
        effort.counted = meter.units
        try charge(effort, steps: totalWords)
        if shouldStop() { throw .searchStopped }
    }
}
