import CarFactory
import CarScript

/// `textDocument/inlayHint`: after each line with a `car` or `set`, the current car's price
/// the script has reached there (as `hover` on that line tells it).
///
/// The prices come from the document's one pass a logical line at a time (see
/// `DocumentAnalysis.lines(catalog:)`), made once per version of the document.
enum InlayHintProvider {
    /// The most hints one request answers, the first in its range: hints over a whole 4 MiB
    /// document were 52.6 MiB (trial 9, 1). An editor asks for the lines it shows; LSP has no
    /// mark for hints cut short, and README's "Editor support" tells it.
    static let hintLimit = 5_000

    /// The `InlayHint`s of the lines from `first` to `last` (0-based) of `analysis`'s document, at most `hintLimit`.
    static func hints(in analysis: DocumentAnalysis, lines: ClosedRange<Int>, catalog: Catalog) -> JSONValue {
        let document = analysis.document
        var hints: [JSONValue] = []
        for outcome in analysis.lines(catalog: catalog) {
            if hints.count == hintLimit { break }
            if document.position(of: outcome.range.lowerBound).line > lines.upperBound { break }
            guard outcome.configures, lines.contains(document.position(of: outcome.end).line), let price = outcome.price else { continue }
            let position = document.position(of: outcome.hintOffset)
            hints.append(
                .object([
                    "position": position.json, "label": .string("\(Money.base(price))"), "kind": .integer(1),
                    "tooltip": .string("the current car's price after this line"), "paddingLeft": .bool(true)
                ]))
        }
        return .array(hints)
    }
}
