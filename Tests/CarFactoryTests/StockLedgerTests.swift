import Testing

@testable import CarFactory

@Suite struct StockLedgerTests {
    let catalog = Catalog.standard

    @Test func running_sums_follow_every_change() throws {
        var stock = StockLedger()
        try stock.add(catalog.builder(for: "suv").build(), count: 2)
        #expect(stock.carCount == 2)
        #expect(stock.value.description == "$163,790.00")
        try stock.add(catalog.builder(for: "sports").build(), count: 1)
        var builder = catalog.builder(for: try stock.currentLine().car)
        try builder.set(catalog.option(named: "4wd", in: .drivetrain))
        try stock.replaceCurrent(with: builder.build())
        #expect(stock.value.description == "$234,590.00")
        try stock.remove(1)
        #expect(stock.carCount == 1)
        #expect(stock.currentNumber == 1)
        #expect(stock.value.description == "$70,800.00")
        stock.clear()
        #expect(stock.carCount == 0 && stock.value.minorUnits == 0 && stock.currentNumber == nil)
    }

    /// `clear` moves the ledger into the journal and taking it back moves it back: the very
    /// line storage returns, nothing copied or walked either way (trial 9, 2: the lines were
    /// packed into the journal and unpacked back, 7.5 ms a `try clear` of 1,000,000 lines).
    @Test func a_clear_taken_back_puts_back_the_same_line_storage() throws {
        var stock = StockLedger()
        let models = ["compact", "sports", "suv"]
        for index in 0..<1000 { try stock.add(catalog.builder(for: models[index % 3]).build(), count: Int64(index + 1)) }
        try stock.remove(1)
        try stock.select(500)
        let lines = stock.lines.map { "\($0.car.factory.model) \($0.count)" }
        let storage = stock.entries.slots.withUnsafeBufferPointer { $0.baseAddress }
        stock.journal = StockJournal()
        stock.clear()
        #expect(stock.lineCount == 0 && stock.currentNumber == nil)
        var journal = try #require(stock.journal)
        let popped = journal.popLast()
        let change = try #require(popped)
        stock.journal = journal
        try stock.apply(change)
        #expect(stock.entries.slots.withUnsafeBufferPointer { $0.baseAddress } == storage)
        #expect(stock.lines.map { "\($0.car.factory.model) \($0.count)" } == lines)
        #expect(stock.currentNumber == 500 && stock.lineCount == 999)
        try stock.remove(1)
        #expect(stock.lines.first?.count == 3)
    }

    /// `add` makes its new line current with the slot it wrote, not by finding the line again:
    /// the current line's car, price and slot are the new line's across block boundaries
    /// (256 lines a block), after lines are removed from the middle (blocks split, slots out of
    /// order), and after a clear; `set` then changes that line and no other.
    @Test func an_added_line_is_current_with_its_own_slot_price_and_car() throws {
        var stock = StockLedger()
        let models = ["compact", "sports", "suv"]
        let cars = try models.map { try catalog.builder(for: $0).build() }
        func addChecked(_ index: Int) throws {
            try stock.add(cars[index % 3], count: Int64(index % 5 + 1))
            #expect(stock.currentNumber == stock.lineCount)
            #expect(try stock.currentPriceMinorUnits() == cars[index % 3].price.minorUnits)
            #expect(try stock.currentLine().car.factory.model == models[index % 3])
            #expect(try stock.currentLine().count == Int64(index % 5 + 1))
        }
        for index in 0..<600 { try addChecked(index) }
        for number in stride(from: 500, to: 10, by: -37) { try stock.remove(number) }
        for index in 600..<900 { try addChecked(index) }
        // The last line's car changes; its count and every other line stay.
        func described() -> [String] {
            stock.lines.map { "\($0.car.factory.model) \($0.count) \($0.car.part(of: .drivetrain)?.name ?? "-")" }
        }
        let before = described()
        var builder = catalog.builder(for: try stock.currentLine().car)
        try builder.set(catalog.option(named: "rear", in: .drivetrain))
        let changed = try builder.build()
        try stock.replaceCurrent(with: changed)
        let after = described()
        #expect(after.dropLast() == before.dropLast())
        #expect(after.last != before.last)
        #expect(after.last == "suv 5 \(changed.part(of: .drivetrain)?.name ?? "-")")
        #expect(try stock.currentPriceMinorUnits() == changed.priceMinorUnits)
        stock.clear()
        for index in 0..<300 { try addChecked(index) }
        #expect(stock.value.minorUnits == stock.lines.reduce(0) { $0 + $1.car.price.minorUnits * $1.count })
    }

    @Test func removing_the_current_line_makes_the_last_line_current() throws {
        var stock = StockLedger()
        for model in ["compact", "sports", "suv"] { try stock.add(catalog.builder(for: model).build(), count: 1) }
        try stock.select(2)
        try stock.remove(nil)
        #expect(stock.currentNumber == 2)
        #expect(try stock.currentLine().car.factory.model == "suv")
        try stock.select(2)
        try stock.remove(1)
        #expect(stock.currentNumber == 1)
        #expect(throws: CarFactoryError.noSuchLine(5, lineCount: 1)) { try stock.select(5) }
        #expect(throws: CarFactoryError.noSuchLine(0, lineCount: 1)) { try stock.remove(0) }
    }

    @Test func overflowing_counts_and_values_change_nothing() throws {
        var stock = StockLedger()
        let suv = try catalog.builder(for: "suv").build()
        try stock.add(suv, count: 1)
        // Said of the count that makes the value overflow (it was `moneyOverflow`, "amount too large").
        #expect(throws: CarFactoryError.countTooLarge(Int64.max / 1000)) { try stock.add(suv, count: Int64.max / 1000) }
        #expect(throws: CarFactoryError.countNotPositive(0)) { try stock.add(suv, count: 0) }
        #expect(stock.lines.count == 1 && stock.carCount == 1 && stock.value.description == "$81,895.00")
        #expect(throws: CarFactoryError.noCurrentCar) { try StockLedger().currentLine() }
    }

    @Test func a_line_past_the_bound_is_refused_before_anything_changes() throws {
        var stock = StockLedger()
        stock.lineLimit = 2
        let suv = try catalog.builder(for: "suv").build()
        try stock.add(suv, count: 1)
        try stock.add(suv, count: 2)
        #expect(throws: CarFactoryError.stockTooLarge(limit: 2)) { try stock.add(suv, count: 3) }
        #expect(stock.lineCount == 2 && stock.carCount == 3 && stock.currentNumber == 2)
        // Putting a line back (undo, redo, rollback) is held to the bound too.
        let sports = try catalog.builder(for: "sports").build()
        let value = stock.valueMinorUnits
        #expect(throws: CarFactoryError.stockTooLarge(limit: 2)) {
            try stock.apply(.insertLine(1, sports.configuration, count: 4, current: 1))
        }
        #expect(stock.lineCount == 2 && stock.carCount == 3 && stock.valueMinorUnits == value && stock.currentNumber == 2)
        try stock.remove(1)
        try stock.apply(.insertLine(1, sports.configuration, count: 4, current: 1))
        #expect(stock.lines.map(\.count) == [4, 2] && stock.currentNumber == 1)
    }
}
