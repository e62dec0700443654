/// An exact amount of one currency, in its minor units (cents, pence, yen).
public struct Money: Hashable, Sendable {
    /// The amount in minor units: `7080000` is $70,800.00.
    public let minorUnits: Int64
    /// The currency the amount is in.
    public let currency: Currency

    /// Makes an amount of `minorUnits` of `currency`.
    public init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// An amount in the base currency.
    public static func base(_ minorUnits: Int64) -> Money {
        Money(minorUnits: minorUnits, currency: .base)
    }

    /// The sum, or an overflow error; both amounts must be in the same currency.
    public func adding(_ other: Money) throws(CarFactoryError) -> Money {
        precondition(currency.code == other.currency.code, "adding amounts of different currencies")
        let (sum, overflow) = minorUnits.addingReportingOverflow(other.minorUnits)
        if overflow { throw .moneyOverflow }
        return Money(minorUnits: sum, currency: currency)
    }

    /// The amount times `count`, or an overflow error.
    public func multiplied(by count: Int64) throws(CarFactoryError) -> Money {
        let (product, overflow) = minorUnits.multipliedReportingOverflow(by: count)
        if overflow { throw .moneyOverflow }
        return Money(minorUnits: product, currency: currency)
    }
}

extension Money: CustomStringConvertible {
    /// The amount as carfab prints it: `$70,800.00`.
    public var description: String { MoneyFormatter(currency: currency).format(minorUnits) }
}
