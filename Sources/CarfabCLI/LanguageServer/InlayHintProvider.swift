import CarFactory
import CarScript

/// `textDocument/inlayHint`: after each line with a `car` or `set`, the current car's price
/// the script has reached there (as `hover` on that line tells it).
///
/// One engine runs the document a logical line at a time, for real as far as it can (files
/// read, never written), and the price is read after each line: one pass, not a run per line.
/// A transaction still open at a line's end stays open for the lines after it, as in the
/// session running them.
enum InlayHintProvider {
    /// The `InlayHint`s of the lines from `first` to `last` (0-based) of `analysis`'s document.
    static func hints(in analysis: DocumentAnalysis, lines: ClosedRange<Int>, catalog: Catalog) -> JSONValue {
        let document = analysis.document
        let engine = analysis.session(before: 0, catalog: catalog)
        var hints: [JSONValue] = []
        for line in ScriptLines.read(document.bytes) {
            let start = document.position(of: line.range.lowerBound).line
            if start > lines.upperBound { break }
            engine.evaluate(openLineSource(text: Array(document.bytes[line.range]), name: analysis.name, path: analysis.path))
            let configures = line.commands.contains { words in
                let name = engine.commands.lookup(words[0].text)?.name
                return name == "car" || name == "set"
            }
            let end = document.position(of: line.range.upperBound)
            guard configures, lines.contains(end.line), let price = try? engine.stock.currentPriceMinorUnits() else { continue }
            var position = end
            // After the last word, before any comment, so that the hint sits by the command.
            if line.comment != nil, let last = line.commands.last?.last {
                position = document.position(of: last.range.upperBound)
            }
            hints.append(
                .object([
                    "position": position.json, "label": .string("\(Money.base(price))"), "kind": .integer(1),
                    "tooltip": .string("the current car's price after this line"), "paddingLeft": .bool(true)
                ]))
        }
        return .array(hints)
    }
}
