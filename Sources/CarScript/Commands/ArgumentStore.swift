/// Room for one command's resolved arguments, reused command after command so resolving
/// allocates nothing and copies no arrays. One store per nesting level (`source` runs
/// commands while its own command is still running).
final class ArgumentStore {
    /// More than any command takes (`model` takes ten).
    static let capacity = 16

    private let values: UnsafeMutablePointer<ArgumentValue>
    /// Index 0 is the command word, index i argument i.
    private let ranges: UnsafeMutablePointer<SourceRange>
    /// How many arguments are stored.
    private(set) var count = 0
    /// Where each word of a word-list argument stands.
    var wordRanges: [SourceRange] = []

    init() {
        values = .allocate(capacity: Self.capacity)
        ranges = .allocate(capacity: Self.capacity + 1)
    }

    deinit {
        reset()
        values.deallocate()
        ranges.deallocate()
    }

    /// Starts a command whose name stands at `range`.
    func begin(at range: SourceRange) {
        ranges[0] = range
    }

    /// Adds the next argument.
    func append(_ value: ArgumentValue, at range: SourceRange) {
        precondition(count < Self.capacity, "a command takes at most \(Self.capacity) arguments")
        (values + count).initialize(to: value)
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

    /// Empties the store for the next command.
    func reset() {
        values.deinitialize(count: count)
        count = 0
        if !wordRanges.isEmpty { wordRanges.removeAll(keepingCapacity: true) }
    }
}
