/// Room for one command's resolved arguments, reused command after command so resolving
/// allocates nothing and touches no reference counts. One store per nesting level
/// (`source` runs commands while its own command is still running).
///
/// Values are plain data (positions in the catalog index, tokens of the line), so filling
/// and emptying the store copies bytes only; the store keeps the index and lexer they
/// refer to alive for as long as the command runs.
final class ArgumentStore {
    /// More than any command takes (`model` takes ten).
    static let capacity = 16

    private let values: UnsafeMutablePointer<ArgumentValue>
    /// Index 0 is the command word, index i argument i.
    private let ranges: UnsafeMutablePointer<SourceRange>
    /// How many arguments are stored.
    private(set) var count = 0
    /// The catalog index that model, option and currency values are positions in.
    private(set) var index: CatalogIndex
    /// The lexer holding the line whose tokens word values name.
    private(set) var lexer: Lexer

    init(index: CatalogIndex, lexer: Lexer) {
        values = .allocate(capacity: Self.capacity)
        ranges = .allocate(capacity: Self.capacity + 1)
        self.index = index
        self.lexer = lexer
    }

    deinit {
        values.deallocate()
        ranges.deallocate()
    }

    /// Starts a command whose name stands at `range`, with names from `index` and words from `lexer`.
    func begin(at range: SourceRange, index: CatalogIndex, lexer: Lexer) {
        count = 0
        ranges[0] = range
        if self.index !== index { self.index = index }
        if self.lexer !== lexer { self.lexer = lexer }
    }

    /// Adds the next argument.
    func append(_ value: ArgumentValue, at range: SourceRange) {
        precondition(count < Self.capacity, "a command takes at most \(Self.capacity) arguments")
        values[count] = value
        count += 1
        ranges[count] = range
    }

    /// Argument `index` (1-based).
    func value(_ index: Int) -> ArgumentValue {
        precondition(index >= 1 && index <= count, "argument \(index) of \(count)")
        return values[index - 1]
    }

    /// The values resolved so far, for arguments that depend on earlier ones.
    func resolved(_ index: Int) -> ArgumentValue? {
        index >= 1 && index <= count ? values[index - 1] : nil
    }

    /// Where argument `index` stands (the command word for 0 or a left-out argument).
    func range(_ index: Int) -> SourceRange {
        index >= 1 && index <= count ? ranges[index] : ranges[0]
    }
}
