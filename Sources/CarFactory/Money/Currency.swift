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
        guard Self.isValidCode(code) else { throw .invalidCurrencyCode(code) }
        guard !Self.runsIntoAmounts(symbol) else { throw .invalidCurrencySymbol(symbol) }
        guard (0...Currency.maximumDigits).contains(digits) else { throw .invalidDigits(digits) }
        guard rate.significand > 0 else { throw .rateNotPositive(rate.description) }
        self.code = code
        self.symbol = symbol
        self.digits = digits
        self.rate = rate.normalized
    }

    /// Whether `code` is three ASCII letters, as ISO 4217 codes are.
    private static func isValidCode(_ code: String) -> Bool {
        code.utf8.count == 3 && code.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) }
    }

    /// Whether `symbol` starts or ends with a digit or number (of any script), a sign or dash,
    /// `,` or `.` (or a character that reads as one):
    /// written before an amount, it would read as part of it (`9` and 27,995 make `927,995`,
    /// which `expect price` then took for the plain number), or hide its sign.
    private static func runsIntoAmounts(_ symbol: String) -> Bool {
        // Invisible characters at either end (a word joiner, a soft hyphen) are looked past:
        // `$9` and a word joiner would still print `$927,995`.
        // (A Substring of the scalars, not a String made of them: that took the unspecialised
        // generic append, ~40,000 instructions a currency, at every start.)
        var scalars = Substring(symbol).unicodeScalars
        while let first = scalars.first, isInvisible(first) { scalars.removeFirst() }
        while let last = scalars.last, isInvisible(last) { scalars.removeLast() }
        let visible = Substring(scalars)
        guard let first = visible.first, let last = visible.last else { return false }
        return runsIntoAmounts(first) || runsIntoAmounts(last)
    }

    /// A format character (category Cf): nothing on the screen. (A control character is shown
    /// escaped, `\e`, so it does stand between a digit and the amount.)
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0xAD && scalar.properties.generalCategory == .format
    }

    private static func runsIntoAmounts(_ character: Character) -> Bool {
        // A character's first scalar is its base: `9` with an accent above is still a 9.
        guard let base = character.unicodeScalars.first else { return false }
        switch base.value {
        case 0x2B, 0x2D, 0x2C, 0x2E: return true  // + - , .
        case 0x30...0x39: return true
        case 0..<0x80: return false
        // What reads as a point or a comma between digits in other scripts and widths
        // (Arabic decimal and thousands separators, one dot leader, small and fullwidth forms,
        // ideographic comma and full stop), and the heavy plus and minus signs.
        case 0x66B, 0x66C, 0x2024, 0x3001, 0x3002, 0xFE50, 0xFE51, 0xFE52, 0xFF0C, 0xFF0E, 0xFF61, 0xFF64, 0x2795, 0x2796:
            return true
        default:
            // Digits and other numbers of any script (`٣`, `½`, `⑨`), dashes (`﹣`) and
            // mathematical signs (`−`, `＋`) by category. (Reading `numericType` instead
            // fetched its type's metadata by name at the first call: ~22,000 instructions at
            // every start.)
            switch base.properties.generalCategory {
            case .decimalNumber, .otherNumber, .letterNumber, .dashPunctuation, .mathSymbol: return true
            default: return false
            }
        }
    }

    /// The same currency at another rate.
    public func with(rate: DecimalNumber) throws(CarFactoryError) -> Currency {
        try Currency(code: code, symbol: symbol, digits: digits, rate: rate)
    }

    /// The base currency every price is kept in.
    public static var base: Currency { usDollar }

    // The base currency exists before any catalog; the others are defined by the catalog script.
    static let usDollar = Currency(unchecked: "USD", symbol: "$", digits: 2, rate: DecimalNumber(significand: 1, scale: 0))

    private init(unchecked code: String, symbol: String, digits: Int, rate: DecimalNumber) {
        self.code = code
        self.symbol = symbol
        self.digits = digits
        self.rate = rate
    }
}
