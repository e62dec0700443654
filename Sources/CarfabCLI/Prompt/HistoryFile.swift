// The history file's format, libedit's own: a `_HiStOrY_V2_` line, then one entry per line
// with blanks, control characters and backslashes written as `\ooo` (libedit's strvis).
// carfab reads and writes it itself, so that it can merge, lock and refuse links; libedit
// (and earlier carfab versions) read what it writes.

import CarfabPOSIX

#if canImport(Glibc)
import Glibc
#endif

enum HistoryFile {
    /// The first line of every libedit history file.
    static let header = Array("_HiStOrY_V2_".utf8)

    /// The most bytes an entry kept may hold: a longer command is neither loaded nor saved, so
    /// that the history's memory is bounded by the entries it keeps (1,000 lines of the 1 MiB
    /// line limit once took 2 GB at every start: kept here, and again in libedit's copy).
    static let entryLimit = 16 << 10

    /// The last `count` entries of the history file open on `file` no longer than
    /// `entryLimit` bytes, oldest first; nil if it is not a history file. Read a block at a
    /// time: the memory it takes is that of the entries kept, not of the file (a 143 MB
    /// history once took 1.24 GB and 4.9 s to load whole), and a longer line is skipped as it
    /// is read, never held whole.
    static func lastEntries(
        _ count: Int, of file: Int32, atMost limit: Int,
        blockSize: Int = 1 << 16, entryLimit: Int = Self.entryLimit
    ) throws(FileReadFailure) -> [[UInt8]]? {
        var info = stat()
        guard fstat(file, &info) == 0 else { throw .system(errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notRegular }
        var reader = LastEntries(keeping: count, entryLimit: entryLimit)
        var block = [UInt8](repeating: 0, count: blockSize)
        var total = 0
        while true {
            let n = block.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .system(errno)
            }
            if n == 0 { return reader.finish() }
            total += n
            if total > limit { throw .tooLarge }
            let good = block.withUnsafeBufferPointer { reader.take(UnsafeBufferPointer(rebasing: $0[..<n])) }
            if !good { return nil }
        }
    }

    /// A history file's entries read piece by piece, the last `keeping` of them kept in a
    /// ring whose slots are reused (no allocation per line once it is full).
    private struct LastEntries {
        private let keeping: Int
        private let entryLimit: Int
        private var ring: [[UInt8]] = []
        /// The slot the next entry takes once the ring is full.
        private var next = 0
        /// The start of a line whose end is in a later piece.
        private var partial: [UInt8] = []
        /// Set while the rest of a line too long to keep is passed over (its start was longer
        /// than any entry kept can be written: 4 bytes for each, `\ooo`).
        private var skipping = false
        private var sawHeader = false
        private var sawAnything = false
        /// Where a line is decoded before it is kept (or only checked).
        private var scratch: [UInt8] = []

        init(keeping: Int, entryLimit: Int) {
            self.keeping = keeping
            self.entryLimit = entryLimit
        }

        /// Takes the next piece of the file; false if it shows the file is not history.
        mutating func take(_ piece: UnsafeBufferPointer<UInt8>) -> Bool {
            if !piece.isEmpty { sawAnything = true }
            var start = 0
            while let end = piece[start...].firstIndex(of: 0x0A) {
                let good: Bool
                if skipping {
                    skipping = false
                    good = true
                } else if partial.isEmpty {
                    good = line(UnsafeBufferPointer(rebasing: piece[start..<end]))
                } else {
                    partial.append(contentsOf: piece[start..<end])
                    good = partial.withUnsafeBufferPointer { line($0) }
                    partial.removeAll(keepingCapacity: true)
                }
                if !good { return false }
                start = end + 1
            }
            if !skipping {
                partial.append(contentsOf: piece[start...])
                // Past what any entry kept can take, the line is not held; nor a first line
                // longer than the header it must be.
                if !sawHeader && partial.count > header.count { return false }
                if partial.count > 4 * entryLimit {
                    partial.removeAll()
                    skipping = true
                }
            }
            return true
        }

        /// The entries kept, oldest first, once the file has ended; nil if it is not history.
        mutating func finish() -> [[UInt8]]? {
            // An empty file has no entries; a last line without a line break is one.
            guard sawAnything else { return [] }
            if !partial.isEmpty || !sawHeader {
                let last = partial
                partial = []
                guard last.withUnsafeBufferPointer({ line($0) }) else { return nil }
            }
            return Array(ring[next...] + ring[..<next])
        }

        /// One whole line: the header first, then an entry.
        private mutating func line(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard sawHeader else {
                sawHeader = true
                return bytes.elementsEqual(header)
            }
            // A line longer than any entry kept can be written is passed over unread.
            guard bytes.count <= 4 * entryLimit else { return true }
            scratch.removeAll(keepingCapacity: true)
            guard HistoryFile.unescape(bytes, into: &scratch) else { return false }
            guard keeping > 0, scratch.count <= entryLimit else { return true }
            // Copied to storage of its own size (the scratch is reserved for the line as
            // written, up to 4 times larger): what the ring holds is what it keeps, doubled at most.
            if ring.count < keeping {
                ring.append(scratch.withUnsafeBufferPointer { Array($0) })
                return true
            }
            ring[next].removeAll(keepingCapacity: true)
            ring[next].append(contentsOf: scratch)
            next = next + 1 == keeping ? 0 : next + 1
            return true
        }
    }

    /// The file holding `entries`, oldest first.
    static func bytes(of entries: [[UInt8]]) -> [UInt8] {
        var bytes = header
        bytes.append(0x0A)
        for entry in entries {
            for byte in entry {
                if byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") {
                    bytes += [UInt8(ascii: "\\"), 0x30 + (byte >> 6), 0x30 + ((byte >> 3) & 7), 0x30 + (byte & 7)]
                } else {
                    bytes.append(byte)
                }
            }
            bytes.append(0x0A)
        }
        return bytes
    }

    /// Appends `line` decoded as libedit's strunvis does (`\ooo`, `\^X`, `\M-x`, `\M^X`, `\\`) to
    /// `out`; false if it is malformed.
    private static func unescape(_ line: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) -> Bool {
        out.reserveCapacity(out.count + line.count)
        var i = 0
        func octal(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x37 }
        while i < line.count {
            let byte = line[i]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                i += 1
                continue
            }
            guard i + 1 < line.count else { return false }
            let next = line[i + 1]
            switch next {
            case UInt8(ascii: "\\"):
                out.append(next)
                i += 2
            case UInt8(ascii: "^"):
                guard i + 2 < line.count else { return false }
                out.append(control(line[i + 2]))
                i += 3
            case UInt8(ascii: "M"):
                guard i + 3 < line.count else { return false }
                switch line[i + 2] {
                case UInt8(ascii: "-"): out.append(line[i + 3] | 0x80)
                case UInt8(ascii: "^"): out.append(control(line[i + 3]) | 0x80)
                default: return false
                }
                i += 4
            case _ where octal(next):
                var value = 0
                var j = i + 1
                while j < line.count && j < i + 4 && octal(line[j]) {
                    value = value * 8 + Int(line[j] - 0x30)
                    j += 1
                }
                guard value <= 0xFF else { return false }
                out.append(UInt8(value))
                i = j
            default:
                // Other escapes of strvis's C style: the few a history line can hold.
                switch next {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "s"): out.append(0x20)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "E"): out.append(0x1B)
                default: return false
                }
                i += 2
            }
        }
        return true
    }

    /// `\^X`: the control character of X (`?` is DEL).
    private static func control(_ byte: UInt8) -> UInt8 {
        byte == UInt8(ascii: "?") ? 0x7F : byte & 0x1F
    }
}
