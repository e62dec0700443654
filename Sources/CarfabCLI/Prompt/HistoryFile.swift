// The history file's format, libedit's own: a `_HiStOrY_V2_` line, then one entry per line
// with blanks, control characters and backslashes written as `\ooo` (libedit's strvis).
// carfab reads and writes it itself, so that it can merge, lock and refuse links; libedit
// (and earlier carfab versions) read what it writes.

enum HistoryFile {
    /// The first line of every libedit history file.
    static let header = Array("_HiStOrY_V2_".utf8)

    /// The entries of a history file, oldest first, as the bytes they hold; nil if `bytes` is not one.
    static func entries(of bytes: [UInt8]) -> [[UInt8]]? {
        if bytes.isEmpty { return [] }
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        guard let first = lines.first, Array(first) == header else { return nil }
        lines.removeFirst()
        if lines.last?.isEmpty == true { lines.removeLast() }
        var entries: [[UInt8]] = []
        entries.reserveCapacity(lines.count)
        for line in lines {
            guard let entry = unescaped(Array(line)) else { return nil }
            entries.append(entry)
        }
        return entries
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

    /// One line decoded as libedit's strunvis does: `\ooo`, `\^X`, `\M-x`, `\M^X`, `\\`; nil if malformed.
    static func unescaped(_ line: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(line.count)
        var i = 0
        func octal(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x37 }
        while i < line.count {
            let byte = line[i]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                i += 1
                continue
            }
            guard i + 1 < line.count else { return nil }
            let next = line[i + 1]
            switch next {
            case UInt8(ascii: "\\"):
                out.append(next)
                i += 2
            case UInt8(ascii: "^"):
                guard i + 2 < line.count else { return nil }
                out.append(control(line[i + 2]))
                i += 3
            case UInt8(ascii: "M"):
                guard i + 3 < line.count else { return nil }
                switch line[i + 2] {
                case UInt8(ascii: "-"): out.append(line[i + 3] | 0x80)
                case UInt8(ascii: "^"): out.append(control(line[i + 3]) | 0x80)
                default: return nil
                }
                i += 4
            case _ where octal(next):
                var value = 0
                var j = i + 1
                while j < line.count && j < i + 4 && octal(line[j]) {
                    value = value * 8 + Int(line[j] - 0x30)
                    j += 1
                }
                guard value <= 0xFF else { return nil }
                out.append(UInt8(value))
                i = j
            default:
                // Other escapes of strvis's C style: the few a history line can hold.
                let known: [UInt8: UInt8] = [UInt8(ascii: "n"): 0x0A, UInt8(ascii: "t"): 0x09, UInt8(ascii: "s"): 0x20,
                                             UInt8(ascii: "r"): 0x0D, UInt8(ascii: "E"): 0x1B]
                guard let value = known[next] else { return nil }
                out.append(value)
                i += 2
            }
        }
        return out
    }

    /// `\^X`: the control character of X (`?` is DEL).
    private static func control(_ byte: UInt8) -> UInt8 {
        byte == UInt8(ascii: "?") ? 0x7F : byte & 0x1F
    }
}
