import Foundation
import Testing

/// A line the lexer refuses (a bad escape, `${` not closed, a byte that is not UTF-8, a NUL) is
/// kept in the history as any other line is, so that Up brings it back to be mended: a long
/// `model` line with one mistyped escape had to be typed again, in the session and after it
/// (trial 13, 6).
extension ReplTests {
    /// Types `keys` once the prompt has been drawn `prompts` times, and waits for `expected`.
    private func enter(_ keys: [UInt8], on terminal: PseudoTerminal, after prompts: Int, expecting expected: String) -> Bool {
        guard terminal.waitFor("carfab> ", times: prompts) else { return false }
        terminal.type(bytes: keys + [0x0D])
        return terminal.waitFor(expected)
    }

    @Test func a_line_the_lexer_refuses_is_recalled_with_up_and_saved() throws {
        let escape = #"error: unknown escape '\x' (use \", \\, \n, \t, \r, \$ or \u{HEX})"#
        let first = try start()
        #expect(enter(Array(#"model m "Mazda \x" price 31000"#.utf8), on: first, after: 1, expecting: "<stdin>:1:16: " + escape))
        // Up brings the refused line back whole.
        #expect(
            enter(Array("\u{1B}[A".utf8), on: first, after: 2, expecting: "<stdin>:2:16: " + escape), "\(first.output.debugDescription)")
        #expect(
            enter(
                Array("echo a".utf8) + [0xFF] + Array("b".utf8), on: first, after: 3,
                expecting: "<stdin>:3:7: error: invalid UTF-8 (byte 0xFF)"))
        #expect(
            enter(Array("echo c".utf8) + [0x00] + Array("d".utf8), on: first, after: 4, expecting: "<stdin>:4:7: error: NUL byte in input"))
        #expect(enter(Array("echo ${x".utf8), on: first, after: 5, expecting: "<stdin>:5:6: error: '${' without a closing '}'"))
        // A command continued over two lines and refused on the second is one entry.
        #expect(enter(Array(#"echo "one"#.utf8), on: first, after: 6, expecting: "   ...> "))
        first.type(#"two\x""# + "\r")
        #expect(first.waitFor("<stdin>:7:4: " + escape), "\(first.output.debugDescription)")
        #expect(enter(Array("car nosuch".utf8), on: first, after: 7, expecting: "<stdin>:8:5: error: unknown model 'nosuch'"))
        #expect(first.waitFor("carfab> ", times: 8))
        first.type("\u{04}")
        #expect(first.exitStatus() == 0)
        // Each as it was typed: bytes the file writes as `\ooo`, or as they are (0xFF).
        let saved = try [UInt8](Data(contentsOf: historyFile))
        let expected: [UInt8] =
            Array(#"_HiStOrY_V2_\#nmodel\040m\040"Mazda\040\134x"\040price\04031000\#necho\040a"#.utf8) + [0xFF]
            + Array(#"b\#necho\040c\000d\#necho\040${x\#necho\040"one\134ntwo\134x"\#ncar\040nosuch\#n"#.utf8)
        #expect(saved == expected, "\(String(decoding: saved, as: UTF8.self).debugDescription)")

        // The next session recalls them from the file: the byte that is not UTF-8 runs as that byte again.
        let second = try start()
        #expect(
            enter(
                Array("\u{1B}[A\u{1B}[A\u{1B}[A\u{1B}[A\u{1B}[A".utf8), on: second, after: 1,
                expecting: "<stdin>:1:7: error: invalid UTF-8 (byte 0xFF)"),
            "\(second.output.debugDescription)")
        #expect(
            enter(
                Array("\u{1B}[A\u{1B}[A\u{1B}[A\u{1B}[A\u{1B}[A".utf8), on: second, after: 2,
                expecting: "<stdin>:2:7: error: NUL byte in input"),
            "\(second.output.debugDescription)")
        #expect(second.waitFor("carfab> ", times: 3))
        second.type("\u{04}")
        #expect(second.exitStatus() == 0)
    }
}
