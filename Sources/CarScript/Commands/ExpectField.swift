import CarFactory

/// What `expect` can check, and how it reads the session.
package enum ExpectField: String, CaseIterable, Sendable {
    case count, seats, engine, suspension, drive, type, price, total

    /// Whether the field is an amount, which may name a currency.
    var isAmount: Bool { self == .price || self == .total }

    /// VALUE as the field reads it, before anything is compared: a value that could never
    /// match (`expect count abc`) is an error at the value, not a failed expectation.
    enum Expected: Equatable {
        /// `count`, `seats`.
        case whole(Int64)
        /// `price`, `total`: minor units of the currency in use.
        case amount(Int64)
        /// The other fields: compared as names.
        case name(String)
    }

    /// Reads `text` as this field's value, amounts in `currency`.
    func expected(_ text: String, currency: Currency) throws(ScriptError.Kind) -> Expected {
        switch self {
        case .count, .seats:
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { throw .notANumber(text) }
            // `03` is 3, as `car sports 03` takes it.
            let digits = text.drop { $0 == "0" }
            guard let number = Int64(digits.isEmpty ? "0" : String(digits)) else { throw .domain(.numberTooLarge(text)) }
            return .whole(number)
        case .price, .total:
            return .amount(try Self.minorUnits(text, in: currency))
        case .engine, .suspension, .drive, .type:
            return .name(text)
        }
    }

    /// The field's value now, and whether `expected` matches it: of stock line `line` (its
    /// count, its value, its car) if given, else of the stock and the current car.
    func check(
        _ expected: Expected, currency: Currency, line: Int? = nil,
        in session: Session
    ) throws(CarFactoryError) -> (actual: String, matches: Bool) {
        var stockLine: StockLine?
        if let line { stockLine = try session.stock.line(line) }
        switch (self, expected) {
        case (.count, .whole(let number)):
            let count = stockLine?.count ?? session.stock.carCount
            return (String(count), number == count)
        case (.total, .amount(let minorUnits)):
            var base = session.stock.valueMinorUnits
            if let stockLine { base = try Money.base(stockLine.car.priceMinorUnits).multiplied(by: stockLine.count).minorUnits }
            let value = try ValuationFactory(currency: currency).makeConverter().convert(base)
            return (value.description, value.minorUnits == minorUnits)
        case (_, _):
            let car = if let stockLine { stockLine.car } else { try session.stock.currentLine().car }
            switch (self, expected) {
            case (.seats, .whole(let number)):
                return (String(car.floorplan.seats), number == Int64(car.floorplan.seats))
            case (.price, .amount(let minorUnits)):
                let price = try ValuationFactory(currency: currency).makeConverter().convert(car.priceMinorUnits)
                return (price.description, price.minorUnits == minorUnits)
            case (.engine, .name(let name)):
                return (car.floorplan.engine.rawValue, nameKey(car.floorplan.engine.rawValue) == nameKey(name))
            case (.suspension, .name(let name)), (.drive, .name(let name)):
                return Self.check(self == .suspension ? car.suspension : car.drivetrain, against: name)
            case (.type, .name(let name)):
                return (car.carType, nameKey(car.carType) == nameKey(name))
            default:
                // `expected(_:currency:)` made the value for this field: no other pairing exists.
                return ("", false)
            }
        }
    }

    /// `part` as `show` shows it, and whether `name` is that or any name of the option
    /// (`expect drive awd`, `expect paint crimson`).
    static func check(_ part: any Part, against name: String) -> (actual: String, matches: Bool) {
        let key = nameKey(name)
        let matches = nameKey(part.shownAs) == key || nameKey(part.name) == key || part.otherNames.contains { nameKey($0) == key }
        return (part.shownAs, matches)
    }

    /// An amount as `price` and `total` print it, with or without the currency's symbol
    /// (`$70,800.00`, `70,800.00`), or as a plain decimal (`70800`, `70800.5`), in minor units.
    /// Commas group the whole part in threes, as printed; more decimals than the currency
    /// has, or more digits than carfab holds, is an error saying so.
    private static func minorUnits(_ text: String, in currency: Currency) throws(ScriptError.Kind) -> Int64 {
        var bytes = Array(text.utf8)[...]
        let symbol = Array(currency.symbol.utf8)
        if !symbol.isEmpty && bytes.starts(with: symbol) { bytes = bytes.dropFirst(symbol.count) }
        let whole = bytes.prefix { $0 != UInt8(ascii: ".") }
        let groups = whole.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        if groups.count > 1 {
            guard (1...3).contains(groups[0].count), groups.dropFirst().allSatisfy({ $0.count == 3 }) else {
                throw notAnAmount(text, currency)
            }
        }
        let plain = String(decoding: bytes.filter { $0 != UInt8(ascii: ",") }, as: UTF8.self)
        do throws(CarFactoryError) {
            return try DecimalNumber(parsing: plain).minorUnits(digits: currency.digits)
        } catch {
            switch error {
            case .notADecimal: throw notAnAmount(text, currency)
            case .tooManyDecimals(_, let allowed): throw .domain(.tooManyDecimals(text, allowed: allowed))
            case .numberTooLarge: throw .domain(.numberTooLarge(text))
            case .tooManyDigits: throw .domain(.tooManyDigits(text))
            default: throw .domain(error)
            }
        }
    }

    /// Says what to write instead: 1,234.5 written both ways in `currency`.
    private static func notAnAmount(_ text: String, _ currency: Currency) -> ScriptError.Kind {
        var minorUnits: Int64 = 1234
        for _ in 0..<currency.digits { minorUnits *= 10 }
        var example = "1234"
        if currency.digits > 0 {
            var half: Int64 = 5
            for _ in 1..<currency.digits { half *= 10 }
            minorUnits += half
            example += ".5"
        }
        return .notAnAmount(
            text, currency: currency.code,
            shown: Money(minorUnits: minorUnits, currency: currency).description, plain: example)
    }
}
