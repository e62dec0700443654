import CarFactory

/// What a command produced; renderers turn it into text or JSON.
public enum CommandResult {
    /// A car in the book's format (`show`).
    case car(Car)
    /// One amount (`price`), in minor units of the valuation's currency.
    case amount(Int64, CurrencyValuation)
    /// The stock total (`total`): cars, and their value in minor units of the valuation's currency.
    case total(count: Int64, value: Int64, CurrencyValuation)
    /// Plain text, one or more lines (`echo`, `help`).
    case text(String)
    /// Rows of named columns (`list`, `models`, `parts`, `currencies`, `services`).
    case table(Table)
}

/// Rows under named columns; cells keep raw values so JSON can show them unformatted.
public struct Table {
    /// A column: its title, its JSON key, and whether it lines up on the right.
    public struct Column {
        public let title: String
        public let key: String
        public let alignRight: Bool

        /// A column titled `title`; the JSON key defaults to the title with `_` for blanks.
        public init(_ title: String, key: String? = nil, alignRight: Bool = false) {
            self.title = title
            self.key = key ?? title.replacingBlanks()
            self.alignRight = alignRight
        }
    }

    /// One value.
    public enum Cell {
        case text(String)
        case integer(Int64)
        case money(Money)
        case names([String])
        case flag(Bool)
        /// No value (a floorplan's seats on a suspension row).
        case none
    }

    /// The columns.
    public var columns: [Column]
    /// The rows, each with one cell per column.
    public var rows: [[Cell]] = []
    /// What text output says when there are no rows.
    public var emptyMessage: String?

    /// A table with `columns` and no rows.
    public init(_ columns: [Column], emptyMessage: String? = nil) {
        self.columns = columns
        self.emptyMessage = emptyMessage
    }
}

extension String {
    fileprivate func replacingBlanks() -> String {
        String(map { $0 == " " ? "_" : $0 })
    }
}
