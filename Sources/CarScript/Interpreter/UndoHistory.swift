import CarFactory

// `undo`, `redo` and transactions: what each step changed, kept as what takes it back.
//
// Nothing is snapshotted per command. The stock's ledger journals the inverse of each change
// (a line added, removed or given another configuration, a selection, a `clear` keeping the
// old ledger value, whose arrays it shares); a definition or a rate keeps the catalog value
// before it (copied on write); `var` keeps the variable's old value. Applying an inverse
// yields the inverse of the inverse, so `undo` and `redo` are the same move in opposite
// directions.

/// A change the undo history keeps to take back: applying one makes it and gives its inverse.
enum SessionChange {
    /// A stock change not in the ledger's journal (a step undone, kept to be redone).
    case stock(StockChange)
    /// The ledger's journal entries from `start` to `end` (positions counted from the
    /// history's start, see `UndoHistory.journalBase`): the stock's changes stay where the
    /// ledger journaled them, so recording them copies nothing.
    case stockSpan(start: Int, end: Int, bytes: Int)
    indirect case catalog(Catalog)
    /// A variable's value (nil: not set).
    case variable(String, String?)

    /// About how many bytes keeping it takes (the history's bound counts them; a span, its
    /// journal entries' estimate, counted when it was recorded).
    var storageEstimate: Int {
        switch self {
        case .stock(let change): change.storageEstimate
        // A change kept (40 bytes) and, for most, where its step starts (8).
        case .stockSpan(_, _, let bytes): 48 + bytes
        // A catalog shares all but what changed with the one after it.
        case .catalog: 256
        case .variable(let name, let value): 64 + name.utf8.count + (value?.utf8.count ?? 0)
        }
    }
}

/// The steps a session can take back and replay.
///
/// A step is every change one command made (a whole `source` is one step); commands that
/// change nothing make none. The steps are one flat list of changes with where each step
/// starts; the stock's changes stay in the ledger's journal, which the history owns while
/// it is kept, and the list holds spans of it. Recording a command's step is two appends of
/// plain numbers; a command that changed nothing costs a comparison.
struct UndoHistory {
    /// The documented bound on the memory the history takes (`help undo`, grammar.md).
    static let memoryBound = 64 << 20
    /// The most bytes (estimated) the steps may keep: the oldest steps are dropped first.
    /// Steps inside an open transaction are never dropped: a rollback needs them. Three
    /// quarters of the bound: the arrays that hold the steps grow by doubling, so the memory
    /// they take runs ahead of what they hold (`Scripts/bench`: 10^6 steps).
    static let byteLimit = memoryBound * 3 / 4

    /// The changes of the steps done, oldest first, then those of the step being made.
    private(set) var changes: [SessionChange] = []
    /// Where each done step starts in `changes`.
    private(set) var stepStarts: [Int] = []
    /// The steps undone, most recently undone last, each as the changes that replay it.
    private(set) var undone: [[SessionChange]] = []
    /// The number of done steps when each open `begin` ran, outermost first.
    private(set) var savepoints: [Int] = []
    /// How deeply commands are running inside other commands (`source`): only the outermost closes a step.
    var depth = 0
    /// The estimated bytes kept by `changes` and the journal entries their spans hold.
    private var bytes = 0
    /// How many journal entries were dropped from its front with the oldest steps: a span's
    /// positions less this are places in the ledger's journal.
    private(set) var journalBase = 0
    /// Where the journal's entries not yet in a span begin (counted as spans are).
    private(set) var journalMark = 0
    /// The ledger's `journaledLedgerBytes` when the last span was recorded.
    var ledgerBytesMark = 0

    var inTransaction: Bool { !savepoints.isEmpty }
    /// How many steps can be undone now: not past the innermost `begin`.
    var undoableSteps: Int { stepStarts.count - (savepoints.last ?? 0) }
    var redoableSteps: Int { undone.count }

    /// Keeps `change` in the step being made.
    mutating func record(_ change: SessionChange) {
        changes.append(change)
        bytes += change.storageEstimate
    }

    /// Makes the journal's entries after the mark (its length now being `count`) a span of
    /// the step being made; `estimate` is what they keep.
    @inline(__always)
    mutating func recordSpan(journalCount count: Int, estimate: Int) {
        let end = journalBase + count
        guard end > journalMark else { return }
        record(.stockSpan(start: journalMark, end: end, bytes: estimate))
        journalMark = end
    }

    /// The step being made, if it changed anything, becomes a done step: the steps undone can
    /// no longer be replayed. Returns how many journal entries to drop from the front with the
    /// oldest steps (the history's bound), which the caller drops.
    @inline(__always)
    mutating func closeStep() -> Int {
        guard changes.count > closedEnd else { return 0 }
        stepStarts.append(closedEnd)
        closedEnd = changes.count
        if !undone.isEmpty { undone.removeAll() }
        return bytes > Self.byteLimit ? dropOldest() : 0
    }

    /// One past the last change of done step `step`.
    private func stepEnd(_ step: Int) -> Int {
        step + 1 < stepStarts.count ? stepStarts[step + 1] : closedEnd
    }

    /// One past the last change of the done steps: where the step being made starts.
    private var closedEnd = 0

    /// Drops the oldest steps (not those of an open transaction, nor the last: a step larger
    /// than the bound, a big `source`, can still be undone) until a quarter of the bound is
    /// free; returns how many journal entries their spans held (at the journal's front).
    private mutating func dropOldest() -> Int {
        let droppable = min(savepoints.first ?? stepStarts.count, stepStarts.count - 1)
        var dropped = 0
        var freed = 0
        var journalEnd = journalBase
        while dropped < droppable && bytes - freed > Self.byteLimit * 3 / 4 {
            for change in changes[stepStarts[dropped]..<stepEnd(dropped)] {
                freed += change.storageEstimate
                if case .stockSpan(_, let end, _) = change { journalEnd = end }
            }
            dropped += 1
        }
        guard dropped > 0 else { return 0 }
        let cut = stepEnd(dropped - 1)
        changes.removeFirst(cut)
        stepStarts.removeFirst(dropped)
        for index in stepStarts.indices { stepStarts[index] -= cut }
        for index in savepoints.indices { savepoints[index] -= dropped }
        closedEnd -= cut
        bytes -= freed
        let entries = journalEnd - journalBase
        journalBase = journalEnd
        return entries
    }

    /// Takes the last done step's changes out of the history (to undo or roll back).
    mutating func popStep() -> ArraySlice<SessionChange> {
        let start = stepStarts.removeLast()
        let taken = changes[start..<closedEnd]
        changes.removeSubrange(start..<closedEnd)
        closedEnd = start
        for change in taken { bytes -= change.storageEstimate }
        return taken
    }

    /// Takes the changes of the step being made out (a failed command at the prompt, a rollback).
    mutating func popOpen() -> ArraySlice<SessionChange> {
        let taken = changes[closedEnd...]
        changes.removeSubrange(closedEnd...)
        for change in taken { bytes -= change.storageEstimate }
        return taken
    }

    /// The journal's entries from `start` (a span's start) were taken back: the mark goes back there.
    mutating func journalTakenBack(to start: Int) {
        journalMark = start
    }

    /// A done step made of `changes` (a step redone): its stock changes are put in the journal
    /// by the caller, which records them as spans; this opens and closes the step around them.
    mutating func openReplayedStep() -> Int { changes.count }

    mutating func closeReplayedStep(from start: Int) {
        guard changes.count > start else { return }
        stepStarts.append(start)
        closedEnd = changes.count
    }

    mutating func pushUndone(_ step: [SessionChange]) { undone.append(step) }
    mutating func popUndone() -> [SessionChange] { undone.removeLast() }
    mutating func forgetUndone() { undone.removeAll() }

    mutating func begin() { savepoints.append(stepStarts.count) }
    mutating func endTransaction() -> Int { savepoints.removeLast() }

    /// Makes the done steps from `step` on one step (a committed transaction is undone whole).
    mutating func merge(from step: Int) {
        guard step < stepStarts.count else { return }
        stepStarts.removeSubrange((step + 1)...)
    }
}

extension Session {
    /// Starts keeping an undo history from here.
    func startHistory() {
        history = UndoHistory()
        history?.ledgerBytesMark = stock.journaledLedgerBytes
        stock.journal = []
    }

    /// Whether commands come from a person at the prompt (the outermost script is interactive).
    var atPrompt: Bool { frames.first?.source.isInteractive ?? false }

    /// Runs `spec`, keeping what takes back what it changes; the outermost command closes its step.
    func runRecorded(_ spec: CommandSpec, _ call: Invocation) throws(ScriptError) {
        if spec.group == .history {
            // Inside a `source`, what the file changed before this command is a step of its own.
            drainStock()
            closeStep()
            try spec.run(self, call)
            return
        }
        history?.depth += 1
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
        history?.depth -= 1
        guard history?.depth == 0 else { return }
        drainStock()
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
        guard let dropped = history?.closeStep(), dropped > 0 else { return }
        stock.journal?.removeFirst(dropped)
    }

    /// Makes what the ledger journaled since the last time a span of the step being made.
    @inline(__always)
    func drainStock(extra: Int = 0) {
        let count = stock.journalCount
        guard let base = history?.journalBase, let mark = history?.journalMark, base + count > mark,
            let ledgerMark = history?.ledgerBytesMark
        else { return }
        // Each entry is 48 bytes but for a ledger kept whole, which the ledger has counted:
        // the entries themselves are not read (copying one out retains what it holds).
        let ledgers = stock.journaledLedgerBytes
        history?.recordSpan(journalCount: count, estimate: 48 * (base + count - mark) + extra + (ledgers &- ledgerMark))
        history?.ledgerBytesMark = ledgers
    }

    /// Applies `changes` last first; returns their inverses in the order applied (a span's
    /// as the stock changes they are, taken out of the journal).
    func apply(_ changes: some BidirectionalCollection<SessionChange>) throws(CarFactoryError) -> [SessionChange] {
        var inverses: [SessionChange] = []
        inverses.reserveCapacity(changes.count)
        for change in changes.reversed() {
            switch change {
            case .stock(let change):
                try stock.apply(change)
                if let inverse = stock.journal?.popLast() { inverses.append(.stock(inverse)) }
            case .stockSpan(let start, let end, _):
                // The span is the journal's tail: its entries are applied last first, each
                // inverse taken off the tail it was journaled to, then the span is cut off.
                let base = history?.journalBase ?? 0
                for position in stride(from: end - 1, through: start, by: -1) {
                    guard let entry = stock.journal?[position - base] else { break }
                    try stock.apply(entry)
                    if let inverse = stock.journal?.popLast() { inverses.append(.stock(inverse)) }
                }
                stock.journal?.removeSubrange((start - base)...)
                history?.journalTakenBack(to: start)
            case .catalog(let catalog):
                inverses.append(.catalog(restoreCatalog(catalog)))
            case .variable(let name, let value):
                inverses.append(.variable(name, restoreVariable(name, to: value)))
            }
        }
        // Ledgers journaled while applying were taken off the journal again: not to be counted.
        history?.ledgerBytesMark = stock.journaledLedgerBytes
        return inverses
    }

    /// Takes back the step being made, keeping nothing of it.
    func takeBackOpen() {
        drainStock()
        guard let open = history?.popOpen(), !open.isEmpty else { return }
        _ = try? apply(open)
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
            guard let step = history?.popStep() else { return }
            do throws(CarFactoryError) {
                history?.pushUndone(try apply(step))
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

    /// Replays a step undone as a done step: its stock changes go back into the journal.
    private func replay(_ step: [SessionChange]) throws(CarFactoryError) {
        guard let start = history?.openReplayedStep() else { return }
        // What the stock changes keep beyond the 48 bytes a span counts each.
        var extra = 0
        for change in try apply(step) {
            if case .stock(let change) = change {
                stock.journal?.append(change)
                extra += change.storageEstimate - 48
            } else {
                drainStock(extra: extra)
                extra = 0
                history?.record(change)
            }
        }
        drainStock(extra: extra)
        history?.closeReplayedStep(from: start)
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
            while (history?.stepStarts.count ?? 0) > start {
                guard let step = history?.popStep() else { break }
                _ = try? apply(step)
            }
        }
        history?.forgetUndone()
    }

    /// Takes back every step the history holds and the one being made, whatever its
    /// transactions (what `try` tried, in a history of its own).
    func takeBackEverything() {
        takeBackOpen()
        while (history?.stepStarts.count ?? 0) > 0 {
            guard let step = history?.popStep() else { break }
            _ = try? apply(step)
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
