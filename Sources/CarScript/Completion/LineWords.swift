/// A word of a line as an editor points at it: where it stands (quotes included, in bytes of
/// the line) and its text (quotes and escapes taken away, variables not replaced).
package struct LineWord: Equatable, Sendable {
    package var range: Range<Int>
    package var text: String
}

extension Completer {
    /// The words of the command in `line` that holds byte `offset`, and the index of the
    /// word that holds it (a cursor just after a word counts as in it); nil if no word does,
    /// or the line cannot be read as words.
    package static func command(in line: [UInt8], at offset: Int) -> (words: [LineWord], index: Int)? {
        let lexer = Lexer()
        guard (try? line.withUnsafeBufferPointer({ (buffer) throws(ScriptError) in try lexer.tokenize(buffer) })) != nil else {
            return nil
        }
        var words: [LineWord] = []
        var found: Int?
        for token in lexer.tokens {
            if token.kind == .separator {
                if found != nil { break }
                words.removeAll()
                continue
            }
            if found == nil && token.range.start <= offset && offset <= token.range.end { found = words.count }
            words.append(LineWord(range: token.range.start..<token.range.end, text: lexer.string(token)))
        }
        guard let found else { return nil }
        return (words, found)
    }
}
