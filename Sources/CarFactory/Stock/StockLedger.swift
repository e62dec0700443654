/// A stock line: one car configuration and how many of it.
public struct StockLine: Sendable {
    /// The configured car.
    public let car: Car
    /// How many of it are in stock.
    public let count: Int64
}

/// The stock: numbered lines, the current line, and running sums so a total never walks the lines.
public struct StockLedger: Sendable {
    /// The lines, numbered from 1 to the user.
    public private(set) var lines: [StockLine] = []
    /// The current line's 1-based number, if any.
    public private(set) var currentNumber: Int?
    /// Cars in stock, all lines together.
    public private(set) var carCount: Int64 = 0
    /// Value of the stock in base-currency minor units.
    public private(set) var valueMinorUnits: Int64 = 0
    /// How many lines hold each distinct configuration: made the first time a rule is checked
    /// against a stock (`forbid`), then kept up to date, so that each later check looks at
    /// each configuration once instead of at every line. Stocks never checked pay nothing.
    private var linesByConfiguration: [ConfigurationKey: (configuration: CarConfiguration, lines: Int)]?

    /// An empty stock.
    public init() {}

    /// The current line.
    public func currentLine() throws(CarFactoryError) -> StockLine {
        guard let number = currentNumber else { throw .noCurrentCar }
        return lines[number - 1]
    }

    /// The current car's unit price in base-currency minor units (without copying the line).
    public func currentPriceMinorUnits() throws(CarFactoryError) -> Int64 {
        guard let number = currentNumber else { throw .noCurrentCar }
        return lines[number - 1].car.priceMinorUnits
    }

    /// Line `number` (1-based).
    public func line(_ number: Int) throws(CarFactoryError) -> StockLine {
        guard number >= 1 && number <= lines.count else { throw .noSuchLine(number, lineCount: lines.count) }
        return lines[number - 1]
    }

    /// The value of the stock in the base currency.
    public var value: Money { .base(valueMinorUnits) }

    /// Adds `count` of `car` as a new line, which becomes current.
    public mutating func add(_ car: Car, count: Int64) throws(CarFactoryError) {
        guard count > 0 else { throw .countNotPositive(count) }
        let (newCount, countOverflow) = carCount.addingReportingOverflow(count)
        if countOverflow { throw .countOverflow }
        let newValue = try Self.adding(car.priceMinorUnits, times: count, to: valueMinorUnits)
        lines.append(StockLine(car: car, count: count))
        carCount = newCount
        valueMinorUnits = newValue
        currentNumber = lines.count
        if linesByConfiguration != nil { counted(car.configuration, by: 1) }
    }

    /// Replaces the current line's car, keeping its count.
    public mutating func replaceCurrent(with car: Car) throws(CarFactoryError) {
        guard let number = currentNumber else { throw .noCurrentCar }
        let count = lines[number - 1].count
        let without = try Self.adding(lines[number - 1].car.priceMinorUnits, times: -count, to: valueMinorUnits)
        valueMinorUnits = try Self.adding(car.priceMinorUnits, times: count, to: without)
        if linesByConfiguration != nil {
            counted(lines[number - 1].car.configuration, by: -1)
            counted(car.configuration, by: 1)
        }
        lines[number - 1] = StockLine(car: car, count: count)
    }

    /// Adds `count` cars of `factory`'s default options as a new line, which becomes current:
    /// what adding `CarBuilder(factory:rules:).build()` does, without a builder between.
    package mutating func add(defaultsOf factory: any CarFactory, count: Int64, rules: RuleSet) throws(CarFactoryError) {
        let configuration = rules.defaultConfiguration(of: factory)
        if let broken = configuration.brokenRule { throw .ruleViolation(broken) }
        try add(Car(configuration: configuration), count: count)
    }

    /// Puts `part` on the current car, checked as `CarBuilder.set` checks it: what replacing
    /// the current car with a builder's does, without a builder or a copy of the line.
    package mutating func setCurrent(_ part: any Part, rules: RuleSet) throws(CarFactoryError) {
        guard let number = currentNumber else { throw .noCurrentCar }
        let next = try CarBuilder.configuration(lines[number - 1].car.configuration, with: part, rules: rules)
        try replaceCurrent(with: Car(configuration: next))
    }

    /// Makes line `number` current.
    public mutating func select(_ number: Int) throws(CarFactoryError) {
        _ = try line(number)
        currentNumber = number
    }

    /// Removes line `number` (the current line if nil); removing the current line makes the last line current.
    public mutating func remove(_ number: Int?) throws(CarFactoryError) {
        guard let target = number ?? currentNumber else { throw .noCurrentCar }
        let removed = try line(target)
        valueMinorUnits = try Self.adding(removed.car.priceMinorUnits, times: -removed.count, to: valueMinorUnits)
        carCount -= removed.count
        if linesByConfiguration != nil { counted(removed.car.configuration, by: -1) }
        lines.remove(at: target - 1)
        if let current = currentNumber {
            if current == target {
                currentNumber = lines.isEmpty ? nil : lines.count
            } else if current > target {
                currentNumber = current - 1
            }
        }
    }

    /// Removes every line.
    public mutating func clear() {
        // Scripts that clear and refill keep their storage (freeing and faulting it in again
        // was a tenth of a run's time); a very large stock gives its memory back.
        lines.removeAll(keepingCapacity: lines.capacity <= Self.keptCapacity)
        currentNumber = nil
        carCount = 0
        valueMinorUnits = 0
        if linesByConfiguration != nil { linesByConfiguration = [:] }
    }

    /// The number of the first line whose car breaks `rule`, if any.
    public mutating func firstLine(breaking rule: Rule) -> Int? {
        if linesByConfiguration == nil {
            var counts: [ConfigurationKey: (configuration: CarConfiguration, lines: Int)] = [:]
            for line in lines { counts[line.car.configuration.key, default: (line.car.configuration, 0)].lines += 1 }
            linesByConfiguration = counts
        }
        guard let counts = linesByConfiguration,
              counts.values.contains(where: { rule.isBroken(by: $0.configuration.part(of:)) }) else { return nil }
        // Rare (the rule is refused): find the line to name.
        return lines.firstIndex { rule.isBroken(by: $0.car.part(of:)) }.map { $0 + 1 }
    }

    private mutating func counted(_ configuration: CarConfiguration, by change: Int) {
        let key = configuration.key
        let lines = (linesByConfiguration?[key]?.lines ?? 0) + change
        linesByConfiguration?[key] = lines > 0 ? (configuration, lines) : nil
    }

    /// The most lines whose storage `clear` keeps for refilling.
    static let keptCapacity = 1 << 16

    private static func adding(_ price: Int64, times count: Int64, to sum: Int64) throws(CarFactoryError) -> Int64 {
        let (product, o1) = price.multipliedReportingOverflow(by: count)
        let (result, o2) = sum.addingReportingOverflow(product)
        if o1 || o2 { throw .moneyOverflow }
        return result
    }
}
