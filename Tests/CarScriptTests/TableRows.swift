import CarScript

// The engine tests' one reading of a table result, so that each compares rows as text.

/// A table result's rows, each cell as text: money formatted, other names joined by `|`, a
/// flag as `*`, an empty cell as nothing; no rows for any other result.
func rows(_ result: CommandResult?) -> [[String]] {
    guard case .table(let table) = result else { return [] }
    return table.rows.map { row in
        row.map { cell in
            switch cell {
            case .text(let text): text
            case .integer(let value): String(value)
            case .money(let money): money.description
            case .amount(let minorUnits): table.money(minorUnits).description
            case .names(let names): names.joined(separator: "|")
            case .flag(let on): on ? "*" : ""
            case .none: ""
            case .integerChange, .moneyChange: cell.signedText ?? ""
            }
        }
    }
}
