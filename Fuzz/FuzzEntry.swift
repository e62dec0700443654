// libFuzzer entry: every input is run as a script through the lexer, the resolver and the
// interpreter, in one session with the built-in catalog. Files are out of reach (--safe),
// errors do not stop the run (--keep-going), output goes to memory. A crash, a trap, a
// sanitizer report or a hang is a finding. Built by Scripts/fuzz.
import CarFactory
import CarScript

private let catalog: Catalog = {
    guard let catalog = BuiltInCatalog.load(renderer: TextRenderer(out: .memory(), err: .memory())) else {
        preconditionFailure("the built-in catalog does not load")
    }
    return catalog
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var options = SessionOptions()
    options.safe = true
    options.keepGoing = true
    let out = Output.memory()
    let err = Output.memory()
    let json = size > 0 && data[0] & 1 == 1
    let renderer: any ResultRenderer = json ? JSONRenderer(out: out, err: err) : TextRenderer(out: out, err: err)
    let session = Session(catalog: catalog, renderer: renderer, options: options)
    guard let source = try? openLineSource(.bytes(Array(UnsafeBufferPointer(start: data, count: size)), name: "<fuzz>")) else {
        return 0
    }
    session.run(source)
    // Invariants a run must keep, whatever it was given.
    precondition(session.stock.carCount >= 0, "negative car count")
    precondition(session.stock.lines.reduce(Int64(0)) { $0 + $1.count } == session.stock.carCount, "running count drifted")
    precondition(session.stock.lines.reduce(Int64(0)) { $0 &+ $1.car.priceMinorUnits &* $1.count } == session.stock.valueMinorUnits,
                 "running value drifted")
    return 0
}
