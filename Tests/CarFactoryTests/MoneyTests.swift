import Testing

@testable import CarFactory

@Suite struct MoneyTests {
    let catalog = Catalog.standard

    func converted(_ baseMinorUnits: Int64, to code: String) throws -> String {
        let factory = ValuationFactory(currency: try catalog.currency(named: code))
        return factory.makeFormatter().format(try factory.makeConverter().convert(baseMinorUnits).minorUnits)
    }

    @Test func worked_values_of_the_sports_car_with_4wd() throws {
        #expect(try converted(7_080_000, to: "USD") == "$70,800.00")
        #expect(try converted(7_080_000, to: "GBP") == "£42,719.30")
        #expect(try converted(7_080_000, to: "EUR") == "€65,136.00")
        #expect(try converted(7_080_000, to: "JPY") == "¥10,726,200")
    }

    @Test func two_suvs_in_pounds() throws {
        #expect(try converted(2 * 8_189_500, to: "gbp") == "£98,827.61")
    }

    @Test func conversion_rounds_half_to_even() throws {
        // 1 cent at JPY 150 is 1.5 yen (rounds up to 2), 3 cents at 150 is 4.5 (rounds down to 4).
        let yen150 = try Currency(code: "YYY", symbol: "¥", digits: 0, rate: DecimalNumber(parsing: "150"))
        let converter = ValuationFactory(currency: yen150).makeConverter()
        #expect(try converter.convert(1).minorUnits == 2)
        #expect(try converter.convert(3).minorUnits == 4)
        #expect(try converter.convert(5).minorUnits == 8)  // 7.5 -> 8
        #expect(try converter.convert(7).minorUnits == 10)  // 10.5 -> 10
        #expect(try converter.convert(-3).minorUnits == -4)
        // Just above and below the half round away from and toward zero.
        let half = try Currency(code: "HLF", symbol: "h", digits: 2, rate: DecimalNumber(parsing: "0.005"))
        let h = ValuationFactory(currency: half).makeConverter()
        #expect(try h.convert(100).minorUnits == 0)  // 0.5 -> 0
        #expect(try h.convert(300).minorUnits == 2)  // 1.5 -> 2
        #expect(try h.convert(101).minorUnits == 1)  // 0.505 -> 1
        #expect(try h.convert(99).minorUnits == 0)  // 0.495 -> 0
    }

    /// The 64-bit conversion (a multiply by the divisor's reciprocal, then one correction)
    /// against exact arithmetic in 128 bits, rounding half to even, at the edges of the
    /// correction (quotients just under and at a multiple, ties both ways) and on random
    /// amounts, for every power of ten it divides by.
    @Test func conversion_by_a_power_of_ten_matches_exact_arithmetic() throws {
        var random = SplitMix64(state: 21)
        for scale in 1...18 {
            let rate = try DecimalNumber(parsing: "0." + String(repeating: "0", count: scale - 1) + "7")
            let currency = try Currency(code: "PTN", symbol: "p", digits: 2, rate: rate)
            let converter = ValuationFactory(currency: currency).makeConverter()
            var power: Int64 = 1
            for _ in 0..<scale { power *= 10 }
            var amounts: [Int64] = [0, 1, -1, Int64.max / 7, -(Int64.max / 7), Int64.min / 7]
            let most = Int64.max / 7 / power
            for multiple in [Int64(1), 2, 3, 1_000, most] where multiple > 0 && multiple <= most {
                for offset: Int64 in [-1, 0, 1] {
                    // Products (amount * 7) at and around a multiple of the divisor, and at half of one.
                    for target in [multiple * power, multiple * power + power / 2] {
                        let amount = (target / 7) + offset
                        amounts += [amount, -amount]
                    }
                }
            }
            for _ in 0..<200 { amounts.append(Int64.random(in: (Int64.min / 7)...(Int64.max / 7), using: &random)) }
            for amount in amounts {
                let exact = try CurrencyConverter.divideHalfToEven(Int128(amount) * 7, byPowerOfTen: scale)
                #expect(try converter.convertMinorUnits(amount) == Int64(exact), "\(amount) at rate \(rate)")
            }
        }
    }

    @Test func sums_in_base_first_then_converts_once() throws {
        // Three 1-cent cars at GBP 0.60338: converted one by one they would round to 3 x 1p.
        #expect(try converted(3, to: "GBP") == "£0.02")
    }

    @Test(arguments: [
        (Int64(0), "$0.00"), (5, "$0.05"), (99, "$0.99"), (100, "$1.00"), (99_999, "$999.99"),
        (100_000, "$1,000.00"), (12_345_678, "$123,456.78"), (100_000_000, "$1,000,000.00"),
        (Int64.max, "$92,233,720,368,547,758.07"), (-123_456, "-$1,234.56"), (Int64.min, "-$92,233,720,368,547,758.08")
    ])
    func dollars_are_grouped_at_every_magnitude(minor: Int64, text: String) {
        #expect(MoneyFormatter(currency: .base).format(minor) == text)
    }

    @Test(arguments: [
        (Int64(0), "¥0"), (7, "¥7"), (999, "¥999"), (1_000, "¥1,000"), (10_726_200, "¥10,726,200"),
        (123_456_789, "¥123,456,789"), (1_000_000_000_000, "¥1,000,000,000,000")
    ])
    func yen_have_no_minor_digits(minor: Int64, text: String) throws {
        #expect(MoneyFormatter(currency: try catalog.currency(named: "JPY")).format(minor) == text)
    }

    @Test func four_digit_currency_pads_minor_digits() throws {
        let c = try Currency(code: "XFD", symbol: "X ", digits: 4, rate: DecimalNumber(parsing: "1"))
        #expect(MoneyFormatter(currency: c).format(5) == "X 0.0005")
        #expect(MoneyFormatter(currency: c).format(12_345_6789) == "X 12,345.6789")
    }

    @Test(arguments: [0, 1, 7, 8, 9, 15, 16, 17, 40])
    func symbols_of_every_length_stand_before_the_digits(length: Int) throws {
        // Symbols up to 16 bytes are written packed, longer ones copied: both before the sign's place.
        let symbol = String((0..<length).map { Character(UnicodeScalar(UInt8(0x41 + $0 % 26))) })
        let c = try Currency(code: "SYM", symbol: symbol, digits: 2, rate: DecimalNumber(parsing: "1"))
        let formatter = MoneyFormatter(currency: c)
        #expect(formatter.format(7_080_000) == symbol + "70,800.00")
        #expect(formatter.format(-5) == "-" + symbol + "0.05")
        #expect(formatter.format(Int64.min) == "-" + symbol + "92,233,720,368,547,758.08")
    }

    @Test(arguments: 0...Currency.maximumDigits)
    func amounts_around_every_power_of_ten_are_written_as_by_hand(digits: Int) throws {
        // The digit count and the leading group are worked out without a loop: every length
        // of number, each side of each power of ten, both signs, against a plain spelling.
        let c = try Currency(code: "DIG", symbol: "d", digits: digits, rate: DecimalNumber(parsing: "1"))
        let formatter = MoneyFormatter(currency: c)
        func byHand(_ value: Int64) -> String {
            var text = String(value.magnitude)
            if text.count <= digits { text = String(repeating: "0", count: digits - text.count + 1) + text }
            var whole = String(text.dropLast(digits))
            let minor = String(text.suffix(digits))
            var grouped = ""
            while whole.count > 3 {
                grouped = "," + whole.suffix(3) + grouped
                whole = String(whole.dropLast(3))
            }
            return (value < 0 ? "-" : "") + "d" + whole + grouped + (digits > 0 ? "." + minor : "")
        }
        var values: [Int64] = [0, 1, 9, Int64.max, Int64.min, Int64.min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, power / 2, power / 10 * 9 + 7]
        }
        let negated = values.map { $0 == Int64.min ? Int64.max : -$0 }
        for value in values + negated {
            #expect(formatter.format(value) == byHand(value), "\(value)")
        }
    }

    @Test func overflow_is_an_error_not_a_trap() throws {
        let yen = ValuationFactory(currency: try catalog.currency(named: "JPY")).makeConverter()
        #expect(throws: CarFactoryError.moneyOverflow) { try yen.convert(Int64.max) }
        #expect(throws: CarFactoryError.moneyOverflow) { try Money.base(Int64.max).adding(.base(1)) }
        #expect(throws: CarFactoryError.moneyOverflow) { try Money.base(Int64.max / 2).multiplied(by: 3) }
        let tiny = try Currency(code: "TNY", symbol: "t", digits: 4, rate: DecimalNumber(parsing: "922337203685477580.7"))
        #expect(throws: CarFactoryError.moneyOverflow) { try ValuationFactory(currency: tiny).makeConverter().convert(Int64.max) }
    }

    @Test func decimals_are_read_exactly() throws {
        #expect(try DecimalNumber(parsing: "0.60338") == DecimalNumber(significand: 60338, scale: 5))
        #expect(try DecimalNumber(parsing: "151.50").normalized.description == "151.5")
        #expect(try DecimalNumber(parsing: "31000").minorUnits(digits: 2) == 3_100_000)
        #expect(throws: CarFactoryError.tooManyDecimals("1.005", allowed: 2)) { try DecimalNumber(parsing: "1.005").minorUnits(digits: 2) }
        for bad in ["", ".", "1.", ".5", "-1", "+1", "1e3", "1.2.3", "0x10", " 1"] {
            #expect(throws: CarFactoryError.notADecimal(bad)) { try DecimalNumber(parsing: bad) }
        }
        #expect(throws: CarFactoryError.numberTooLarge("99999999999999999999")) { try DecimalNumber(parsing: "99999999999999999999") }
        #expect(DecimalNumber(significand: 5, scale: 3).description == "0.005")
    }

    @Test func trailing_zeros_never_overflow_and_too_many_digits_is_said() throws {
        // 81895 followed by 15 zeros after the point: the significand would need 20 digits.
        let suv = try DecimalNumber(parsing: "81895.000000000000000")
        #expect(suv.normalized == DecimalNumber(significand: 81895, scale: 0))
        #expect(try suv.minorUnits(digits: 2) == 8_189_500)
        #expect(try DecimalNumber(parsing: "0." + String(repeating: "0", count: 40)).minorUnits(digits: 2) == 0)
        #expect(try DecimalNumber(parsing: "1.5" + String(repeating: "0", count: 30)).minorUnits(digits: 2) == 150)
        // Zeros that fit stay as typed (a rate is saved so); zeros between digits count.
        #expect(try DecimalNumber(parsing: "1.50") == DecimalNumber(significand: 150, scale: 2))
        #expect(try DecimalNumber(parsing: "1.000000000000000001") == DecimalNumber(significand: 1_000_000_000_000_000_001, scale: 18))
        let precise = "0.12345678901234567891"
        #expect(throws: CarFactoryError.tooManyDigits(precise)) { try DecimalNumber(parsing: precise) }
        #expect(
            CarFactoryError.tooManyDigits(precise).description
                == "'0.12345678901234567891' has too many significant digits to hold exactly (at most 18; 19 only up to 9223372036854775807)"
        )
        #expect(throws: CarFactoryError.tooManyDigits("9.0000000000000000001")) { try DecimalNumber(parsing: "9.0000000000000000001") }
        // Nineteen digits are held up to Int64's largest, so the message may not say "more than 18"
        // of one past it (trial 3: '92233720368547758.08 has more than 18 significant digits').
        #expect(try DecimalNumber(parsing: "92233720368547758.07") == DecimalNumber(significand: .max, scale: 2))
        #expect(throws: CarFactoryError.tooManyDigits("92233720368547758.08")) { try DecimalNumber(parsing: "92233720368547758.08") }
        #expect(!CarFactoryError.tooManyDigits("92233720368547758.08").description.contains("more than 18"))
    }

    @Test func currencies_check_their_digits_and_rates() throws {
        #expect(throws: CarFactoryError.invalidDigits(5)) {
            try Currency(code: "ABC", symbol: "a", digits: 5, rate: DecimalNumber(parsing: "1"))
        }
        #expect(throws: CarFactoryError.rateNotPositive("0.000")) {
            try Currency(code: "ABC", symbol: "a", digits: 2, rate: DecimalNumber(parsing: "0.000"))
        }
        #expect(throws: CarFactoryError.invalidCurrencyCode("A1")) {
            try Currency(code: "A1", symbol: "a", digits: 2, rate: DecimalNumber(parsing: "1"))
        }
    }
}
