import CarFactory
import CarScript

/// A table as text: aligned columns, written straight into the output a cell at a time.
///
/// Two passes over the rows, one to measure and one to write, so no row is kept and a table
/// of a million stock lines takes no more memory than one of ten. No cell becomes a
/// `String` on the way: a cell of plain printable ASCII (nearly every one) is its own width
/// in columns and is copied as it is; numbers and amounts are formatted into a few bytes on
/// the stack. Only a cell that needs escaping or holds wider characters goes through
/// `DisplayText`. Made rows (`list`) come into one reused buffer, in groups (a line's
/// configuration) whose fixed cells are measured once and written once, their bytes then
/// copied (`writeMade`). Per stock line this took `list` from 38,800 instructions (33x a
/// `show`) to 9,700 (8.6x), then to 2,800 (2.5x; callgrind, `Scripts/bench instructions`,
/// 10^4 lines).
struct TableText {
    private let table: Table
    /// The amount formatter of the currency last written, kept while the currency is the same.
    private var formatter: MoneyFormatter?

    /// Writes `table` to `out`: a title row, then a row per row; each line's trailing blanks
    /// dropped. Returns how many rows it wrote: fewer than the table's if a stop cut it short.
    @discardableResult
    static func write(_ table: Table, to out: Output) -> Int {
        var text = TableText(table: table)
        return text.write(to: out)
    }

    private init(table: Table) {
        self.table = table
    }

    private mutating func write(to out: Output) -> Int {
        // A copy to read rows from while the cells' writing changes `self` (its formatter).
        let table = self.table
        if table.rowCount == 0 {
            if let message = table.emptyMessage { out.write(DisplayText.escaped(message) + "\n") }
            return 0
        }
        let columns = table.columns
        // A column with no value in any row (seats, when no floorplan is listed) is left out.
        // Widths in columns as the terminal draws them (wide characters two, combining marks none).
        var widths = columns.map { Self.withShown($0.title) { _, width in width } }
        var used = [Bool](repeating: false, count: columns.count)
        if let maker = table.maker {
            // One pass over made rows, each made into one reused buffer; a group's fixed
            // columns are measured at its first row only (a million stock lines of a few
            // configurations measure a few names), the varying ones (numbers) at every row.
            var seen = [Bool](repeating: false, count: maker.groupCount)
            var cells = [Table.Cell](repeating: .none, count: columns.count)
            for index in 0..<maker.count {
                let group = maker.group(index)
                let first = seen.indices.contains(group) ? !seen[group] : true
                if first, seen.indices.contains(group) { seen[group] = true }
                maker.fill(index, &cells, !first)
                for column in cells.indices where first || maker.varying[column] {
                    guard let width = width(of: cells[column]) else { continue }
                    used[column] = true
                    if width > widths[column] { widths[column] = width }
                }
            }
        } else {
            table.forEachRow { _, cells in
                for column in cells.indices {
                    guard let width = width(of: cells[column]) else { continue }
                    used[column] = true
                    if width > widths[column] { widths[column] = width }
                }
            }
        }
        let shown = columns.indices.filter { used[$0] }
        let alignRight = shown.map { columns[$0].alignRight }
        let shownWidths = shown.map { widths[$0] }

        // A title may be a name from a script (a family's, in `models`): escaped as cells are.
        var start = out.waiting
        for (place, column) in shown.enumerated() {
            Self.withShown(columns[column].title) { bytes, width in
                Self.cell(bytes, width: width, in: shownWidths[place], right: alignRight[place], first: place == 0, to: out)
            }
        }
        out.endLine(from: start)
        let layout = Layout(shown: shown, widths: shownWidths, alignRight: alignRight)
        if let maker = table.maker {
            return writeMade(maker, layout, to: out)
        }
        // A stop ends a long table between rows, as `writeMade` does.
        let stopped = { out.stopRequested }
        return table.forEachRow(until: stopped) { _, cells in
            start = out.waiting
            for place in shown.indices { write(cells, at: place, layout, to: out) }
            out.endLine(from: start)
            out.flushIfFull()
        }
    }

    /// The columns shown, in order (a column's place), with their widths and alignment.
    private struct Layout {
        let shown: [Int]
        let widths: [Int]
        let alignRight: [Bool]
    }

    /// Writes the cell of `cells` shown at `place`.
    private mutating func write(_ cells: borrowing [Table.Cell], at place: Int, _ layout: Layout, to out: Output) {
        write(
            cells[layout.shown[place]], in: layout.widths[place], right: layout.alignRight[place], first: place == 0,
            to: out)
    }

    /// The most bytes kept of groups' fixed cells as written: a stock of a few configurations
    /// keeps a few hundred bytes; past this, the rows of further groups are written cell by cell.
    private static let keptBytesLimit = 1 << 20

    /// Writes made rows, keeping for each group (a stock line's configuration) the bytes of its
    /// runs of fixed columns as first written: a later row of the group copies those bytes and
    /// writes only its varying cells (the number, the count), so a million lines of a few
    /// configurations format the names and the price a few times. Padding and the blanks
    /// between cells are part of the kept bytes, so the line is the same byte for byte.
    private mutating func writeMade(_ maker: Table.RowMaker, _ layout: Layout, to out: Output) -> Int {
        // The runs of consecutive shown places whose columns are fixed within a group.
        var runs: [Range<Int>] = []
        var runAt = [Int?](repeating: nil, count: layout.shown.count)
        var place = 0
        while place < layout.shown.count {
            guard !maker.varying[layout.shown[place]] else {
                place += 1
                continue
            }
            var end = place + 1
            while end < layout.shown.count && !maker.varying[layout.shown[end]] { end += 1 }
            runAt[place] = runs.count
            runs.append(place..<end)
            place = end
        }
        var kept = [[[UInt8]]?](repeating: nil, count: maker.groupCount)
        var keptBytes = 0
        var cells = [Table.Cell](repeating: .none, count: maker.varying.count)
        var previous: Int?
        for index in 0..<maker.count {
            // A stop (Ctrl-C at the prompt, SIGTERM) ends a long `list` between rows.
            if out.stopRequested { return index }
            let group = maker.group(index)
            let known = kept.indices.contains(group) ? kept[group] : nil
            // The buffer's fixed cells are read only when the group's bytes are not kept, and
            // then they are the group's own if the row before was of the same group.
            maker.fill(index, &cells, known != nil || group == previous)
            previous = group
            var made: [[UInt8]] = []
            let start = out.waiting
            var place = 0
            while place < layout.shown.count {
                guard let run = runAt[place] else {
                    write(cells, at: place, layout, to: out)
                    place += 1
                    continue
                }
                if let known {
                    known[run].withUnsafeBufferPointer { out.append($0) }
                } else {
                    let runStart = out.waiting
                    for place in runs[run] { write(cells, at: place, layout, to: out) }
                    made.append(out.suffix(from: runStart))
                }
                place = runs[run].upperBound
            }
            if known == nil, kept.indices.contains(group), keptBytes < Self.keptBytesLimit {
                keptBytes += made.reduce(0) { $0 + $1.count }
                kept[group] = made
            }
            out.endLine(from: start)
            out.flushIfFull()
        }
        return maker.count
    }

    /// Writes one cell's `bytes`, `width` columns wide, padded to `columnWidth` on the side
    /// away from its alignment, after the two blanks that part it from the cell before.
    private static func cell(
        _ bytes: UnsafeBufferPointer<UInt8>, width: Int, in columnWidth: Int, right: Bool,
        first: Bool, to out: Output
    ) {
        if !first { out.appendBlanks(2) }
        let padding = max(columnWidth - width, 0)
        if right { out.appendBlanks(padding) }
        out.append(bytes)
        if !right { out.appendBlanks(padding) }
    }

    /// The columns `cell` takes as shown (escaped); nil for no value.
    ///
    /// Names come from scripts: their control characters are shown escaped, so a cell is one
    /// line and cannot drive the terminal.
    private mutating func width(of cell: borrowing Table.Cell) -> Int? {
        switch cell {
        case .text(let text):
            return Self.withShown(text) { _, width in width }
        case .integer(let value):
            return Self.decimalLength(value)
        case .money(let money):
            return withShown(money.minorUnits, in: money.currency) { _, width in width }
        case .amount(let minorUnits):
            return withShown(minorUnits, in: table.currency) { _, width in width }
        case .names(let names):
            return Self.withShown(names.joined(separator: ", ")) { _, width in width }
        case .flag(let on):
            return on ? 1 : 0
        case .none:
            return nil
        case .integerChange, .moneyChange:
            return Self.withShown(cell.signedText ?? "") { _, width in width }
        }
    }

    /// Writes `cell` as shown (escaped) in a column `columnWidth` wide.
    private mutating func write(
        _ cell: borrowing Table.Cell, in columnWidth: Int, right: Bool, first: Bool,
        to out: Output
    ) {
        switch cell {
        case .text(let text):
            Self.withShown(text) { Self.cell($0, width: $1, in: columnWidth, right: right, first: first, to: out) }
        case .integer(let value):
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { room in
                guard let base = room.baseAddress else { return }
                let length = Output.writeDecimal(value, to: base)
                Self.cell(
                    UnsafeBufferPointer(start: base, count: length), width: length, in: columnWidth, right: right,
                    first: first, to: out)
            }
        case .money(let money):
            withShown(money.minorUnits, in: money.currency) {
                Self.cell($0, width: $1, in: columnWidth, right: right, first: first, to: out)
            }
        case .amount(let minorUnits):
            withShown(minorUnits, in: table.currency) {
                Self.cell($0, width: $1, in: columnWidth, right: right, first: first, to: out)
            }
        case .names(let names):
            Self.withShown(names.joined(separator: ", ")) {
                Self.cell($0, width: $1, in: columnWidth, right: right, first: first, to: out)
            }
        case .flag(let on):
            Self.withShown(on ? "*" : "") { Self.cell($0, width: $1, in: columnWidth, right: right, first: first, to: out) }
        case .none:
            Self.cell(
                UnsafeBufferPointer(start: nil, count: 0), width: 0, in: columnWidth, right: right, first: first,
                to: out)
        case .integerChange, .moneyChange:
            Self.withShown(cell.signedText ?? "") {
                Self.cell($0, width: $1, in: columnWidth, right: right, first: first, to: out)
            }
        }
    }

    /// Lends `minorUnits` of `currency` formatted and escaped, and its width in columns, to `body`.
    private mutating func withShown<Result>(
        _ minorUnits: Int64, in currency: Currency, _ body: (UnsafeBufferPointer<UInt8>, Int) -> Result
    ) -> Result {
        let formatter = formatter(for: currency)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: formatter.maximumLength) { room in
            guard let base = room.baseAddress else { return body(UnsafeBufferPointer(start: nil, count: 0), 0) }
            let bytes = UnsafeBufferPointer(start: base, count: formatter.write(minorUnits, to: base))
            if Self.isPlainASCII(bytes) { return body(bytes, bytes.count) }
            return Self.withShown(String(decoding: bytes, as: UTF8.self), body)
        }
    }

    /// How many bytes (and columns) `value` takes in decimal digits, with its sign.
    private static func decimalLength(_ value: Int64) -> Int {
        var rest = value.magnitude
        var digits = value < 0 ? 2 : 1
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        return digits
    }

    /// Lends `text` as shown, escaped, and its width in columns to `body`.
    private static func withShown<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>, Int) -> Result) -> Result {
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes in
            isPlainASCII(bytes) ? body(bytes, bytes.count) : nil
        }
        if let plain, let plain { return plain }
        var copy = text
        return copy.withUTF8 { bytes in
            if isPlainASCII(bytes) { return body(bytes, bytes.count) }
            var shown = DisplayText.escaped(text)
            let width = DisplayText.width(shown)
            return shown.withUTF8 { body($0, width) }
        }
    }

    /// Whether every byte is printable ASCII or a tab, each of which takes one column and
    /// is shown as itself.
    private static func isPlainASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte &- 0x20 >= 0x5F && byte != 0x09 { return false }
        return true
    }

    /// The formatter for `currency`: the one before if it is the same currency.
    private mutating func formatter(for currency: Currency) -> MoneyFormatter {
        if let formatter, formatter.currency == currency { return formatter }
        let made = MoneyFormatter(currency: currency)
        formatter = made
        return made
    }
}
