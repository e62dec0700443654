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

    /// A formatter for `currency`; `ValuationFactory` pairs it with the matching converter.
    public init(currency: Currency) {
        self.currency = currency
        symbol = Array(currency.symbol.utf8)
        minorDigits = currency.digits
        maximumLength = symbol.count + minorDigits + 32
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

    /// The most bytes `write` can produce: sign, symbol, 20 digits, 6 commas, point and padding.
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
    /// The output path formats straight into its buffer: the length is known from the digit
    /// count, so the digits are written once, from the last backwards, two or three at a time.
    package func write(_ minorUnits: Int64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        // Positions count down from `length`, which is at most `maximumLength`: the arithmetic
        // on them cannot overflow, and is written so (`&-`), without the checks.
        let minorDigits = self.minorDigits
        var rest = minorUnits.magnitude
        // At least one whole digit stands before the minor digits (`$0.05`).
        let wholeDigits = max(Self.decimalDigits(rest) &- minorDigits, 1)
        let commas = (wholeDigits &- 1) / 3
        let signLength = minorUnits < 0 ? 1 : 0
        let symbolLength = symbol.count
        let length = signLength &+ symbolLength &+ wholeDigits &+ commas &+ (minorDigits > 0 ? minorDigits &+ 1 : 0)
        let pairs = Self.digitPairs.utf8Start
        // The symbol first: packed, its 16 bytes may run into where the digits go (`out` has
        // room for them: `maximumLength` is at least 32), which are written over them next.
        // (A call to copy memory cost ~20 instructions of each `price` and `total`.)
        if let (low, high) = packedSymbol {
            let raw = UnsafeMutableRawPointer(out + signLength)
            raw.storeBytes(of: low.littleEndian, as: UInt64.self)
            raw.storeBytes(of: high.littleEndian, toByteOffset: 8, as: UInt64.self)
        } else {
            symbol.withUnsafeBufferPointer { symbolBytes in
                if let base = symbolBytes.baseAddress { (out + signLength).update(from: base, count: symbolLength) }
            }
        }
        var position = length
        if minorDigits == 2 {
            // Cents, as most currencies have: one pair, no loop (in the loop: 1,085 against
            // 1,078 instructions a command on the benchmark mix, 1,093 against 1,090 on set/show;
            // callgrind, 10^5 commands).
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            out[position &- 1] = pairs[pair &+ 1]
            out[position &- 2] = pairs[pair]
            out[position &- 3] = UInt8(ascii: ".")
            position &-= 3
        } else if minorDigits > 0 {
            var left = minorDigits
            while left >= 2 {
                let pair = Int(truncatingIfNeeded: rest % 100) &* 2
                rest /= 100
                out[position &- 1] = pairs[pair &+ 1]
                out[position &- 2] = pairs[pair]
                position &-= 2
                left &-= 2
            }
            if left == 1 {
                position &-= 1
                out[position] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
                rest /= 10
            }
            position &-= 1
            out[position] = UInt8(ascii: ".")
        }
        // Whole groups of three, each after its comma, then the leading group.
        for _ in 0..<commas {
            let group = rest % 1000
            rest /= 1000
            let hundreds = group / 100
            let pair = Int(truncatingIfNeeded: group &- hundreds &* 100) &* 2
            out[position &- 1] = pairs[pair &+ 1]
            out[position &- 2] = pairs[pair]
            out[position &- 3] = UInt8(truncatingIfNeeded: hundreds) &+ 0x30
            out[position &- 4] = UInt8(ascii: ",")
            position &-= 4
        }
        // The leading group, one to three digits (`rest` is below 1,000 now: its digits are
        // what the groups left of `wholeDigits`), in one or two stores from the pairs.
        // (A digit at a time cost ~12 instructions a digit.)
        let leading = wholeDigits &- commas &* 3
        if leading == 1 {
            out[position &- 1] = UInt8(truncatingIfNeeded: rest) &+ 0x30
        } else {
            let hundreds = rest / 100
            let pair = Int(truncatingIfNeeded: rest &- hundreds &* 100) &* 2
            out[position &- 1] = pairs[pair &+ 1]
            out[position &- 2] = pairs[pair]
            if leading == 3 { out[position &- 3] = UInt8(truncatingIfNeeded: hundreds) &+ 0x30 }
        }
        if signLength == 1 { out[0] = UInt8(ascii: "-") }
        return length
    }

    /// "00" to "99", each pair at twice its value.
    private static var digitPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }

    /// How many decimal digits `value` has (1 for zero): its bit length times log10 2 (as
    /// 1233/4096), which is the count or one short of it, then one comparison with that power
    /// of ten. (`value | 1` is above or at a power of ten, which is even past 1, exactly when
    /// `value` is, and makes zero one digit.) With the leading group written from the pairs:
    /// 1,094 -> 1,085 instructions a command on the benchmark mix, 1,102 -> 1,098 on set/show
    /// (callgrind, 10^5 commands).
    @inline(__always)
    private static func decimalDigits(_ value: UInt64) -> Int {
        let guess = ((64 &- (value | 1).leadingZeroBitCount) &* 1233) &>> 12
        return guess &+ ((value | 1) >= powerOfTen(guess) ? 1 : 0)
    }

    /// 10^`exponent` for 0 through 19 (the bit-length guess never passes 19), loaded from a
    /// table: written as a `switch`, the compiler made a jump through a table of code of it
    /// instead, an indirect branch on every amount written whose target follows the amount's
    /// length (callgrind's branch simulation: 21,465 of its mispredictions in 10^5 commands of
    /// the benchmark mix).
    @inline(__always)
    private static func powerOfTen(_ exponent: Int) -> UInt64 {
        powersOfTen[exponent]
    }
}

/// 10^0 through 10^19, for `MoneyFormatter.powerOfTen` (constants: the array is laid out when
/// the program is linked, not made at run time).
private let powersOfTen: [UInt64] = [
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
    100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
    10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000
]
