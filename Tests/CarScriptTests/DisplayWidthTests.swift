import Foundation
import Testing

@testable import CarScript

#if canImport(Glibc)
import Glibc
#endif

/// Text is measured in the columns a terminal gives it (issue 20 item 14).
@Suite struct DisplayWidthTests {
    @Test func every_scalar_takes_the_columns_wcwidth_gives_it() throws {
        setlocale(LC_CTYPE, "C.UTF-8")
        // wcwidth is not in Swift's Glibc module (it needs _XOPEN_SOURCE): look it up.
        typealias WidthFunction = @convention(c) (wchar_t) -> Int32
        let symbol = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "wcwidth"))
        let wcwidth = unsafeBitCast(symbol, to: WidthFunction.self)
        var differences: [String] = []
        for value in UInt32(0xA0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            // wcwidth says -1 for what it does not know: a terminal still draws one column.
            let expected = Int(wcwidth(wchar_t(bitPattern: value)))
            if DisplayText.columns(of: scalar) != (expected < 0 ? 1 : expected) && differences.count < 10 {
                differences.append(String(value, radix: 16))
            }
        }
        #expect(differences.isEmpty)
    }

    @Test func wide_and_combining_characters_are_measured_as_drawn() {
        #expect(DisplayText.width("東京") == 4)
        #expect(DisplayText.width("Cafe\u{301}") == 4)
        #expect(DisplayText.width("a\u{1B}b") == 4)
        #expect(DisplayText.cut("東京東京東京", toWidth: 7) == "東京...")
    }
}
