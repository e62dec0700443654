import CarFactory

/// The JSON keys of the columns `list` and `models` have beside their families' columns: a row
/// holds a defined family's option under the family's name, so a family of one of these names
/// would give a row two values under one key. (`help family` names them too, in its text: made
/// from this list, the command table cost every start-up ~270,000 instructions.)
package let carRowKeys = ["base_price", "car_type", "count", "current", "line", "model", "unit_price"]

/// Why `name` cannot name a family beside `families` (the catalog's), or nil if it can: `in`
/// starts `in CURRENCY` where a family may stand; `error` starts `expect error` and every field
/// of `expect` is read as that field where a family may stand as expect's FIELD; a row of
/// `list` or `models` has columns of its own under `carRowKeys`, and keys each family's column
/// by its name with `_` for blanks, so no two families may have one key (`a b` and `a_b`).
/// A name that is a family's already is left to the catalog (`duplicate-family`).
package func familyNameRefusal(_ name: String, among families: [String]) -> String? {
    let key = nameKey(name)
    if families.contains(where: { nameKey($0) == key }) { return nil }
    if key == "in" {
        return "'in' cannot name a family: options, why, fit and cheapest read it as the start of 'in CURRENCY'"
    }
    if key == "error" { return "'error' cannot name a family: expect reads it as the start of 'expect error'" }
    let column = Table.Column.key(ofTitle: key)
    if carRowKeys.contains(column) { return "'\(key)' cannot name a family: rows of list or models have a column of that name" }
    if ExpectField(rawValue: key) != nil {
        return "'\(key)' cannot name a family: expect reads it as its field '\(key)', not as the family"
    }
    // Names are compared without case, as families are looked up: `A_B` beside `a b` is refused too.
    for family in families where Table.Column.key(ofTitle: nameKey(family)) == column {
        return
            "'\(name)' cannot name a family: rows of list or models would key its column as they key the family '\(family)' ('\(Table.Column.key(ofTitle: family))')"
    }
    return nil
}
