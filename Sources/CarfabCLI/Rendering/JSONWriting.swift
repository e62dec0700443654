import CarFactory

// JSON written straight into the output's buffer, piece by piece: no string is made for a
// result and then copied (callgrind: 30,569 instructions a result on the benchmark mix when
// each result was built by String concatenation). What it writes is byte for byte what
// `JSONObject` builds, which diagnostics and tables still use.
extension Output {
    /// `"key":` for a key that needs no escape.
    func jsonKey(_ key: StaticString) {
        append(0x22)
        append(key)
        append(StaticString("\":"))
    }

    /// `,"key":`.
    func jsonNextKey(_ key: StaticString) {
        append(0x2C)
        jsonKey(key)
    }

    /// `text` as a JSON string literal, escaped as `JSONObject.quote` escapes it.
    func jsonString(_ text: String) {
        var text = text
        text.withUTF8 { jsonString($0) }
    }

    /// UTF-8 `bytes` as a JSON string literal.
    func jsonString(_ bytes: UnsafeBufferPointer<UInt8>) {
        Self.writeJSONString(bytes, to: self)
    }

    /// UTF-8 `bytes` as a JSON string literal, into `sink`: the one writer of JSON strings,
    /// for this output and for `JSONObject.quote`, which counts the bytes with it and then
    /// writes them into the string it makes (it took a 68 KB `Output` for each string that
    /// needed an escape). Specialized for each sink, the output's calls are its own.
    @inline(__always)
    static func writeJSONString<Sink: JSONStringSink>(_ bytes: UnsafeBufferPointer<UInt8>, to sink: Sink) {
        sink.append(0x22)
        var plainFrom = 0
        var index = 0
        while index < bytes.count {
            // Most bytes are plain: one comparison chain, no look at the next bytes.
            guard mayBeEscaped(bytes[index]) else {
                index += 1
                continue
            }
            let length = escapedLength(bytes, at: index)
            guard length > 0 else {
                index += 1
                continue
            }
            sink.append(UnsafeBufferPointer(rebasing: bytes[plainFrom..<index]))
            switch length {
            case 1: appendEscape(bytes[index], to: sink)
            // C2 80 ... C2 9F: U+0080 ... U+009F, whose code is the second byte.
            case 2: appendEscape(bytes[index + 1], to: sink)
            default: sink.append(bytes[index + 2] == 0xA8 ? StaticString("\\u2028") : StaticString("\\u2029"))
            }
            index += length
            plainFrom = index
        }
        sink.append(UnsafeBufferPointer(rebasing: bytes[plainFrom...]))
        sink.append(0x22)
    }

    /// Whether `byte` may begin what a JSON string writes escaped (see `escapedLength`).
    @inline(__always)
    static func mayBeEscaped(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xC2 || byte == 0xE2
    }

    /// How many bytes from `index` on a JSON string writes escaped (0: none): quotes,
    /// backslashes and the control characters (C0, DEL and C1, U+0080 ... U+009F, of which
    /// U+009B is an 8-bit CSI some terminals act on: trial 7, 6), and the line breaks U+2028
    /// and U+2029, which JSON allows raw but which end a line for many readers of JSON lines
    /// (Python's `splitlines`, JavaScript before ES2019; trial 5, 5), as U+0085 does. The one
    /// definition for the byte writer, the in-place check and `JSONObject.quote`.
    @inline(__always)
    static func escapedLength<Bytes: Collection<UInt8>>(_ bytes: Bytes, at index: Bytes.Index) -> Int {
        let byte = bytes[index]
        if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F { return 1 }
        guard byte == 0xC2 || byte == 0xE2 else { return 0 }
        let next = bytes.index(after: index)
        guard next != bytes.endIndex else { return 0 }
        // C2 80 ... C2 9F; C2 A0 ... C2 BF (no-break space, ©, ...) stay raw.
        if byte == 0xC2 { return bytes[next] & 0xE0 == 0x80 ? 2 : 0 }
        let third = bytes.index(after: next)
        guard bytes[next] == 0x80, third != bytes.endIndex, bytes[third] == 0xA8 || bytes[third] == 0xA9 else { return 0 }
        return 3
    }

    private static func appendEscape<Sink: JSONStringSink>(_ byte: UInt8, to sink: Sink) {
        switch byte {
        case 0x22: sink.append(StaticString("\\\""))
        case 0x5C: sink.append(StaticString("\\\\"))
        case 0x0A: sink.append(StaticString("\\n"))
        case 0x09: sink.append(StaticString("\\t"))
        case 0x0D: sink.append(StaticString("\\r"))
        default:
            let hex: StaticString = "0123456789abcdef"
            sink.append(StaticString("\\u00"))
            sink.append(hex.utf8Start[Int(byte >> 4)])
            sink.append(hex.utf8Start[Int(byte & 0x0F)])
        }
    }

    /// A whole number, in decimal digits.
    func jsonInteger(_ value: Int64) {
        write(upTo: 20) { Output.writeDecimal(value, to: $0) }
    }

    /// `{"currency":"GBP","minor_units":4271930,"amount":"42719.30","formatted":"£42,719.30"}`.
    func jsonMoney(_ minorUnits: Int64, _ formatter: MoneyFormatter) {
        let currency = formatter.currency
        append(0x7B)
        jsonKey("currency")
        jsonString(currency.code)
        jsonNextKey("minor_units")
        jsonInteger(minorUnits)
        jsonNextKey("amount")
        append(0x22)
        write(upTo: 24 + currency.digits) { Output.writePlainAmount(minorUnits, digits: currency.digits, to: $0) }
        append(0x22)
        jsonNextKey("formatted")
        // Formatted in place; a symbol that needs escaping (one a script defined) is written again, escaped.
        append(0x22)
        let start = waiting
        write(upTo: formatter.maximumLength) { formatter.write(minorUnits, to: $0) }
        if hasEscapable(from: start) {
            let text = suffix(from: start)
            removeWaiting(from: start - 1)
            text.withUnsafeBufferPointer { jsonString($0) }
        } else {
            append(0x22)
        }
        append(0x7D)
    }

    /// Writes `value` in decimal digits (at most 20 bytes with the sign); returns how many.
    ///
    /// Two digits at a time, from a table of the hundred pairs (`total`'s count, one digit at a
    /// time, cost ~95 instructions; five digits now cost ~50).
    static func writeDecimal(_ value: Int64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var rest = value.magnitude
        var digits = 1
        var scan = rest
        while scan >= 100 {
            scan /= 100
            digits &+= 2
        }
        if scan >= 10 { digits &+= 1 }
        let sign = value < 0 ? 1 : 0
        if sign == 1 { out[0] = UInt8(ascii: "-") }
        let pairs = digitPairs.utf8Start
        // At most 20 digits and a sign: positions cannot overflow.
        var position = sign &+ digits
        while rest >= 100 {
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            out[position &- 1] = pairs[pair &+ 1]
            out[position &- 2] = pairs[pair]
            position &-= 2
        }
        if rest >= 10 {
            let pair = Int(truncatingIfNeeded: rest) &* 2
            out[position &- 1] = pairs[pair &+ 1]
            out[position &- 2] = pairs[pair]
        } else {
            out[position &- 1] = UInt8(truncatingIfNeeded: rest) &+ 0x30
        }
        return sign &+ digits
    }

    /// "00" to "99", each pair at twice its value.
    private static var digitPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }

    /// `minorUnits` as a plain decimal with `digits` decimals (`42719.30`, `-0.05`, `10726200`).
    private static func writePlainAmount(_ minorUnits: Int64, digits: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var rest = minorUnits.magnitude
        var count = 1
        var scan = rest
        while scan >= 10 {
            scan /= 10
            count += 1
        }
        // At least one digit before the point.
        if digits > 0 && count <= digits { count = digits + 1 }
        let sign = minorUnits < 0 ? 1 : 0
        if sign == 1 { out[0] = UInt8(ascii: "-") }
        let length = sign + count + (digits > 0 ? 1 : 0)
        var position = length
        var written = 0
        while position > sign {
            position -= 1
            if digits > 0 && written == digits {
                out[position] = UInt8(ascii: ".")
                written += 1
                continue
            }
            out[position] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
            rest /= 10
            written += 1
        }
        return length
    }
}

/// Where `Output.writeJSONString` puts a JSON string's bytes: an output, or (for
/// `JSONObject.quote`) a count of them, then the string's own storage. Passed by value (a
/// sink passed `inout` was retained around each append: +50 instructions an `echo` in JSON).
protocol JSONStringSink {
    func append(_ bytes: UnsafeBufferPointer<UInt8>)
    func append(_ byte: UInt8)
}

extension JSONStringSink {
    /// Appends a literal's bytes.
    func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}

extension Output: JSONStringSink {}

/// Counts the bytes of a JSON string into `total` instead of writing them.
struct JSONByteCount: JSONStringSink {
    let total: UnsafeMutablePointer<Int>
    func append(_ bytes: UnsafeBufferPointer<UInt8>) { total.pointee += bytes.count }
    func append(_ byte: UInt8) { total.pointee += 1 }
}

/// Writes a JSON string into `storage`, counted for it by `JSONByteCount`, `written` bytes so far.
/// The count and the writing go through the one `writeJSONString`, so they agree; the bounds
/// are checked in release builds all the same (a pointer's subscript checks only in debug).
struct JSONBytesFill: JSONStringSink {
    let storage: UnsafeMutableBufferPointer<UInt8>
    let written: UnsafeMutablePointer<Int>

    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        let at = written.pointee
        precondition(bytes.count <= storage.count - at, "a JSON string wrote past its count")
        written.pointee = at + UnsafeMutableBufferPointer(rebasing: storage[at...]).initialize(fromContentsOf: bytes)
    }

    func append(_ byte: UInt8) {
        let at = written.pointee
        precondition(at < storage.count, "a JSON string wrote past its count")
        storage[at] = byte
        written.pointee = at + 1
    }
}
