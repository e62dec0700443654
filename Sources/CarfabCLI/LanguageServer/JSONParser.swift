/// Why a message's body is not JSON: what was wrong and the byte where it was found.
struct JSONParseError: Error, Equatable, Sendable {
    var message: String
    var offset: Int
}

/// A strict JSON reader (RFC 8259) over UTF-8 bytes: one value, nothing after it but
/// blanks; invalid UTF-8, lone surrogates, leading zeros, trailing commas and nesting
/// deeper than `maximumDepth` are errors, never repaired.
struct JSONParser {
    /// How deeply arrays and objects may nest: deep enough for any LSP message, shallow
    /// enough that a hostile `[[[[...` cannot exhaust the stack.
    static let maximumDepth = 128

    private let bytes: [UInt8]
    private var position = 0

    /// Reads the one value `bytes` holds.
    static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw JSONParseError(message: "the message is not valid UTF-8", offset: 0)
        }
        var parser = JSONParser(bytes: bytes)
        parser.skipBlanks()
        let value = try parser.value(depth: 0)
        parser.skipBlanks()
        guard parser.position == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ message: String) -> JSONParseError {
        JSONParseError(message: message, offset: position)
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipBlanks() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    private mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard let byte = current else { throw error("unexpected end of the JSON text") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw error("unexpected character in JSON text")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - position >= expected.count, bytes[position..<position + expected.count].elementsEqual(expected) else {
            throw error("unexpected word in JSON text")
        }
        position += expected.count
    }

    private mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw error("JSON nested more than \(Self.maximumDepth) deep") }
        position += 1
        var members: [JSONMember] = []
        skipBlanks()
        if current == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipBlanks()
            guard current == UInt8(ascii: "\"") else { throw error("expected a string as an object's key") }
            let key = try string()
            skipBlanks()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after an object's key") }
            position += 1
            skipBlanks()
            members.append(JSONMember(key: key, value: try value(depth: depth)))
            skipBlanks()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return .object(members)
            default: throw error("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw error("JSON nested more than \(Self.maximumDepth) deep") }
        position += 1
        var items: [JSONValue] = []
        skipBlanks()
        if current == UInt8(ascii: "]") {
            position += 1
            return .array(items)
        }
        while true {
            skipBlanks()
            items.append(try value(depth: depth))
            skipBlanks()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return .array(items)
            default: throw error("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func digits() -> Int {
        let start = position
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { position += 1 }
        return position - start
    }

    private mutating func number() throws(JSONParseError) -> String {
        let start = position
        if current == UInt8(ascii: "-") { position += 1 }
        if current == UInt8(ascii: "0") {
            position += 1
        } else if digits() == 0 {
            throw error("a number needs digits")
        }
        if current == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw error("a number needs digits after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw error("a number needs digits in its exponent") }
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func string() throws(JSONParseError) -> String {
        position += 1
        // The string's UTF-8, escapes written out, made a String once at its closing quote.
        // (A scalar view appended to run by run grew with the square of the escapes: a
        // document's 300,000 line breaks, each `\n` on the wire, took 13.5 s; trial 4, 3.)
        var utf8: [UInt8] = []
        var runStart = position
        while true {
            guard let byte = current else { throw error("a string is not closed") }
            switch byte {
            case UInt8(ascii: "\""):
                utf8.append(contentsOf: bytes[runStart..<position])
                position += 1
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                utf8.append(contentsOf: bytes[runStart..<position])
                position += 1
                utf8.append(contentsOf: try escape().utf8)
                runStart = position
            case 0..<0x20:
                throw error("a control character in a string must be escaped")
            default:
                position += 1
            }
        }
    }

    private mutating func escape() throws(JSONParseError) -> Unicode.Scalar {
        guard let byte = current else { throw error("a string is not closed") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{8}"
        case UInt8(ascii: "f"): return "\u{C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try hex4()
            if unit >= 0xD800 && unit < 0xDC00 {
                guard current == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") else {
                    throw error("a lone surrogate in a string")
                }
                position += 2
                let low = try hex4()
                guard low >= 0xDC00 && low < 0xE000,
                    let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                else {
                    throw error("a lone surrogate in a string")
                }
                return scalar
            }
            guard let scalar = Unicode.Scalar(unit) else { throw error("a lone surrogate in a string") }
            return scalar
        default: throw error("an unknown escape in a string")
        }
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard bytes.count - position >= 4 else { throw error("'\\u' needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32 =
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
                default: throw error("'\\u' needs four hex digits")
                }
            value = value << 4 | digit
            position += 1
        }
        return value
    }
}
