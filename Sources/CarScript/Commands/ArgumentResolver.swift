import CarFactory

// Turns the words of a command into typed values, checking every name against the
// catalog: this is all `--check` does, and what every command does before it runs.
// Names are looked up from the words' bytes; Strings are made only for text arguments
// and for error messages. What each kind accepts is `ArgumentKind.resolve`.
extension Session {
    /// Resolves the arguments of `spec` from tokens `wordRange` of `lexer`'s line into `block`; returns how many.
    ///
    /// One step per argument, each told by its flags (worked out with the command) what to do
    /// with a word: whether it takes one only if it fits, and whether it takes them all.
    /// (Worked out here per word instead, counting the required arguments left: 1,025.7 ->
    /// 1,020.8 instructions a command on the benchmark mix, 1,013.0 -> 1,005.7 on set/show.)
    /// Inlined into dispatch, its one caller: a call of its own, with its own frame and the
    /// command's values passed in and spilled again, cost 1,020.8 -> 989.5 on the mix and
    /// 1,005.7 -> 972.8 on set/show (callgrind, 10^5 commands).
    @inline(__always)
    func resolve(
        _ spec: CommandSpec, words wordRange: Range<Int>, lexer: Lexer, index catalogIndex: CatalogIndex,
        into block: ArgumentSpace.Block
    ) throws(ScriptError) -> Int {
        let tokens = lexer.tokens
        let end = wordRange.upperBound
        let commandRange = tokens[wordRange.lowerBound].range
        var arguments = ArgumentWriter(block, commandAt: commandRange)
        var token = wordRange.lowerBound &+ 1
        for position in 0..<spec.stepCount {
            let step = spec.steps[position]
            guard token < end else {
                if !step.optional { throw missingArgument(spec, position: arguments.count, after: tokens[end - 1].range) }
                arguments.append(.absent, at: commandRange)
                continue
            }
            let range = tokens[token].range
            let word = ArgumentWord(bytes: lexer.word(tokens[token]), token: token, end: end, range: range)
            // An optional argument before required ones takes the word if it fits; the
            // required ones then need words of their own (`expect price GBP` lacks its VALUE).
            if step.takesOnlyWhatFits {
                guard let value = fittingValue(of: word, as: step.kind, after: arguments, lexer: lexer, index: catalogIndex) else {
                    arguments.append(.absent, at: range)
                    continue
                }
                arguments.append(value, at: range)
                token &+= 1
                continue
            }
            let value = try ArgumentKind.resolve(step, word, after: arguments, lexer: lexer, index: catalogIndex, in: self)
            if step.takesRemainingWords {
                arguments.append(value, at: SourceRange(range.start, tokens[end - 1].range.end))
                token = end
            } else {
                arguments.append(value, at: range)
                token &+= 1
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

    /// A word that names no currency where one is wanted: a number (`price -100`, an amount
    /// where a CURRENCY stands) is said to be one, as "unknown currency '-100'" did not say
    /// (trial 7); any other word is an unknown name, with the closest suggested.
    static func unknownCurrency(_ word: String, _ valid: [String], at range: SourceRange) -> ScriptError {
        let isNumber =
            word.utf8.contains { $0 >= 0x30 && $0 <= 0x39 }
            && word.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: ".")
                    || $0 == UInt8(ascii: ",")
            }
        guard isNumber else { return unknown("currency", word, valid, at: range) }
        return ScriptError(.numberForCurrency(word, valid: valid), at: range)
    }

    /// The most decimal places a rate may have.
    static let maximumRateDecimals = 12
}
