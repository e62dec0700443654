/// A currency: its code, the symbol it is written with, its minor digits and its rate from the base currency.
public struct Currency: Hashable, Sendable {
    /// The code, e.g. `GBP`, as defined; looked up case-insensitively.
    public let code: String
    /// The symbol written before the amount, e.g. `£` or `CHF `.
    public let symbol: String
    /// Digits after the decimal point (0 for yen, 2 for pounds).
    public let digits: Int
    /// Units of this currency per unit of the base currency.
    public let rate: DecimalNumber

    /// The largest number of minor digits a currency may have.
    public static let maximumDigits = 4

    /// Makes a currency, checking its digits and rate.
    public init(code: String, symbol: String, digits: Int, rate: DecimalNumber) throws(CarFactoryError) {
        guard !code.isEmpty, code.utf8.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) }) else {
            throw .invalidCurrencyCode(code)
        }
        guard (0...Currency.maximumDigits).contains(digits) else { throw .invalidDigits(digits) }
        guard rate.significand > 0 else { throw .rateNotPositive(rate.description) }
        self.code = code
        self.symbol = symbol
        self.digits = digits
        self.rate = rate.normalized
    }

    /// The same currency at another rate.
    public func with(rate: DecimalNumber) throws(CarFactoryError) -> Currency {
        try Currency(code: code, symbol: symbol, digits: digits, rate: rate)
    }

    /// The base currency every price is kept in.
    public static var base: Currency { usDollar }

    // Built-in currencies, as in the brief. Constructing them cannot fail.
    static let usDollar = builtIn("USD", "$", 2, 1, 0)
    static let britishPound = builtIn("GBP", "£", 2, 60338, 5)
    static let euro = builtIn("EUR", "€", 2, 92, 2)
    static let japaneseYen = builtIn("JPY", "¥", 0, 1515, 1)

    private static func builtIn(_ code: String, _ symbol: String, _ digits: Int, _ rate: Int64, _ scale: Int) -> Currency {
        Currency(unchecked: code, symbol: symbol, digits: digits, rate: DecimalNumber(significand: rate, scale: scale))
    }

    private init(unchecked code: String, symbol: String, digits: Int, rate: DecimalNumber) {
        self.code = code
        self.symbol = symbol
        self.digits = digits
        self.rate = rate
    }
}
