import Testing

@testable import CarfabCLI

#if canImport(Glibc)
import Glibc
#endif

/// A history entry is turned into the wide characters libedit recalls as typing it gave them,
/// and back into the same bytes when it is run again: bytes that are not UTF-8 and NUL too.
@Suite struct TerminalBytesTests {
    private func roundTrip(_ bytes: [UInt8]) -> [UInt8] {
        TerminalBytes.wide(of: bytes).withUnsafeBufferPointer { TerminalBytes.bytes(of: $0) }
    }

    @Test func text_is_read_as_its_characters_and_other_bytes_as_their_escapes() {
        let wide = TerminalBytes.wide(of: Array("é".utf8) + [0x00, 0xFF, 0xE2, 0x82, 0x41, 0xED, 0xA0, 0x80])
        // é; NUL and 0xFF escaped; a sequence cut short (E2 82, then A) and a surrogate's
        // UTF-8 (ED A0 80), byte by byte, as the lexer refuses them.
        let expected: [UInt32] = [0xE9, 0xDC00, 0xDCFF, 0xDCE2, 0xDC82, 0x41, 0xDCED, 0xDCA0, 0xDC80]
        #expect(wide.map { UInt32(bitPattern: $0) } == expected)
    }

    @Test func any_bytes_come_back_as_they_were() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0..<12, using: &generator)).map { _ in
                // Mostly the bytes UTF-8 sequences are made of, so that some are whole.
                [0x00, 0x41, 0x7F, 0x80, 0xBF, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xFF, UInt8.random(in: 0...255, using: &generator)]
                    .randomElement(using: &generator) ?? 0
            }
            #expect(roundTrip(bytes) == bytes, "\(bytes)")
        }
    }
}
