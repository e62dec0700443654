import CarFactory
import CarScript

/// `textDocument/semanticTokens/full`: each word coloured by what the engine reads it as,
/// from its lexer (`ScriptLines`) and the command table's argument kinds.
enum SemanticTokensProvider {
    /// The token types, in the order of their numbers.
    static let tokenTypes = ["function", "keyword", "enumMember", "number", "string", "comment", "variable"]
    /// The modifiers: bit 0 marks a definition.
    static let tokenModifiers = ["declaration"]

    private enum TokenType: Int {
        case command, keyword, name, number, string, comment, variable
    }

    /// The most tokens answered, the first in the document (some 50,000 lines of commands; the
    /// rest is left uncoloured): a 4 MiB document's were 7.3 MiB, and each token took some 100
    /// bytes while it was answered (trial 9, 1). LSP has no mark for tokens cut short; README's
    /// "Editor support" tells it.
    static let tokenLimit = 100_000

    /// The `SemanticTokens` of `document`, at most `tokenLimit`, its names read with `catalog` (the one the document builds).
    static func tokens(in document: TextDocument, commands: CommandTable, catalog: Catalog) -> JSONValue {
        var tokens: [(range: Range<Int>, type: TokenType, declaration: Bool)] = []
        for line in ScriptLines.each(document.bytes) {
            // A line's tokens are taken whole; those past the limit are dropped below.
            if tokens.count >= tokenLimit { break }
            for words in line.commands {
                let roles = ScriptIndex.roles(of: words, in: document.bytes, commands: commands, catalog: catalog)
                let names = commandNames(in: words, commands: commands)
                for (index, word) in words.enumerated() {
                    let raw = document.bytes[word.range]
                    if names.contains(index) {
                        if commands.lookup(word.text) != nil { tokens.append((word.range, .command, false)) }
                        continue
                    }
                    if raw.first == UInt8(ascii: "\"") {
                        tokens.append((word.range, .string, false))
                        continue
                    }
                    let references = ScriptIndex.variableReferences(in: Array(raw))
                    if !references.isEmpty {
                        for (range, _) in references {
                            // From the `$` (and `{`) to the name's end (and `}`).
                            let braced = range.lowerBound >= 2 && raw[raw.startIndex + range.lowerBound - 1] == UInt8(ascii: "{")
                            let start = word.range.lowerBound + range.lowerBound - (braced ? 2 : 1)
                            tokens.append((start..<(word.range.lowerBound + range.upperBound + (braced ? 1 : 0)), .variable, false))
                        }
                        continue
                    }
                    switch roles[index] {
                    case .model(let defines), .currency(let defines): tokens.append((word.range, .name, defines))
                    case .option(_, let defines, _): tokens.append((word.range, .name, defines))
                    case .family(let defines): tokens.append((word.range, .name, defines))
                    case .variable: tokens.append((word.range, .variable, true))
                    case .keyword: tokens.append((word.range, .keyword, false))
                    case .file: tokens.append((word.range, .string, false))
                    case .other:
                        if isNumber(raw) { tokens.append((word.range, .number, false)) }
                    }
                }
            }
            if let comment = line.comment { tokens.append((comment, .comment, false)) }
        }
        // Relative positions in UTF-16 units; a token that spans lines is left out (LSP's clients draw none).
        var data: [JSONValue] = []
        var previous = TextPosition(line: 0, character: 0)
        // The tokens come in order: each position is counted on from the one before it.
        var known = (offset: 0, position: TextPosition(line: 0, character: 0))
        for token in tokens {
            if data.count == 5 * tokenLimit { break }
            let start = document.position(of: token.range.lowerBound, after: known)
            let end = document.position(of: token.range.upperBound, after: (token.range.lowerBound, start))
            known = (token.range.upperBound, end)
            guard start.line == end.line, end.character > start.character else { continue }
            let deltaLine = start.line - previous.line
            let deltaStart = deltaLine == 0 ? start.character - previous.character : start.character
            data += [
                .integer(deltaLine), .integer(deltaStart), .integer(end.character - start.character),
                .integer(token.type.rawValue), .integer(token.declaration ? 1 : 0)
            ]
            previous = start
        }
        return .object(["data": .array(data)])
    }

    /// Where a command's name stands among `words`: the first word, and the command that `try`
    /// or `expect error ID` runs (to the depth the interpreter runs them), as `roles` reads it.
    private static func commandNames(in words: [LineWord], commands: CommandTable) -> Set<Int> {
        var names: Set<Int> = [0]
        var start = 0
        while names.count <= maximumCommandNesting, let spec = commands.lookup(words[start].text),
            let nested = ScriptIndex.nestedCommandStart(of: spec, words, from: start), nested < words.count
        {
            names.insert(nested)
            start = nested
        }
        return names
    }

    /// Digits with at most one `.` among them (a count, an amount, a rate).
    private static func isNumber(_ raw: ArraySlice<UInt8>) -> Bool {
        let digits = raw.filter { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
        let dots = raw.filter { $0 == UInt8(ascii: ".") }.count
        return digits > 0 && dots <= 1 && digits + dots == raw.count
    }
}
