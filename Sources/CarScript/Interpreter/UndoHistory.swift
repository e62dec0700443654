import CarFactory

// `undo`, `redo` and transactions: what each step changed, kept as what takes it back.
//
// Nothing is snapshotted per command. The stock's ledger journals the inverse of each change
// (a line added, removed or given another configuration, a selection, a `clear` keeping the
// old ledger value, whose arrays it shares); a definition or a rate keeps the catalog value
// before it (copied on write); `var` keeps the variable's old value. Applying an inverse
// yields the inverse of the inverse, so `undo` and `redo` are the same move in opposite
// directions.
//
// The ledger's journal is the history's log of stock changes: a done step is where its
// entries start in it (and in the list of catalog and variable changes), so recording a step
// that only changed the stock is one append of three numbers, and a command that changed
// nothing costs two comparisons. Each catalog or variable change keeps the journal position
// it came at, so a step that mixes them (a `source`) is taken back in exactly reverse order.

/// A change the undo history keeps to take back: applying one makes it and gives its inverse.
enum SessionChange {
    /// A stock change (of a step undone, kept to be redone: a done step's stay in the journal).
    case stock(StockChange)
    indirect case catalog(Catalog)
    /// A variable's value (nil: not set).
    case variable(String, String?)

    /// About how many bytes keeping it takes (the history's bound counts them).
    var storageEstimate: Int {
        switch self {
        case .stock(let change): change.storageEstimate
        // A catalog shares all but what changed with the one after it.
        case .catalog: 256
        case .variable(let name, let value): 64 + name.utf8.count + (value?.utf8.count ?? 0)
        }
    }
}

/// The steps a session can take back and replay.
///
/// A step is every change one command made (a whole `source` is one step); commands that
/// change nothing make none. The stock's changes stay in the ledger's journal, which the
/// history owns while it is kept: the steps are consecutive stretches of it, and of the list
/// of catalog and variable changes beside it. Positions in both are counted from the
/// history's start (see `journalBase`), so dropping the oldest steps renumbers nothing.
struct UndoHistory {
    /// A done step: where its changes start. It runs to where the next step starts (the last,
    /// to where the step being made starts).
    struct Step {
        /// Its first stock change's position in the ledger's journal.
        var journalStart: Int
        /// Its first catalog or variable change's position in `changes`.
        var changesStart: Int
        /// About how many bytes it keeps.
        var bytes: Int
    }

    /// A catalog or variable change, and the journal's length (as a position) when it was
    /// made: it came after the stock changes before that position and before the rest.
    struct PlacedChange {
        var change: SessionChange
        var journalPosition: Int
    }

    /// The documented bound on the memory the history takes (`help undo`, grammar.md).
    static let memoryBound = 64 << 20
    /// The most bytes (estimated) the steps may keep: the oldest steps are dropped first.
    /// Steps inside an open transaction are never dropped: a rollback needs them. Three
    /// quarters of the bound: the arrays that hold the steps grow by doubling, so the memory
    /// they take runs ahead of what they hold (`Scripts/bench`: 10^6 steps).
    static let byteLimit = memoryBound * 3 / 4
    /// What a step's record and one stock change are counted as keeping: their sizes (24
    /// and 40 bytes), with room for what they share.
    static let stepBytes = 32
    static let journalEntryBytes = 48
    /// How many steps of one stock change each (most steps) the bound holds: the room the
    /// history's step list and the ledger's journal take when it starts, so that they never
    /// copy what they hold on the way to the bound (growing by doubling copied about as many
    /// bytes as they held, a tenth of the cost of a command). It is address space, not
    /// memory: a page is taken when first written (`Scripts/bench`, 10^6 steps' peak RSS).
    static let reservedSteps = byteLimit / (stepBytes + journalEntryBytes)

    /// The done steps, oldest first.
    private(set) var steps: [Step] = []
    /// The catalog and variable changes of the done steps, then of the step being made.
    private(set) var changes: [PlacedChange] = []
    /// The steps undone, most recently undone last, each as the changes that replay it.
    private(set) var undone: [[SessionChange]] = []
    /// The number of done steps when each open `begin` ran, outermost first.
    private(set) var savepoints: [Int] = []
    /// The estimated bytes the done steps keep.
    private var bytes = 0
    /// How many journal entries were dropped from its front with the oldest steps: a
    /// position less this is a place in the ledger's journal.
    private(set) var journalBase = 0
    /// How many changes were dropped from the front of `changes` with the oldest steps.
    private var changesBase = 0
    /// Where the step being made starts, in the journal and in `changes` (as positions).
    private(set) var openJournalStart = 0
    private var openChangesStart = 0
    /// The ledger's `journaledLedgerBytes` when the step being made started.
    var ledgerBytesMark = 0

    var inTransaction: Bool { !savepoints.isEmpty }
    /// How many steps can be undone now: not past the innermost `begin`.
    var undoableSteps: Int { steps.count - (savepoints.last ?? 0) }
    var redoableSteps: Int { undone.count }

    /// An empty history; `reserving`, with room for `reservedSteps` steps.
    init(reserving: Bool) {
        if reserving { steps.reserveCapacity(Self.reservedSteps) }
    }

    /// Keeps `change` in the step being made, after the journal's first `journalCount` entries.
    mutating func record(_ change: SessionChange, journalCount: Int) {
        changes.append(PlacedChange(change: change, journalPosition: journalBase + journalCount))
    }

    /// The step being made, if it changed anything (the journal now holding `journalCount`
    /// entries, the ledger having journaled `ledgerBytes` of whole ledgers), becomes a done
    /// step: the steps undone can no longer be replayed. Returns how many journal entries to
    /// drop from the front with the oldest steps (the history's bound), which the caller drops.
    @inline(__always)
    mutating func closeStep(journalCount: Int, ledgerBytes: Int) -> Int {
        guard appendStep(journalCount: journalCount, ledgerBytes: ledgerBytes) else { return 0 }
        if !undone.isEmpty { undone.removeAll() }
        return bytes > Self.byteLimit ? dropOldest() : 0
    }

    /// Makes the step being made a done step if it changed anything; whether it did.
    @inline(__always)
    private mutating func appendStep(journalCount: Int, ledgerBytes: Int) -> Bool {
        // Wrapping sums: a position is below the count of all changes ever made.
        let journalEnd = journalBase &+ journalCount
        let changesEnd = changesBase &+ changes.count
        guard journalEnd > openJournalStart || changesEnd > openChangesStart else { return false }
        // Each journal entry is counted alike but for a ledger kept whole, which the ledger
        // has counted: the entries themselves are not read (copying one out retains what it holds).
        var stepBytes = Self.stepBytes + Self.journalEntryBytes * (journalEnd - openJournalStart) + (ledgerBytes &- ledgerBytesMark)
        if changesEnd > openChangesStart {
            for placed in changes[(openChangesStart - changesBase)...] { stepBytes += placed.change.storageEstimate }
        }
        steps.append(Step(journalStart: openJournalStart, changesStart: openChangesStart, bytes: stepBytes))
        bytes += stepBytes
        openJournalStart = journalEnd
        openChangesStart = changesEnd
        ledgerBytesMark = ledgerBytes
        return true
    }

    /// Drops the oldest steps (not those of an open transaction, nor the last: a step larger
    /// than the bound, a big `source`, can still be undone) until a quarter of the bound is
    /// free; returns how many journal entries they held (at the journal's front).
    private mutating func dropOldest() -> Int {
        let droppable = min(savepoints.first ?? steps.count, steps.count - 1)
        var dropped = 0
        var freed = 0
        while dropped < droppable && bytes - freed > Self.byteLimit * 3 / 4 {
            freed += steps[dropped].bytes
            dropped += 1
        }
        guard dropped > 0 else { return 0 }
        // What is left starts with the first step kept.
        let first = steps[dropped]
        changes.removeFirst(first.changesStart - changesBase)
        changesBase = first.changesStart
        steps.removeFirst(dropped)
        for index in savepoints.indices { savepoints[index] -= dropped }
        bytes -= freed
        let entries = first.journalStart - journalBase
        journalBase = first.journalStart
        return entries
    }

    /// Takes the last done step out of the history (to undo or roll back; the step being made
    /// is empty): where its stock changes start in the journal, and its other changes. The
    /// caller takes them back, cutting the journal there.
    mutating func popStep() -> (journalStart: Int, changes: [PlacedChange]) {
        let step = steps.removeLast()
        bytes -= step.bytes
        openJournalStart = step.journalStart
        openChangesStart = step.changesStart
        return popOpen()
    }

    /// Takes the step being made out (a failed command at the prompt, a rollback), as `popStep` does.
    mutating func popOpen() -> (journalStart: Int, changes: [PlacedChange]) {
        let from = openChangesStart - changesBase
        let taken = Array(changes[from...])
        changes.removeSubrange(from...)
        return (openJournalStart, taken)
    }

    /// A step redone: its changes have been made again, their stock changes' inverses
    /// journaled and the others recorded; they become a done step (the other steps undone
    /// can still be redone).
    mutating func closeReplayedStep(journalCount: Int, ledgerBytes: Int) {
        _ = appendStep(journalCount: journalCount, ledgerBytes: ledgerBytes)
    }

    mutating func pushUndone(_ step: [SessionChange]) { undone.append(step) }
    mutating func popUndone() -> [SessionChange] { undone.removeLast() }
    mutating func forgetUndone() { undone.removeAll() }

    mutating func begin() { savepoints.append(steps.count) }
    mutating func endTransaction() -> Int { savepoints.removeLast() }

    /// Makes the done steps from `step` on one step (a committed transaction is undone whole):
    /// they are consecutive, so the first one's start and all their bytes make it.
    mutating func merge(from step: Int) {
        guard step + 1 < steps.count else { return }
        for later in steps[(step + 1)...] { steps[step].bytes += later.bytes }
        steps.removeSubrange((step + 1)...)
    }
}

extension Session {
    /// Starts keeping an undo history from here; `reserving` room for the steps the bound
    /// holds (not for `try`, whose history holds one command's).
    func startHistory(reserving: Bool = true) {
        history = UndoHistory(reserving: reserving)
        history?.ledgerBytesMark = stock.journaledLedgerBytes
        stock.journal = []
        if reserving { stock.journal?.reserveCapacity(UndoHistory.reservedSteps) }
    }

    /// Whether commands come from a person at the prompt (the outermost script is interactive).
    var atPrompt: Bool { frames.first?.source.isInteractive ?? false }

    /// Keeps `change` (a catalog's or a variable's) in the step being made, if a history is kept.
    func record(_ change: SessionChange) {
        history?.record(change, journalCount: stock.journalCount)
    }

    /// Runs `spec`, keeping what takes back what it changes; the outermost command closes its step.
    func runRecorded(_ spec: CommandSpec, _ call: Invocation) throws(ScriptError) {
        if spec.group == .history {
            // Inside a `source`, what the file changed before this command is a step of its own.
            closeStep()
            try spec.run(self, call)
            return
        }
        historyDepth &+= 1
        do {
            try spec.run(self, call)
        } catch {
            finishStep(failed: true)
            throw error
        }
        finishStep(failed: false)
    }

    @inline(__always)
    private func finishStep(failed: Bool) {
        historyDepth &-= 1
        guard historyDepth == 0 else { return }
        // At the prompt, a failed command inside a transaction changes nothing (psql's
        // ON_ERROR_ROLLBACK interactive): what it did before failing (a `source`) is taken back.
        if failed && atPrompt && history?.inTransaction == true {
            takeBackOpen()
            return
        }
        closeStep()
    }

    /// Closes the step being made, dropping from the journal what the oldest steps dropped held.
    @inline(__always)
    func closeStep() {
        guard let dropped = history?.closeStep(journalCount: stock.journalCount, ledgerBytes: stock.journaledLedgerBytes),
            dropped > 0
        else { return }
        stock.journal?.removeFirst(dropped)
    }

    /// Takes back a step whose stock changes are the journal's entries from `journalStart` on,
    /// and whose other changes are `changes`: all of them last first, in the order they were
    /// made. Returns their inverses in the order applied; the journal is cut at `journalStart`.
    func takeBack(journalFrom journalStart: Int, _ changes: [UndoHistory.PlacedChange]) throws(CarFactoryError) -> [SessionChange] {
        let base = history?.journalBase ?? 0
        var inverses: [SessionChange] = []
        var position = base + stock.journalCount
        inverses.reserveCapacity(position - journalStart + changes.count)
        var next = changes.endIndex
        while true {
            // The changes made after the journal's entry before `position` come before it.
            while next > changes.startIndex && changes[next - 1].journalPosition >= position {
                next -= 1
                if let inverse = try make(changes[next].change) { inverses.append(inverse) }
            }
            guard position > journalStart, let entry = stock.journal?[position - 1 - base] else { break }
            position -= 1
            // Its inverse, journaled by the ledger, is taken off the tail again.
            try stock.apply(entry)
            if let inverse = stock.journal?.popLast() { inverses.append(.stock(inverse)) }
        }
        stock.journal?.removeSubrange((journalStart - base)...)
        // Ledgers journaled while applying were taken off the journal again: not to be counted.
        history?.ledgerBytesMark = stock.journaledLedgerBytes
        return inverses
    }

    /// Takes back the last done step (the step being made is empty); returns its inverses.
    private func takeBackLastStep() throws(CarFactoryError) -> [SessionChange] {
        guard let step = history?.popStep() else { return [] }
        return try takeBack(journalFrom: step.journalStart, step.changes)
    }

    /// Makes `change` and returns its inverse; a stock change's is journaled by the ledger
    /// (nil here).
    private func make(_ change: SessionChange) throws(CarFactoryError) -> SessionChange? {
        switch change {
        case .stock(let change):
            try stock.apply(change)
            return nil
        case .catalog(let catalog):
            return .catalog(restoreCatalog(catalog))
        case .variable(let name, let value):
            return .variable(name, restoreVariable(name, to: value))
        }
    }

    /// Takes back the step being made, keeping nothing of it.
    func takeBackOpen() {
        guard let open = history?.popOpen() else { return }
        _ = try? takeBack(journalFrom: open.journalStart, open.changes)
    }

    /// `undo N`: takes back the last `count` steps, which `redo` can then replay.
    func undo(_ count: Int, at range: SourceRange) throws(ScriptError) {
        guard let available = history?.undoableSteps else { throw Self.noHistory("undo", at: range) }
        guard count <= available else {
            let limit = history?.inTransaction == true ? " since 'begin'" : ""
            throw ScriptError(
                .history(
                    available == 0
                        ? "nothing to undo\(limit)"
                        : "only \(available) step\(available == 1 ? "" : "s") to undo\(limit)"), at: range)
        }
        for _ in 0..<count {
            do throws(CarFactoryError) {
                history?.pushUndone(try takeBackLastStep())
            } catch {
                throw ScriptError(.domain(error), at: range)
            }
        }
    }

    /// `redo N`: replays the last `count` steps undone.
    func redo(_ count: Int, at range: SourceRange) throws(ScriptError) {
        guard let available = history?.redoableSteps else { throw Self.noHistory("redo", at: range) }
        guard count <= available else {
            throw ScriptError(
                .history(
                    available == 0
                        ? "nothing to redo"
                        : "only \(available) step\(available == 1 ? "" : "s") to redo"), at: range)
        }
        for _ in 0..<count {
            guard let step = history?.popUndone() else { return }
            do throws(CarFactoryError) {
                try replay(step)
            } catch {
                throw ScriptError(.domain(error), at: range)
            }
        }
    }

    /// Replays a step undone as a done step: the inverses of its stock changes go into the
    /// journal as the ledger makes them, the others are recorded where they come among them.
    private func replay(_ step: [SessionChange]) throws(CarFactoryError) {
        for change in step.reversed() {
            if let inverse = try make(change) { record(inverse) }
        }
        history?.closeReplayedStep(journalCount: stock.journalCount, ledgerBytes: stock.journaledLedgerBytes)
    }

    /// `begin`: opens a transaction, or a savepoint inside one.
    func beginTransaction() {
        if history == nil { startHistory() }
        history?.begin()
    }

    /// `commit`: closes the innermost transaction, keeping its changes as one step.
    func commitTransaction(at range: SourceRange) throws(ScriptError) {
        guard history?.inTransaction == true, let start = history?.endTransaction() else {
            throw ScriptError(.history("no transaction is open: 'begin' opens one"), at: range)
        }
        history?.merge(from: start)
    }

    /// `rollback`: takes back every change since the innermost `begin`, and closes it.
    func rollBackTransaction(at range: SourceRange) throws(ScriptError) {
        guard history?.inTransaction == true else {
            throw ScriptError(.history("no transaction is open: 'begin' opens one"), at: range)
        }
        rollBack(levels: 1)
    }

    /// Rolls back every open transaction (an error in a script, the end of input).
    func rollBackEverything() {
        rollBack(levels: history?.savepoints.count ?? 0)
    }

    private func rollBack(levels: Int) {
        guard levels > 0 else { return }
        takeBackOpen()
        for _ in 0..<levels {
            guard let start = history?.endTransaction() else { return }
            while (history?.steps.count ?? 0) > start {
                _ = try? takeBackLastStep()
            }
        }
        history?.forgetUndone()
    }

    /// Takes back every step the history holds and the one being made, whatever its
    /// transactions (what `try` tried, in a history of its own).
    func takeBackEverything() {
        takeBackOpen()
        while (history?.steps.count ?? 0) > 0 {
            _ = try? takeBackLastStep()
        }
    }

    /// At the end of input, an open transaction is rolled back, with a warning.
    func endOfInput(_ frame: ScriptFrame) {
        guard let open = history?.savepoints.count, open > 0 else { return }
        rollBackEverything()
        let what = open == 1 ? "a transaction" : "\(open) nested transactions"
        sink.receive(
            Diagnostic(
                id: "history", severity: .warning, file: frame.lines.file, line: max(frame.lineNumber, 1),
                column: 1, message: "end of input with \(what) open: rolled back"))
    }

    private static func noHistory(_ command: String, at range: SourceRange) -> ScriptError {
        ScriptError(
            .history("no undo history is kept in a script: '\(command)' works at the prompt, or after 'begin'"),
            at: range)
    }
}
