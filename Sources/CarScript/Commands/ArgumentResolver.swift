import CarFactory

// Turns the words of a command into typed values, checking every name against the
// catalog: this is all `--check` does, and what every command does before it runs.
// Names are looked up from the words' bytes; Strings are made only for text arguments
// and for error messages. What each kind accepts is `ArgumentKind.resolve`.
extension Session {
    /// Resolves the arguments of `spec` from tokens `wordRange` of `lexer`'s line into `block`; returns how many.
    func resolve(
        _ spec: CommandSpec, words wordRange: Range<Int>, lexer: Lexer, index catalogIndex: CatalogIndex,
        into block: ArgumentSpace.Block
    ) throws(ScriptError) -> Int {
        let end = wordRange.upperBound
        var arguments = ArgumentWriter(block, commandAt: lexer.tokens[wordRange.lowerBound].range)
        var token = wordRange.lowerBound + 1
        var requiredLeft = spec.requiredCount
        for step in spec.steps {
            if !step.optional { requiredLeft -= 1 }
            guard token < end else {
                if step.optional {
                    arguments.append(.absent, at: lexer.tokens[wordRange.lowerBound].range)
                    continue
                }
                throw missingArgument(spec, position: arguments.count, after: lexer.tokens[end - 1].range)
            }
            let word = ArgumentWord(
                bytes: lexer.word(lexer.tokens[token]), token: token, end: end,
                range: lexer.tokens[token].range)
            // An optional argument before required ones takes the word if it fits; the
            // required ones then need words of their own (`expect price GBP` lacks its VALUE).
            if step.optional && requiredLeft > 0 {
                guard let value = fittingValue(of: word, as: step.kind, after: arguments, lexer: lexer, index: catalogIndex) else {
                    arguments.append(.absent, at: word.range)
                    continue
                }
                arguments.append(value, at: word.range)
                token += 1
                continue
            }
            let value = try step.kind.resolve(word, after: arguments, lexer: lexer, index: catalogIndex, in: self)
            if step.kind.takesRemainingWords {
                arguments.append(value, at: SourceRange(word.range.start, lexer.tokens[end - 1].range.end))
                token = end
            } else {
                arguments.append(value, at: word.range)
                token += 1
            }
        }
        if token < end { try tooManyArguments(spec, at: token, lexer: lexer) }
        return arguments.count
    }

    @inline(never)
    private func missingArgument(_ spec: CommandSpec, position: Int, after last: SourceRange) -> ScriptError {
        ScriptError(.missingArgument(spec.arguments[position].name, usage: spec.usage), at: SourceRange(last.end, last.end + 1))
    }

    @inline(never)
    private func tooManyArguments(_ spec: CommandSpec, at token: Int, lexer: Lexer) throws(ScriptError) {
        // Variables in the first word too many are put in only now, to name it (see `expandVariables`).
        if !lexer.references.isEmpty { try expandVariables(inWord: token, lexer: lexer) }
        let extra = lexer.tokens[token]
        throw ScriptError(.unexpectedArgument(lexer.string(extra), usage: spec.usage), at: extra.range)
    }

    /// The value of `word` if it fits `kind`, else nil (`expect`'s optional CURRENCY).
    @inline(never)
    private func fittingValue(
        of word: ArgumentWord, as kind: ArgumentKind,
        after resolved: ArgumentWriter, lexer: Lexer,
        index: CatalogIndex
    ) -> ArgumentValue? {
        try? kind.resolve(word, after: resolved, lexer: lexer, index: index, in: self)
    }

    /// An unknown-name error suggesting the closest valid name, or listing them all.
    static func unknown(
        _ what: String, _ word: String, _ valid: [String], suggestFrom: [String]? = nil,
        at range: SourceRange
    ) -> ScriptError {
        ScriptError(
            .unknownName(what, word, suggestion: closestName(to: word, in: suggestFrom ?? valid), valid: valid),
            at: range)
    }

    /// The most decimal places a rate may have.
    static let maximumRateDecimals = 12
}
