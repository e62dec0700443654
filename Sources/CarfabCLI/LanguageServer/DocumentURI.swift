/// `file:` URIs and the paths they name (RFC 8089 as editors write them: percent-encoded UTF-8).
enum DocumentURI {
    /// The path a `file:` URI names; nil for another scheme or a malformed escape.
    static func path(of uri: String) -> String? {
        var rest: Substring
        if uri.hasPrefix("file:///") {
            rest = uri.dropFirst("file://".count)
        } else if uri.hasPrefix("file://localhost/") {
            rest = uri.dropFirst("file://localhost".count)
        } else {
            return nil
        }
        if let query = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<query] }
        var bytes: [UInt8] = []
        var utf8 = Array(rest.utf8)[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard utf8.count >= 2, let high = hexValue(utf8[utf8.startIndex]), let low = hexValue(utf8[utf8.startIndex + 1]) else {
                return nil
            }
            utf8 = utf8.dropFirst(2)
            bytes.append(high << 4 | low)
        }
        // A NUL cannot be in a path; a name that is not UTF-8 cannot be one of our documents' text either.
        guard !bytes.contains(0), let path = String(validating: bytes, as: UTF8.self) else { return nil }
        return path
    }

    /// The `file:` URI of an absolute `path`: every byte but unreserved ones and `/` percent-encoded.
    static func uri(of path: String) -> String {
        var uri = "file://"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                uri += "%"
                uri.unicodeScalars.append(hex[Int(byte >> 4)])
                uri.unicodeScalars.append(hex[Int(byte & 15)])
            }
        }
        return uri
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
