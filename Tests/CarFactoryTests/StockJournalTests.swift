import Testing

@testable import CarFactory

// The journal keeps each entry's step start as a bit in a word list beside the entries: every
// way it is cut (the tail popped or kept to a length, the front dropped at any offset, a start
// joined to the step before) must keep each entry's bit with it, as a plain list of pairs does.
@Suite struct StockJournalTests {
    @Test func an_entry_is_8_bytes() {
        #expect(MemoryLayout<StockChange>.stride == 8)
    }

    /// Entry `i` as a change that names it (`removeLast` of line `i`), so the model can check it.
    static func entry(_ i: Int) -> StockChange { .removeLast(current: Int32(i)) }
    static func tag(_ change: StockChange) -> Int32? {
        if case .removeLast(let current) = change { return current }
        return nil
    }

    @Test(arguments: Array(1...25) as [UInt64])
    func its_step_starts_follow_a_list_of_pairs(seed: UInt64) {
        var random = SplitMix64(state: seed)
        var journal = StockJournal()
        var model: [(tag: Int32, starts: Bool)] = []
        var next: Int32 = 1
        for _ in 0..<400 {
            switch random.below(10) {
            case 0...4:
                // Runs of appends, so that the word list grows past several words.
                for _ in 0..<(1 + random.below(90)) {
                    let starts = random.below(3) == 0
                    journal.append(Self.entry(Int(next)), startsStep: starts)
                    model.append((next, starts))
                    next += 1
                }
            case 5:
                let popped = journal.popLast()
                let expected = model.popLast()
                #expect(popped.flatMap(Self.tag) == expected?.tag)
            case 6:
                let kept = random.below(model.count + 2)
                journal.keepFirst(kept)
                if kept < model.count { model.removeSubrange(kept...) }
            case 7:
                let dropped = random.below(model.count + 1)
                journal.removeFirst(dropped)
                model.removeFirst(dropped)
            default:
                guard !model.isEmpty else { continue }
                let index = random.below(model.count)
                journal.joinStep(index)
                model[index].starts = false
            }
            #expect(journal.count == model.count)
            for index in model.indices {
                #expect(Self.tag(journal[index]) == model[index].tag)
                #expect(journal.startsStep(index) == model[index].starts, "seed \(seed), entry \(index)")
            }
            // Whole words in the list, the rest in the tail, whose bits past the end are clear.
            #expect(journal.starts.count == model.count / 64)
            #expect(journal.tail >> UInt64(model.count % 64) == 0 || model.count % 64 == 0)
            if model.count % 64 == 0 { #expect(journal.tail == 0) }
        }
    }
}
