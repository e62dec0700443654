// libFuzzer's entry, built by Scripts/fuzz: each input goes to `checkFuzzInput` (Fuzz/Case,
// a target of the package, which the tests also run over the corpus); a finding traps, so
// libFuzzer keeps the input as a crash.
import CarfabFuzz

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    do {
        try checkFuzzInput(Array(UnsafeBufferPointer(start: data, count: size)))
    } catch {
        fatalError("fuzz finding: \(error)")
    }
    return 0
}
