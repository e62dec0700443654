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
    case stock(StockChange)
    case catalog(Catalog)
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
/// change nothing make none. The steps are one flat list of changes with where each step
/// starts, so recording a step allocates nothing of its own.
struct UndoHistory {
    /// The most bytes (estimated) the steps may keep: the oldest steps are dropped first.
    /// Steps inside an open transaction are never dropped: a rollback needs them.
    static let byteLimit = 64 << 20

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
    /// The estimated bytes kept by `changes`.
    private var bytes = 0

    var inTransaction: Bool { !savepoints.isEmpty }
    /// How many steps can be undone now: not past the innermost `begin`.
    var undoableSteps: Int { stepStarts.count - (savepoints.last ?? 0) }
    var redoableSteps: Int { undone.count }

    /// Keeps `change` in the step being made.
    mutating func record(_ change: SessionChange) {
        changes.append(change)
        bytes += change.storageEstimate
    }

    /// The step being made, if it changed anything, becomes a done step: the steps undone can
    /// no longer be replayed.
    mutating func closeStep() {
        guard changes.count > closedEnd else { return }
        stepStarts.append(closedEnd)
        closedEnd = changes.count
        undone.removeAll()
        if bytes > Self.byteLimit { dropOldest() }
    }

    /// One past the last change of done step `step`.
    private func stepEnd(_ step: Int) -> Int {
        step + 1 < stepStarts.count ? stepStarts[step + 1] : closedEnd
    }

    /// One past the last change of the done steps: where the step being made starts.
    private var closedEnd = 0

    /// Drops the oldest steps (not those of an open transaction) until a quarter of the bound is free.
    private mutating func dropOldest() {
        let droppable = savepoints.first ?? stepStarts.count
        var dropped = 0
        var freed = 0
        while dropped < droppable && bytes - freed > Self.byteLimit * 3 / 4 {
            for change in changes[stepStarts[dropped]..<stepEnd(dropped)] { freed += change.storageEstimate }
            dropped += 1
        }
        guard dropped > 0 else { return }
        let cut = stepEnd(dropped - 1)
        changes.removeFirst(cut)
        stepStarts.removeFirst(dropped)
        for index in stepStarts.indices { stepStarts[index] -= cut }
        for index in savepoints.indices { savepoints[index] -= dropped }
        closedEnd -= cut
        bytes -= freed
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

    /// A done step made of `changes` (a step redone).
    mutating func pushStep(_ replayed: [SessionChange]) {
        guard !replayed.isEmpty else { return }
        stepStarts.append(changes.count)
        for change in replayed { record(change) }
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
        stock.journal = []
    }

    /// Whether commands come from a person at the prompt (the outermost script is interactive).
    var atPrompt: Bool { frames.first?.source.isInteractive ?? false }

    /// Runs `spec`, keeping what takes back what it changes; the outermost command closes its step.
    func runRecorded(_ spec: CommandSpec, _ call: Invocation) throws(ScriptError) {
        if spec.group == .history {
            // Inside a `source`, what the file changed before this command is a step of its own.
            drainStock()
            history?.closeStep()
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
        history?.closeStep()
    }

    /// Moves what the ledger journaled into the step being made.
    func drainStock() {
        stock.drainJournal { history?.record(.stock($0)) }
    }

    /// Applies `changes` last first; returns their inverses in the order applied.
    func apply(_ changes: some BidirectionalCollection<SessionChange>) throws(CarFactoryError) -> [SessionChange] {
        var inverses: [SessionChange] = []
        inverses.reserveCapacity(changes.count)
        for change in changes.reversed() {
            switch change {
            case .stock(let change):
                try stock.apply(change)
                stock.drainJournal { inverses.append(.stock($0)) }
            case .catalog(let catalog):
                inverses.append(.catalog(restoreCatalog(catalog)))
            case .variable(let name, let value):
                inverses.append(.variable(name, restoreVariable(name, to: value)))
            }
        }
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
            throw ScriptError(.history(available == 0 ? "nothing to undo\(limit)"
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
            throw ScriptError(.history(available == 0 ? "nothing to redo"
                                       : "only \(available) step\(available == 1 ? "" : "s") to redo"), at: range)
        }
        for _ in 0..<count {
            guard let step = history?.popUndone() else { return }
            do throws(CarFactoryError) {
                history?.pushStep(try apply(step))
            } catch {
                throw ScriptError(.domain(error), at: range)
            }
        }
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
        sink.receive(Diagnostic(id: "history", severity: .warning, file: frame.lines.file, line: max(frame.lineNumber, 1),
                                column: 1, message: "end of input with \(what) open: rolled back"))
    }

    private static func noHistory(_ command: String, at range: SourceRange) -> ScriptError {
        ScriptError(.history("no undo history is kept in a script: '\(command)' works at the prompt, or after 'begin'"),
                    at: range)
    }
}
