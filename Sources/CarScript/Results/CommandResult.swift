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
    /// A sentence that quotes names from the script (`why`, `fit`): text output escapes it as
    /// it escapes a diagnostic's message; JSON carries it as it is.
    case message(String)
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

        /// The JSON key of a column titled `title` that names none: the title with `_` for blanks.
        package static func key(ofTitle title: String) -> String {
            String(title.map { $0 == " " ? "_" : $0 })
        }

        /// A column titled `title`; the JSON key defaults to the title with `_` for blanks.
        public init(_ title: String, key: String? = nil, alignRight: Bool = false) {
            self.title = title
            self.key = key ?? Self.key(ofTitle: title)
            self.alignRight = alignRight
        }
    }

    /// One value.
    public enum Cell: Sendable {
        /// Text, shown as it is (escaped for a terminal).
        case text(String)
        /// A whole number.
        case integer(Int64)
        /// An amount with its currency. (Boxed, as `moneyChange` is: a currency's strings and
        /// rate inline made every cell as large, and every copy and overwrite of one, even an
        /// integer's, went through them: `list` cost 2,515 instructions a row, 3.2x a `show`;
        /// boxed, 1,853, 2.3x.)
        indirect case money(Money)
        /// An amount in minor units of the table's `currency`: copied without retaining anything,
        /// for tables of a row per stock line.
        case amount(Int64)
        /// A list of names (an option's other names).
        case names([String])
        /// Yes or no.
        case flag(Bool)
        /// No value (a floorplan's seats on a suspension row).
        case none
        /// A change in a whole number: text shows it with its sign (`+1`), JSON as a number.
        case integerChange(Int64)
        /// A change in an amount: text shows it with its sign (`+$2,500.00`), JSON as money.
        indirect case moneyChange(Money)

        /// How text output shows a change: with its sign, `+` included; nil for any other cell.
        package var signedText: String? {
            switch self {
            case .integerChange(let value): (value < 0 ? "" : "+") + String(value)
            case .moneyChange(let money): (money.minorUnits < 0 ? "" : "+") + money.description
            default: nil
            }
        }
    }

    /// Rows made when asked for, each into a buffer of cells its reader reuses.
    ///
    /// Rows fall in groups (a stock line's configuration): rows of one group have the same
    /// cells in every column but the `varying` ones, so a reader that has seen a group asks
    /// only for those, and a renderer can measure a million rows of a few configurations once
    /// per configuration.
    package struct RowMaker: Sendable {
        /// How many rows.
        package let count: Int
        /// How many groups; every row's group is below it.
        package let groupCount: Int
        /// Whether each column's cells vary within a group.
        package let varying: [Bool]
        /// Row `index`'s group.
        package let group: @Sendable (Int) -> Int
        /// Writes row `index`'s cells into `cells` (one per column, in place); when the flag is
        /// set, only the `varying` columns are read afterwards and the others may be left as they are.
        package let fill: @Sendable (_ index: Int, _ cells: inout [Cell], _ varyingOnly: Bool) -> Void

        /// A maker of `count` rows in `groupCount` groups.
        package init(
            count: Int, groupCount: Int, varying: [Bool], group: @escaping @Sendable (Int) -> Int,
            fill: @escaping @Sendable (_ index: Int, _ cells: inout [Cell], _ varyingOnly: Bool) -> Void
        ) {
            self.count = count
            self.groupCount = groupCount
            self.varying = varying
            self.group = group
            self.fill = fill
        }
    }

    /// The columns.
    public var columns: [Column]
    /// What text output says when there are no rows.
    public var emptyMessage: String?
    /// The currency of `.amount` cells.
    public var currency: Currency = .base
    /// Rows added one by one.
    private var stored: [[Cell]] = []
    /// Rows made when asked for, so that a table of a million stock lines is never held whole.
    package private(set) var maker: RowMaker?

    /// A table with `columns` and no rows.
    public init(_ columns: [Column], emptyMessage: String? = nil) {
        self.columns = columns
        self.emptyMessage = emptyMessage
    }

    /// A table with `columns` whose rows `maker` makes each time they are asked for.
    package init(_ columns: [Column], emptyMessage: String? = nil, rows maker: RowMaker) {
        precondition(maker.varying.count == columns.count, "a row maker says of every column whether it varies")
        self.init(columns, emptyMessage: emptyMessage)
        self.maker = maker
    }

    /// How many rows it has.
    public var rowCount: Int { maker?.count ?? stored.count }

    /// Row `index`, one cell per column.
    public func row(_ index: Int) -> [Cell] {
        guard let maker else { return stored[index] }
        var cells = [Cell](repeating: .none, count: columns.count)
        maker.fill(index, &cells, false)
        return cells
    }

    /// Lends each row in order to `body`, made into one buffer reused from row to row.
    public func forEachRow(_ body: (_ index: Int, _ cells: borrowing [Cell]) -> Void) {
        forEachRow(until: { false }, body)
    }

    /// Lends each row in order to `body`, as `forEachRow`, until `stopped` says so before a
    /// row (a stop signal ends a long table between rows); returns how many rows it lent.
    @discardableResult
    public func forEachRow(until stopped: () -> Bool, _ body: (_ index: Int, _ cells: borrowing [Cell]) -> Void) -> Int {
        guard let maker else {
            for index in stored.indices {
                if stopped() { return index }
                body(index, stored[index])
            }
            return stored.count
        }
        // A row of the same group as the row before changes only in its varying columns.
        var cells = [Cell](repeating: .none, count: columns.count)
        var previous: Int?
        for index in 0..<maker.count {
            if stopped() { return index }
            let group = maker.group(index)
            maker.fill(index, &cells, group == previous)
            previous = group
            body(index, cells)
        }
        return maker.count
    }

    /// Every row (made all at once: for small tables).
    public var rows: [[Cell]] { (0..<rowCount).map(row) }

    /// Adds a row.
    public mutating func append(_ row: [Cell]) {
        precondition(maker == nil, "rows are added to a table of stored rows only")
        stored.append(row)
    }

    /// `.amount(minorUnits)` as the amount it stands for.
    public func money(_ minorUnits: Int64) -> Money {
        Money(minorUnits: minorUnits, currency: currency)
    }
}
