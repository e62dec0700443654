/// Room for resolved arguments: one block per nesting depth of running commands (`source`
/// runs commands while its own command is still running).
///
/// Blocks are raw memory that never moves once made, so an invocation can point into its
/// block; values are plain data (positions in the catalog index, tokens of the line), so
/// filling and reusing a block copies bytes only and counts no references.
final class ArgumentSpace {
    /// More than any command takes (`model` takes ten).
    static let capacity = 16

    /// One command's arguments: values, and where each stands (index 0 is the command word, i argument i).
    struct Block {
        let values: UnsafeMutablePointer<ArgumentValue>
        let ranges: UnsafeMutablePointer<SourceRange>
    }

    private var blocks: [Block] = []
    private var depth = 0

    deinit {
        for block in blocks {
            block.values.deallocate()
            block.ranges.deallocate()
        }
    }

    /// The block for a command starting at the current depth.
    func take() -> Block {
        if depth == blocks.count {
            blocks.append(Block(values: .allocate(capacity: Self.capacity), ranges: .allocate(capacity: Self.capacity + 1)))
        }
        depth += 1
        return blocks[depth - 1]
    }

    /// Gives back the block of a finished (or failed) command.
    func giveBack() {
        depth -= 1
    }
}

/// Fills a block argument by argument.
struct ArgumentWriter {
    let block: ArgumentSpace.Block
    /// How many arguments are written.
    private(set) var count = 0

    /// Starts a command whose name stands at `range`.
    init(_ block: ArgumentSpace.Block, commandAt range: SourceRange) {
        self.block = block
        block.ranges[0] = range
    }

    /// Adds the next argument.
    mutating func append(_ value: ArgumentValue, at range: SourceRange) {
        precondition(count < ArgumentSpace.capacity, "a command takes at most \(ArgumentSpace.capacity) arguments")
        block.values[count] = value
        count += 1
        block.ranges[count] = range
    }

    /// Argument `index` (1-based) if written, for arguments that depend on earlier ones.
    func resolved(_ index: Int) -> ArgumentValue? {
        index >= 1 && index <= count ? block.values[index - 1] : nil
    }
}

extension Unmanaged {
    /// Runs `body` on the object, borrowed without counting a reference: the caller keeps it alive.
    @inline(__always)
    func borrow<Result>(_ body: (Instance) -> Result) -> Result {
        _withUnsafeGuaranteedRef(body)
    }
}
