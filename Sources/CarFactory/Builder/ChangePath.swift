// How to rebuild a car one `set` at a time: each step must keep every rule, so the
// order matters (a compact cannot take a short floorplan before it loses front drive).

extension Catalog {
    /// The parts to set, in order, turning a new car of `car`'s model into `car` with every step keeping the rules.
    ///
    /// Returns nil if no such sequence exists.
    public func changes(toReach car: Car) -> [any Part]? {
        let families = PartFamily.allCases
        let start = families.map { car.factory.defaultPart(of: $0) }
        let target = families.map { car.part(of: $0) }
        let differing = families.indices.filter { start[$0] !== target[$0] }
        for order in Self.permutations(differing) {
            var state = start
            var allowed = true
            for index in order {
                state[index] = target[index]
                if !keepsRules(state) {
                    allowed = false
                    break
                }
            }
            if allowed { return order.map { target[$0] } }
        }
        return searchChanges(from: start, to: target)
    }

    private func keepsRules(_ parts: [any Part]) -> Bool {
        !rules.contains { rule in rule.isBroken { parts[$0.index] } }
    }

    /// Breadth-first through every option, for targets no direct order reaches.
    private func searchChanges(from start: [any Part], to target: [any Part]) -> [any Part]? {
        let tables = PartFamily.allCases.map { options(of: $0).parts }
        func indices(_ parts: [any Part]) -> [Int]? {
            var result: [Int] = []
            for (family, part) in parts.enumerated() {
                guard let index = tables[family].firstIndex(where: { $0 === part }) else { return nil }
                result.append(index)
            }
            return result
        }
        guard let from = indices(start), let goal = indices(target) else { return nil }
        var previous: [[Int]: (state: [Int], family: Int)] = [from: (from, -1)]
        var queue = [from]
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            if state == goal {
                var steps: [any Part] = []
                var current = state
                while current != from, let step = previous[current] {
                    steps.append(tables[step.family][current[step.family]])
                    current = step.state
                }
                return steps.reversed()
            }
            for family in tables.indices {
                for option in tables[family].indices where option != state[family] {
                    var next = state
                    next[family] = option
                    guard previous[next] == nil,
                          keepsRules(next.enumerated().map { tables[$0.offset][$0.element] }) else { continue }
                    previous[next] = (state, family)
                    queue.append(next)
                }
            }
        }
        return nil
    }

    private static func permutations(_ items: [Int]) -> [[Int]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { index in
            var rest = items
            let first = rest.remove(at: index)
            return permutations(rest).map { [first] + $0 }
        }
    }
}
