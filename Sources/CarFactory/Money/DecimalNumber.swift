// Decimal literals such as `0.60338` or `31000.50`, read without floating point.

/// A non-negative decimal number read exactly: `significand / 10^scale`.
public struct DecimalNumber: Hashable, Sendable, BitwiseCopyable {
    /// The digits as an integer, without the decimal point.
    public let significand: Int64
    /// How many of those digits follow the decimal point.
    public let scale: Int

    /// Makes `significand / 10^scale`.
    public init(significand: Int64, scale: Int) {
        self.significand = significand
        self.scale = scale
    }

    /// Reads `DIGITS[.DIGITS]`; anything else (signs, exponents, blanks) is rejected, and so is
    /// a number whose significant digits do not fit 64 bits (more than 18 of them), with a
    /// message saying so. Zeros after the last significant digit never overflow
    /// (`81895.000000000000000` is 81895); they are kept in the scale, as typed, when they fit.
    // Inlinable so callers in other modules get a copy specialized for their text: unspecialized,
    // its `text.utf8` cost a first-time conformance look-up at start-up (1.85M -> 1.83M instructions
    // on an empty file; the set/show mix 1,426 -> 1,403 per command).
    @inlinable
    public init(parsing text: some StringProtocol) throws(CarFactoryError) {
        var significand: Int64 = 0
        var scale = 0
        var seenPoint = false
        var digitsBefore = 0
        var digitsAfter = 0
        // Zeros after the point, multiplied in only once a significant digit follows them.
        var zeros = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: ".") {
                if seenPoint { throw .notADecimal(String(text)) }
                seenPoint = true
                continue
            }
            guard byte >= 0x30 && byte <= 0x39 else { throw .notADecimal(String(text)) }
            guard seenPoint else {
                guard let next = Self.appending(byte - 0x30, to: significand) else { throw .numberTooLarge(String(text)) }
                significand = next
                digitsBefore += 1
                continue
            }
            digitsAfter += 1
            if byte == UInt8(ascii: "0") {
                zeros += 1
                continue
            }
            for _ in 0..<zeros {
                guard let next = Self.appending(0, to: significand) else { throw .tooManyDigits(String(text)) }
                significand = next
            }
            guard let next = Self.appending(byte - 0x30, to: significand) else { throw .tooManyDigits(String(text)) }
            significand = next
            scale += zeros + 1
            zeros = 0
        }
        guard digitsBefore > 0, !seenPoint || digitsAfter > 0 else { throw .notADecimal(String(text)) }
        // Trailing zeros: `1.50` stays 150 / 10^2 (a rate is saved as typed) if that fits.
        var kept = significand
        for _ in 0..<zeros {
            guard let next = Self.appending(0, to: kept) else {
                kept = significand
                zeros = 0
                break
            }
            kept = next
        }
        self.significand = kept
        self.scale = scale + zeros
    }

    /// `value * 10 + digit`, or nil if that overflows.
    @usableFromInline
    static func appending(_ digit: UInt8, to value: Int64) -> Int64? {
        let (times10, o1) = value.multipliedReportingOverflow(by: 10)
        let (next, o2) = times10.addingReportingOverflow(Int64(digit))
        return o1 || o2 ? nil : next
    }

    /// The same value with trailing fractional zeros removed (`1.50` becomes `1.5`).
    public var normalized: DecimalNumber {
        var s = significand
        var k = scale
        while k > 0 && s % 10 == 0 {
            s /= 10
            k -= 1
        }
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
