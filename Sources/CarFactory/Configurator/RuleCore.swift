// Why no valid car has an option: a minimal set of rules that rules it out (none of them can
// be left out). A search that fails records the rules it used; those are enough. Then each
// rule in turn is switched off: if the option becomes possible the rule is needed, else the
// rules the smaller search used are enough and the set shrinks.
//
// Two things keep that to a few searches on a large catalog. The rules are switched off in
// one configurator compiled once (their pairs taken out of the edges' masks), not a new one
// compiled per trial (3,000 rules, 60 x 8: 133 of them needed, 2.7 of 3.4 billion
// instructions went to compiling). And a search that succeeds returns its car, which breaks
// only the rule switched off; a car one option away from it that breaks only one other rule
// of the set proves that rule needed too, without a search ("model rotation", as MUS
// extractors do it).

extension Configurator {
    /// A minimal set of rules under which no valid car has `choice` (none of them can be left
    /// out). Empty if some valid car has it.
    public func rulesRuling(out choice: ConfigurationSpace.Choice) throws(CarFactoryError) -> [Int] {
        try rulesRuling(out: choice, newEffort())
    }

    func rulesRuling(out choice: ConfigurationSpace.Choice, _ effort: Effort) throws(CarFactoryError) -> [Int] {
        let used = RuleRecord()
        guard try !satisfiable(choice, recording: used, effort) else { return [] }
        // Rules are tried in definition order, so the answer does not depend on the search's path.
        let rules = used.sorted
        // One configurator over the rules used (positions in `rules`), in which rules are switched off.
        var core = try Configurator(space: space.keeping(rules: rules), limits: limits, shouldStop: shouldStop, meter: meter)
        core.startSwitching()
        let byFamily = core.rulesByFamily()
        var needed = Array(repeating: false, count: rules.count)
        // Leave out rules a few at a time (in definition order), as many more as the last
        // time when that left the option impossible, half as many when it did not. If it stays
        // impossible, the rules the smaller search used are enough: every rule needed is among
        // them (fewer rules allow more cars). If not, the car found breaks a rule left out;
        // if only one, that rule is needed.
        var size = 1
        while true {
            let chunk = Array(rules.indices.lazy.filter { !core.rulesOff[$0] && !needed[$0] }.prefix(size))
            guard !chunk.isEmpty else { break }
            for rule in chunk { core.switchRule(rule, off: true) }
            let record = RuleRecord()
            if let car = try core.validCar(with: choice, recording: record, effort) {
                for rule in chunk { core.switchRule(rule, off: false) }
                let broken = chunk.filter { core.space.rules[$0].isBroken(by: car) }
                if broken.count == 1 {
                    needed[broken[0]] = true
                    core.rotate(car, breaking: broken[0], keeping: choice, byFamily: byFamily, &needed)
                }
                size = max(1, chunk.count / 2)
            } else {
                for other in rules.indices where !core.rulesOff[other] && !record.contains(other) {
                    core.switchRule(other, off: true)
                }
                size = chunk.count * 2
            }
        }
        return rules.indices.filter { !core.rulesOff[$0] }.map { rules[$0] }
    }

    /// Each family's rules (by position), those naming an option of it.
    private func rulesByFamily() -> [[Int]] {
        var byFamily = [[Int]](repeating: [], count: familyCount)
        for (index, rule) in space.rules.enumerated() {
            byFamily[rule.first.family].append(index)
            byFamily[rule.second.family].append(index)
        }
        return byFamily
    }

    /// Marks needed every rule still on that a car one option away from `car` (keeping
    /// `choice`) breaks alone, and so on from that car. `car` breaks only `rule` of the rules
    /// on, so only a change in one of the two families `rule` names can mend it; a car that
    /// then breaks one other rule alone shows the option possible without that rule.
    private func rotate(
        _ car: [Int], breaking rule: Int, keeping choice: ConfigurationSpace.Choice, byFamily: [[Int]],
        _ needed: inout [Bool]
    ) {
        var pending = [(car, rule)]
        while let (car, rule) = pending.popLast() {
            let broken = space.rules[rule]
            for f in [broken.first.family, broken.second.family] where f != choice.family {
                var other = car
                for o in 0..<optionCounts[f] where o != car[f] {
                    other[f] = o
                    // The rules on that the changed car breaks all name family f.
                    var alone: Int?
                    var more = false
                    meter.units &+= byFamily[f].count
                    for candidate in byFamily[f] where !rulesOff[candidate] && space.rules[candidate].isBroken(by: other) {
                        if alone != nil {
                            more = true
                            break
                        }
                        alone = candidate
                    }
                    guard !more, let alone, !needed[alone] else { continue }
                    needed[alone] = true
                    pending.append((other, alone))
                }
            }
        }
    }
}
