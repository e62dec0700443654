/// What a terminal of `rows` x `columns` shows after the bytes a program wrote, for the few
/// sequences libedit writes on an xterm: text (wrapping as xterm does: a character written in
/// the last column leaves the cursor there until the next one), CR, LF, BS, and CSI A B C D
/// (moves), K and J (erase to the end of the line or screen). Other escapes are skipped.
struct TerminalScreen {
    private(set) var lines: [[Character]]
    private let columns: Int
    private var row = 0
    private var column = 0
    /// A character was written in the last column: the next one goes to the next row.
    private var pendingWrap = false

    init(rows: Int, columns: Int, output: String) {
        self.columns = columns
        lines = Array(repeating: Array(repeating: " ", count: columns), count: rows)
        var characters = output.makeIterator()
        while let character = characters.next() {
            switch character {
            case "\r": (column, pendingWrap) = (0, false)
            case "\n": lineFeed()
            case "\r\n":
                (column, pendingWrap) = (0, false)
                lineFeed()
            case "\u{08}": (column, pendingWrap) = (max(column - 1, 0), false)
            case "\u{07}": break
            case "\u{1B}":
                guard characters.next() == "[" else { continue }
                var parameter = ""
                while let next = characters.next() {
                    guard next.isASCII, !next.isLetter else {
                        control(next, Int(parameter) ?? 0)
                        break
                    }
                    parameter.append(next)
                }
            default: put(character)
            }
        }
    }

    /// The screen's lines, trailing blanks dropped.
    var text: [String] {
        lines.map { line in String(line[..<(line.lastIndex { $0 != " " }.map { $0 + 1 } ?? 0)]) }
    }

    private mutating func lineFeed() {
        pendingWrap = false
        if row == lines.count - 1 {
            lines.removeFirst()
            lines.append(Array(repeating: " ", count: columns))
        } else {
            row += 1
        }
    }

    private mutating func put(_ character: Character) {
        if pendingWrap {
            column = 0
            lineFeed()
        }
        lines[row][column] = character
        if column == columns - 1 { pendingWrap = true } else { column += 1 }
    }

    private mutating func control(_ final: Character, _ parameter: Int) {
        let count = max(parameter, 1)
        pendingWrap = false
        switch final {
        case "A": row = max(row - count, 0)
        case "B": row = min(row + count, lines.count - 1)
        case "C": column = min(column + count, columns - 1)
        case "D": column = max(column - count, 0)
        case "K": for place in column..<columns { lines[row][place] = " " }
        case "J":
            for place in column..<columns { lines[row][place] = " " }
            for below in (row + 1)..<lines.count { lines[below] = Array(repeating: " ", count: columns) }
        default: break
        }
    }
}
