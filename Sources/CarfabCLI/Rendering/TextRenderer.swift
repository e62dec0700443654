import CarFactory
import CarScript

/// Plain text for people and scripts: the book's formats, aligned tables, compiler-style diagnostics.
public final class TextRenderer: ResultRenderer {
    private let out: Output
    private let err: Output
    private let color: Bool
    /// The columns results may take (help is wrapped to them): the terminal's, or 80.
    private let width: () -> Int
    /// Shows a long help page through a pager; true if it did (at a terminal only).
    var pager: ((String) -> Bool)?
    /// `show`'s texts, made once per configuration. Unchecked: the dynamic exclusivity check
    /// of this field cost 67 instructions a `show` (callgrind, 20,000 shows).
    @exclusivity(unchecked) private var carTexts = CarTexts()

    /// Writes results to `out` and diagnostics to `err`; `color` only for a terminal; text
    /// laid out for `width` columns.
    public init(out: Output, err: Output, color: Bool = false, width: @escaping () -> Int = { 80 }) {
        self.out = out
        self.err = err
        self.color = color
        self.width = width
    }

    public var output: Output { out }

    /// A diagnostic's source line fits 80 columns, wherever it goes (a terminal's own width
    /// would make the same error read differently from one window to the next).
    public var sourceWindowWidth: Int { 80 }

    public func receive(_ result: CommandResult, from command: CommandSpec) {
        render(result, command: command)
    }

    public func receive(_ diagnostic: Diagnostic) {
        render(diagnostic)
    }

    public func receive(echo text: Span<UInt8>, from command: CommandSpec) {
        // Straight into the output: the words were checked as UTF-8 when the line was read.
        text.withUnsafeBufferPointer { out.append($0) }
        out.append(0x0A)
        out.flushIfFull()
    }

    /// `show`'s car, written (or its text taken from the cache) with no ``CommandResult`` made
    /// and taken apart: 1,173 -> 1,141 instructions a command on set/show (callgrind, 10^5 commands).
    public func receive(car: Car, from command: CommandSpec) {
        carTexts.write(car, to: out, make: Self.write)
        out.flushIfFull()
    }

    public func receive(amount minorUnits: Int64, in valuation: CurrencyValuation, from command: CommandSpec) {
        writeAmount(minorUnits, valuation)
        out.flushIfFull()
    }

    public func receive(total count: Int64, value: Int64, in valuation: CurrencyValuation, from command: CommandSpec) {
        writeTotal(count, value, valuation)
        out.flushIfFull()
    }

    /// `price`'s line.
    @inline(__always)
    private func writeAmount(_ minorUnits: Int64, _ valuation: CurrencyValuation) {
        Self.append(minorUnits, valuation.formatter, plain: valuation.symbolIsPlain, to: out)
    }

    /// `total`'s line.
    @inline(__always)
    private func writeTotal(_ count: Int64, _ value: Int64, _ valuation: CurrencyValuation) {
        out.write(upTo: 20) { Output.writeDecimal(count, to: $0) }
        out.append(count == 1 ? Self.carInStock : Self.carsInStock)
        Self.append(value, valuation.formatter, plain: valuation.symbolIsPlain, to: out)
    }

    /// `car` in the book's format. Names come from scripts: like every name this renderer
    /// shows, they go through `DisplayText`'s one escaping (a name that needs none is written as it is).
    private static func write(_ car: Car, to out: Output) {
        // Piece by piece into the output: no line is made as a string first.
        let floorplan = car.floorplan
        out.append("Car type: ")
        out.write(DisplayText.escaped(car.carType))
        out.append("\nSeats: ")
        out.write(upTo: 20) { Output.writeDecimal(Int64(floorplan.seats), to: $0) }
        out.append("\nEngine: ")
        out.write(floorplan.engine.rawValue)
        out.append("\nSuspension: ")
        out.write(DisplayText.escaped(car.suspension.shownAs))
        out.append("\nDrive: ")
        out.write(DisplayText.escaped(car.drivetrain.shownAs))
        for part in car.configuration.others {
            out.append(0x0A)
            out.write(DisplayText.escaped(Car.familyShownAs(part)))
            out.append(": ")
            out.write(DisplayText.escaped(part.shownAs))
        }
        out.append("\nPrice: ")
        Self.append(car.priceMinorUnits, Self.dollars, to: out)
    }

    /// The base currency's formatter, made once.
    private static let dollars = MoneyFormatter(currency: .base)

    public func flush() {
        out.flush()
        err.flush()
    }

    public func render(_ result: CommandResult, command: CommandSpec) {
        switch result {
        case .car(let car):
            carTexts.write(car, to: out, make: Self.write)
        case .amount(let minorUnits, let valuation):
            writeAmount(minorUnits, valuation)
        case .total(let count, let value, let valuation):
            writeTotal(count, value, valuation)
        case .text(let text):
            // Cut short by a stop, it ends after a whole line already.
            if out.write(inBlocks: text) { out.append(0x0A) }
        case .message(let text):
            out.write(DisplayText.escaped(text))
            out.append(0x0A)
        case .help(let page):
            let text = page.text(width: width()) + "\n"
            out.flush()
            if let pager, pager(text) { break }
            out.write(text)
        case .echo(let text):
            out.write(text)
            out.append(0x0A)
        case .table(let table):
            let written = TableText.write(table, to: out)
            // A stop cut the rows short (Ctrl-C, SIGTERM): said, as a stopped `source` is,
            // so that the rows written are not taken for the whole table (trial 7, 4). Not
            // when the output failed, which stopped it: a reader that went away ends the
            // program quietly (`| head -1`), and any other failure has its own report.
            if written < table.rowCount && !out.failed {
                out.flush()
                err.write("carfab: interrupted: \(command.name) cut short after \(written) of \(table.rowCount) rows\n")
                err.flush()
            }
        }
        out.flushIfFull()
    }

    public func render(_ diagnostic: Diagnostic) {
        // Keep stdout and stderr in order when both go to one place.
        out.flush()
        err.write(Self.text(of: diagnostic, color: color))
        err.flush()
    }

    /// `diagnostic` as carfab writes it on standard error: the place, the message, and the
    /// source line with a marker under the problem; each line ends in a line break.
    package static func text(of diagnostic: Diagnostic, color: Bool = false) -> String {
        var text = ""
        for place in diagnostic.includedFrom { text += "In file included from \(DisplayText.escaped(place)):\n" }
        // Line 0: the problem is with the file as a whole (it could not be read); the message names it.
        let location =
            diagnostic.line == 0
            ? "carfab: "
            : "\(DisplayText.escaped(diagnostic.file)):\(diagnostic.line):\(diagnostic.column): "
        let message = DisplayText.escaped(diagnostic.message)
        let severity = diagnostic.severity.rawValue
        text +=
            color
            ? "\u{1B}[1m\(location)\u{1B}[\(diagnostic.severity == .error ? 31 : 35)m\(severity):\u{1B}[0m\u{1B}[1m \(message)\u{1B}[0m\n"
            : "\(location)\(severity): \(message)\n"
        if diagnostic.line > 0, let source = diagnostic.source {
            text += (source.cutBefore ? "..." : "") + DisplayText.escaped(source.text) + (source.cutAfter ? "..." : "") + "\n"
            let marker = Self.marker(under: source, from: diagnostic.column, to: diagnostic.endColumn)
            text += color ? "\u{1B}[32m\(marker)\u{1B}[0m\n" : marker + "\n"
        }
        for note in diagnostic.notes {
            let place = note.place.map { DisplayText.escaped($0) + ": " } ?? ""
            let message = DisplayText.escaped(note.message)
            text += color ? "\u{1B}[1m\(place)\u{1B}[36mnote:\u{1B}[0m \(message)\n" : "\(place)note: \(message)\n"
        }
        return text
    }

    /// `^~~~` under columns `start..<end` of the line `source` shows, escapes counted at their
    /// width, and tabs kept so the caret lines up under the word.
    static func marker(under source: SourceExcerpt, from start: Int, to end: Int) -> String {
        let scalars = Array(source.text.unicodeScalars)
        let markStart = min(max(start - source.startColumn, 0), scalars.count)
        let markEnd = min(max(end - source.startColumn, markStart), scalars.count)
        var marker = source.cutBefore ? "   " : ""
        for scalar in scalars[0..<markStart] {
            marker += scalar == "\t" ? "\t" : String(repeating: " ", count: DisplayText.width(String(scalar)))
        }
        var shown = String.UnicodeScalarView()
        shown.append(contentsOf: scalars[markStart..<markEnd])
        return marker + "^" + String(repeating: "~", count: max(DisplayText.width(String(shown)), 1) - 1)
    }

    private static var carInStock: StaticString { " Car in Stock. Total Value: " }
    private static var carsInStock: StaticString { " Cars in Stock. Total Value: " }

    /// Writes `minorUnits` formatted, then a line break; `plain` if its symbol is known to need no escape.
    private static func append(_ minorUnits: Int64, _ formatter: MoneyFormatter, plain: Bool? = nil, to out: Output) {
        // A currency's symbol comes from a script too.
        guard plain ?? DisplayText.isPlain(formatter.currency.symbol) else {
            var bytes: [UInt8] = []
            formatter.append(minorUnits, to: &bytes)
            out.write(DisplayText.escaped(String(decoding: bytes, as: UTF8.self)) + "\n")
            return
        }
        out.write(upTo: formatter.maximumLength + 1) { bytes in
            let length = formatter.write(minorUnits, to: bytes)
            bytes[length] = 0x0A
            return length + 1
        }
    }
}
