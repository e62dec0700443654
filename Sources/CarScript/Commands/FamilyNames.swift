import CarFactory

/// The JSON keys of the columns `list` and `models` have beside their families' columns: a row
/// holds a defined family's option under the family's name, so a family of one of these names
/// would give a row two values under one key. (`help family` names them too, in its text: made
/// from this list, the command table cost every start-up ~270,000 instructions.)
package let carRowKeys = ["base_price", "car_type", "count", "current", "line", "model", "unit_price"]

/// Why `name` cannot name a family, or nil if it can: `in` starts `in CURRENCY` where a family
/// may stand, `error` starts `expect error` where a family may stand as expect's FIELD, and a
/// row of `list` or `models` has columns of its own under `carRowKeys`.
package func familyNameRefusal(_ name: String) -> String? {
    let key = nameKey(name)
    if key == "in" {
        return "'in' cannot name a family: options, why, fit and cheapest read it as the start of 'in CURRENCY'"
    }
    if key == "error" { return "'error' cannot name a family: expect reads it as the start of 'expect error'" }
    guard carRowKeys.contains(String(key.map { $0 == " " ? "_" : $0 })) else { return nil }
    return "'\(key)' cannot name a family: rows of list or models have a column of that name"
}
