import CarFactory
import CarScript

/// `textDocument/documentSymbol`: the document's outline, its definitions (models, options,
/// currencies, variables) and its stock lines (each `car`), in order.
enum DocumentSymbolProvider {
    /// The most symbols an outline lists, the first in the document: a 4 MiB document of
    /// `car` lines answered 82.8 MiB, past the 64 MiB a message may hold (trial 9, 1). LSP has
    /// no mark for an outline cut short; README's "Editor support" tells it.
    static let symbolLimit = 5_000

    /// `DocumentSymbol`s of `document`, at most `symbolLimit`; `commands` names the commands.
    static func symbols(in document: TextDocument, commands: CommandTable) -> JSONValue {
        var symbols: [JSONValue] = []
        for line in ScriptLines.each(document.bytes) {
            for words in line.commands {
                guard symbols.count < symbolLimit else { return .array(symbols) }
                guard let spec = commands.lookup(words[0].text), words.count > 1 else { continue }
                let whole = words[0].range.lowerBound..<words[words.count - 1].range.upperBound
                let add = { (name: String, detail: String, kind: Int, word: LineWord) in
                    symbols.append(
                        .object([
                            "name": .string(name), "detail": .string(detail), "kind": .integer(kind),
                            "range": range(whole, in: document), "selectionRange": range(word.range, in: document)
                        ]))
                }
                switch spec.name {
                case "model": add(words[1].text, "model", 5, words[1])
                case "option" where words.count > 2: add(words[2].text, "\(words[1].text.lowercased()) option", 22, words[2])
                case "currency": add(words[1].text, "currency", 14, words[1])
                case "var": add("$" + words[1].text, "variable", 13, words[1])
                case "car":
                    // As written: a count may be a variable.
                    let count = words.count > 2 ? " × " + String(decoding: document.bytes[words[2].range], as: UTF8.self) : ""
                    add(words[1].text + count, "stock line", 19, words[1])
                default: break
                }
            }
        }
        return .array(symbols)
    }

    private static func range(_ bytes: Range<Int>, in document: TextDocument) -> JSONValue {
        .object(["start": document.position(of: bytes.lowerBound).json, "end": document.position(of: bytes.upperBound).json])
    }
}
