import CarFactory

// Turns the words of a command into typed values, checking every name against the
// catalog: this is all `--check` does, and what every command does before it runs.
// Names are looked up from the words' bytes; Strings are made only for text arguments
// and for error messages.
extension Session {
    /// Resolves the arguments of `spec` from tokens `wordRange` of `lexer`'s line into `block`; returns how many.
    func resolve(_ spec: CommandSpec, words wordRange: Range<Int>, lexer: Lexer, index catalogIndex: CatalogIndex,
                 into block: ArgumentSpace.Block) throws(ScriptError) -> Int {
        let words = lexer.tokens[wordRange]
        let commandRange = words[words.startIndex].range
        var arguments = ArgumentWriter(block, commandAt: commandRange)
        // A command of no arguments (`clear`, `list`) given none: nothing to resolve.
        if spec.steps.isEmpty && words.count == 1 { return 0 }
        var index = words.startIndex + 1
        var requiredLeft = spec.requiredCount
        for (position, argument) in spec.steps.enumerated() {
            if !argument.optional { requiredLeft -= 1 }
            guard index < words.endIndex else {
                if argument.optional {
                    arguments.append(.absent, at: commandRange)
                    continue
                }
                let end = words[words.endIndex - 1].range.end
                throw ScriptError(.missingArgument(spec.arguments[position].name, usage: spec.usage), at: SourceRange(end, end + 1))
            }
            let token = words[index]
            let word = lexer.word(token)
            // An optional argument before required ones takes the word if it fits; the
            // required ones then need words of their own (`expect price GBP` lacks its VALUE).
            if argument.optional && requiredLeft > 0 {
                guard let value = fittingValue(of: word, as: argument.kind, position: position, spec: spec, lexer: lexer,
                                               token: index, at: token.range, index: catalogIndex, resolved: arguments)
                else {
                    arguments.append(.absent, at: token.range)
                    continue
                }
                arguments.append(value, at: token.range)
                index += 1
                continue
            }
            if argument.kind == .words {
                arguments.append(.words(index..<words.endIndex),
                                 at: SourceRange(token.range.start, words[words.endIndex - 1].range.end))
                index = words.endIndex
                continue
            }
            arguments.append(try value(of: word, as: argument.kind, position: position, spec: spec, lexer: lexer, token: index,
                                       at: token.range, index: catalogIndex, resolved: arguments),
                             at: token.range)
            index += 1
        }
        if index < words.endIndex {
            // Variables in the first word too many are put in only now, to name it (see `expandVariables`).
            if !lexer.references.isEmpty { try expandVariables(inWord: index, lexer: lexer) }
            let extra = lexer.tokens[index]
            throw ScriptError(.unexpectedArgument(lexer.string(extra), usage: spec.usage), at: extra.range)
        }
        return arguments.count
    }

    /// The value of `word` if it fits `kind`, else nil (`expect`'s optional CURRENCY).
    @inline(never)
    private func fittingValue(of word: PaddedBytes, as kind: ResolveStep.Kind, position argument: Int,
                              spec: CommandSpec, lexer: Lexer, token: Int, at range: SourceRange,
                              index: CatalogIndex, resolved: ArgumentWriter) -> ArgumentValue? {
        try? value(of: word, as: kind, position: argument, spec: spec, lexer: lexer, token: token, at: range, index: index,
                   resolved: resolved)
    }

    @inline(__always)
    private func value(of word: PaddedBytes, as kind: ResolveStep.Kind, position argument: Int,
                       spec: CommandSpec, lexer: Lexer, token: Int, at range: SourceRange,
                       index: CatalogIndex, resolved: ArgumentWriter) throws(ScriptError) -> ArgumentValue {
        let bytes = word.bytes
        switch kind {
        case .model:
            guard let position = index.models.lookup(word) else {
                throw Self.unknown("model", Self.string(bytes), index.factories.all.map(\.model), at: range)
            }
            return .model(position)
        case .family:
            guard let position = index.families.lookup(word) else {
                throw Self.unknown("family", Self.string(bytes), catalog.familyNames, at: range)
            }
            return .family(PartFamily(index: position))
        case .option(let familyArgument):
            guard case .family(let family) = resolved.resolved(familyArgument) else {
                preconditionFailure("option argument without a family before it")
            }
            return try option(word, of: family, in: index, at: range)
        case .optionOf(let family):
            return try option(word, of: family, in: index, at: range)
        case .currency:
            guard let position = index.currencies.lookup(word) else {
                throw Self.unknown("currency", Self.string(bytes), index.valuations.all.map(\.currency.code), at: range)
            }
            return .currency(position)
        case .foreignCurrency:
            return try foreignCurrency(word, index: index, at: range)
        case .count:
            return .count(try Self.integer(bytes, at: range, from: Int64(1), else: .notACount(Self.string(bytes))))
        case .lineNumber:
            return .lineNumber(try Self.integer(bytes, at: range, from: 1, else: .notALineNumber(Self.string(bytes))))
        case .amountCurrency(let fieldArgument):
            return try amountCurrency(word, fieldArgument: fieldArgument, lexer: lexer, index: index, at: range, resolved: resolved)
        default:
            return try otherValue(of: word, as: kind, position: argument, spec: spec, token: token, at: range)
        }
    }

    /// `rate`'s CURRENCY: any but the base currency, whose rate is fixed at 1.
    @inline(never)
    private func foreignCurrency(_ word: PaddedBytes, index: CatalogIndex, at range: SourceRange) throws(ScriptError) -> ArgumentValue {
        let codes = index.valuations.all.map(\.currency.code)
        guard let position = index.currencies.lookup(word) else {
            throw Self.unknown("currency", Self.string(word.bytes), codes.filter { $0 != Currency.base.code }, at: range)
        }
        guard codes[position] != Currency.base.code else {
            throw ScriptError(.domain(.baseRateIsFixed(codes[position])), at: range)
        }
        return .currency(position)
    }

    /// `expect`'s CURRENCY: only an amount is in a currency (`expect type EUR Boxster` names none).
    @inline(never)
    private func amountCurrency(_ word: PaddedBytes, fieldArgument: Int, lexer: Lexer, index: CatalogIndex,
                                at range: SourceRange, resolved: ArgumentWriter) throws(ScriptError) -> ArgumentValue {
        guard case .word(let fieldToken) = resolved.resolved(fieldArgument),
              ExpectField(rawValue: nameKey(lexer.string(lexer.tokens[fieldToken])))?.isAmount == true else {
            throw ScriptError(.reported, at: range)
        }
        guard let position = index.currencies.lookup(word) else {
            throw Self.unknown("currency", Self.string(word.bytes), index.valuations.all.map(\.currency.code), at: range)
        }
        return .currency(position)
    }

    /// The argument kinds of definitions and script commands, out of the way of the hot path
    /// (`car`, `set`, `total`, `price`), which is then small enough to inline.
    @inline(never)
    private func otherValue(of word: PaddedBytes, as kind: ResolveStep.Kind, position argument: Int,
                            spec: CommandSpec, token: Int, at range: SourceRange) throws(ScriptError) -> ArgumentValue {
        let bytes = word.bytes
        switch kind {
        case .integer:
            guard case .integer(let low, let high, let what) = spec.arguments[argument].kind else {
                preconditionFailure("integer step without its bounds")
            }
            let value = try Self.integer(bytes, at: range, from: 0, else: .notANumber(Self.string(bytes)))
            guard value >= low && value <= high else {
                throw ScriptError(.outOfRange(what, low: low, high: high, value: value), at: range)
            }
            return .integer(value)
        case .rate:
            let text = Self.string(bytes)
            do throws(CarFactoryError) {
                if let point = bytes.firstIndex(of: UInt8(ascii: ".")), bytes.count - point - 1 > Self.maximumRateDecimals {
                    throw .tooManyDecimals(text, allowed: Self.maximumRateDecimals)
                }
                let rate = try DecimalNumber(parsing: text)
                guard rate.significand > 0 else { throw .rateNotPositive(text) }
                return .decimal(rate)
            } catch {
                throw ScriptError(.domain(error), at: range)
            }
        case .amount:
            do throws(CarFactoryError) {
                return .amount(try DecimalNumber(parsing: Self.string(bytes)).minorUnits(digits: Currency.base.digits))
            } catch {
                throw ScriptError(.domain(error), at: range)
            }
        case .keyword:
            guard case .keyword(let keyword) = spec.arguments[argument].kind else {
                preconditionFailure("keyword step without its keyword")
            }
            let word = Self.string(bytes)
            guard nameKey(word) == keyword else { throw ScriptError(.expectedKeyword(keyword, found: word), at: range) }
            return .word(token)
        case .name:
            guard !bytes.isEmpty else { throw ScriptError(.emptyName, at: range) }
            return .word(token)
        case .variable:
            guard Lexer.isVariableName(bytes) else { throw ScriptError(.badVariableName(Self.string(bytes)), at: range) }
            return .word(token)
        case .file, .text:
            return .word(token)
        case .field:
            let word = Self.string(bytes)
            guard ExpectCommand.forms.contains(nameKey(word)) else {
                throw Self.unknown("field", word, ExpectCommand.forms, at: range)
            }
            return .word(token)
        case .command:
            guard let position = commands.position(of: word) else {
                throw Self.unknown("command", Self.string(bytes), commands.specs.map(\.name), at: range)
            }
            return .command(position)
        case .helpTopic:
            if let position = commands.position(of: word) { return .command(position) }
            guard HelpPage.topics.contains(where: { $0.name == nameKey(Self.string(bytes)) }) else {
                throw Self.unknown("help topic", Self.string(bytes),
                                   commands.specs.map(\.name) + HelpPage.topics.map(\.name), at: range)
            }
            return .word(token)
        case .words:
            preconditionFailure("words are taken whole by resolve")
        default:
            preconditionFailure("a hot argument kind taken out of line")
        }
    }

    private func option(_ word: PaddedBytes, of family: PartFamily, in index: CatalogIndex,
                        at range: SourceRange) throws(ScriptError) -> ArgumentValue {
        guard let position = index.option(word, family: family.index) else { throw unknownOption(word, of: family, at: range) }
        return .option(family, position)
    }

    /// Out of line, so that the lookup above stays small enough to inline into `resolve`.
    @inline(never)
    private func unknownOption(_ word: PaddedBytes, of family: PartFamily, at range: SourceRange) -> ScriptError {
        let table = catalog.options(of: family)
        return Self.unknown("\(catalog.name(of: family)) option", Self.string(word.bytes), table.parts.map(\.name),
                            suggestFrom: table.allNames, at: range)
    }

    /// An unknown-name error suggesting the closest valid name, or listing them all.
    static func unknown(_ what: String, _ word: String, _ valid: [String], suggestFrom: [String]? = nil,
                        at range: SourceRange) -> ScriptError {
        ScriptError(.unknownName(what, word, suggestion: closestName(to: word, in: suggestFrom ?? valid), valid: valid),
                    at: range)
    }

    /// The most decimal places a rate may have.
    static let maximumRateDecimals = 12

    private static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// A whole number from `minimum`, in decimal digits only.
    private static func integer<T: FixedWidthInteger>(_ bytes: UnsafeBufferPointer<UInt8>, at range: SourceRange,
                                                      from minimum: T, else error: @autoclosure () -> ScriptError.Kind)
        throws(ScriptError) -> T {
        var value: T = 0
        guard !bytes.isEmpty else { throw ScriptError(error(), at: range) }
        for byte in bytes {
            guard byte >= 0x30 && byte <= 0x39 else { throw ScriptError(error(), at: range) }
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = times10.addingReportingOverflow(T(byte - 0x30))
            if o1 || o2 { throw ScriptError(.domain(.numberTooLarge(string(bytes))), at: range) }
            value = next
        }
        guard value >= minimum else { throw ScriptError(error(), at: range) }
        return value
    }
}
