/// Room for resolved arguments: one block per nesting depth of running commands (`source`
/// runs commands while its own command is still running).
///
/// Blocks are raw memory that never moves once made, so an invocation can point into its
/// block. Every slot is initialized when its block is made (to `.absent`), so writing an
/// argument is an assignment to an initialized value; and values are plain data (positions
/// in the catalog index, tokens of the line: `ArgumentValue` is `BitwiseCopyable`, which the
/// compiler checks), so filling and reusing a block copies bytes only and counts no references.
final class ArgumentSpace {
    // Taken and given back on every command, these two skip run-time exclusivity checks:
    // with the checks, 69 more instructions per command on the benchmark mix (1,386 to
    // 1,455; 1,363 to 1,432 on set/show).
    /// More than any command takes (`model` takes ten).
    static let capacity = 16

    /// One command's arguments: values, and where each stands (index 0 is the command word, i argument i).
    struct Block {
        let values: UnsafeMutablePointer<ArgumentValue>
        let ranges: UnsafeMutablePointer<SourceRange>
    }

    @exclusivity(unchecked) private var blocks: [Block] = []
    @exclusivity(unchecked) private var depth = 0

    deinit {
        for block in blocks {
            block.values.deinitialize(count: Self.capacity)
            block.values.deallocate()
            block.ranges.deinitialize(count: Self.capacity + 1)
            block.ranges.deallocate()
        }
    }

    /// The block for a command starting at the current depth.
    ///
    /// The depth cannot overflow (`source` nests at most `maximumSourceDepth` deep), so it is
    /// counted without overflow checks, here and in `giveBack` (set/show 1,018.5 -> 1,013.5
    /// instructions a command; callgrind, 10^5 commands).
    @inline(__always)
    func take() -> Block {
        if depth == blocks.count { addBlock() }
        let block = blocks[depth]
        depth &+= 1
        return block
    }

    /// Makes the block of a depth reached for the first time.
    @inline(never)
    private func addBlock() {
        let values = UnsafeMutablePointer<ArgumentValue>.allocate(capacity: Self.capacity)
        values.initialize(repeating: .absent, count: Self.capacity)
        let ranges = UnsafeMutablePointer<SourceRange>.allocate(capacity: Self.capacity + 1)
        ranges.initialize(repeating: SourceRange(0, 0), count: Self.capacity + 1)
        blocks.append(Block(values: values, ranges: ranges))
    }

    /// Gives back the block of a finished (or failed) command.
    @inline(__always)
    func giveBack() {
        assert(depth > 0, "a block given back that was not taken")
        depth &-= 1
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

    /// Adds the next argument. The resolver appends one per argument of the command, and
    /// `CommandSpec.init` holds every command to at most `ArgumentSpace.capacity` of them, so
    /// the slot is in the block without a check here.
    mutating func append(_ value: ArgumentValue, at range: SourceRange) {
        assert(count < ArgumentSpace.capacity, "a command takes at most \(ArgumentSpace.capacity) arguments")
        block.values[count] = value
        count &+= 1
        block.ranges[count] = range
    }

    /// Argument `index` (1-based), `.absent` if not written, for arguments that depend on earlier ones.
    func value(_ index: Int) -> ArgumentValue {
        index >= 1 && index <= count ? block.values[index - 1] : .absent
    }
}

extension Unmanaged {
    /// Runs `body` on the object, borrowed without counting a reference: the caller keeps it alive.
    ///
    /// The engine's one underscored standard-library call: the only way to lend an unretained
    /// object as a borrowed one. `takeUnretainedValue()`, bound `unowned(unsafe)` or not,
    /// retains and releases it around `body` instead: 1,397 -> 1,455 instructions a command on
    /// the benchmark mix, 1,415 -> 1,455 on set/show (callgrind, 10^5 commands; `price`,
    /// `total`, `echo` and every result's spec).
    @inline(__always)
    func borrow<Result>(_ body: (Instance) -> Result) -> Result {
        _withUnsafeGuaranteedRef(body)
    }

    /// `borrow` for a body that throws: its error is carried out of the standard library's
    /// untyped call and thrown again as itself.
    @inline(__always)
    func borrowThrowing<Failure: Error>(_ body: (Instance) throws(Failure) -> Void) throws(Failure) {
        var failure: Failure?
        _withUnsafeGuaranteedRef { instance in
            do throws(Failure) { try body(instance) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}
