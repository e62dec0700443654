import CarfabFuzz

// libFuzzer's entry, built by Scripts/fuzz: each input goes to `checkFuzzInput` (Fuzz/Case,
// a target of the package, which the tests also run over the corpus), or with
// CARFAB_FUZZ_TARGET=lsp (`Scripts/fuzz --lsp`) to `checkLanguageServerInput`; a finding
// traps, so libFuzzer keeps the input as a crash.
#if canImport(Glibc)
import Glibc
#endif

/// Which check the inputs go to, read once.
private let languageServer = getenv("CARFAB_FUZZ_TARGET").map { String(cString: $0) } == "lsp"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        if languageServer {
            try checkLanguageServerInput(input)
        } else {
            try checkFuzzInput(input)
        }
    } catch {
        fatalError("fuzz finding: \(error)")
    }
    return 0
}
