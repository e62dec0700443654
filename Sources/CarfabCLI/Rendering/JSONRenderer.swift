import CarFactory
import CarScript

/// One JSON object per line for each result (on stdout) and each error (on stderr); the schema is in grammar.md.
public final class JSONRenderer: ResultRenderer {
    private let out: Output
    private let err: Output

    /// Writes results to `out` and errors to `err`.
    public init(out: Output, err: Output) {
        self.out = out
        self.err = err
    }

    public var output: Output { out }

    public func receive(_ result: CommandResult, from command: CommandSpec) {
        render(result, command: command)
    }

    public func receive(_ diagnostic: Diagnostic) {
        render(diagnostic)
    }

    public func flush() {
        out.flush()
        err.flush()
    }

    public func render(_ result: CommandResult, command: CommandSpec) {
        // Straight into the output (see JSONWriting.swift); only tables go through `JSONObject`.
        if case .table(let table) = result {
            write(table, command: command)
            return
        }
        out.append(StaticString("{\"type\":\"result\",\"command\":"))
        out.jsonString(command.name)
        switch result {
        case .car(let car):
            let floorplan = car.floorplan
            out.jsonNextKey("model")
            out.jsonString(car.factory.model)
            out.jsonNextKey("car_type")
            out.jsonString(car.carType)
            out.jsonNextKey("seats")
            out.jsonInteger(Int64(floorplan.seats))
            out.jsonNextKey("engine")
            out.jsonString(floorplan.engine.rawValue)
            out.jsonNextKey("suspension")
            out.jsonString(car.suspension.shownAs)
            out.jsonNextKey("drive")
            out.jsonString(car.drivetrain.shownAs)
            out.jsonNextKey("options")
            out.append(0x7B)
            out.jsonKey("floorplan")
            out.jsonString(floorplan.name)
            out.jsonNextKey("suspension")
            out.jsonString(car.suspension.name)
            out.jsonNextKey("drivetrain")
            out.jsonString(car.drivetrain.name)
            for part in car.configuration.others {
                out.append(0x2C)
                out.jsonString(part.familyName)
                out.append(0x3A)
                out.jsonString(part.name)
            }
            out.append(0x7D)
            if !car.configuration.others.isEmpty {
                // Each defined family as it is shown, by its name: `"families":{"paint":"Red"}`.
                out.jsonNextKey("families")
                out.append(0x7B)
                for (position, part) in car.configuration.others.enumerated() {
                    if position > 0 { out.append(0x2C) }
                    out.jsonString(part.familyName)
                    out.append(0x3A)
                    out.jsonString(part.shownAs)
                }
                out.append(0x7D)
            }
            out.jsonNextKey("price")
            out.jsonMoney(car.priceMinorUnits, Self.dollars)
        case .amount(let minorUnits, let valuation):
            out.jsonNextKey("amount")
            out.jsonMoney(minorUnits, valuation.formatter)
        case .total(let count, let value, let valuation):
            out.jsonNextKey("count")
            out.jsonInteger(count)
            out.jsonNextKey("value")
            out.jsonMoney(value, valuation.formatter)
        case .text(let text), .echo(let text), .message(let text):
            out.jsonNextKey("text")
            out.jsonString(text)
        case .help(let page):
            out.jsonNextKey("text")
            out.jsonString(page.text(width: 80))
        case .table:
            break
        }
        out.append(StaticString("}\n"))
        out.flushIfFull()
    }

    public func receive(echo text: Span<UInt8>, from command: CommandSpec) {
        out.append(StaticString("{\"type\":\"result\",\"command\":"))
        out.jsonString(command.name)
        out.jsonNextKey("text")
        text.withUnsafeBufferPointer { out.jsonString($0) }
        out.append(StaticString("}\n"))
        out.flushIfFull()
    }

    /// The base currency's formatter, made once.
    private static let dollars = MoneyFormatter(currency: .base)

    /// A table, written row by row as they are made: a table is never held whole.
    private func write(_ table: Table, command: CommandSpec) {
        // What prints nothing in text prints nothing here (grammar.md §4): a table with no rows
        // and nothing to say of it, as `diff` of the same sessions.
        if table.rowCount == 0 && table.emptyMessage == nil { return }
        var object = JSONObject()
        object.add("type", string: "result")
        object.add("command", string: command.name)
        object.add("rows", raw: "[")
        out.write(object.openText)
        // A stop (Ctrl-C at the prompt, SIGTERM) ends a long table between rows, as in text;
        // the line stays one whole object, which says it was cut short.
        let stopped = { self.out.stopRequested }
        let written = table.forEachRow(until: stopped) { index, cells in
            var item = JSONObject()
            for (column, cell) in zip(table.columns, cells) { item.add(column.key, raw: Self.value(cell, in: table)) }
            out.write(index == 0 ? item.text : "," + item.text)
            out.flushIfFull()
        }
        out.write(written < table.rowCount ? "],\"interrupted\":true}\n" : "]}\n")
    }

    public func render(_ diagnostic: Diagnostic) {
        out.flush()
        err.write(Self.object(of: diagnostic) + "\n")
        err.flush()
    }

    /// `diagnostic` as one JSON object (the schema in grammar.md).
    static func object(of diagnostic: Diagnostic) -> String {
        var object = JSONObject()
        object.add("type", string: "error")
        object.add("id", string: diagnostic.id)
        object.add("severity", string: diagnostic.severity.rawValue)
        object.add("file", string: diagnostic.file)
        object.add("line", raw: String(diagnostic.line))
        object.add("column", raw: String(diagnostic.column))
        object.add("end_column", raw: String(diagnostic.line == 0 ? 0 : diagnostic.endColumn))
        object.add("message", string: diagnostic.message)
        // The source shown, with the column it starts at in the line, so that `column` and
        // `end_column` can be found in it.
        object.add("source", string: diagnostic.source?.text ?? "")
        object.add("source_column", raw: String(diagnostic.source?.startColumn ?? 0))
        object.add("included_from", raw: "[" + diagnostic.includedFrom.map(JSONObject.quote).joined(separator: ",") + "]")
        object.add(
            "notes",
            raw: "["
                + diagnostic.notes.map { note in
                    var item = JSONObject()
                    item.add("message", string: note.message)
                    item.add("place", raw: note.place.map(JSONObject.quote) ?? "null")
                    return item.text
                }.joined(separator: ",") + "]")
        object.add(
            "fixits",
            raw: "["
                + diagnostic.fixIts.map { fix in
                    var item = JSONObject()
                    item.add("column", raw: String(fix.column))
                    item.add("end_column", raw: String(fix.endColumn))
                    item.add("replacement", string: fix.replacement)
                    return item.text
                }.joined(separator: ",") + "]")
        return object.text
    }

    /// `{"currency":"GBP","minor_units":4271930,"amount":"42719.30","formatted":"£42,719.30"}`.
    static func money(_ money: Money) -> String {
        var object = JSONObject()
        object.add("currency", string: money.currency.code)
        object.add("minor_units", raw: String(money.minorUnits))
        object.add("amount", string: plainAmount(money))
        object.add("formatted", string: money.description)
        return object.text
    }

    private static func plainAmount(_ money: Money) -> String {
        let digits = money.currency.digits
        var text = String(money.minorUnits.magnitude)
        if digits > 0 {
            if text.count <= digits { text = String(repeating: "0", count: digits - text.count + 1) + text }
            text.insert(".", at: text.index(text.endIndex, offsetBy: -digits))
        }
        return money.minorUnits < 0 ? "-" + text : text
    }

    private static func value(_ cell: Table.Cell, in table: Table) -> String {
        switch cell {
        case .text(let text): JSONObject.quote(text)
        case .integer(let value): String(value)
        case .money(let amount): money(amount)
        case .amount(let minorUnits): money(table.money(minorUnits))
        case .names(let names): "[" + names.map(JSONObject.quote).joined(separator: ",") + "]"
        case .flag(let on): on ? "true" : "false"
        case .none: "null"
        // A change is written as other numbers and money are: its sign is in the value.
        case .integerChange(let value): String(value)
        case .moneyChange(let amount): money(amount)
        }
    }
}

/// Builds one JSON object's text, keys in the order added.
struct JSONObject {
    private var body = "{"
    private var empty = true

    /// The object so far, closed.
    var text: String { body + "}" }
    /// The object so far, left open (its last value to be completed by the caller).
    var openText: String { body }

    mutating func add(_ key: String, string value: String) {
        add(key, raw: Self.quote(value))
    }

    mutating func add(_ key: String, raw value: String) {
        if !empty { body += "," }
        empty = false
        body += Self.quote(key) + ":" + value
    }

    /// A JSON string literal: quotes, backslashes, control characters (C0, DEL, C1) and the
    /// line breaks U+2028 and U+2029 escaped, byte for byte as `Output.jsonString` writes it.
    static func quote(_ value: String) -> String {
        // The byte writer's own (`Output.writeJSONString`), over the string's bytes: they are
        // counted, then written straight into the string made, with no buffer between. (Most
        // values need no escape: a check of each through `String`'s indices, then a copy
        // between quotes, cost more than the two passes.)
        var value = value
        return value.withUTF8 { bytes in
            var count = 0
            withUnsafeMutablePointer(to: &count) { Output.writeJSONString(bytes, to: JSONByteCount(total: $0)) }
            return String(unsafeUninitializedCapacity: count) { storage in
                var written = 0
                withUnsafeMutablePointer(to: &written) { Output.writeJSONString(bytes, to: JSONBytesFill(storage: storage, written: $0)) }
                return written
            }
        }
    }
}
