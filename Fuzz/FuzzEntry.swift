// libFuzzer entry: every input is run as a script through the lexer, the resolver and the
// interpreter, in one engine with the built-in catalog, twice: through the direct path and
// through the general one, which must print the same. Files are out of reach, errors do
// not stop the run (keep going), results go to the text or JSON renderer in memory. A
// crash, a trap, a sanitizer report or a hang is a finding. Built by Scripts/fuzz.
import CarScript
import CarfabCLI

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var options = EngineOptions()
    options.fileAccess = .refused(by: "while fuzzing")
    options.keepGoing = true
    let json = size > 0 && data[0] & 1 == 1
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    /// Runs the input; what it printed, and the engine.
    func run(direct: Bool) -> (out: [UInt8], err: [UInt8], engine: Engine) {
        var options = options
        options.directPath = direct
        let out = Output.memory()
        let err = Output.memory()
        let renderer: any ResultRenderer = json ? JSONRenderer(out: out, err: err) : TextRenderer(out: out, err: err)
        let engine = Engine(options: options, sink: renderer)
        engine.evaluate(openLineSource(text: input, name: "<fuzz>"))
        return (out.buffer, err.buffer, engine)
    }
    let (out, err, engine) = run(direct: true)
    // The direct path must be invisible: the general path prints the same, errors and all.
    let general = run(direct: false)
    precondition(out == general.out && err == general.err, "the direct path printed something else")
    // Invariants a run must keep, whatever it was given.
    let stock = engine.stock
    precondition(stock.carCount >= 0, "negative car count")
    precondition(stock.lines.reduce(Int64(0)) { $0 + $1.count } == stock.carCount, "running count drifted")
    precondition(stock.lines.reduce(Int64(0)) { $0 &+ $1.car.priceMinorUnits &* $1.count } == stock.valueMinorUnits,
                 "running value drifted")
    precondition(stock.lines.allSatisfy { $0.car.priceMinorUnits >= 0 }, "a car priced below zero")
    return 0
}
