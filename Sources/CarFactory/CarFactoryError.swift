/// Everything the domain can refuse; each case carries what a person needs to put it right.
public enum CarFactoryError: Error, Equatable, Sendable {
    case notADecimal(String)
    case numberTooLarge(String)
    /// A decimal with more significant digits than 64 bits hold (`0.1234567890123456789`).
    case tooManyDigits(String)
    case tooManyDecimals(String, allowed: Int)
    case invalidCurrencyCode(String)
    case invalidDigits(Int)
    /// A currency symbol that starts or ends with a digit, a sign, `,` or `.`.
    case invalidCurrencySymbol(String)
    case rateNotPositive(String)
    case baseRateIsFixed(String)
    case moneyOverflow
    case countOverflow
    /// A count of cars whose value would take the stock's past the largest amount (`car suv COUNT`).
    case countTooLarge(Int64)
    case countNotPositive(Int64)
    /// A line added to a stock that holds `limit` lines already (`StockLedger.maximumLines`).
    case stockTooLarge(limit: Int)
    /// A configuration new to a stock that keeps `limit` already (`StockLedger.maximumConfigurations`).
    case configurationsTooLarge(limit: Int)
    case unknownModel(String)
    case unknownOption(String, family: String)
    case unknownCurrency(String)
    case ruleViolation(Rule)
    case duplicateModel(String)
    /// A name already in use: by the option being redefined (`existing` nil), or by another option.
    case duplicateOption(String, family: String, existing: String?)
    case duplicateCurrency(String)
    case duplicateRule(Rule)
    case ruleWithinOneFamily(String)
    case defaultsBreakRule(model: String, Rule)
    case stockBreaksRule(line: Int, Rule)
    case noCurrentCar
    case noSuchLine(Int, lineCount: Int)
    case floorplanNeedsLayout(String)
    case layoutOnlyForFloorplans(String)
    /// A family name already taken (by a book family or a defined one).
    case duplicateFamily(String)
    /// A family past `PartFamily.limit`, or an option past `PartFamily.optionLimit`.
    case tooManyFamilies(limit: Int)
    /// The names and texts of a catalog's definitions would hold more than `limit` bytes.
    case catalogTooLarge(limit: Int)
    case tooManyOptions(family: String, limit: Int)
    case invalidSeats(String)
    /// A model or option that would let a model's cars cost below zero: the model, the
    /// cheapest options that take it there, and its lowest price (see `Catalog`).
    case modelCouldCostLessThanNothing(model: String, options: [String], price: Int64)
    /// A name given twice in one definition (an alias repeating the option's name or another alias).
    case repeatedName(String)
    /// A configurator's search that took more steps than its limit allows.
    case searchLimitReached(steps: Int)
    /// A configurator's search stopped by a stop request (Ctrl-C).
    case searchStopped
    /// The configurator's tables for the catalog's rules would take `bytes`, past `limit`.
    case catalogTooWide(bytes: Int, limit: Int)
    /// No valid car has these options (`4wd drivetrain`) together.
    case noValidCar([String])
}

/// A quoted word as a message shows it: a very long one is cut.
private func cut(_ word: String) -> String {
    word.count <= 64 ? word : word.prefix(60) + "..."
}

extension CarFactoryError: CustomStringConvertible {
    /// The message, without position: the language layer adds where it happened.
    public var description: String {
        switch self {
        case .notADecimal(let text): "'\(cut(text))' is not a decimal number"
        case .numberTooLarge(let text): "'\(cut(text))' is too large"
        case .tooManyDigits(let text):
            "'\(cut(text))' has too many significant digits to hold exactly (at most 18; 19 only up to 9223372036854775807)"
        case .tooManyDecimals(let text, let allowed):
            allowed == 0 ? "'\(cut(text))' must be a whole amount" : "'\(cut(text))' has more than \(allowed) decimal places"
        case .invalidCurrencyCode(let code): "'\(cut(code))' is not a currency code (three letters, like CHF)"
        case .invalidCurrencySymbol(let symbol):
            "'\(cut(symbol))' cannot be a currency symbol: it would read as part of the amount after it (a symbol may not start or end with a digit or number, a sign or dash, ',' or '.')"
        case .invalidDigits(let digits): "minor digits must be from 0 to \(Currency.maximumDigits), not \(digits)"
        case .rateNotPositive(let text): "rate '\(cut(text))' is not a positive decimal"
        case .baseRateIsFixed(let code): "\(code) is the base currency; its rate is always 1"
        case .moneyOverflow: "amount too large: the value would overflow"
        case .countOverflow: "too many cars: the count would overflow"
        case .countTooLarge(let count):
            "count too large: \(count) car\(count == 1 ? "" : "s") would take the stock's value past the largest amount, \(Money.base(.max))"
        case .countNotPositive(let count): "count must be at least 1, not \(count)"
        case .stockTooLarge(let limit): "the stock holds at most \(limit) lines: no line is added"
        case .configurationsTooLarge(let limit):
            "the stock keeps at most \(limit) distinct configurations: nothing is changed (remove or clear lines to make room)"
        case .unknownModel(let name): "unknown model '\(cut(name))'"
        case .unknownOption(let name, let family): "unknown \(family) option '\(cut(name))'"
        case .unknownCurrency(let code): "unknown currency '\(cut(code))'"
        case .ruleViolation(let rule): rule.violationMessage
        case .duplicateModel(let name): "model '\(cut(name))' is already defined"
        case .duplicateOption(let name, let family, let existing):
            existing.map { "\(family) option name '\(cut(name))' is already taken by '\($0)'" }
                ?? "\(family) option '\(cut(name))' is already defined"
        case .duplicateCurrency(let code): "currency '\(cut(code))' is already defined"
        case .duplicateRule(let rule): "the rule '\(rule)' is already defined"
        case .ruleWithinOneFamily(let family): "a rule must join two different families, not \(family) with \(family)"
        case .defaultsBreakRule(let model, let rule): "the default options of '\(model)' break a rule: \(rule.violationMessage)"
        case .stockBreaksRule(let line, let rule): "stock line \(line) already breaks this rule: \(rule.violationMessage)"
        case .noCurrentCar: "no current car: add one with 'car MODEL'"
        case .noSuchLine(let number, let count):
            switch count {
            case 0: "no stock line \(number): the stock is empty"
            case 1: "no stock line \(number): there is 1 line"
            default: "no stock line \(number): there are \(count) lines"
            }
        case .floorplanNeedsLayout(let name): "floorplan option '\(cut(name))' needs 'seats N engine POSITION'"
        case .layoutOnlyForFloorplans(let family): "seats and engine apply to floorplans, not to \(family)"
        case .duplicateFamily(let name): "family '\(cut(name))' is already defined"
        case .tooManyFamilies(let limit): "a catalog holds at most \(limit) families"
        case .catalogTooLarge(let limit):
            "the catalog's definitions would pass \(limit / (1 << 20)) MiB (\(limit) bytes) in all (their names and texts, and a fixed size each): nothing is defined"
        case .tooManyOptions(let family, let limit): "a family holds at most \(limit) options; \(family) has that many"
        case .invalidSeats(let text): "seats must be a whole number from 1 to 99, not '\(cut(text))'"
        case .modelCouldCostLessThanNothing(let model, let options, let price):
            "'\(cut(model))' with \(options.joined(separator: ", ")) would cost \(Money.base(price)): a price cannot be below zero"
        case .repeatedName(let name): "'\(cut(name))' is named twice in this definition"
        case .searchLimitReached(let steps):
            // What narrows it depends on the question: the command that asked adds it as a note.
            "the search took more than \(steps) steps and was stopped"
        case .searchStopped: "the search was stopped"
        case .catalogTooWide(let bytes, let limit):
            "the configurator's tables for this catalog's rules would take \((bytes + (1 << 20) - 1) >> 20) MiB, past its bound of \(limit >> 20) MiB"
        case .noValidCar(let options):
            options.isEmpty
                ? "no valid car can be built"
                : "no valid car has \(options.map { "the " + $0 }.joined(separator: " and "))"
        }
    }
}

extension CarFactoryError {
    /// A stable name for the kind of error, for programs that act on diagnostics: `rule-violation`.
    public var id: String {
        switch self {
        case .notADecimal: "not-a-decimal"
        case .numberTooLarge: "number-too-large"
        case .tooManyDigits: "too-many-digits"
        case .tooManyDecimals: "too-many-decimals"
        case .invalidCurrencyCode: "invalid-currency-code"
        case .invalidDigits: "invalid-digits"
        case .invalidCurrencySymbol: "invalid-currency-symbol"
        case .rateNotPositive: "rate-not-positive"
        case .baseRateIsFixed: "base-rate-is-fixed"
        case .moneyOverflow: "money-overflow"
        case .countOverflow: "count-overflow"
        case .countTooLarge: "count-too-large"
        case .countNotPositive: "count-not-positive"
        case .stockTooLarge: "stock-too-large"
        case .configurationsTooLarge: "configurations-too-large"
        case .unknownModel: "unknown-model"
        case .unknownOption: "unknown-option"
        case .unknownCurrency: "unknown-currency"
        case .ruleViolation: "rule-violation"
        case .duplicateModel: "duplicate-model"
        case .duplicateOption: "duplicate-option"
        case .duplicateCurrency: "duplicate-currency"
        case .duplicateRule: "duplicate-rule"
        case .ruleWithinOneFamily: "rule-within-one-family"
        case .defaultsBreakRule: "defaults-break-rule"
        case .stockBreaksRule: "stock-breaks-rule"
        case .noCurrentCar: "no-current-car"
        case .noSuchLine: "no-such-line"
        case .floorplanNeedsLayout: "floorplan-needs-layout"
        case .layoutOnlyForFloorplans: "layout-only-for-floorplans"
        case .duplicateFamily: "duplicate-family"
        case .tooManyFamilies: "too-many-families"
        case .catalogTooLarge: "catalog-too-large"
        case .tooManyOptions: "too-many-options"
        case .invalidSeats: "invalid-seats"
        case .modelCouldCostLessThanNothing: "model-could-cost-less-than-nothing"
        case .repeatedName: "repeated-name"
        case .searchLimitReached: "search-limit-reached"
        case .searchStopped: "search-stopped"
        case .catalogTooWide: "catalog-too-wide"
        case .noValidCar: "no-valid-car"
        }
    }
}
