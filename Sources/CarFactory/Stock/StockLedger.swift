/// A stock line: one car configuration and how many of it.
public struct StockLine: Sendable {
    /// The configured car.
    public let car: Car
    /// How many of it are in stock.
    public let count: Int64

    @usableFromInline init(car: Car, count: Int64) {
        self.car = car
        self.count = count
    }
}

/// The stock: numbered lines, the current line, and running sums so a total never walks the lines.
///
/// A line is kept as plain numbers (how many, which configuration): adding, changing,
/// removing and clearing lines then count no references, and a line takes 16 bytes. The
/// configurations themselves are kept once each, in the order the stock first held them;
/// a configuration's place in that list is its id.
public struct StockLedger: Sendable {
    // What the engine reads on every command is inlinable, with the fields it reads: a call
    // across the module would take the ledger by value, copying it out of the session (five
    // array references retained and released, ~160 instructions a `show`).

    /// A line as kept.
    @usableFromInline struct Entry: Sendable {
        @usableFromInline var count: Int64
        @usableFromInline var configuration: Int32
    }

    @usableFromInline fileprivate(set) var entries = StockLines()
    /// Every configuration a line has held since the list was last compacted, by id.
    @usableFromInline private(set) var configurations: [CarConfiguration] = []
    /// Each configuration's unit price, by id.
    private var prices: [Int64] = []
    /// The rules whose families the configurations are read under, once a family has been
    /// defined or taken back (nil before): a configuration kept from before holds fewer
    /// families, or more, and is read as the same car with its model's default of each family
    /// defined since (`readable`). Defining a family or taking one back then changes no
    /// configuration: giving each the family took time in proportion to them all, every
    /// `try family` twice (200,000 configurations: 1.2 s a line; trial 10, 2).
    @usableFromInline private(set) var familyRules: RuleSet?
    /// Whether some configuration kept may lack a family or hold one taken back: the check of a
    /// rule, which reads their parts by identity, makes them all whole first (and once).
    private var partial = false
    /// How many configurations have been made whole for a rule's check, all told (the tests
    /// bound it: defining a family, or taking one back, makes none).
    package private(set) var configurationsMadeWhole = 0
    /// Each configuration's id plus one, by the hash of its parts (open addressing; 0 is a free slot).
    private var ids: [Int32] = []
    /// How many configurations may be kept before the ones no line holds are dropped.
    private var compactAt = Self.keptConfigurations
    /// Changes whenever ids are given out afresh: ids remembered from an earlier generation mean nothing.
    package private(set) var generation = 0
    /// The current line's 1-based number, if any.
    /// Set through `makeCurrent`, which keeps the fields beside it in step (but by `add`,
    /// which knows them: see there).
    public private(set) var currentNumber: Int?
    /// The current line's configuration id and unit price, kept beside its number: the hot
    /// path reads them as stored fields, where reading through `entries` would copy the ledger.
    @usableFromInline package private(set) var currentConfiguration: Int32?
    @usableFromInline private(set) var currentPrice: Int64 = 0
    /// The current line's slot in `entries` (see `StockLines.slot`), kept beside its number
    /// and found again whenever lines move: `set` writes the line without finding it (finding
    /// it through the lines' blocks cost ~13 instructions a `set`).
    @usableFromInline private(set) var currentSlot = 0
    /// Cars in stock, all lines together.
    public private(set) var carCount: Int64 = 0
    /// Value of the stock in base-currency minor units.
    public private(set) var valueMinorUnits: Int64 = 0
    /// How many lines hold each configuration, by id: made the first time a rule is checked
    /// against a stock (`forbid`), then kept up to date, so that each later check looks at
    /// each configuration once instead of at every line. Stocks never checked pay nothing.
    private var linesByConfiguration: [Int]?
    /// The configurations holding each part (by the part's identity), made with
    /// `linesByConfiguration` for a stock of more than a few configurations, then kept as ids
    /// are given out (and made again after they are renumbered or the parts change): a rule
    /// looks only at the configurations holding one of its options, not at all of them.
    /// (80,000 configurations then 20,000 rules took 36 s; trial 4, 1.)
    private var configurationsByPart: [ObjectIdentifier: [Int32]]?
    /// The parts `configurationsByPart` holds, by family index: the options of a family that
    /// some configuration holds, so that `require A with B` can walk those lacking B.
    private var partsByFamily: [[ObjectIdentifier]] = []
    /// What is known of the first breaking line of the rules checked last: a refused rule
    /// registers nothing, so `expect error` can try it again and again, and each try cost a
    /// walk of the stock (8,000 tries of one refused rule over 40,000 configurations: 21.7 s;
    /// trial 5, 8). Each change to the lines moves what is known (see `RuleAnswer`) instead of
    /// forgetting it: forgotten, a try after each change walked the lines up to the breaking
    /// one again (20,000 / 40,000 tries, each after a `set`: 0.71 / 2.01 s).
    private var ruleAnswers: [RuleAnswer] = []
    /// How many rules' answers are kept: each change to the lines moves every one.
    static let keptRuleAnswers = 8
    /// How many configurations and lines rules' checks have looked at, all told (the tests
    /// bound it: the work of a check, not its time).
    package private(set) var ruleCheckSteps = 0
    /// What takes back each change made since it was last taken (`takeJournal`), when kept:
    /// nil (the default) keeps nothing and costs one test per change (see `StockChange`).
    @usableFromInline package var journal: StockJournal?
    /// Whether the next change journaled is the first of an undo step: the undo history sets
    /// it when it closes one, so a step's boundary is a bit beside its first entry, not a
    /// record of its own (8 bytes a step that changes one thing, where an entry and a record took 48).
    package var nextEntryStartsStep = true
    /// The bytes (estimated) of the ledgers journaled whole so far (`clear`), counted up
    /// only: the undo history takes the difference to bound itself without reading the entries.
    package private(set) var journaledLedgerBytes = 0

    /// The most lines a stock holds: 2^26 (1 GiB of lines, 16 bytes each). A line past it
    /// is an error (`stock-too-large`), found before anything changes: a few files that
    /// `source` each other twice over would otherwise take all the memory there is.
    public static let maximumLines = 1 << 26
    /// The most lines this stock holds: `maximumLines` (tests make it small).
    package var lineLimit = StockLedger.maximumLines
    /// The most distinct configurations a stock keeps: 2^18. Each takes up to some 1.2 KB
    /// (`CarConfiguration.storageEstimate` with 64 families), so they take at most some
    /// 320 MB whatever the lines; a `car` or `set` that would need one more is an error
    /// (`configurations-too-large`) that changes nothing. The lines' bound alone left them
    /// unbounded: 2^26 lines of distinct configurations of 61 families would take 160 GB
    /// (trial 8, 2).
    public static let maximumConfigurations = 1 << 18
    /// The most configurations this stock keeps: `maximumConfigurations` (tests make it small).
    package var configurationLimit = StockLedger.maximumConfigurations
    /// How many configurations some line may have let go since the configurations were last
    /// compacted: ids given out (each replaced the one a line held, or added a line), lines
    /// removed, and refusals at the bound (a `set` to a configuration kept already lets one
    /// go uncounted: counting it cost the hot path of `set`). At the bound, the stock
    /// compacts only once they are an eighth of those kept, so that the walk of the lines is
    /// paid for by the commands since the last one.
    private var releasedSinceCompaction = 0

    /// An empty stock.
    public init() {}

    /// How many lines there are.
    public var lineCount: Int { entries.count }

    /// The lines, numbered from 1 to the user (made afresh on each call: `line(_:)` reads one).
    public var lines: [StockLine] { entries.live.map(line(of:)) }

    /// The current line.
    @inlinable public func currentLine() throws(CarFactoryError) -> StockLine {
        guard let number = currentNumber else { throw .noCurrentCar }
        return line(of: entries[number])
    }

    /// The current car's unit price in base-currency minor units.
    @inlinable public func currentPriceMinorUnits() throws(CarFactoryError) -> Int64 {
        guard currentNumber != nil else { throw .noCurrentCar }
        return currentPrice
    }

    /// Lends the car of line `number` (1-based; the current line if nil) to `body`, while the
    /// ledger holds it (`show`). `body` must not change the ledger.
    ///
    /// Mutating, though it changes nothing, so that a caller reaching the ledger through a class
    /// lends it in place: as a non-mutating method with a closure that may reach the same object,
    /// the ledger was copied whole around every call. `currentLine()`, whose line holds its car,
    /// retained the configuration twice around every `show`; lent, it is retained once, around
    /// the sink's call (set/show 1,053.1 -> 1,046.6 instructions a command; callgrind, 10^5 commands).
    @inlinable public mutating func withCar<Result>(ofLine number: Int?, _ body: (Car) -> Result) throws(CarFactoryError) -> Result {
        let id: Int32
        if let number {
            guard number >= 1 && number <= entries.count else { throw .noSuchLine(number, lineCount: entries.count) }
            id = entries[number].configuration
        } else {
            // The current line's, kept beside its number: no look into the lines.
            guard let current = currentConfiguration else { throw .noCurrentCar }
            id = current
        }
        return body(Car(configuration: readable(configurations[Int(id)])))
    }

    /// Line `number` (1-based).
    @inlinable public func line(_ number: Int) throws(CarFactoryError) -> StockLine {
        guard number >= 1 && number <= entries.count else { throw .noSuchLine(number, lineCount: entries.count) }
        return line(of: entries[number])
    }

    @inlinable func line(of entry: Entry) -> StockLine {
        StockLine(car: Car(configuration: readable(configurations[Int(entry.configuration)])), count: entry.count)
    }

    /// `configuration` as the catalog reads it now (see `familyRules`): the one way a kept
    /// configuration is handed out. The same object until a family is defined.
    @inlinable func readable(_ configuration: CarConfiguration) -> CarConfiguration {
        familyRules == nil ? configuration : completed(configuration)
    }

    @usableFromInline func completed(_ configuration: CarConfiguration) -> CarConfiguration {
        familyRules?.completed(configuration) ?? configuration
    }

    /// The value of the stock in the base currency.
    public var value: Money { .base(valueMinorUnits) }

    /// Adds `count` of `car` as a new line, which becomes current (by its configuration's id).
    public mutating func add(_ car: Car, count: Int64) throws(CarFactoryError) {
        try add(configuration: try id(of: car.configuration), count: count)
    }

    /// Replaces the current line's car, keeping its count (by its configuration's id).
    public mutating func replaceCurrent(with car: Car) throws(CarFactoryError) {
        guard currentNumber != nil else { throw .noCurrentCar }
        try replaceCurrent(configuration: try id(of: car.configuration))
    }

    /// Makes line `number` current.
    public mutating func select(_ number: Int) throws(CarFactoryError) {
        _ = try line(number)
        if journal != nil && currentNumber != number { journalAppend(.current(currentNumber)) }
        makeCurrent(number)
    }

    /// Removes line `number` (the current line if nil); removing the current line makes the last line current.
    public mutating func remove(_ number: Int?) throws(CarFactoryError) {
        guard let target = number ?? currentNumber else { throw .noCurrentCar }
        _ = try line(target)
        let removed = entries[target]
        if journal != nil {
            journalAppend(
                .insertLine(
                    target, configurations[Int(removed.configuration)], count: removed.count,
                    current: currentNumber))
        }
        valueMinorUnits = try Self.adding(prices[Int(removed.configuration)], times: -removed.count, to: valueMinorUnits)
        carCount -= removed.count
        releasedSinceCompaction &+= 1
        if linesByConfiguration != nil {
            linesByConfiguration?[Int(removed.configuration)] -= 1
            moveRuleAnswers(.removed(target))
        }
        entries.remove(target)
        if let current = currentNumber {
            if current == target {
                makeCurrent(entries.isEmpty ? nil : entries.count)
            } else if current > target {
                makeCurrent(current - 1)
            } else {
                // Its number stays, but lines in its block may have moved it.
                syncCurrent()
            }
        }
    }

    /// Removes every line; an empty stock is left as it is (no journal entry: no step for `undo`).
    public mutating func clear() {
        guard !entries.isEmpty else { return }
        if journal != nil {
            // The ledger as it was, moved into the journal whole: its lines and what is known
            // of them (lines by configuration, rule answers) go with it, nothing copied or
            // walked, and this one starts its lines afresh. Packing the lines into the journal
            // walked them: `try clear` on 1,000,000 lines took 7.5 ms (trial 9, 2).
            let before = KeptLedger(self)
            journaledLedgerBytes &+= before.storageEstimate
            journalAppend(.ledger(before))
            entries = StockLines()
        } else {
            // Scripts that clear and refill keep their storage (freeing and faulting it in again
            // was a tenth of a run's time); a very large stock gives its memory back.
            entries.removeAll(keepingCapacity: entries.capacity <= Self.keptCapacity)
        }
        makeCurrent(nil)
        carCount = 0
        valueMinorUnits = 0
        linesByConfiguration = nil
        configurationsByPart = nil
        ruleAnswers = []
        releasedSinceCompaction = configurations.count
        // No line holds a configuration now: many kept ones go (and with them the memory,
        // and the work a later `forbid` would spend looking at them).
        if configurations.count > Self.keptConfigurations {
            configurations = []
            prices = []
            ids = []
            compactAt = Self.keptConfigurations
            releasedSinceCompaction = 0
            generation += 1
        }
    }

    /// The number of the first line whose car breaks `rule`, if any.
    ///
    /// Made to cost what the answer needs: a rule asked again with no line changed in between
    /// is answered from `ruleAnswers`; otherwise the configurations looked at are the fewer of
    /// those holding each side (for `require A with B`: holding A, or holding another option of
    /// B's family), each by its parts' identities, and the lines by their configuration ids alone.
    public mutating func firstLine(breaking rule: Rule) -> Int? {
        // No line, nothing to break, nothing to remember: the built-in catalog's rules are
        // added to an empty stock at every start, where the answers' dictionary cost ~150,000
        // instructions (its type's metadata made, callgrind on an empty file).
        guard !entries.isEmpty else { return nil }
        if partial { makeWhole() }
        if linesByConfiguration == nil {
            var counts = Array(repeating: 0, count: configurations.count)
            for entry in entries.live { counts[Int(entry.configuration)] += 1 }
            linesByConfiguration = counts
            ruleAnswers = []
        }
        let key = rule.first.part.flatMap { first in rule.second.part.map { RuleKey(kind: rule.kind, first: first, second: $0) } }
        guard let key else { return lineBreaking(rule, from: 1) }
        guard let known = ruleAnswers.firstIndex(where: { $0.key == key }) else {
            let answer = lineBreaking(rule, from: 1)
            if ruleAnswers.count >= Self.keptRuleAnswers { ruleAnswers.removeFirst() }
            ruleAnswers.append(RuleAnswer(key: key, rule: rule, found: answer, lineCount: entries.count))
            return answer
        }
        let answer = ruleAnswers[known]
        if answer.breaking { return answer.clean }
        if answer.clean > entries.count { return nil }
        // The lines before `clean` are known not to break it: looked for from there on.
        let found = lineBreaking(rule, from: answer.clean)
        ruleAnswers[known] = RuleAnswer(key: key, rule: rule, found: found, lineCount: entries.count)
        return found
    }

    /// `firstLine(breaking:)`, looked for from line `start` on (the lines before it break it not).
    private mutating func lineBreaking(_ rule: Rule, from start: Int) -> Int? {
        guard let counts = linesByConfiguration else { return nil }
        if configurationsByPart == nil && configurations.count > Self.scannedConfigurations { indexParts() }
        // The configurations some line holds that break the rule.
        var breaking: [Int32] = []
        // How many configurations are looked at (`ruleCheckSteps`).
        var looked = 0
        if let byPart = configurationsByPart, let first = rule.first.part, let second = rule.second.part {
            let configurations = configurations
            func held(_ id: Int32) -> Bool { counts[Int(id)] > 0 }
            func holds(_ id: Int32, _ family: PartFamily, _ part: ObjectIdentifier) -> Bool {
                configurations[Int(id)].key.part(of: family) == part
            }
            let (firstFamily, secondFamily) = (rule.first.family, rule.second.family)
            let holdingFirst = byPart[first] ?? []
            let holdingSecond = byPart[second] ?? []
            switch rule.kind {
            case .forbid:
                looked = min(holdingFirst.count, holdingSecond.count)
                breaking =
                    holdingFirst.count <= holdingSecond.count
                    ? holdingFirst.filter { held($0) && holds($0, secondFamily, second) }
                    : holdingSecond.filter { held($0) && holds($0, firstFamily, first) }
            case .require:
                // Broken by a car with A and another option of B's family: walk whichever is fewer.
                let others =
                    partsByFamily.indices.contains(secondFamily.index)
                    ? partsByFamily[secondFamily.index].filter { $0 != second } : []
                let lacking = others.reduce(0) { $0 + (byPart[$1]?.count ?? 0) }
                // Every configuration holds an option of B's family when it is complete: if one
                // does not (it would lack B too), the configurations holding A are walked.
                if lacking < holdingFirst.count && lacking + holdingSecond.count == configurations.count {
                    looked = lacking
                    for other in others {
                        breaking += (byPart[other] ?? []).filter { held($0) && holds($0, firstFamily, first) }
                    }
                } else {
                    looked = holdingFirst.count
                    breaking = holdingFirst.filter { held($0) && !holds($0, secondFamily, second) }
                }
            }
        } else {
            looked = counts.count
            for id in counts.indices where counts[id] > 0 && rule.isBroken(by: configurations[id].part(of:)) {
                breaking.append(Int32(id))
            }
        }
        ruleCheckSteps += looked
        guard !breaking.isEmpty else { return nil }
        // The first line holding one of them, by its configuration id alone.
        var marked: [Bool] = []
        if breaking.count > 1 {
            marked = Array(repeating: false, count: configurations.count)
            for id in breaking { marked[Int(id)] = true }
        }
        let only = breaking[0]
        var number = start
        for entry in entries.live(from: start - 1) {
            ruleCheckSteps += 1
            if marked.isEmpty ? entry.configuration == only : marked[Int(entry.configuration)] { return number }
            number += 1
        }
        return nil
    }

    /// Moves what `ruleAnswers` knows past `change` to the lines, made or about to be.
    @inline(__always)
    private mutating func moveRuleAnswers(_ change: LineChange) {
        if !ruleAnswers.isEmpty { moveKnownAnswers(change) }
    }

    @inline(never)
    private mutating func moveKnownAnswers(_ change: LineChange) {
        for index in ruleAnswers.indices {
            let rule = ruleAnswers[index].rule
            func breaks(_ id: Int32) -> Bool { rule.isBroken(by: configurations[Int(id)].part(of:)) }
            ruleAnswers[index].move(change, breaks: breaks)
        }
    }

    // MARK: By id: the one way lines are added and changed

    /// The id of `configuration`, given it if the stock has not held it yet.
    ///
    /// May give ids out afresh first (when many configurations no line holds have piled up),
    /// which changes `generation`; the id returned belongs to the new generation. A new one
    /// past `configurationLimit` is an error (`configurations-too-large`), after which the
    /// stock holds what it held; unless `bounded` is false: a change taken back or made again
    /// (`apply`) puts back a state the stock held under the bound, and one refused halfway
    /// through its step would leave a state that never was (review of stock10: a refused
    /// `undo` left a line changed, lost its step, and `redo` then crashed). Such a replay
    /// holds at most the configurations of the two states it goes between.
    package mutating func id(of configuration: CarConfiguration, bounded: Bool = true) throws(CarFactoryError) -> Int32 {
        let key = configuration.key
        if !ids.isEmpty {
            let mask = ids.count - 1
            var slot = Int(truncatingIfNeeded: key.hash) & mask
            while ids[slot] != 0 {
                let id = ids[slot] - 1
                if configurations[Int(id)].key == key { return id }
                slot = (slot + 1) & mask
            }
        }
        if configurations.count >= compactAt { compact() }
        if configurations.count >= configurationLimit {
            // Those no line holds go first, if enough lines have let theirs go for it to pay.
            if releasedSinceCompaction * 8 >= configurations.count { compact() }
            guard configurations.count < configurationLimit || !bounded else {
                releasedSinceCompaction += 1
                throw .configurationsTooLarge(limit: configurationLimit)
            }
        }
        releasedSinceCompaction += 1
        let id = Int32(configurations.count)
        // One taken back from a journal may be kept from before a family: kept whole, as the
        // index of parts reads it.
        let configuration = readable(configuration)
        configurations.append(configuration)
        prices.append(configuration.priceMinorUnits)
        linesByConfiguration?.append(0)
        if configurationsByPart != nil {
            for part in configuration.parts { index(part, in: id) }
        }
        if configurations.count * 2 > ids.count { rehash() } else { place(id) }
        return id
    }

    /// How many configurations a rule's check looks at one by one; past it, by `configurationsByPart`.
    static let scannedConfigurations = 64

    /// Makes `configurationsByPart` from every configuration kept.
    private mutating func indexParts() {
        configurationsByPart = [:]
        partsByFamily = []
        for (id, configuration) in configurations.enumerated() {
            for part in configuration.parts { index(part, in: Int32(id)) }
        }
    }

    /// Adds configuration `id` to the configurations holding `part` (made after every lower id).
    private mutating func index(_ part: any Part, in id: Int32) {
        let identity = ObjectIdentifier(part)
        if configurationsByPart?[identity] == nil {
            let family = part.family.index
            while partsByFamily.count <= family { partsByFamily.append([]) }
            partsByFamily[family].append(identity)
        }
        configurationsByPart?[identity, default: []].append(id)
    }

    /// Reads the configurations under `rules`' families from now on, after a family was defined
    /// or taken back: none is changed (see `familyRules`), so it costs the same whatever the
    /// stock. What is known of rules' answers and of the parts configurations hold is
    /// forgotten: the next rule's check makes the configurations whole and knows it again.
    package mutating func readConfigurations(under rules: RuleSet) {
        familyRules = rules
        partial = true
        configurationsByPart = nil
        ruleAnswers = []
    }

    /// Replaces each configuration with its whole one, keeping its id: the same car with a part
    /// of each family (at its model's default, so its price stays) and under the same key.
    private mutating func makeWhole() {
        partial = false
        configurationsMadeWhole += configurations.count
        var moved = false
        for id in configurations.indices {
            let kept = configurations[id]
            let whole = completed(kept)
            guard whole !== kept else { continue }
            // A line's car keeps its key and price; one no line holds may have held an option
            // of a family since taken back, which it loses, and is placed again.
            moved = moved || whole.key.hash != kept.key.hash
            configurations[id] = whole
            prices[id] = whole.priceMinorUnits
        }
        if moved { rehash() }
    }

    /// Puts `id` in the first free slot from its key's.
    private mutating func place(_ id: Int32) {
        let mask = ids.count - 1
        var slot = Int(truncatingIfNeeded: configurations[Int(id)].key.hash) & mask
        while ids[slot] != 0 { slot = (slot + 1) & mask }
        ids[slot] = id + 1
    }

    /// Makes room for twice the configurations kept, and places them all again.
    private mutating func rehash() {
        var size = 64
        while size < configurations.count * 4 { size *= 2 }
        ids = Array(repeating: 0, count: size)
        for id in configurations.indices { place(Int32(id)) }
    }

    /// Line `number`'s configuration id and count (1-based, within `lineCount`).
    @inlinable package func entry(_ number: Int) -> (configuration: Int32, count: Int64) {
        let entry = entries[number]
        return (entry.configuration, entry.count)
    }

    /// How many configurations have ids now: every id is below it.
    package var configurationCount: Int { configurations.count }

    /// The configuration with id `id` (of the current generation).
    @inlinable package func configuration(_ id: Int32) -> CarConfiguration {
        readable(configurations[Int(id)])
    }

    /// Adds `count` cars of configuration `id` (of the current generation) as a new line,
    /// which becomes current.
    package mutating func add(configuration id: Int32, count: Int64) throws(CarFactoryError) {
        let price = prices[Int(id)]
        guard count > 0 else { throw .countNotPositive(count) }
        let (newCount, countOverflow) = carCount.addingReportingOverflow(count)
        if countOverflow { throw .countOverflow }
        // The value overflows because of how many cars are added: said of the count.
        let (product, productOverflow) = price.multipliedReportingOverflow(by: count)
        let (newValue, sumOverflow) = valueMinorUnits.addingReportingOverflow(product)
        if productOverflow || sumOverflow { throw .countTooLarge(count) }
        guard entries.count < lineLimit else { throw .stockTooLarge(limit: lineLimit) }
        let slot = entries.append(Entry(count: count, configuration: id))
        if journal != nil { journalAppend(Self.removal(ofLine: entries.count, lineCount: entries.count, current: currentNumber)) }
        carCount = newCount
        valueMinorUnits = newValue
        // The new line's slot, configuration and price are known here: set with its number, not
        // found again by `syncCurrent`, whose copy of the lines' fields just written stalled
        // on their stores (3.6% of the benchmark mix's time in `perf record -e cpu-clock`,
        // most of it on one 16-byte load over two 8-byte stores).
        currentNumber = entries.count
        currentSlot = slot
        currentConfiguration = id
        currentPrice = price
        if linesByConfiguration != nil {
            linesByConfiguration?[Int(id)] += 1
            moveRuleAnswers(.inserted(entries.count, id))
        }
    }

    /// Makes the current line's car configuration `id` (of the current generation), keeping its count.
    package mutating func replaceCurrent(configuration id: Int32) throws(CarFactoryError) {
        guard let number = currentNumber else { throw .noCurrentCar }
        // The line's slot, kept: for the read and the write.
        let slot = currentSlot
        let old = entries.slots[slot]
        // The same car again (a `set` of the part it has): nothing to change, nothing to journal.
        if old.configuration == id { return }
        let price = prices[Int(id)]
        valueMinorUnits = try Self.value(valueMinorUnits, replacing: old.count, at: currentPrice, with: price)
        if linesByConfiguration != nil {
            linesByConfiguration?[Int(old.configuration)] -= 1
            linesByConfiguration?[Int(id)] += 1
            moveRuleAnswers(.replaced(number, id))
        }
        entries.setConfiguration(id, atSlot: slot)
        currentConfiguration = id
        currentPrice = price
        if journal != nil && old.configuration != id {
            journalAppend(.configuration(configurations[Int(old.configuration)]))
        }
    }

    /// Keeps only the configurations some line holds, under new ids: so a stock that passes
    /// through very many configurations keeps memory in proportion to its lines. It walks
    /// every line and every kept configuration, and comes only after at least as many new
    /// ids as that, so its cost is spread over the ids given out before it.
    private mutating func compact() {
        var renumbered = Array(repeating: Int32(-1), count: configurations.count)
        var kept: [CarConfiguration] = []
        var keptPrices: [Int64] = []
        entries.renumber { id in
            let old = Int(id)
            if renumbered[old] < 0 {
                renumbered[old] = Int32(kept.count)
                kept.append(configurations[old])
                keptPrices.append(prices[old])
            }
            return renumbered[old]
        }
        configurations = kept
        prices = keptPrices
        releasedSinceCompaction = 0
        rehash()
        syncCurrent()
        // The next compaction walks every line again: it waits for at least as many new ids
        // as there are lines and kept configurations, so its cost is spread over them.
        compactAt = max(Self.keptConfigurations, (entries.count + kept.count) * 2)
        generation += 1
        configurationsByPart = nil
        if linesByConfiguration != nil {
            var counts = Array(repeating: 0, count: kept.count)
            for entry in entries.live { counts[Int(entry.configuration)] += 1 }
            linesByConfiguration = counts
        }
    }

    // MARK: Taking changes back (the session's undo history)

    /// Makes `change` and journals what takes it back (if a journal is kept): the inverse of
    /// an inverse is the change again, so undo and redo are the same move.
    package mutating func apply(_ change: StockChange) throws(CarFactoryError) {
        let before = currentNumber
        switch change {
        case .insertLine(let number, let configuration, let count, let current):
            // Before anything changes (giving out an id may compact the configurations).
            guard entries.count < lineLimit else { throw .stockTooLarge(limit: lineLimit) }
            let id = try id(of: configuration, bounded: false)
            let (newCount, overflow) = carCount.addingReportingOverflow(count)
            if overflow { throw .countOverflow }
            valueMinorUnits = try Self.adding(prices[Int(id)], times: count, to: valueMinorUnits)
            carCount = newCount
            if linesByConfiguration != nil {
                linesByConfiguration?[Int(id)] += 1
                moveRuleAnswers(.inserted(number, id))
            }
            entries.insert(Entry(count: count, configuration: id), at: number)
            makeCurrent(current)
            journalAppend(Self.removal(ofLine: number, lineCount: entries.count, current: before))
        case .removeLast(let current):
            try removeLine(entries.count, current: current == 0 ? nil : Int(current), before: before)
        case .removeLine(let number, let current):
            try removeLine(number, current: current, before: before)
        case .configuration(let configuration):
            // Taken back and replayed in order, so the line it changed is current again.
            guard let number = currentNumber else { throw .noCurrentCar }
            // The id first: giving it out may renumber the lines' configurations.
            let id = try id(of: configuration, bounded: false)
            let old = entries[number]
            let without = try Self.adding(prices[Int(old.configuration)], times: -old.count, to: valueMinorUnits)
            valueMinorUnits = try Self.adding(prices[Int(id)], times: old.count, to: without)
            if linesByConfiguration != nil {
                linesByConfiguration?[Int(old.configuration)] -= 1
                linesByConfiguration?[Int(id)] += 1
                moveRuleAnswers(.replaced(number, id))
            }
            entries[number].configuration = id
            releasedSinceCompaction &+= 1
            syncCurrent()
            journalAppend(.configuration(configurations[Int(old.configuration)]))
        case .current(let number):
            makeCurrent(number)
            journalAppend(.current(before))
        case .nothing:
            journalAppend(.nothing)
        case .ledger(let old):
            // The journal is moved, not shared, so that appending to it copies nothing.
            let kept = journal
            let startsStep = nextEntryStartsStep
            let counted = journaledLedgerBytes
            journal = nil
            let replaced = KeptLedger(self)
            // The ids of the ledger put back are not the ids handed out since: a new
            // generation says so to whatever remembers ids.
            let next = max(generation, old.ledger.generation) + 1
            self = old.restored()
            generation = next
            journal = consume kept
            nextEntryStartsStep = startsStep
            journaledLedgerBytes = counted &+ replaced.storageEstimate
            journalAppend(.ledger(replaced))
        }
    }

    /// Takes line `number` away (1-based), making line `current` current, and journals what puts it back.
    private mutating func removeLine(_ number: Int, current: Int?, before: Int?) throws(CarFactoryError) {
        guard number >= 1 && number <= entries.count else { throw .noSuchLine(number, lineCount: entries.count) }
        let removed = entries[number]
        valueMinorUnits = try Self.adding(prices[Int(removed.configuration)], times: -removed.count, to: valueMinorUnits)
        carCount -= removed.count
        releasedSinceCompaction &+= 1
        if linesByConfiguration != nil {
            linesByConfiguration?[Int(removed.configuration)] -= 1
            moveRuleAnswers(.removed(number))
        }
        entries.remove(number)
        makeCurrent(current)
        journalAppend(
            .insertLine(
                number, configurations[Int(removed.configuration)], count: removed.count,
                current: before))
    }

    /// Journals `change` (if a journal is kept), the first of a step if the history said so.
    @inline(__always)
    private mutating func journalAppend(_ change: consuming StockChange) {
        journal?.append(change, startsStep: nextEntryStartsStep)
        nextEntryStartsStep = false
    }

    /// What takes line `number` away again, of `lineCount`, line `current` then current: the
    /// last line's, the common case (undoing `car`), in 8 bytes when `current` fits in 32 bits.
    private static func removal(ofLine number: Int, lineCount: Int, current: Int?) -> StockChange {
        if number == lineCount {
            guard let current else { return .removeLast(current: 0) }
            if let narrow = Int32(exactly: current) { return .removeLast(current: narrow) }
        }
        return .removeLine(number, current: current)
    }

    /// Journals an entry that changes nothing: the first of a step that changes only what
    /// the ledger does not keep (the catalog, variables).
    package mutating func journalNothing() { journalAppend(.nothing) }

    /// How many changes the journal holds (0 when none is kept).
    @inlinable package var journalCount: Int { journal?.count ?? 0 }

    /// About how many bytes this ledger's own storage takes (the undo history's bound counts it).
    package var storageEstimate: Int {
        entries.capacity * MemoryLayout<Entry>.stride + configurations.count * 48 + ids.count * 4 + 64
    }

    /// Makes line `number` current (none if nil), with its slot, configuration and price.
    private mutating func makeCurrent(_ number: Int?) {
        currentNumber = number
        syncCurrent()
    }

    fileprivate mutating func syncCurrent() {
        if let number = currentNumber {
            currentSlot = entries.slot(number)
            let id = entries.slots[currentSlot].configuration
            currentConfiguration = id
            currentPrice = prices[Int(id)]
        } else {
            currentConfiguration = nil
        }
    }

    /// The most lines whose storage `clear` keeps for refilling.
    static let keptCapacity = 1 << 16
    /// How many configurations are kept before the ones no line holds are dropped.
    static let keptConfigurations = 1 << 12

    /// The stock's value once the current line's cars cost `price` each, as `set` would make
    /// it, or the error `set` would fail with (`money-overflow`): the configurator offers no
    /// change the stock cannot take.
    package func valueWithCurrentPrice(_ price: Int64) throws(CarFactoryError) -> Int64 {
        guard let number = currentNumber else { throw .noCurrentCar }
        return try Self.value(valueMinorUnits, replacing: entries[number].count, at: currentPrice, with: price)
    }

    /// `value` with `count` cars at `oldPrice` each costing `price` instead.
    private static func value(_ value: Int64, replacing count: Int64, at oldPrice: Int64, with price: Int64) throws(CarFactoryError)
        -> Int64
    {
        try adding(price, times: count, to: try adding(oldPrice, times: -count, to: value))
    }

    private static func adding(_ price: Int64, times count: Int64, to sum: Int64) throws(CarFactoryError) -> Int64 {
        let (product, o1) = price.multipliedReportingOverflow(by: count)
        let (result, o2) = sum.addingReportingOverflow(product)
        if o1 || o2 { throw .moneyOverflow }
        return result
    }
}

/// A rule as `StockLedger.ruleAnswers` knows it: by its options' identities.
private struct RuleKey: Equatable {
    let kind: Rule.Kind
    let first: ObjectIdentifier
    let second: ObjectIdentifier
}

/// A change to a stock's lines, as it moves what is known of a rule's first breaking line.
private enum LineChange {
    /// Line N now holds configuration id.
    case replaced(Int, Int32)
    /// A line holding configuration id put in as line N (the lines from N on move down one).
    case inserted(Int, Int32)
    /// Line N taken out (the lines after it move up one).
    case removed(Int)
}

/// What is known of the first line breaking a rule: no line before `clean` does, and line
/// `clean` does if `breaking` (else it is not known; `clean` past the last line: none does).
/// A change moves it in O(1), looking only at the line changed; only a change to the breaking
/// line itself leaves the lines after it to be looked at again, from there.
private struct RuleAnswer {
    let key: RuleKey
    let rule: Rule
    var clean: Int
    var breaking: Bool

    /// The answer found, `found` (nil: no line of `lineCount` breaks the rule).
    init(key: RuleKey, rule: Rule, found: Int?, lineCount: Int) {
        (self.key, self.rule) = (key, rule)
        (clean, breaking) = found.map { ($0, true) } ?? (lineCount + 1, false)
    }

    /// Past `change`; `breaks` says whether a configuration id breaks the rule.
    mutating func move(_ change: LineChange, breaks: (Int32) -> Bool) {
        switch change {
        case .replaced(let line, let id):
            if line < clean {
                if breaks(id) { (clean, breaking) = (line, true) }
            } else if line == clean {
                // Known now, either way: it breaks the rule, or the clean lines reach past it.
                if breaks(id) { breaking = true } else { (clean, breaking) = (clean + 1, false) }
            }
        case .inserted(let line, let id):
            guard line <= clean else { return }
            if breaks(id) { (clean, breaking) = (line, true) } else { clean += 1 }
        case .removed(let line):
            if line < clean {
                clean -= 1
            } else if line == clean {
                breaking = false
            }
        }
    }
}

/// One change to a stock as the journal keeps it, to take it back (see `StockLedger.apply`).
/// Configurations are kept as themselves, not by id: ids are renumbered when the ledger compacts.
/// It takes 8 bytes: what takes more is boxed, and what a step can be sure of is not kept
/// (the line a change is on, when it is the last or the current one).
@usableFromInline package enum StockChange: Sendable {
    /// Put back line N (1-based) of `count` cars of a configuration; then line `current` is current.
    /// Boxed: only `remove` and undoing `car` make one.
    indirect case insertLine(Int, CarConfiguration, count: Int64, current: Int?)
    /// Take the last line away (what takes back `car`); then line `current` is current (0: none).
    case removeLast(current: Int32)
    /// Take line N away (a line put back amid others); then line `current` is current. Boxed: rare.
    indirect case removeLine(Int, current: Int?)
    /// The current line's cars are of this configuration (the line it changed is current
    /// whenever it is taken back or replayed: steps go back and forth in order).
    case configuration(CarConfiguration)
    /// This line (or none) is current. Boxed: only `select` makes one.
    indirect case current(Int?)
    /// No change: the first entry of a step that changed only the catalog or variables, so
    /// that every step starts with an entry.
    case nothing
    /// The whole ledger as it was (before `clear`).
    indirect case ledger(KeptLedger)

    /// About how many bytes keeping it takes (kept as an undone step's change).
    package var storageEstimate: Int { 16 + keptLedgerBytes }

    /// The bytes of the ledger it keeps whole, if any (`StockLedger.journaledLedgerBytes` counted them).
    package var keptLedgerBytes: Int {
        if case .ledger(let kept) = self { return kept.storageEstimate }
        return 0
    }
}

/// A whole ledger as the journal keeps it (`clear`), lines and all: moved there, not copied
/// (the ledger that goes on starts its lines afresh), so keeping it and putting it back
/// cost nothing in the stock's size. Its lines were packed into 4 bytes each once, which
/// walked them at every `clear` and every undo of one (trial 9, 2); kept as they are, they
/// are charged to the undo history's bound as they are (`storageEstimate`).
///
/// A large stock's lines are packed still, 4 bytes each where every line fits: its storage as
/// it is, 16 bytes a slot with room to grow (2^22 slots, 64 MiB, just past 2^21 lines), passed
/// the history's 64 MiB bound alone, so `clear` was refused from some 2.1 M lines where it had
/// worked to some 16 M (review of stock11, 1). Packing walks the lines (some 7.5 ms a million),
/// so stocks up to `packedFrom` slots (16 MiB) are kept as they are, in O(1).
///
/// The charge is the memory the record holds (the packed lines' or the storage's capacity),
/// not a share of it: the stock that goes on may fill up again and be cleared again, and
/// each ledger kept stays alive while its step is, so charging less than it holds would let
/// a loop of `car`s and `clear`s keep stocks beyond the bound. Undoing the `clear` moves the
/// ledger back out (the record charged in its place is the emptied one's), and redoing it
/// moves it in again, charged again: clear, undo and redo in a loop keep one stock, not more.
@usableFromInline package struct KeptLedger: Sendable {
    /// The ledger, its journal left out (and its lines, when packed).
    let ledger: StockLedger
    /// Its lines when packed: a configuration id (20 bits) above a count (12 bits); nil: in `ledger`.
    let packed: [UInt32]?
    /// About how many bytes it keeps (the undo history's bound counts them).
    let storageEstimate: Int

    /// The most slots of lines kept as they are (16 MiB): more are packed if every line fits.
    static let packedFrom = 1 << 20
    static let countBits = 12
    static let configurationBits = 20

    /// `ledger` as it is, its lines packed if they are many and each fits.
    init(_ ledger: StockLedger) {
        var kept = ledger
        kept.journal = nil
        let many = kept.entries.capacity > Self.packedFrom
        let fits =
            many
            && kept.entries.live.allSatisfy {
                $0.count > 0 && $0.count < 1 << Self.countBits && $0.configuration >= 0
                    && $0.configuration < 1 << Self.configurationBits
            }
        var packed: [UInt32]? = nil
        if fits {
            var lines: [UInt32] = []
            lines.reserveCapacity(kept.entries.count)
            for entry in kept.entries.live { lines.append(UInt32(entry.configuration) << Self.countBits | UInt32(entry.count)) }
            packed = lines
            kept.entries = StockLines()
        }
        self.ledger = kept
        self.packed = packed
        storageEstimate = kept.storageEstimate + (packed?.capacity ?? 0) * MemoryLayout<UInt32>.stride
    }

    /// The ledger as it was (its lines unpacked, in new slots: the current line's found again).
    func restored() -> StockLedger {
        guard let packed else { return ledger }
        var restored = ledger
        let mask = UInt32(1) << Self.countBits - 1
        var lines = StockLines()
        for line in packed { lines.append(StockLedger.Entry(count: Int64(line & mask), configuration: Int32(line >> Self.countBits))) }
        restored.entries = lines
        restored.syncCurrent()
        return restored
    }
}
