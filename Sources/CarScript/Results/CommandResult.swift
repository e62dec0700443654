import CarFactory

/// What a command produced, as owned values: kept after the evaluation, rendered as text or JSON.
public enum CommandResult: Sendable {
    /// A car in the book's format (`show`).
    case car(Car)
    /// One amount (`price`), in minor units of the valuation's currency.
    case amount(Int64, CurrencyValuation)
    /// The stock total (`total`): cars, and their value in minor units of the valuation's currency.
    case total(count: Int64, value: Int64, CurrencyValuation)
    /// Plain text, one or more lines (`save -`).
    case text(String)
    /// A help page, laid out for the output's width.
    case help(HelpPage)
    /// Words joined by single spaces (`echo`).
    case echo(String)
    /// Rows of named columns (`list`, `models`, `parts`, `currencies`, `vars`).
    case table(Table)
}

/// Rows under named columns; cells keep raw values so JSON can show them unformatted.
public struct Table: Sendable {
    /// A column: its title, its JSON key, and whether it lines up on the right.
    public struct Column: Sendable {
        /// The heading text output shows.
        public let title: String
        /// The key of the column's values in JSON output.
        public let key: String
        /// Whether values line up on the right (numbers, amounts).
        public let alignRight: Bool

        /// A column titled `title`; the JSON key defaults to the title with `_` for blanks.
        package init(_ title: String, key: String? = nil, alignRight: Bool = false) {
            self.title = title
            self.key = key ?? title.replacingBlanks()
            self.alignRight = alignRight
        }
    }

    /// One value.
    public enum Cell: Sendable {
        /// Text, shown as it is (escaped for a terminal).
        case text(String)
        /// A whole number.
        case integer(Int64)
        /// An amount with its currency.
        case money(Money)
        /// A list of names (an option's other names).
        case names([String])
        /// Yes or no.
        case flag(Bool)
        /// No value (a floorplan's seats on a suspension row).
        case none
    }

    /// The columns.
    public var columns: [Column]
    /// What text output says when there are no rows.
    public var emptyMessage: String?
    /// Rows added one by one.
    private var stored: [[Cell]] = []
    /// Rows made when asked for, so that a table of a million stock lines is never held whole.
    private var made: (count: Int, row: @Sendable (Int) -> [Cell])?

    /// A table with `columns` and no rows.
    package init(_ columns: [Column], emptyMessage: String? = nil) {
        self.columns = columns
        self.emptyMessage = emptyMessage
    }

    /// A table with `columns` and `count` rows, row `i` made by `row(i)` each time it is asked for.
    package init(_ columns: [Column], emptyMessage: String? = nil, count: Int, row: @escaping @Sendable (Int) -> [Cell]) {
        self.init(columns, emptyMessage: emptyMessage)
        made = (count, row)
    }

    /// How many rows it has.
    public var rowCount: Int { made?.count ?? stored.count }

    /// Row `index`, one cell per column.
    public func row(_ index: Int) -> [Cell] {
        made.map { $0.row(index) } ?? stored[index]
    }

    /// Every row (made all at once: for small tables).
    public var rows: [[Cell]] { (0..<rowCount).map(row) }

    /// Adds a row.
    package mutating func append(_ row: [Cell]) {
        precondition(made == nil, "rows are added to a table of stored rows only")
        stored.append(row)
    }
}

extension String {
    fileprivate func replacingBlanks() -> String {
        String(map { $0 == " " ? "_" : $0 })
    }
}
