// Converting base-currency amounts and writing them out, per currency.

/// Makes the converter and the formatter of one currency, so the two always match.
public struct ValuationFactory: Sendable {
    /// The currency both products work in.
    public let currency: Currency

    /// A factory for `currency`.
    public init(currency: Currency) { self.currency = currency }

    /// Converts base-currency amounts into `currency`.
    public func makeConverter() -> CurrencyConverter { CurrencyConverter(target: currency) }

    /// Writes amounts of `currency`.
    public func makeFormatter() -> MoneyFormatter { MoneyFormatter(currency: currency) }
}

/// Converts an amount of the base currency once, rounding half to even.
///
/// A shared immutable object: valuations hand out a reference, and the scaling a
/// conversion needs is worked out once, when it is made.
public final class CurrencyConverter: Sendable {
    /// The currency amounts are converted into.
    public let target: Currency
    /// target minor = base minor * significand * 10^exponent (the rate is significand / 10^scale).
    private let significand: Int64
    private let exponent: Int
    /// 10^-exponent, when the conversion divides by a power of ten that fits 64 bits.
    private let divisor: Int64?
    /// ⌊(2^64 - 1) / divisor⌋ (⌊2^64 / divisor⌋, as a power of ten past 1 does not divide 2^64):
    /// a quotient by the divisor is the high word of a product with it and at most one
    /// correction, where a division instruction took tens of cycles of each `price` and
    /// `total` in another currency (10^6 commands of the benchmark mix, 85.3 -> 84.3 ms, the
    /// median of 25 interleaved runs; callgrind, 10^5 commands, 956.3 -> 955.1 instructions a
    /// command).
    private let reciprocal: UInt64

    /// A converter into `target`; `ValuationFactory` pairs it with the matching formatter.
    public init(target: Currency) {
        self.target = target
        significand = target.rate.significand
        exponent = target.digits - Currency.base.digits - target.rate.scale
        if exponent < 0 && -exponent <= 18 {
            var power: Int64 = 1
            for _ in 0..<(-exponent) { power *= 10 }
            divisor = power
            reciprocal = UInt64.max / UInt64(power)
        } else {
            divisor = nil
            reciprocal = 0
        }
    }

    /// Converts `base` minor units of the base currency into the target currency.
    public func convert(_ baseMinorUnits: Int64) throws(CarFactoryError) -> Money {
        Money(minorUnits: try convertMinorUnits(baseMinorUnits), currency: target)
    }

    /// Converts `base` minor units of the base currency into minor units of the target currency.
    public func convertMinorUnits(_ baseMinorUnits: Int64) throws(CarFactoryError) -> Int64 {
        // The common case in 64 bits: the product fits and the divisor is a power of ten that does.
        if let divisor {
            let (product, overflow) = baseMinorUnits.multipliedReportingOverflow(by: significand)
            if !overflow {
                // On magnitudes (at most 2^63): the estimate m * ⌊2^64/d⌋ / 2^64 falls short of
                // m / d by less than m / 2^64, under 1/2: it is the quotient or one less.
                let magnitude = product.magnitude
                let by = UInt64(truncatingIfNeeded: divisor)
                var quotient = magnitude.multipliedFullWidth(by: reciprocal).high
                var remainder = magnitude &- quotient &* by
                if remainder >= by {
                    quotient &+= 1
                    remainder &-= by
                }
                // Half to even, away from zero on either side (the divisor is at most 10^18,
                // so twice the remainder fits).
                let twice = remainder &* 2
                if twice > by || (twice == by && quotient & 1 != 0) { quotient &+= 1 }
                // At most 2^63 / 10: it fits, either sign.
                let rounded = Int64(truncatingIfNeeded: quotient)
                return product < 0 ? 0 &- rounded : rounded
            }
        } else if exponent == 0 {
            // No power of ten at all (the base currency, and any other in the base's minor units
            // whose rate is a whole number): the product alone, when it fits. It went through
            // the 128-bit path below, whose frame every call then made.
            let (product, overflow) = baseMinorUnits.multipliedReportingOverflow(by: significand)
            if !overflow { return product }
        }
        return try convertWide(baseMinorUnits)
    }

    /// `convertMinorUnits` in 128 bits: a product past 64 bits, or a power of ten that is not
    /// a divisor of 64 bits. Out of line, so that the common conversion makes no frame for it.
    @inline(never)
    private func convertWide(_ baseMinorUnits: Int64) throws(CarFactoryError) -> Int64 {
        var numerator = Int128(baseMinorUnits) * Int128(significand)
        var result: Int128
        if exponent >= 0 {
            for _ in 0..<exponent {
                let (next, overflow) = numerator.multipliedReportingOverflow(by: 10)
                if overflow { throw .moneyOverflow }
                numerator = next
            }
            result = numerator
        } else {
            result = try Self.divideHalfToEven(numerator, byPowerOfTen: -exponent)
        }
        guard let minor = Int64(exactly: result) else { throw .moneyOverflow }
        return minor
    }

    /// `n / 10^k` rounded half to even; exact integer arithmetic throughout.
    static func divideHalfToEven(_ n: Int128, byPowerOfTen k: Int) throws(CarFactoryError) -> Int128 {
        // Int128 holds up to 10^38; a larger divisor leaves nothing of the numerator.
        guard k <= 38 else { return 0 }
        var divisor: Int128 = 1
        for _ in 0..<k { divisor *= 10 }
        var quotient = n / divisor
        let remainder = n % divisor
        let twice = remainder.magnitude * 2
        if twice > divisor.magnitude || (twice == divisor.magnitude && quotient % 2 != 0) {
            quotient += n < 0 ? -1 : 1
        }
        return quotient
    }
}

/// Writes amounts the same way on every platform: symbol, comma-grouped digits, `.` and the minor digits.
///
/// A shared immutable object, like the converter it is paired with.
public final class MoneyFormatter: Sendable {
    /// The currency whose symbol and digits are used.
    public let currency: Currency
    private let symbol: [UInt8]
    private let minorDigits: Int
    /// The symbol's bytes packed in two words, when it has at most 16 (every symbol of the
    /// built-in catalog): written with two stores instead of a call to copy memory.
    private let packedSymbol: (UInt64, UInt64)?
    /// `symbol.count`, read without the array.
    private let symbolLength: Int

    /// A formatter for `currency`; `ValuationFactory` pairs it with the matching converter.
    public init(currency: Currency) {
        self.currency = currency
        symbol = Array(currency.symbol.utf8)
        minorDigits = currency.digits
        symbolLength = symbol.count
        maximumLength = symbol.count + minorDigits + 48
        if symbol.count <= 16 {
            var words: (UInt64, UInt64) = (0, 0)
            for (index, byte) in symbol.enumerated() {
                if index < 8 { words.0 |= UInt64(byte) << (index * 8) } else { words.1 |= UInt64(byte) << ((index - 8) * 8) }
            }
            packedSymbol = words
        } else {
            packedSymbol = nil
        }
    }

    /// `£42,719.30`, `¥10,726,200`, `-$5.00`.
    public func format(_ minorUnits: Int64) -> String {
        var bytes: [UInt8] = []
        append(minorUnits, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The room `write` needs: sign, symbol, 20 digits, 6 commas, point, and padding for the
    /// 16 bytes it stores for the symbol and the 32 it stores for the digits.
    /// (Stored: the renderers read it for every amount, and a computed one was a call from
    /// their module, ~4 instructions a command on the benchmark mix.)
    public let maximumLength: Int

    /// Appends the formatted amount to `bytes`.
    public func append(_ minorUnits: Int64, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumLength) { out in
            guard let base = out.baseAddress else { return }
            let length = write(minorUnits, to: base)
            bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: length))
        }
    }

    /// Writes the formatted amount at `out`, which has room for `maximumLength` bytes; returns how many it wrote.
    ///
    /// The output path formats straight into its buffer. The digits are made from the last,
    /// right-aligned in a scratch block, whatever their count: the cents as one store of the
    /// point and a pair, each group of three as one store of its comma and digits, the leading
    /// group as one store whose digits are kept by a count worked out without a branch. Then
    /// 32 bytes of the block (the longest amount is 30) go after the symbol in two stores.
    /// (Written at their place from the length, worked out first from the digit count, each
    /// amount waited for that count and spent ~118 instructions; see the report of speed11.)
    package func write(_ minorUnits: Int64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: Self.scratchWords) { scratch in
            guard let base = scratch.baseAddress else { return 0 }
            let block = UnsafeMutableRawPointer(base)
            let pairs = UnsafeRawPointer(Self.digitPairs.utf8Start)
            let signLength = minorUnits < 0 ? 1 : 0
            var rest = minorUnits.magnitude
            // Positions count down from `end` by at most the 30 bytes of the longest amount,
            // and the block has room for 32 bytes read from the first: no overflow, no check.
            let end = Self.scratchEnd
            var start = end
            let minorDigits = self.minorDigits
            if minorDigits == 2 {
                let cents = rest % 100
                rest /= 100
                // `.` and the pair, the byte before them left as it was.
                let pair = UInt32(pairs.loadUnaligned(fromByteOffset: Int(truncatingIfNeeded: cents) &* 2, as: UInt16.self))
                block.storeBytes(of: (0x2E &<< 8 | pair &<< 16).littleEndian, toByteOffset: end &- 4, as: UInt32.self)
                start &-= 3
            } else if minorDigits > 0 {
                for _ in 0..<minorDigits {
                    start &-= 1
                    block.storeBytes(of: UInt8(truncatingIfNeeded: rest % 10) &+ 0x30, toByteOffset: start, as: UInt8.self)
                    rest /= 10
                }
                start &-= 1
                block.storeBytes(of: UInt8(ascii: "."), toByteOffset: start, as: UInt8.self)
            }
            // Whole groups of three, each after its comma, while more digits lead them.
            while rest >= 1000 {
                let next = rest / 1000
                let group = Self.group(rest &- next &* 1000, pairs)
                block.storeBytes(of: (group | 0x2C).littleEndian, toByteOffset: start &- 4, as: UInt32.self)
                start &-= 4
                rest = next
            }
            // The leading group (below 1,000): its one to three digits are kept.
            block.storeBytes(of: Self.group(rest, pairs).littleEndian, toByteOffset: start &- 4, as: UInt32.self)
            start &-= 1 &+ (rest >= 10 ? 1 : 0) &+ (rest >= 100 ? 1 : 0)
            // The symbol, then the digits over whatever of its 16 bytes ran past it.
            if let (low, high) = packedSymbol {
                let raw = UnsafeMutableRawPointer(out + signLength)
                raw.storeBytes(of: low.littleEndian, as: UInt64.self)
                raw.storeBytes(of: high.littleEndian, toByteOffset: 8, as: UInt64.self)
            } else {
                symbol.withUnsafeBufferPointer { symbolBytes in
                    if let base = symbolBytes.baseAddress { (out + signLength).update(from: base, count: symbolLength) }
                }
            }
            let digits = UnsafeMutableRawPointer(out + (signLength &+ symbolLength))
            for offset in stride(from: 0, to: 32, by: 8) {
                digits.storeBytes(
                    of: block.loadUnaligned(fromByteOffset: start &+ offset, as: UInt64.self), toByteOffset: offset, as: UInt64.self)
            }
            if signLength == 1 { out[0] = UInt8(ascii: "-") }
            return signLength &+ symbolLength &+ end &- start
        }
    }

    /// The scratch block's words: 30 bytes of digits end at `scratchEnd`, and 32 are read
    /// from their first, which may be as late as the last digit.
    private static var scratchWords: Int { 9 }
    private static var scratchEnd: Int { 40 }

    /// A group of three digits (`value` below 1,000) as the last three bytes of four, the
    /// first zero: hundreds, then the pair of tens and units from `pairs`. (Hundreds as
    /// `value * 41 >> 12`, which is `value / 100` for every value below 1,000.)
    @inline(__always)
    private static func group(_ value: UInt64, _ pairs: UnsafeRawPointer) -> UInt32 {
        let hundreds = (value &* 41) &>> 12
        let pair = UInt32(pairs.loadUnaligned(fromByteOffset: Int(truncatingIfNeeded: value &- hundreds &* 100) &* 2, as: UInt16.self))
        return (UInt32(truncatingIfNeeded: hundreds) &+ 0x30) &<< 8 | pair &<< 16
    }

    /// "00" to "99", each pair at twice its value.
    private static var digitPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }
}
