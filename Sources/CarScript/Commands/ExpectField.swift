import CarFactory

/// What `expect` can check, and how it reads the session.
public enum ExpectField: String, CaseIterable, Sendable {
    case count, seats, engine, suspension, drive, type, price, total

    /// Whether the field is an amount, which may name a currency.
    var isAmount: Bool { self == .price || self == .total }

    /// The field's value now, and whether `expected` matches it.
    func check(_ expected: String, currency: Currency, in session: Session) throws(CarFactoryError) -> (actual: String, matches: Bool) {
        switch self {
        case .count:
            let actual = String(session.stock.carCount)
            return (actual, Self.number(expected) == session.stock.carCount)
        case .total:
            let value = try ValuationFactory(currency: currency).makeConverter().convert(session.stock.valueMinorUnits)
            return (value.description, Self.amount(value, matches: expected))
        case .seats, .engine, .suspension, .drive, .type, .price:
            let car = try session.stock.currentLine().car
            switch self {
            case .seats:
                let actual = String(car.floorplan.seats)
                return (actual, Self.number(expected) == Int64(car.floorplan.seats))
            case .engine:
                return (car.floorplan.engine.rawValue, nameKey(car.floorplan.engine.rawValue) == nameKey(expected))
            case .suspension, .drive:
                let part: any Part = self == .suspension ? car.suspension : car.drivetrain
                let names = [part.shownAs, part.name] + part.otherNames
                return (part.shownAs, names.contains { nameKey($0) == nameKey(expected) })
            case .type:
                return (car.carType, nameKey(car.carType) == nameKey(expected))
            default:
                let price = try ValuationFactory(currency: currency).makeConverter().convert(car.priceMinorUnits)
                return (price.description, Self.amount(price, matches: expected))
            }
        }
    }

    /// A whole number in decimal digits (`03` is 3, as `car sports 03` takes it), if `text` is one.
    private static func number(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(text.drop { $0 == "0" }.isEmpty ? "0" : String(text.drop { $0 == "0" }))
    }

    /// An amount matches its formatted text (`£42,719.30`) or the same number as a plain decimal (`42719.3`).
    private static func amount(_ money: Money, matches expected: String) -> Bool {
        if expected == money.description { return true }
        guard let number = try? DecimalNumber(parsing: expected),
              let minor = try? number.minorUnits(digits: money.currency.digits) else { return false }
        return minor == money.minorUnits
    }
}
