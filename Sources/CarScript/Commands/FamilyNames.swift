import CarFactory

/// The JSON keys of the columns `list` and `models` have beside their families' columns: a row
/// holds a defined family's option under the family's name, so a family of one of these names
/// would give a row two values under one key.
package let carRowKeys: Set<String> = ["current", "line", "model", "car_type", "base_price", "count", "unit_price"]

/// Why `name` cannot name a family, or nil if it can: `in` starts `in CURRENCY` where a family
/// may stand, and a row of `list` or `models` has columns of its own under `carRowKeys`.
package func familyNameRefusal(_ name: String) -> String? {
    let key = nameKey(name)
    if key == "in" {
        return "'in' cannot name a family: options, why, fit and cheapest read it as the start of 'in CURRENCY'"
    }
    guard carRowKeys.contains(String(key.map { $0 == " " ? "_" : $0 })) else { return nil }
    return "'\(key)' cannot name a family: rows of list or models have a column of that name"
}
