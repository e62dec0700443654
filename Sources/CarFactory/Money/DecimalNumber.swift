// Decimal literals such as `0.60338` or `31000.50`, read without floating point.

/// A non-negative decimal number read exactly: `significand / 10^scale`.
public struct DecimalNumber: Hashable, Sendable {
    /// The digits as an integer, without the decimal point.
    public let significand: Int64
    /// How many of those digits follow the decimal point.
    public let scale: Int

    /// Makes `significand / 10^scale`.
    public init(significand: Int64, scale: Int) {
        self.significand = significand
        self.scale = scale
    }

    /// Reads `DIGITS[.DIGITS]`; anything else (signs, exponents, blanks) is rejected.
    public init(parsing text: some StringProtocol) throws(CarFactoryError) {
        var significand: Int64 = 0
        var scale = 0
        var seenPoint = false
        var digitsBefore = 0
        var digitsAfter = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: ".") {
                if seenPoint { throw .notADecimal(String(text)) }
                seenPoint = true
                continue
            }
            guard byte >= 0x30 && byte <= 0x39 else { throw .notADecimal(String(text)) }
            let (times10, o1) = significand.multipliedReportingOverflow(by: 10)
            let (next, o2) = times10.addingReportingOverflow(Int64(byte - 0x30))
            if o1 || o2 { throw .numberTooLarge(String(text)) }
            significand = next
            if seenPoint { digitsAfter += 1; scale += 1 } else { digitsBefore += 1 }
        }
        guard digitsBefore > 0, !seenPoint || digitsAfter > 0 else { throw .notADecimal(String(text)) }
        self.significand = significand
        self.scale = scale
    }

    /// The same value with trailing fractional zeros removed (`1.50` becomes `1.5`).
    public var normalized: DecimalNumber {
        var s = significand
        var k = scale
        while k > 0 && s % 10 == 0 { s /= 10; k -= 1 }
        return DecimalNumber(significand: s, scale: k)
    }

    /// The value in units of `10^-digits`, if it has no more fractional digits than that.
    public func minorUnits(digits: Int) throws(CarFactoryError) -> Int64 {
        let n = normalized
        guard n.scale <= digits else { throw .tooManyDecimals(description, allowed: digits) }
        var value = n.significand
        for _ in 0..<(digits - n.scale) {
            let (next, overflow) = value.multipliedReportingOverflow(by: 10)
            if overflow { throw .numberTooLarge(description) }
            value = next
        }
        return value
    }
}

extension DecimalNumber: CustomStringConvertible {
    /// Plain decimal text, as it would be typed: `0.60338`, `151.5`, `1`.
    public var description: String {
        var digits = String(significand)
        guard scale > 0 else { return digits }
        if digits.count <= scale {
            digits = String(repeating: "0", count: scale - digits.count + 1) + digits
        }
        let point = digits.index(digits.endIndex, offsetBy: -scale)
        return String(digits[..<point]) + "." + String(digits[point...])
    }
}
