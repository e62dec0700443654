import CarFactory

/// A resolved argument value.
public enum ArgumentValue {
    case absent
    case model(any CarFactory)
    case family(PartFamily)
    case option(any Part)
    case currency(CurrencyValuation)
    case count(Int64)
    case lineNumber(Int)
    case decimal(DecimalNumber)
    case word(String)
    case integer(Int)
    case words([String])
    case command(CommandSpec)
}

/// A command ready to run: its spec, its resolved arguments and where each word stands.
public struct Invocation {
    /// The command.
    public let spec: CommandSpec
    /// One value per argument of the spec (`.absent` for a left-out optional one), and where each stands.
    let store: ArgumentStore

    /// Where argument `index` stands, or the command word for 0 (or a left-out argument).
    public func range(_ index: Int) -> SourceRange {
        store.range(index)
    }

    /// Where each word of a word-list argument (`echo`, `expect`) stands.
    var wordRanges: [SourceRange] { store.wordRanges }

    /// Runs `body`, positioning a domain error at argument `index` (0 is the command word).
    public func at<T>(_ index: Int, _ body: () throws(CarFactoryError) -> T) throws(ScriptError) -> T {
        do {
            return try body()
        } catch {
            throw ScriptError(.domain(error), at: range(index))
        }
    }

    /// The value of argument `index` (1-based).
    public func value(_ index: Int) -> ArgumentValue { store.value(index) }

    /// The word of argument `index` (a file name or field), or "" if left out.
    public func word(_ index: Int) -> String {
        guard case .word(let word) = value(index) else { return "" }
        return word
    }

    /// The model of argument `index`.
    public func model(_ index: Int) -> any CarFactory {
        guard case .model(let factory) = value(index) else { preconditionFailure("argument \(index) of \(spec.name) is not a model") }
        return factory
    }

    /// The option of argument `index`.
    public func option(_ index: Int) -> any Part {
        guard case .option(let part) = value(index) else { preconditionFailure("argument \(index) of \(spec.name) is not an option") }
        return part
    }

    /// The family of argument `index`, if given.
    public func family(_ index: Int) -> PartFamily? {
        guard case .family(let family) = value(index) else { return nil }
        return family
    }

    /// The currency of argument `index`, if given.
    public func currency(_ index: Int) -> Currency? {
        guard case .currency(let valuation) = value(index) else { return nil }
        return valuation.currency
    }

    /// The valuation of the currency of argument `index`, if given.
    public func valuation(_ index: Int) -> CurrencyValuation? {
        guard case .currency(let valuation) = value(index) else { return nil }
        return valuation
    }

    /// The count of argument `index`, if given.
    public func count(_ index: Int) -> Int64? {
        guard case .count(let count) = value(index) else { return nil }
        return count
    }

    /// The line number of argument `index`, if given.
    public func lineNumber(_ index: Int) -> Int? {
        guard case .lineNumber(let number) = value(index) else { return nil }
        return number
    }

    /// The whole number of argument `index`.
    public func integer(_ index: Int) -> Int {
        guard case .integer(let number) = value(index) else { preconditionFailure("argument \(index) of \(spec.name) is not a number") }
        return number
    }

    /// The decimal of argument `index`.
    public func decimal(_ index: Int) -> DecimalNumber {
        guard case .decimal(let number) = value(index) else { preconditionFailure("argument \(index) of \(spec.name) is not a decimal") }
        return number
    }

    /// The words of argument `index` (empty if none).
    public func words(_ index: Int) -> [String] {
        guard case .words(let words) = value(index) else { return [] }
        return words
    }

    /// The command named by argument `index`, if given.
    public func command(_ index: Int) -> CommandSpec? {
        guard case .command(let spec) = value(index) else { return nil }
        return spec
    }
}
