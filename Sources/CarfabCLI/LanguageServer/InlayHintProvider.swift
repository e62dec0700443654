import CarFactory
import CarScript

/// `textDocument/inlayHint`: after each line with a `car` or `set`, the current car's price
/// the script has reached there (as `hover` on that line tells it).
///
/// The prices come from the document's one pass a logical line at a time (see
/// `DocumentAnalysis.lines(catalog:)`), made once per version of the document.
enum InlayHintProvider {
    /// The `InlayHint`s of the lines from `first` to `last` (0-based) of `analysis`'s document.
    static func hints(in analysis: DocumentAnalysis, lines: ClosedRange<Int>, catalog: Catalog) -> JSONValue {
        let document = analysis.document
        var hints: [JSONValue] = []
        for outcome in analysis.lines(catalog: catalog) {
            let line = outcome.line
            if document.position(of: line.range.lowerBound).line > lines.upperBound { break }
            // The line's end, before the CR of a CR LF (which LSP counts as the line's end, not part of it).
            var endOffset = line.range.upperBound
            if endOffset > line.range.lowerBound && document.bytes[endOffset - 1] == 0x0D { endOffset -= 1 }
            let end = document.position(of: endOffset)
            guard outcome.configures, lines.contains(end.line), let price = outcome.price else { continue }
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
