// What one fuzz input must keep, as a library the package builds on every `swift build`
// (so the fuzz target cannot silently stop building) and the tests run over the corpus
// (Tests/CarfabCLITests/FuzzCorpusTests.swift). libFuzzer's entry (Fuzz/FuzzEntry.swift,
// built by Scripts/fuzz) only hands it the bytes.
import CarFactory
import CarScript
import CarfabCLI

/// A broken invariant: what it was, for the report.
public struct FuzzFinding: Error, CustomStringConvertible {
    public let description: String
}

/// Runs `input` as a script through the lexer, the resolver and the interpreter, in an engine
/// with the built-in catalog, files refused and errors not stopping the run, and checks:
/// - the stock's running count and value agree with its lines, no car is priced below zero;
/// - `save` then replay in a fresh engine prints nothing, fails nothing, and saves to the
///   same bytes (the round-trip law for whatever state the input built).
/// The first byte's low bit picks the text or the JSON renderer.
public func checkFuzzInput(_ input: [UInt8]) throws(FuzzFinding) {
    var options = EngineOptions()
    options.fileAccess = .refused(by: "while fuzzing")
    options.keepGoing = true
    let json = input.first.map { $0 & 1 == 1 } ?? false
    let out = Output.memory()
    let err = Output.memory()
    let sink = SavingSink(json ? JSONRenderer(out: out, err: err) : TextRenderer(out: out, err: err))
    let engine = Engine(options: options, sink: sink)
    engine.evaluate(openLineSource(text: input, name: "<fuzz>"))
    let stock = engine.stock
    guard stock.carCount >= 0 else { throw FuzzFinding(description: "negative car count") }
    guard stock.lines.reduce(Int64(0), { $0 &+ $1.count }) == stock.carCount else {
        throw FuzzFinding(description: "running count drifted")
    }
    guard stock.lines.reduce(Int64(0), { $0 &+ $1.car.priceMinorUnits &* $1.count }) == stock.valueMinorUnits else {
        throw FuzzFinding(description: "running value drifted")
    }
    guard stock.lines.allSatisfy({ $0.car.priceMinorUnits >= 0 }) else { throw FuzzFinding(description: "a car priced below zero") }
    // A session ended by `quit` still saves; one the input left mid-transaction of errors too.
    sink.saved = nil
    engine.evaluate("save -", name: "<save>")
    // A state save refuses (with a message) is not written: nothing to replay.
    guard let first = sink.saved else { return }
    var replayOptions = EngineOptions()
    replayOptions.fileAccess = .refused(by: "while fuzzing")
    let replayed = Engine(options: replayOptions)
    let replay = replayed.evaluate(first, name: "<saved>")
    guard replay.diagnostics.isEmpty else {
        throw FuzzFinding(description: "the saved script failed on replay: \(replay.diagnostics.map(\.message))\n\(first)")
    }
    guard replay.results.isEmpty else { throw FuzzFinding(description: "the saved script printed on replay\n\(first)") }
    guard savedScript(of: replayed) == first else { throw FuzzFinding(description: "a second save differs\n\(first)") }
}

/// Passes results on to a renderer, but keeps what `save -` prints.
final class SavingSink: ResultSink {
    let renderer: any ResultSink
    /// The script the last `save -` printed, with its final line break.
    var saved: String?

    init(_ renderer: any ResultSink) { self.renderer = renderer }

    func receive(_ result: CommandResult, from command: CommandSpec) {
        if command.name == "save", case .text(let text) = result {
            saved = text + "\n"
        } else {
            renderer.receive(result, from: command)
        }
    }

    func receive(_ diagnostic: Diagnostic) { renderer.receive(diagnostic) }

    func flush() { renderer.flush() }
}

/// `save -` of the session of `engine` (one without a sink of its own), or nil if save refused it.
private func savedScript(of engine: Engine) -> String? {
    let run = engine.evaluate("save -", name: "<save>")
    guard run.diagnostics.isEmpty, case .text(let text)? = run.results.last?.result else { return nil }
    return text + "\n"
}
