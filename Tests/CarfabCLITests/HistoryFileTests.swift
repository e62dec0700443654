import Foundation
import Testing

@testable import CarfabCLI

/// The history file is read a block at a time and only its last entries are kept: what comes
/// back is exactly the file's last entries, whatever the blocks, and a malformed line anywhere
/// (kept or not, if not too long to be an entry) still makes it "not a history file".
@Suite struct HistoryFileTests {
    /// `bytes` written to a new file in a temporary folder of its own; the last entries read back.
    private func lastEntries(_ count: Int, of bytes: [UInt8], blockSize: Int = 1 << 16) throws -> [[UInt8]]? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("carfab-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("history").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let file = open(path, O_RDONLY | O_CLOEXEC)
        #expect(file >= 0)
        defer { close(file) }
        return try HistoryFile.lastEntries(count, of: file, atMost: 1 << 30, blockSize: blockSize)
    }

    /// Entries of every kind the format escapes: blanks, tabs, line breaks, backslashes, bytes over 0x7F.
    private func entries(_ count: Int) -> [[UInt8]] {
        (0..<count).map { index in
            var entry = Array("car sports \(index)".utf8)
            if index % 3 == 0 { entry += Array("\techo \"a\\b\"".utf8) }
            if index % 7 == 0 { entry += [0x0A, 0xC3, 0xA9, 0x7F] }
            return entry
        }
    }

    @Test func aHistoryLargerThanTheKeptCountKeepsExactlyItsLastEntries() throws {
        let all = entries(2_500)
        let bytes = HistoryFile.bytes(of: all)
        // Blocks that split lines and escapes anywhere, and one block for the whole file.
        for blockSize in [1, 7, 64, 1 << 16, bytes.count] {
            #expect(try lastEntries(1_000, of: bytes, blockSize: blockSize) == Array(all.suffix(1_000)))
        }
        #expect(try lastEntries(HistoryService.size, of: bytes) == Array(all.suffix(HistoryService.size)))
    }

    @Test func aHistorySmallerThanTheKeptCountKeepsAll() throws {
        let all = entries(10)
        #expect(try lastEntries(1_000, of: HistoryFile.bytes(of: all), blockSize: 5) == all)
    }

    @Test func aMalformedLineAnywhereMakesItNotHistory() throws {
        var lines = HistoryFile.bytes(of: entries(2_000)).split(separator: 0x0A, omittingEmptySubsequences: false)
        // Line 5 is long gone from the last 1,000; it still makes the file not a history file.
        lines[5] = ArraySlice(Array("bad\\".utf8))
        let bytes = Array(lines.joined(separator: [0x0A]))
        #expect(try lastEntries(1_000, of: bytes, blockSize: 3) == nil)
        #expect(try lastEntries(1_000, of: Array("not history\n".utf8)) == nil)
        #expect(try lastEntries(1_000, of: Array("\n".utf8)) == nil)
    }

    /// An entry longer than `HistoryFile.entryLimit` is not kept, and does not take the place of
    /// one that is (trial 3, finding 15: 100 lines of 1 MiB made the prompt start at 200 MB); a
    /// line too long to be an entry kept, whatever its escapes, is passed over unread.
    @Test func entriesLongerThanTheLimitAreNotKept() throws {
        let limit = HistoryFile.entryLimit
        let atLimit = [UInt8](repeating: 0x61, count: limit)
        let controls = [UInt8](repeating: 0x01, count: limit)  // written 4 times as long, \001
        let over = [UInt8](repeating: 0x62, count: limit + 1)
        let huge = [UInt8](repeating: 0x63, count: 4 * limit + 1)  // passed over unread
        let file = HistoryFile.bytes(of: [Array("one".utf8), huge, atLimit, over, controls, huge, Array("two".utf8), over])
        for blockSize in [7, 1000, 1 << 16, file.count] {
            #expect(try lastEntries(3, of: file, blockSize: blockSize) == [atLimit, controls, Array("two".utf8)])
            #expect(try lastEntries(5, of: file, blockSize: blockSize) == [Array("one".utf8), atLimit, controls, Array("two".utf8)])
        }
        // A last line without a line break, too long: passed over too; a first line longer than
        // the header is no history file however it goes on.
        #expect(try lastEntries(2, of: HistoryFile.bytes(of: [Array("one".utf8)]) + huge, blockSize: 4096) == [Array("one".utf8)])
        #expect(try lastEntries(2, of: huge + [0x0A], blockSize: 4096) == nil)
    }

    @Test func theFormsAtItsEdges() throws {
        let header = HistoryFile.header
        #expect(try lastEntries(1_000, of: []) == [])
        #expect(try lastEntries(1_000, of: header) == [])
        #expect(try lastEntries(1_000, of: header + [0x0A]) == [])
        // The last line need not end in a line break; an empty line is an empty entry.
        #expect(try lastEntries(1_000, of: header + Array("\nshow\\040x".utf8), blockSize: 2) == [Array("show x".utf8)])
        #expect(try lastEntries(1_000, of: header + [0x0A, 0x0A]) == [[]])
        #expect(try lastEntries(2, of: header + Array("\na\nb\nc\n".utf8), blockSize: 1) == [[0x62], [0x63]])
    }
}
