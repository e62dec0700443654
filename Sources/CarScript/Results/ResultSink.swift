import CarFactory

/// Where an evaluation's results and diagnostics go, as they are made: carfab's text and JSON
/// renderers, or `Evaluation`, which keeps them. Every value it receives is owned: it may be
/// kept after the evaluation ends.
public protocol ResultSink: AnyObject {
    /// Takes what `command` produced.
    func receive(_ result: CommandResult, from command: CommandSpec)
    /// Takes a problem.
    func receive(_ diagnostic: Diagnostic)
    /// Lets everything held back go (a prompt is about to wait for a person).
    func flush()
    /// Takes `echo`'s words, joined by single spaces and lent for the call only: a sink that
    /// writes them at once need not make them a `String` first.
    func receive(echo text: Span<UInt8>, from command: CommandSpec)
    /// Takes `price`'s amount, in minor units of `valuation`'s currency: a sink that writes it
    /// at once need not make a ``CommandResult`` first.
    func receive(amount minorUnits: Int64, in valuation: CurrencyValuation, from command: CommandSpec)
    /// Takes `total`'s count of cars and their value, in minor units of `valuation`'s currency
    /// (as `receive(amount:in:from:)`).
    func receive(total count: Int64, value: Int64, in valuation: CurrencyValuation, from command: CommandSpec)
    /// Takes the car `show` shows, lent for the call only (as `receive(amount:in:from:)`).
    func receive(car: Car, from command: CommandSpec)
    /// The most columns a diagnostic's ``Diagnostic/source`` line may take: a longer line is
    /// shown as a window around the error, "..." marking each cut (at least 20).
    var sourceWindowWidth: Int { get }
}

extension ResultSink {
    /// Nothing is held back.
    public func flush() {}

    /// An 80-column terminal's.
    public var sourceWindowWidth: Int { SourceLines.defaultWidth }

    /// The words as an owned `.echo` result.
    public func receive(echo text: Span<UInt8>, from command: CommandSpec) {
        let words = text.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
        receive(.echo(words), from: command)
    }

    /// The amount as an owned `.amount` result.
    public func receive(amount minorUnits: Int64, in valuation: CurrencyValuation, from command: CommandSpec) {
        receive(.amount(minorUnits, valuation), from: command)
    }

    /// The count and value as an owned `.total` result.
    public func receive(total count: Int64, value: Int64, in valuation: CurrencyValuation, from command: CommandSpec) {
        receive(.total(count: count, value: value, valuation), from: command)
    }

    /// The car as an owned `.car` result.
    public func receive(car: Car, from command: CommandSpec) {
        receive(.car(car), from: command)
    }
}

/// The results and diagnostics of an evaluation, kept.
public final class Evaluation: ResultSink {
    /// Each result, with the name of the command that made it, in order.
    public private(set) var results: [(command: String, result: CommandResult)] = []
    /// Each problem, in order.
    public private(set) var diagnostics: [Diagnostic] = []

    /// An empty record.
    public init() {}

    public func receive(_ result: CommandResult, from command: CommandSpec) {
        results.append((command.name, result))
    }

    public func receive(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
    }
}
