import Testing

@testable import CarScript

/// A source's input in memory: whole lines lent where they lie, the rest read across refills,
/// and a line over the limit reported once and dropped.
@Suite struct LineChunkTests {
    /// The chunk's search, as a host's `memchr` would find bytes.
    static let search: ByteSearch = { start, byte, count in
        let bytes = UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: count)
        return bytes.firstIndex(of: UInt8(truncatingIfNeeded: byte)).map { UnsafeMutableRawPointer(mutating: start + $0) }
    }

    /// Feeds `pieces` to `chunk` one refill at a time, as a stream source reads.
    final class Feeder {
        var pieces: [[UInt8]]
        init(_ pieces: [String]) { self.pieces = pieces.map { Array($0.utf8) } }
        func more(_ chunk: LineChunk) -> Bool {
            guard !pieces.isEmpty else { return false }
            let piece = pieces.removeFirst()
            return chunk.refill { storage in
                _ = storage.initialize(from: piece)
                return piece.count
            } > 0
        }
    }

    static func text(_ line: UnsafeBufferPointer<UInt8>?) -> String? {
        line.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func whole_lines_are_lent_and_a_line_cut_by_the_chunk_is_read_across_refills() throws {
        let chunk = LineChunk(capacity: 16, search: Self.search)
        let feeder = Feeder(["car suv\nshow\npri", "ce GBP\nlast"])
        #expect(feeder.more(chunk))
        #expect(Self.text(chunk.nextLine()) == "car suv")
        #expect(Self.text(chunk.nextLine()) == "show")
        #expect(Self.text(chunk.lentLine()) == "show")
        // Not whole in memory: nothing lent, nothing taken.
        #expect(chunk.nextLine() == nil)
        let out = ByteBuffer()
        #expect(try chunk.readLine(into: out) { feeder.more(chunk) })
        #expect(out.array == Array("price GBP".utf8))
        // A read forgets the lent line: the chunk under it changed.
        #expect(chunk.lentLine() == nil)
        // The last line, with no line break, is read whole; then the input has ended.
        out.removeAll()
        #expect(try chunk.readLine(into: out) { feeder.more(chunk) })
        #expect(out.array == Array("last".utf8))
        #expect(try !chunk.readLine(into: out) { feeder.more(chunk) })
    }

    @Test func a_line_over_the_limit_is_reported_once_and_its_rest_dropped() throws {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: maximumPhysicalLineLength + 5)
        let chunk = LineChunk(holding: Array("show\n".utf8) + long + Array("\nprice\n".utf8))
        #expect(Self.text(chunk.nextLine()) == "show")
        // Held whole, but over the limit: not lent.
        #expect(chunk.nextLine() == nil)
        let out = ByteBuffer()
        #expect(throws: LineSourceFailure.lineTooLong(limit: maximumLineLength)) {
            try chunk.readLine(into: out) { () throws(LineSourceFailure) in false }
        }
        #expect(out.count == maximumPhysicalLineLength)
        // Its rest is dropped before anything else is lent or read.
        #expect(chunk.nextLine() == nil)
        out.removeAll()
        #expect(try chunk.readLine(into: out) { () throws(LineSourceFailure) in false })
        #expect(out.array == Array("price".utf8))
        #expect(try !chunk.readLine(into: out) { () throws(LineSourceFailure) in false })
    }
}
