import Testing

@testable import CarScript

/// The raw buffers' one growth routine, and the owning types that grow by it. Scripts/test runs
/// these under AddressSanitizer too: a buffer grown short, or freed twice, shows there.
@Suite struct RawStorageTests {
    /// Counts its instances alive, to show that growth moves objects rather than copying or dropping them.
    final class Tracked {
        nonisolated(unsafe) static var alive = 0
        let number: Int
        init(_ number: Int) {
            self.number = number
            Self.alive += 1
        }
        deinit { Self.alive -= 1 }
    }

    @Test func growth_doubles_until_it_holds_what_is_needed_and_keeps_what_was_there() {
        var storage = RawStorage.allocate(4, filler: UInt8(7))
        var capacity = 4
        (storage, capacity) = RawStorage.grow(storage, capacity: capacity, moving: 3, toHold: 19, filler: 0, padding: 16)
        #expect(capacity == 32)
        #expect(Array(UnsafeBufferPointer(start: storage, count: 3)) == [7, 7, 7])
        // Past what was moved, the filler, up to the capacity and through the padding.
        #expect(Array(UnsafeBufferPointer(start: storage + 3, count: 29 + 16)).allSatisfy { $0 == 0 })
        // Room enough already: nothing moves.
        let before = storage
        (storage, capacity) = RawStorage.grow(storage, capacity: capacity, moving: 3, toHold: 32)
        #expect(storage == before && capacity == 32)
        storage.deallocate()
    }

    @Test func a_growing_list_moves_its_objects_and_releases_each_once() {
        let aliveBefore = Tracked.alive
        do {
            let list = GrowingList<Tracked>([])
            for number in 0..<1_000 { list.append(Tracked(number)) }
            #expect(list.count == 1_000 && Tracked.alive == aliveBefore + 1_000)
            #expect((0..<1_000).allSatisfy { list[$0].number == $0 })
            list.removeLast(400)
            #expect(list.count == 600 && Tracked.alive == aliveBefore + 600)
            list.append(Tracked(600))
            #expect(list[600].number == 600 && list.all.map(\.number) == Array(0...600))
        }
        #expect(Tracked.alive == aliveBefore)
    }

    @Test func a_growing_list_checks_its_index() async {
        await #expect(processExitsWith: .failure) {
            let list = GrowingList([1, 2])
            _ = list[2]
        }
        await #expect(processExitsWith: .failure) {
            let list = GrowingList([1, 2])
            _ = list[-1]
        }
    }

    @Test func a_dense_table_grows_to_a_far_key_and_reads_the_filler_elsewhere() {
        var table = DenseTable<Int32>(filler: -1, capacity: 2)
        table[1] = 10
        table[5_000] = 20
        #expect(table[1] == 10 && table[5_000] == 20)
        #expect(table[0] == -1 && table[2] == -1 && table[4_999] == -1 && table[5_001] == -1)
        #expect(table[1 << 40] == -1 && table[-3] == -1)
    }

    @Test func a_byte_buffer_grows_by_every_way_of_appending() {
        let buffer = ByteBuffer(capacity: 16)
        var expected: [UInt8] = []
        for round in 0..<200 {
            buffer.append(UInt8(round & 0x7F))
            expected.append(UInt8(round & 0x7F))
            buffer.append(0x2D, count: round % 7)
            expected += Array(repeating: 0x2D, count: round % 7)
            let word = Array("word\(round)".utf8)
            buffer.append(word)
            expected += word
            buffer.write(upTo: 40) { out in
                for index in 0..<3 { out[index] = 0x41 + UInt8(index) }
                return 3
            }
            expected += [0x41, 0x42, 0x43]
        }
        #expect(buffer.array == expected)
        buffer.removeFirst(100)
        #expect(buffer.array == Array(expected[100...]))
    }

    @Test func the_lexer_grows_for_a_long_line_and_for_long_values() throws {
        let lexer = Lexer()
        // More words and more text than its first storage holds (256 of each).
        let words = (0..<2_000).map { "w\($0)" }
        let line = Array(words.joined(separator: " ").utf8)
        _ = try line.withUnsafeBufferPointer { (buffer) throws(ScriptError) in try lexer.tokenize(buffer) }
        #expect(lexer.tokens.count == 2_000)
        #expect((0..<2_000).allSatisfy { lexer.string(lexer.tokens[$0]) == words[$0] })
        // A value put into a word grows the text while the tokens stay where they are.
        let expanding = Array("echo a$v$v".utf8)
        _ = try expanding.withUnsafeBufferPointer { (buffer) throws(ScriptError) in try lexer.tokenize(buffer) }
        let value = String(repeating: "x", count: 5_000)
        try lexer.expand(0..<2) { _ throws(ScriptError) in value }
        #expect(lexer.string(lexer.tokens[0]) == "echo")
        #expect(lexer.string(lexer.tokens[1]) == "a" + value + value)
    }
}
