import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The prompt's defects from issues 19 and 20, driven through a pseudo-terminal.
extension ReplTests {
    @Test func tab_after_earlier_commands_on_the_line_describes_the_car_they_make() throws {
        let terminal = try start()
        #expect(terminal.enter("car suv", expecting: "carfab> "))
        terminal.type("car sports; set suspension \t")
        // On the sports car race suspension is its own; on the SUV's long floorplan it is forbidden.
        #expect(terminal.waitFor("(current)"), "\(terminal.output.debugDescription)")
        #expect(terminal.output.contains("race  ") && !terminal.output.contains("(not with a long floorplan)"),
                "\(terminal.output.debugDescription)")
        terminal.interrupt()
        #expect(terminal.enter("list", expecting: "suv"))
        #expect(!terminal.output.contains("Porsche"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }
}

extension ReplTests {
    /// What carfab says about `line` read as a script from standard input: its first line.
    func scriptError(_ line: [UInt8]) throws -> String {
        let result = try carfab([], stdinData: Data(line + [0x0A]))
        return String(result.stderr.split(separator: "\n").first ?? "")
    }

    @Test func bytes_that_are_not_utf8_and_nul_reach_the_engine_as_in_a_script() throws {
        let terminal = try start()
        for line: [UInt8] in [Array("echo a".utf8) + [0xFF] + Array("b".utf8),      // a byte no UTF-8 has
                              Array("echo é".utf8) + [0xC3, 0x41],                    // a lead without its continuation
                              Array("echo ".utf8) + [0xE9, 0x74, 0xE9],              // Latin-1
                              Array("echo a".utf8) + [0x00] + Array("b".utf8)] {     // NUL
            let expected = try scriptError(line)
            #expect(expected.hasPrefix("<stdin>:1:"), "\(expected)")
            terminal.type(bytes: line + [0x0D])
            // The prompt counts its lines on: the same column and message after the line number.
            let message = String(expected.dropFirst("<stdin>:1".count))
            #expect(terminal.waitFor(message), "\(message) in \(terminal.output.debugDescription)")
        }
        // Nothing was run as Latin-1 or without its NUL.
        #expect(!terminal.output.contains("\r\nab\r\n") && !terminal.output.contains("\u{E9}t\u{E9}\r\n"))
        #expect(terminal.enter("echo still here", expecting: "still here\r\n"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }
}
