import CarFactory

// Turns the words of a command into typed values, checking every name against the
// catalog: this is all `--check` does, and what every command does before it runs.
extension Session {
    func resolve(_ spec: CommandSpec, words: ArraySlice<Token>, lexer: Lexer) throws(ScriptError) -> Invocation {
        var values: [ArgumentValue] = []
        values.reserveCapacity(spec.arguments.count)
        var ranges: [SourceRange] = [words[words.startIndex].range]
        var wordRanges: [SourceRange] = []
        var index = words.startIndex + 1
        let requiredCount = spec.arguments.filter { !$0.optional }.count
        var requiredSeen = 0
        for argument in spec.arguments {
            if !argument.optional { requiredSeen += 1 }
            guard index < words.endIndex else {
                if argument.optional {
                    values.append(.absent)
                    continue
                }
                let end = words[words.endIndex - 1].range.end
                throw ScriptError(.missingArgument(argument.name, usage: spec.usage), at: SourceRange(end, end + 1))
            }
            let token = words[index]
            // An optional argument before required ones is taken only if the word fits it
            // and words remain for them: `expect type Porsche Boxster` has no currency.
            let requiredAfter = requiredCount - requiredSeen
            if argument.optional && requiredAfter > 0 {
                let remaining = words.endIndex - index
                guard remaining > requiredAfter,
                      let value = try? value(of: lexer.string(token), as: argument.kind, at: token.range, resolved: values)
                else {
                    values.append(.absent)
                    ranges.append(token.range)
                    continue
                }
                values.append(value)
                ranges.append(token.range)
                index += 1
                continue
            }
            if argument.kind == .words {
                values.append(.words(words[index...].map(lexer.string)))
                wordRanges = words[index...].map(\.range)
                ranges.append(SourceRange(token.range.start, words[words.endIndex - 1].range.end))
                index = words.endIndex
                continue
            }
            values.append(try value(of: lexer.string(token), as: argument.kind, at: token.range, resolved: values))
            ranges.append(token.range)
            index += 1
        }
        if index < words.endIndex {
            let extra = words[index]
            throw ScriptError(.unexpectedArgument(lexer.string(extra), usage: spec.usage), at: extra.range)
        }
        return Invocation(spec: spec, values: values, ranges: ranges, wordRanges: wordRanges)
    }

    private func value(of word: String, as kind: ArgumentKind, at range: SourceRange,
                       resolved: [ArgumentValue]) throws(ScriptError) -> ArgumentValue {
        switch kind {
        case .model:
            guard let factory = try? catalog.registry.factory(named: word) else {
                throw Self.unknown("model", word, catalog.registry.factories.map(\.model), at: range)
            }
            return .model(factory)
        case .family:
            guard let family = PartFamily(named: word) else {
                throw Self.unknown("family", word, PartFamily.allCases.map(\.rawValue), at: range)
            }
            return .family(family)
        case .option(let familyArgument):
            guard case .family(let family) = resolved[familyArgument - 1] else {
                preconditionFailure("option argument without a family before it")
            }
            return try option(word, of: family, at: range)
        case .optionOf(let family):
            return try option(word, of: family, at: range)
        case .keyword(let keyword):
            guard nameKey(word) == keyword else {
                throw ScriptError(.expectedKeyword(keyword, found: word), at: range)
            }
            return .word(keyword)
        case .name:
            guard !word.isEmpty else { throw ScriptError(.emptyName, at: range) }
            return .word(word)
        case .text:
            return .word(word)
        case .integer:
            return .integer(try Self.integer(word, at: range, from: 0, else: .notANumber(word)))

        case .currency:
            guard let currency = try? catalog.currency(named: word) else {
                throw Self.unknown("currency", word, catalog.currencies.map(\.code), at: range)
            }
            return .currency(currency)
        case .count:
            return .count(try Self.integer(word, at: range, from: Int64(1), else: .notACount(word)))
        case .lineNumber:
            return .lineNumber(try Self.integer(word, at: range, from: 1, else: .notALineNumber(word)))
        case .decimal:
            do {
                return .decimal(try DecimalNumber(parsing: word))
            } catch {
                throw ScriptError(.domain(error), at: range)
            }
        case .file:
            return .word(word)
        case .field:
            guard ExpectField(rawValue: nameKey(word)) != nil else {
                throw Self.unknown("field", word, ExpectField.allCases.map(\.rawValue), at: range)
            }
            return .word(word)
        case .command:
            guard let spec = commands.lookup(word) else {
                throw Self.unknown("command", word, commands.specs.map(\.name), at: range)
            }
            return .command(spec)
        case .words:
            preconditionFailure("words are taken whole by resolve")
        }
    }

    private func option(_ word: String, of family: PartFamily, at range: SourceRange) throws(ScriptError) -> ArgumentValue {
        let table = catalog.options(of: family)
        guard let part = table.part(named: word) else {
            throw Self.unknown("\(family) option", word, table.parts.map(\.name), suggestFrom: table.allNames, at: range)
        }
        return .option(part)
    }

    /// An unknown-name error suggesting the closest valid name, or listing them all.
    static func unknown(_ what: String, _ word: String, _ valid: [String], suggestFrom: [String]? = nil,
                        at range: SourceRange) -> ScriptError {
        ScriptError(.unknownName(what, word, suggestion: closestName(to: word, in: suggestFrom ?? valid), valid: valid),
                    at: range)
    }

    /// A whole number from `minimum`, in decimal digits only.
    private static func integer<T: FixedWidthInteger>(_ word: String, at range: SourceRange, from minimum: T,
                                                      else error: ScriptError.Kind) throws(ScriptError) -> T {
        var value: T = 0
        guard !word.isEmpty else { throw ScriptError(error, at: range) }
        for byte in word.utf8 {
            guard byte >= 0x30 && byte <= 0x39 else { throw ScriptError(error, at: range) }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = times10.addingReportingOverflow(T(byte - 0x30))
            if o1 || o2 { throw ScriptError(.domain(.numberTooLarge(word)), at: range) }
            value = next
        }
        guard value >= minimum else { throw ScriptError(error, at: range) }
        return value
    }
}
