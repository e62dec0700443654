/// A JSON value as the language server reads and writes it: objects keep their keys in
/// order, numbers keep their text (an id is echoed as the client wrote it).
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number as written, already checked against JSON's grammar.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// A whole number.
    static func integer(_ value: Int) -> JSONValue { .number(String(value)) }

    /// An object from key-value pairs, in order.
    static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { JSONMember(key: $0.key, value: $0.value) })
    }

    /// The member named `key` of an object (the last, if repeated); nil otherwise.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    var string: String? { if case .string(let text) = self { text } else { nil } }
    var array: [JSONValue]? { if case .array(let items) = self { items } else { nil } }
    var isObject: Bool { if case .object = self { true } else { false } }

    /// The value as an `Int`, if it is a whole number that fits.
    var int: Int? {
        guard case .number(let text) = self else { return nil }
        return Int(text)
    }

    /// The value's JSON text, compact.
    var text: String {
        var out = ""
        write(into: &out)
        return out
    }

    func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let text): out += text
        case .string(let text): Self.quote(text, into: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                Self.quote(member.key, into: &out)
                out += ":"
                member.value.write(into: &out)
            }
            out += "}"
        }
    }

    /// A JSON string literal, escaped as carfab's JSON output escapes it (one escaping for both).
    static func quote(_ text: String, into out: inout String) {
        out += JSONObject.quote(text)
    }
}

/// One key and value of a JSON object.
struct JSONMember: Equatable, Sendable {
    var key: String
    var value: JSONValue
}
