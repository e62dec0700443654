import CarFactory

/// A resolved argument value: plain data, positions in the invocation's catalog index and tokens of its line.
enum ArgumentValue: BitwiseCopyable {
    case absent
    /// A model: its position among the index's factories.
    case model(Int)
    case family(PartFamily)
    /// An option: its position among the index's parts of its family.
    case option(PartFamily, Int)
    /// A currency: its position among the index's valuations.
    case currency(Int)
    case count(Int64)
    case lineNumber(Int)
    case decimal(DecimalNumber)
    /// An amount of the base currency, in its minor units.
    case amount(Int64)
    /// A word: the token of the line that holds it.
    case word(Int)
    case integer(Int)
    /// Every remaining word: tokens `from..<to` of the line (two numbers: a `Range` is not
    /// `BitwiseCopyable`).
    case words(from: Int, to: Int)
    /// A command: its position in the session's command table.
    case command(Int)
}

/// A command ready to run: its spec, its resolved arguments and where each word stands.
///
/// It lives only while its command runs, and the runner keeps everything it refers to
/// (the spec, the argument block, the line's lexer and the catalog index) alive for that
/// whole time; so it refers to them without counting references. Measured: holding them
/// as strong references instead cost 138 more instructions per command on the benchmark
/// mix (1,386 to 1,525; 1,363 to 1,504 on set/show) and 25% more time on 10^6 commands
/// (114 ms to 142 ms), each accessor retaining what it reads through.
struct Invocation {
    let specRef: Unmanaged<CommandSpec>
    let block: ArgumentSpace.Block
    /// How many arguments were resolved.
    let count: Int
    let lexerRef: Unmanaged<Lexer>
    /// The catalog index model, option and currency arguments are positions in.
    let indexRef: Unmanaged<CatalogIndex>

    /// The command.
    var spec: CommandSpec { specRef.takeUnretainedValue() }

    /// Where argument `index` stands, or the command word for 0 (or a left-out argument).
    func range(_ index: Int) -> SourceRange {
        index >= 1 && index <= count ? block.ranges[index] : block.ranges[0]
    }

    /// Where each word of a word-list argument (`echo`, `expect`) stands.
    var wordRanges: [SourceRange] {
        for position in 0..<count {
            if case .words(let from, let to) = block.values[position] {
                let tokens = from..<to
                return lexerRef.borrow { lexer in tokens.map { lexer.tokens[$0].range } }
            }
        }
        return []
    }

    /// Runs `body`, positioning a domain error at argument `index` (0 is the command word).
    func at<T>(_ index: Int, _ body: () throws(CarFactoryError) -> T) throws(ScriptError) -> T {
        do {
            return try body()
        } catch {
            throw ScriptError(.domain(error), at: range(error.isStockBound ? 0 : index))
        }
    }

    /// The value of argument `index` (1-based).
    func value(_ index: Int) -> ArgumentValue {
        precondition(index >= 1 && index <= count, "argument \(index) of \(count)")
        return block.values[index - 1]
    }

    /// The word of argument `index` (a file name or field), or "" if left out.
    func word(_ index: Int) -> String {
        guard case .word(let token) = value(index) else { return "" }
        return lexerRef.borrow { $0.string($0.tokens[token]) }
    }

    /// The model of argument `index`, as its position in the catalog index.
    func modelPosition(_ index: Int) -> Int {
        guard case .model(let position) = value(index) else { preconditionFailure("argument \(index) of \(spec.name) is not a model") }
        return position
    }

    /// The option of argument `index`, as its family and its position among the index's parts of that family.
    func optionPosition(_ index: Int) -> (PartFamily, Int) {
        guard case .option(let family, let position) = value(index) else {
            preconditionFailure("argument \(index) of \(spec.name) is not an option")
        }
        return (family, position)
    }

    /// The model of argument `index`.
    func model(_ index: Int) -> any CarFactory {
        guard case .model(let position) = value(index) else { preconditionFailure("argument \(index) of \(spec.name) is not a model") }
        return indexRef.borrow { $0.factories[position] }
    }

    /// The option of argument `index`.
    func option(_ index: Int) -> any Part {
        guard case .option(let family, let position) = value(index) else {
            preconditionFailure("argument \(index) of \(spec.name) is not an option")
        }
        return part(family, position)
    }

    /// Option `position` of `family` in the catalog index the arguments were resolved in.
    func part(_ family: PartFamily, _ position: Int) -> any Part {
        indexRef.borrow { $0.parts(family.index)[position] }
    }

    /// The words of argument `index` read as FAMILY OPTION pairs, as FAMILY and OPTION
    /// arguments are read (from their bytes, through the catalog index): per word, its
    /// family's place, or its option's place among the options of the family before it (nil:
    /// it names none, or follows a word that names no family).
    func familyOptionPlaces(_ index: Int) -> [Int?] {
        guard case .words(let from, let to) = value(index) else { return [] }
        return indexRef.borrow { catalogIndex in
            lexerRef.borrow { lexer in
                var places: [Int?] = []
                places.reserveCapacity(to - from)
                var family: Int?
                for token in from..<to {
                    let word = lexer.word(lexer.tokens[token])
                    if (token - from) & 1 == 0 {
                        family = catalogIndex.families.lookupLonger(word)
                        places.append(family)
                    } else {
                        places.append(family.flatMap { catalogIndex.option(word, family: $0) })
                    }
                }
                return places
            }
        }
    }

    /// The family of argument `index`, if given.
    func family(_ index: Int) -> PartFamily? {
        guard case .family(let family) = value(index) else { return nil }
        return family
    }

    /// The currency of argument `index`, if given.
    func currency(_ index: Int) -> Currency? {
        valuation(index)?.currency
    }

    /// The valuation of the currency of argument `index`, if given.
    func valuation(_ index: Int) -> CurrencyValuation? {
        guard case .currency(let position) = value(index) else { return nil }
        return indexRef.borrow { $0.valuations[position] }
    }

    /// Runs `body` with the valuation of the currency of argument `index` (of the base
    /// currency if it was left out), borrowed from the catalog index: `price` and `total`
    /// then count no reference to it.
    @inline(__always)
    func withValuationOrBase<Result>(_ index: Int, _ body: (CurrencyValuation) -> Result) -> Result {
        let position: Int
        if case .currency(let given) = value(index) { position = given } else { position = 0 }
        let borrowed = indexRef.borrow { $0.borrowedValuations[position] }
        return borrowed.borrow(body)
    }

    /// The rules of the catalog the arguments were resolved in, for building cars.
    var rules: RuleSet { indexRef.borrow { $0.rules } }

    /// The count of argument `index`, if given.
    func count(_ index: Int) -> Int64? {
        guard case .count(let count) = value(index) else { return nil }
        return count
    }

    /// The line number of argument `index`, if given.
    func lineNumber(_ index: Int) -> Int? {
        guard case .lineNumber(let number) = value(index) else { return nil }
        return number
    }

    /// The whole number of argument `index`.
    func integer(_ index: Int) -> Int {
        guard case .integer(let number) = value(index) else { preconditionFailure("argument \(index) of \(spec.name) is not a number") }
        return number
    }

    /// The amount of argument `index`, in the base currency.
    func amount(_ index: Int) -> Money {
        guard case .amount(let minorUnits) = value(index) else { preconditionFailure("argument \(index) of \(spec.name) is not an amount") }
        return .base(minorUnits)
    }

    /// The decimal of argument `index`.
    func decimal(_ index: Int) -> DecimalNumber {
        guard case .decimal(let number) = value(index) else { preconditionFailure("argument \(index) of \(spec.name) is not a decimal") }
        return number
    }

    /// The words of argument `index` (empty if none).
    func words(_ index: Int) -> [String] {
        guard case .words(let from, let to) = value(index) else { return [] }
        let tokens = from..<to
        return lexerRef.borrow { lexer in tokens.map { lexer.string(lexer.tokens[$0]) } }
    }

    /// Whether argument `index` is a word list with at least one word.
    func hasWords(_ index: Int) -> Bool {
        guard case .words(let from, let to) = value(index) else { return false }
        return from < to
    }

    /// The words of argument `index` joined by single spaces (`echo`), where they lie so in
    /// the lexer's text (see `Lexer.joined`), lent in place; nil where they do not, and
    /// `joinWords` joins them.
    @inline(__always)
    func joinedWords(_ index: Int) -> UnsafeBufferPointer<UInt8>? {
        guard case .words(let from, let to) = value(index) else { return UnsafeBufferPointer(start: nil, count: 0) }
        return lexerRef.borrow { lexer in lexer.joined(from..<to) }
    }

    /// Appends the words of argument `index` to `buffer`, joined by single spaces (`echo`).
    func joinWords(_ index: Int, into buffer: ByteBuffer) {
        guard case .words(let from, let to) = value(index) else { return }
        let tokens = from..<to
        lexerRef.borrow { lexer in
            for token in tokens {
                if token > tokens.lowerBound { buffer.append(0x20) }
                buffer.append(lexer.bytes(lexer.tokens[token]))
            }
        }
    }

    /// The command of `table` named by argument `index`, if given.
    func command(_ index: Int, in table: CommandTable) -> CommandSpec? {
        guard case .command(let position) = value(index) else { return nil }
        return table.specs[position]
    }
}

extension CarFactoryError {
    /// Whether this is one of the stock's bounds (`stock-too-large`, `configurations-too-large`):
    /// the command's, said at its name, whichever argument led to it.
    var isStockBound: Bool {
        switch self {
        case .stockTooLarge, .configurationsTooLarge: true
        default: false
        }
    }
}
