// Text from a script shown to a person: control characters, invisible format characters and
// noncharacters (the one set `save` escapes too) are written as escapes (`\n`, `\e`, `\x00`,
// `\u{202E}`), so a name or a source line can neither break a diagnostic over lines nor drive
// the terminal (colours, cursor moves, right-to-left overrides) nor pass for another name.

package enum DisplayText {
    /// `text` with every character a terminal would act on instead of showing written as an escape.
    package static func escaped(_ text: String) -> String {
        // Most text needs nothing: keep it as it is.
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if let escape = escape(scalar) { result += escape } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    /// Whether `text` is shown as it is: nothing in it needs an escape.
    package static func isPlain(_ text: String) -> Bool {
        !text.unicodeScalars.contains(where: needsEscape)
    }

    /// How many columns `text` takes once escaped, as a terminal draws it (a tab counts as
    /// one; it stays a tab): wide characters take two, combining marks none.
    package static func width(_ text: String) -> Int {
        var width = 0
        for scalar in text.unicodeScalars {
            width += escape(scalar)?.count ?? columns(of: scalar)
        }
        return width
    }

    /// `text` (already escaped) followed by blanks up to `width` columns.
    package static func padded(_ text: String, toWidth width: Int) -> String {
        text + String(repeating: " ", count: max(width - Self.width(text), 0))
    }

    /// The columns a terminal gives `scalar` shown as itself, as the C library's `wcwidth`
    /// says (from the table generated from it): 0, 1 or 2.
    package static func columns(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return 1 }
        if contains(value, zeroWidth) { return 0 }
        if value >= 0x1100 && contains(value, doubleWidth) { return 2 }
        return 1
    }

    /// Whether `value` falls in one of `ranges` (sorted, closed, apart).
    private static func contains(_ value: UInt32, _ ranges: [(UInt32, UInt32)]) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].1 < value { low = middle + 1 } else { high = middle }
        }
        return low < ranges.count && ranges[low].0 <= value
    }

    /// A name as a message quotes it: one longer than 64 characters is cut to its first 60 and `...`.
    package static func quotedName(_ name: String) -> String {
        name.count <= 64 ? name : name.prefix(60) + "..."
    }

    /// Already-escaped `text` cut to at most `width` columns, `...` marking the cut.
    package static func cut(_ text: String, toWidth limit: Int) -> String {
        let width = limit
        guard Self.width(text) > width else { return text }
        var result = String.UnicodeScalarView()
        var used = 0
        for scalar in text.unicodeScalars {
            let next = escape(scalar)?.count ?? columns(of: scalar)
            if used + next > max(width - 3, 0) { break }
            result.append(scalar)
            used += next
        }
        return String(result) + String("...".prefix(max(width - used, 0)))
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        escape(scalar) != nil
    }

    /// The escape shown for `scalar`, or nil if it is shown as itself.
    private static func escape(_ scalar: Unicode.Scalar) -> String? {
        let value = scalar.value
        switch value {
        case 0x20..<0x7F, 0x09: return nil
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x1B: return "\\e"
        case 0x00..<0x20, 0x7F:
            return "\\x" + hex(value, digits: 2)
        default:
            return isHidden(scalar) ? "\\u{" + hex(value, digits: 4) + "}" : nil
        }
    }

    /// Whether `scalar` is one a terminal would obey or hide, or a reader could mistake for a
    /// line break: C0 and C1 controls and DEL, format characters (bidi controls, zero-width
    /// ones, the byte-order mark, the soft hyphen, tags), line and paragraph separators, and
    /// noncharacters (U+FFFE). The one set: `save` writes these as `\u{...}` in a quoted word,
    /// messages and tables show them as escapes.
    package static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
        if value < 0xA0 { return false }
        if (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE { return true }
        switch scalar.properties.generalCategory {
        case .format, .lineSeparator, .paragraphSeparator, .control: return true
        default: return false
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
