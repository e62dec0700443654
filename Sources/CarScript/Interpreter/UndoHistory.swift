import CarFactory

// `undo`, `redo` and transactions: what each step changed, kept as what takes it back.
//
// Nothing is snapshotted per command. The stock's ledger journals the inverse of each change
// (a line added, removed or given another configuration, a selection, a `clear` keeping the
// old ledger value, whose arrays it shares); a definition keeps how many definitions the
// catalog had, a rate the currency as it was (see `CatalogUndo`); `var` keeps the variable's old value. Applying an inverse
// yields the inverse of the inverse, so `undo` and `redo` are the same move in opposite
// directions.
//
// The ledger's journal is the history's log of stock changes, and its steps: a step is the
// entries from one marked as a step's first to the next (`StockJournal.startsStep`), so
// recording a step that only changed the stock is one entry of 8 bytes, marked as it is
// journaled, and a command that changed nothing costs a comparison. A step that changed only
// the catalog or variables starts with an entry that changes nothing (`.nothing`), so every
// step has entries. Each catalog or variable change keeps the journal position it came at,
// which is past its step's first entry: a step's changes are those after its start up to the
// next step's, and a step that mixes them (a `source`) is taken back in exactly reverse order.

/// A change the undo history keeps to take back: applying one makes it and gives its inverse.
enum SessionChange {
    /// A stock change (of a step undone, kept to be redone: a done step's stay in the journal).
    case stock(StockChange)
    indirect case catalog(CatalogUndo)
    /// A variable's value (nil: not set).
    case variable(String, String?)
    /// A command `--check` does not run (`car`, `set`, `rate`, ...), which may or may not have
    /// been a step when run: a step made only of these is one the check cannot count.
    case unchecked

    /// About how many bytes keeping it takes (the history's bound counts them).
    var storageEstimate: Int {
        switch self {
        case .stock(let change): change.storageEstimate
        case .catalog(let change): change.storageEstimate
        case .variable(let name, let value): 64 + name.utf8.count + (value?.utf8.count ?? 0)
        case .unchecked: 16
        }
    }
}

/// The steps a session can take back and replay.
///
/// A step is every change one command made (a whole `source` is one step); commands that
/// change nothing make none. The stock's changes stay in the ledger's journal, which the
/// history owns while it is kept: the steps are consecutive stretches of it, each starting at
/// an entry flagged as a step's first, and the catalog and variable changes are placed among
/// them. Positions in the journal are counted from the history's start (see `journalBase`), so
/// dropping the oldest steps renumbers nothing. What walks the journal (`undo`, dropping the
/// oldest steps) is in the extension of `Session` below, which holds the ledger.
struct UndoHistory {
    /// A catalog or variable change, and the journal's length (as a position) when it was
    /// made: it came after the stock changes before that position and before the rest.
    struct PlacedChange {
        var change: SessionChange
        var journalPosition: Int
    }

    /// A transaction's `begin`: how many steps were done, and where the next began in the journal.
    struct Savepoint {
        var steps: Int
        var journalStart: Int
    }

    /// The documented bound on the memory the history takes (`help undo`, grammar.md).
    static let memoryBound = 64 << 20
    /// The most bytes (estimated) the steps may keep: the oldest steps are dropped first.
    /// Steps inside an open transaction are never dropped: a rollback needs them; a command
    /// whose step would pass the bound all the same fails (`history-too-large`). Three
    /// quarters of the bound: the journal grows by doubling past the room it starts with, so
    /// the memory it takes runs ahead of what it holds (`Scripts/bench`: 10^6 steps).
    static let byteLimit = memoryBound * 3 / 4
    /// What a step and one stock change are counted as keeping: an entry is 8 bytes and a
    /// bit; a step, room for what its entries share (a configuration a line no longer holds).
    static let stepBytes = 8
    static let journalEntryBytes = 8
    /// How many steps of one stock change each (most steps) the bound holds: the room the
    /// ledger's journal takes when the history starts, so that it never copies what it holds
    /// on the way to the bound (growing by doubling copied about as many bytes as it held). It
    /// is address space, not memory: a page is taken when first written (`Scripts/bench`,
    /// 10^6 steps' peak RSS).
    static let reservedSteps = byteLimit / (stepBytes + journalEntryBytes)

    /// How many done steps are kept.
    private(set) var stepCount = 0
    /// The catalog and variable changes of the done steps, then of the step being made.
    var changes: [PlacedChange] = []
    /// The steps undone, most recently undone last, each as the changes that replay it.
    private(set) var undone: [[SessionChange]] = []
    /// Each open `begin`, outermost first.
    private(set) var savepoints: [Savepoint] = []
    /// `--check` only: set once an `undo` reached a step made only of commands the check does
    /// not run (it may have been no step when run), or such a command came while steps undone
    /// could be redone (it may have changed nothing, and so kept them): which steps `undo` and
    /// `redo` then move is unknown, so they are not followed (`undo` takes nothing back, `redo`
    /// replays what the check undid, neither is an error) until rolling back the transaction open then (this many deep) makes the state known
    /// again; 0 (none was open): never.
    private(set) var unfollowedBelow: Int?
    /// `--check --keep-going` only: set once the run may have failed inside a transaction
    /// where the check did not (a command the check does not run, or an error the check
    /// cannot be sure of, see `Session.mayBeTheChecksAlone`). Failing, the run rolled back
    /// every open transaction and went on outside them, so a rollback here may take back what
    /// the run kept: from then on the check's rollbacks close transactions but take nothing
    /// back (it keeps every definition the run may have), and the history is never followed again.
    private(set) var runMayHaveRolledBack = false
    /// The estimated bytes the done steps keep.
    var bytes = 0
    /// How many journal entries were dropped from its front with the oldest steps: a
    /// position less this is a place in the ledger's journal.
    var journalBase = 0
    /// Where the step being made starts in the journal (as a position).
    var openJournalStart = 0
    /// The ledger's `journaledLedgerBytes` when the step being made started.
    var ledgerBytesMark = 0
    /// The estimated bytes of the catalog and variable changes of the step being made: with
    /// its journal entries, what the bound is checked against while a `source` runs.
    var openChangesBytes = 0

    var inTransaction: Bool { !savepoints.isEmpty }
    /// How many steps can be undone now: not past the innermost `begin`.
    var undoableSteps: Int { stepCount - (savepoints.last?.steps ?? 0) }
    var redoableSteps: Int { undone.count }

    /// Keeps `change` in the step being made, after the journal's first `journalCount` entries.
    mutating func record(_ change: SessionChange, journalCount: Int) {
        openChangesBytes &+= change.storageEstimate
        changes.append(PlacedChange(change: change, journalPosition: journalBase + journalCount))
    }

    /// The step being made, if it changed anything (the journal now holding `journalCount`
    /// entries, the ledger having journaled `ledgerBytes` of whole ledgers), becomes a done
    /// step: the steps undone can no longer be replayed. Returns whether the history's bound
    /// is passed (the caller drops the oldest steps, or takes this one back and forgets
    /// nothing undone: a command that fails so changes nothing).
    @inline(__always)
    mutating func closeStep(journalCount: Int, ledgerBytes: Int) -> Bool {
        guard appendStep(journalCount: journalCount, ledgerBytes: ledgerBytes) else { return false }
        if bytes > Self.byteLimit { return true }
        if !undone.isEmpty { undone.removeAll() }
        return false
    }

    /// Makes the step being made a done step if it changed anything; whether it did.
    @inline(__always)
    private mutating func appendStep(journalCount: Int, ledgerBytes: Int) -> Bool {
        // Wrapping sums: a position is below the count of all changes ever made.
        let journalEnd = journalBase &+ journalCount
        // Every step has entries (one that changes nothing, if only its catalog changes do).
        guard journalEnd != openJournalStart else { return false }
        // Each journal entry is counted alike but for a ledger kept whole, which the ledger
        // has counted: the entries themselves are not read (copying one out retains what it holds).
        bytes &+= Self.stepBytes &+ Self.journalEntryBytes &* (journalEnd &- openJournalStart) &+ (ledgerBytes &- ledgerBytesMark)
        if let last = changes.last, last.journalPosition > openJournalStart {
            bytes &+= Self.changesBytes(changes, after: openJournalStart)
        }
        stepCount &+= 1
        openJournalStart = journalEnd
        ledgerBytesMark = ledgerBytes
        openChangesBytes = 0
        return true
    }

    /// The estimated bytes of the changes at the end of `changes` placed after `position`.
    static func changesBytes(_ changes: [PlacedChange], after position: Int) -> Int {
        var sum = 0
        for placed in changes.reversed() {
            guard placed.journalPosition > position else { break }
            sum += placed.change.storageEstimate
        }
        return sum
    }

    /// The changes at the end placed after `position` (the last step's or the open step's),
    /// taken out.
    mutating func popChanges(after position: Int) -> [PlacedChange] {
        var from = changes.endIndex
        while from > changes.startIndex && changes[from - 1].journalPosition > position { from -= 1 }
        let taken = Array(changes[from...])
        if from < changes.endIndex { changesTakenOut &+= 1 }
        changes.removeSubrange(from...)
        // The step being made is empty now (or was: a done step is taken out only then).
        openChangesBytes = 0
        return taken
    }

    /// The last done step, starting at journal position `journalStart` and keeping `stepBytes`,
    /// is taken out (to undo or roll back; the step being made is empty).
    mutating func popStep(journalStart: Int, stepBytes: Int) {
        stepCount -= 1
        bytes -= stepBytes
        openJournalStart = journalStart
    }

    /// The oldest `count` steps, keeping `stepBytes` and ending where journal position
    /// `journalEnd` starts, are forgotten (the caller drops their entries from the journal).
    mutating func forgetOldest(_ count: Int, stepBytes: Int, journalEnd: Int) {
        stepCount -= count
        bytes -= stepBytes
        for index in savepoints.indices { savepoints[index].steps -= count }
        changesTakenOut &+= 1
        changes.removeFirst(changes.prefix { $0.journalPosition <= journalEnd }.count)
        journalBase = journalEnd
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

    /// How deep transactions and savepoints nest (`transaction-depth` past it): each open
    /// one is kept (2,000,000 nested `begin`s took 41 MB; trial 7, 8).
    static let maximumTransactionDepth = 1 << 16

    /// Opens a transaction (the step being made is empty).
    mutating func begin() { savepoints.append(Savepoint(steps: stepCount, journalStart: openJournalStart)) }
    /// Closes the innermost transaction, kept (`commit`) or taken back.
    mutating func endTransaction(rolledBack: Bool) -> Savepoint {
        if let depth = unfollowedBelow, depth >= savepoints.count {
            // Rolled back, everything since its `begin` is as it was, run or checked: undo is
            // followed again. Kept, what was not followed is kept in the one around it.
            unfollowedBelow = rolledBack ? nil : savepoints.count - 1
        }
        return savepoints.removeLast()
    }

    /// `--check`: undo and redo can no longer be followed (see `unfollowedBelow`) until the
    /// transaction `depth` deep (the innermost open one unless given) is rolled back.
    mutating func stopFollowing(below depth: Int? = nil) {
        unfollowedBelow = min(unfollowedBelow ?? Int.max, depth ?? savepoints.count)
    }

    /// `--check --keep-going`: the run may have rolled back every open transaction here (see
    /// `runMayHaveRolledBack`).
    mutating func runMayHaveFailed() {
        runMayHaveRolledBack = true
        stopFollowing(below: 0)
    }

    /// The variables set since the outermost open `begin`: what a rollback of every open
    /// transaction would take back (nil if none is open). Only those set since `look`, if no
    /// change was taken out since and the `begin` is the same (see `VariablesLook`).
    func variablesSetInTransactions(since look: VariablesLook?) -> ([String], VariablesLook)? {
        guard let outermost = savepoints.first else { return nil }
        return variablesSet(after: outermost.journalStart, since: look)
    }

    /// The variables set since the innermost open `begin` (in every step kept if none is
    /// open): what an `undo` may take back, however many steps it takes. As
    /// `variablesSetInTransactions`, only those set since `look`.
    func variablesUndoMayTakeBack(since look: VariablesLook?) -> ([String], VariablesLook) {
        variablesSet(after: savepoints.last?.journalStart, since: look)
    }

    /// `--check`: where a look for the variables set stopped: the count of changes then, the
    /// window's start, and how many times changes had been taken out. The check looks at
    /// each command it does not run in a transaction and each `undo` it does not follow: a
    /// walk of the whole window each time was quadratic (20,000 `var`s then 20,000 `undo`s: 40 s).
    /// Kept by the session (`Session.VariablesLooks`), not here: this struct is copied where the
    /// runner asks whether there is a history, at every command, and the looks made that copy
    /// an out-of-line call (883 -> 897 instructions a command on the mix).
    struct VariablesLook {
        var count: Int
        var after: Int?
        var takenOut: Int
    }

    /// How many times changes were taken out (an undo, a rollback, the oldest steps dropped):
    /// a look from before is then stale.
    private var changesTakenOut = 0

    /// The variables set in the changes placed after journal position `position` (all if nil),
    /// past those `look` saw if it is still good; and where this look stops.
    private func variablesSet(after position: Int?, since look: VariablesLook?) -> ([String], VariablesLook) {
        let seen = look.flatMap { $0.takenOut == changesTakenOut && $0.after == position ? $0.count : nil } ?? 0
        var names: [String] = []
        var index = changes.count
        while index > seen {
            index -= 1
            if let position, changes[index].journalPosition <= position { break }
            if case .variable(let name, _) = changes[index].change { names.append(name) }
        }
        return (names, VariablesLook(count: changes.count, after: position, takenOut: changesTakenOut))
    }

    /// The done steps since `savepoint` become one (a committed transaction is undone whole):
    /// their count and bytes; the caller unflags all but the first's first entry.
    mutating func merge(since savepoint: Savepoint) -> Bool {
        let merged = stepCount - savepoint.steps
        guard merged > 1 else { return false }
        stepCount -= merged - 1
        bytes -= (merged - 1) * Self.stepBytes
        return true
    }
}

extension Session {
    /// Starts keeping an undo history from here; `reserving` room for the steps the bound
    /// holds (not for `try`, whose history holds one command's).
    func startHistory(reserving: Bool = true) {
        history = UndoHistory()
        variablesLooks = VariablesLooks()
        history?.ledgerBytesMark = stock.journaledLedgerBytes
        stock.journal = StockJournal()
        stock.nextEntryStartsStep = true
        if reserving { stock.journal?.reserveCapacity(UndoHistory.reservedSteps) }
    }

    /// Whether commands come from a person at the prompt (the outermost script is interactive).
    var atPrompt: Bool { frames.first?.source.isInteractive ?? false }

    /// Keeps `change` (a catalog's or a variable's) in the step being made, if a history is kept.
    func record(_ change: SessionChange) {
        guard let start = history?.openJournalStart, let base = history?.journalBase else { return }
        // A step starts with an entry: one that changes nothing, if the step has none yet.
        if base &+ stock.journalCount == start { stock.journalNothing() }
        history?.record(change, journalCount: stock.journalCount)
    }

    /// Runs `spec`, keeping what takes back what it changes; the outermost command closes its step.
    func runRecorded(_ spec: CommandSpec, _ call: Invocation) throws(ScriptError) {
        if spec.group == .history {
            // Inside a `source`, what the file changed before this command is a step of its own
            // (checked as it ran, so it fits: were it not to, it is taken back, as any step).
            guard closeStep() else { throw Self.tooLarge(at: call.range(0)) }
            try spec.run(self, call)
            return
        }
        historyDepth &+= 1
        do {
            try spec.run(self, call)
        } catch {
            _ = finishStep(failed: true)
            throw error
        }
        guard finishStep(failed: false) else { throw Self.tooLarge(at: call.range(0)) }
    }

    /// Ends a command's part in the step being made; false if the history cannot hold the
    /// step (it was taken back: the command is to fail with `history-too-large`).
    @inline(__always)
    private func finishStep(failed: Bool) -> Bool {
        historyDepth &-= 1
        // A command inside a `source`: the step goes on, but not past the bound.
        guard historyDepth == 0 else { return failed || openStepFits() }
        // At the prompt, a failed command inside a transaction changes nothing (psql's
        // ON_ERROR_ROLLBACK interactive): what it did before failing (a `source`) is taken back.
        if failed && atPrompt && history?.inTransaction == true {
            takeBackOpen()
            return true
        }
        return closeStep()
    }

    /// Closes the step being made: the next entry journaled starts the next. Past the bound,
    /// the oldest steps are dropped; if that is not room enough (the steps of an open
    /// transaction are never dropped, nor the step itself), the step is taken back and
    /// false returned.
    @inline(__always)
    @discardableResult
    func closeStep() -> Bool {
        guard let passed = history?.closeStep(journalCount: stock.journalCount, ledgerBytes: stock.journaledLedgerBytes)
        else { return true }
        stock.nextEntryStartsStep = true
        if passed { return makeRoom() }
        return true
    }

    /// The history has passed its bound with the step just closed: the oldest steps are
    /// dropped, or, if the history cannot hold the step even so, the step is taken back.
    private func makeRoom() -> Bool {
        if dropOldest(keepingLast: true, openBytes: 0) {
            history?.forgetUndone()
            return true
        }
        _ = try? takeBackLastStep()
        return false
    }

    /// Whether the history can hold the step being made so far (a `source` running), the
    /// oldest steps dropped if need be; if not, the step is taken back.
    private func openStepFits() -> Bool {
        guard let history else { return true }
        let open = Self.stepBytes(
            entries: history.journalBase &+ stock.journalCount &- history.openJournalStart,
            ledgerBytes: stock.journaledLedgerBytes &- history.ledgerBytesMark, changesBytes: history.openChangesBytes)
        guard history.bytes &+ open > UndoHistory.byteLimit else { return true }
        if dropOldest(keepingLast: false, openBytes: open) { return true }
        takeBackOpen()
        return false
    }

    /// The error of a command whose step the history cannot hold.
    static func tooLarge(at range: SourceRange) -> ScriptError {
        ScriptError(.historyTooLarge(limit: UndoHistory.memoryBound), at: range)
    }

    /// The bytes a step keeps: `entries` journal entries, `ledgerBytes` of ledgers kept
    /// whole, and catalog and variable changes of `changesBytes` (as `closeStep` counted them).
    private static func stepBytes(entries: Int, ledgerBytes: Int, changesBytes: Int) -> Int {
        UndoHistory.stepBytes &+ UndoHistory.journalEntryBytes &* entries &+ ledgerBytes &+ changesBytes
    }

    /// Drops the oldest steps (not those of an open transaction, nor the last done step if
    /// `keepingLast`: it is the one being checked) until, with `openBytes` of the step being
    /// made, a quarter of the bound is free, and their entries from the front of the journal.
    /// Returns false, dropping nothing, if even dropping every step it may leaves the history
    /// past the bound. Walks what it drops (each step is dropped once, so the walk is paid for
    /// by the steps' own recording; a walk that finds no room is followed by a step taken back).
    private func dropOldest(keepingLast: Bool, openBytes: Int) -> Bool {
        guard let steps = history?.stepCount, let kept = history?.bytes, let base = history?.journalBase,
            let changes = history?.changes
        else { return true }
        let bytes = kept &+ openBytes
        let droppable = min(history?.savepoints.first?.steps ?? steps, keepingLast ? steps - 1 : steps)
        let count = stock.journalCount
        var dropped = 0
        var freed = 0
        var end = 0
        var changeIndex = changes.startIndex
        while dropped < droppable && bytes - freed > UndoHistory.byteLimit * 3 / 4 {
            // A step runs from its flagged entry to the next.
            let start = end
            var ledgerBytes = 0
            repeat {
                ledgerBytes &+= stock.journal?[end].keptLedgerBytes ?? 0
                end += 1
            } while end < count && stock.journal?.startsStep(end) == false
            var changesBytes = 0
            while changeIndex < changes.endIndex && changes[changeIndex].journalPosition <= base &+ end {
                changesBytes &+= changes[changeIndex].change.storageEstimate
                changeIndex += 1
            }
            freed &+= Self.stepBytes(entries: end - start, ledgerBytes: ledgerBytes, changesBytes: changesBytes)
            dropped += 1
        }
        guard bytes - freed <= UndoHistory.byteLimit else { return false }
        guard dropped > 0 else { return true }
        history?.forgetOldest(dropped, stepBytes: freed, journalEnd: base &+ end)
        stock.journal?.removeFirst(end)
        return true
    }

    /// Takes back a step whose stock changes are the journal's entries from `journalStart` on,
    /// and whose other changes are `changes`: all of them last first, in the order they were
    /// made. Returns their inverses in the order applied, and the bytes of the ledgers kept
    /// whole it took back; the journal is cut at `journalStart`, the next entry starting a step.
    func takeBack(journalFrom journalStart: Int, _ changes: [UndoHistory.PlacedChange]) throws(CarFactoryError) -> (
        inverses: [SessionChange], ledgerBytes: Int
    ) {
        let base = history?.journalBase ?? 0
        var inverses: [SessionChange] = []
        var ledgerBytes = 0
        var position = base + stock.journalCount
        inverses.reserveCapacity(position - journalStart + changes.count)
        var next = changes.endIndex
        // However it ends, the journal is cut where the step began.
        defer {
            stock.journal?.keepFirst(journalStart - base)
            stock.nextEntryStartsStep = true
            // Ledgers journaled while applying were taken off the journal again: not to be counted.
            history?.ledgerBytesMark = stock.journaledLedgerBytes
        }
        while true {
            // The changes made after the journal's entry before `position` come before it.
            while next > changes.startIndex && changes[next - 1].journalPosition >= position {
                next -= 1
                if let inverse = try make(changes[next].change) { inverses.append(inverse) }
            }
            guard position > journalStart, let entry = stock.journal?[position - 1 - base] else { break }
            position -= 1
            // The journal's last entry leaves it before it is applied: a ledger a `clear` kept,
            // put back, is then the stock's alone, and taking back the changes before the
            // `clear` copies none of its lines (the cut below would drop it only at the end).
            if stock.journalCount == position + 1 - base { _ = stock.journal?.popLast() }
            if case .nothing = entry { continue }
            ledgerBytes &+= entry.keptLedgerBytes
            // Its inverse, journaled by the ledger, is taken off the tail again.
            try stock.apply(entry)
            if let inverse = stock.journal?.popLast() { inverses.append(.stock(inverse)) }
        }
        return (inverses, ledgerBytes)
    }

    /// Takes back the last done step (the step being made is empty); returns its inverses.
    private func takeBackLastStep() throws(CarFactoryError) -> [SessionChange] {
        guard let steps = history?.stepCount, steps > 0, let base = history?.journalBase,
            let end = history?.openJournalStart
        else { return [] }
        // The step starts at the flagged entry before the end (the journal's first is one).
        var index = end - base - 1
        guard index >= 0 else {
            // Not reached (a done step has entries); were it, the step is gone all the same.
            history?.popStep(journalStart: end, stepBytes: 0)
            return []
        }
        while index > 0 && stock.journal?.startsStep(index) == false { index -= 1 }
        let start = base + index
        let changes = history?.popChanges(after: start) ?? []
        var changesBytes = 0
        for placed in changes { changesBytes &+= placed.change.storageEstimate }
        let taken: (inverses: [SessionChange], ledgerBytes: Int)
        do {
            taken = try takeBack(journalFrom: start, changes)
        } catch {
            // The journal is cut: the step is gone, whatever its ledgers kept.
            history?.popStep(
                journalStart: start, stepBytes: Self.stepBytes(entries: end - start, ledgerBytes: 0, changesBytes: changesBytes))
            throw error
        }
        history?.popStep(
            journalStart: start,
            stepBytes: Self.stepBytes(entries: end - start, ledgerBytes: taken.ledgerBytes, changesBytes: changesBytes))
        return taken.inverses
    }

    /// Makes `change` and returns its inverse; a stock change's is journaled by the ledger
    /// (nil here).
    private func make(_ change: SessionChange) throws(CarFactoryError) -> SessionChange? {
        switch change {
        case .stock(let change):
            try stock.apply(change)
            return nil
        case .catalog(let catalog):
            return .catalog(undoCatalog(catalog))
        case .variable(let name, let value):
            return .variable(name, restoreVariable(name, to: value))
        case .unchecked:
            return .unchecked
        }
    }

    /// Takes back the step being made, keeping nothing of it.
    func takeBackOpen() {
        guard let start = history?.openJournalStart, let changes = history?.popChanges(after: start) else { return }
        _ = try? takeBack(journalFrom: start, changes)
    }

    /// `undo N`: takes back the last `count` steps, which `redo` can then replay; more steps
    /// than there are is an error at `countRange` (N), if given.
    func undo(_ count: Int, at range: SourceRange, countAt countRange: SourceRange? = nil) throws(ScriptError) {
        guard let available = history?.undoableSteps else { throw Self.noHistory("undo", at: range) }
        if history?.unfollowedBelow != nil { return undoNotFollowed() }
        // Checked, a step of commands the check does not run counts as one: more than
        // `available` is more than there are when run too.
        guard count <= available else {
            let limit = history?.inTransaction == true ? " since 'begin'" : ""
            // Checked, a step of commands the check does not run may have been none when run:
            // there are no more than `available`, but how many is not known (trial 11, 7).
            let known = !options.checkOnly || !someStepIsUnchecked(amongLast: available)
            throw ScriptError(
                .history(
                    available == 0
                        ? "nothing to undo\(limit)"
                        : known
                            ? "only \(available) step\(available == 1 ? "" : "s") to undo\(limit)"
                            : "fewer than \(count) steps to undo\(limit)"), at: countRange ?? range)
        }
        for _ in 0..<count {
            if options.checkOnly && someStepIsUnchecked(amongLast: 1) {
                history?.stopFollowing()
                return undoNotFollowed()
            }
            do throws(CarFactoryError) {
                history?.pushUndone(try takeBackLastStep())
            } catch {
                throw ScriptError(.domain(error), at: range)
            }
        }
    }

    /// `--check`, an `undo` it does not follow: the run's may take back any step since the
    /// innermost `begin`, so the variables set in them may be gone or as they were before
    /// (`uncertainVariables`). `var v sports; begin; var v x; car compact; undo 2; car $v` said
    /// `unknown model 'x'`, where the run had taken `var v x` back.
    func undoNotFollowed() {
        if let (names, look) = history?.variablesUndoMayTakeBack(since: variablesLooks.undo) {
            uncertainVariables.formUnion(names)
            variablesLooks.undo = look
        }
    }

    /// `redo N`: replays the last `count` steps undone; more than there are is an error at `countRange` (N), if given.
    func redo(_ count: Int, at range: SourceRange, countAt countRange: SourceRange? = nil) throws(ScriptError) {
        guard let available = history?.redoableSteps else { throw Self.noHistory("redo", at: range) }
        // Not followed, the check replays what it undid (the steps undone when run may be
        // more): what a redo may bring back is there for the lines after it.
        let followed = history?.unfollowedBelow == nil
        guard count <= available || !followed else {
            throw ScriptError(
                .history(
                    available == 0
                        ? "nothing to redo"
                        : "only \(available) step\(available == 1 ? "" : "s") to redo"), at: countRange ?? range)
        }
        for _ in 0..<min(count, available) {
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
        stock.nextEntryStartsStep = true
    }

    /// `--check`: a command it does not run, which may change the stock or a rate when run, is
    /// a step of its own (or part of the `source` running), made only of `.unchecked`: `undo`
    /// then counts it, and does not follow past it (see `UndoHistory.unfollowedBelow`). While
    /// steps undone could be redone, `undo` and `redo` are not followed from it on.
    func recordUnchecked() {
        // It may have changed nothing, and so kept the steps undone for `redo`: they are kept.
        if history?.redoableSteps ?? 0 > 0 {
            history?.stopFollowing()
            return
        }
        record(.unchecked)
        if historyDepth == 0 { closeStep() }
    }

    /// `--check`, for a command it does not run: with `--keep-going`, the run may fail there,
    /// which rolls back every open transaction and goes on (see `UndoHistory.runMayHaveRolledBack`).
    func passUnrun() {
        commandsPassedUnrun &+= 1
        if options.keepGoing && history?.inTransaction == true { runMayHaveFailed() }
        // Inside `try`, its failure rolls back the transaction open outside it as the `try`
        // ends: the analysis no longer follows the run (`try cheapest ...`; trial 13, 2).
        if options.keepGoing && transactionOutsideWhatIf { runMayHaveDiverged = true }
    }

    /// `--check`: the run may have failed here, rolling back every open transaction: the
    /// variables they set may be gone or as they were before (`uncertainVariables`; s47 of
    /// check12's fuzz: the check read `$v` as the value a rolled-back `var` gave it).
    func runMayHaveFailed() {
        if history?.inTransaction == true { runMayHaveDiverged = true }
        if let (names, look) = history?.variablesSetInTransactions(since: variablesLooks.transactions) {
            uncertainVariables.formUnion(names)
            variablesLooks.transactions = look
        }
        history?.runMayHaveFailed()
    }

    /// `--check`, while the history is not followed (or the check made definitions the run may
    /// not have, `definitionsUncertain`): whether `error` may be the check's alone.
    /// The run may have taken back a definition the check still has (an undo, or a rollback
    /// on an error only the run meets), so a definition refused because a name, a rule or a
    /// model is already there, or because the catalog or the variables would pass a bound, may
    /// be accepted when run. The check then keeps what it has and says nothing: it may find
    /// less than running, never more.
    func mayBeTheChecksAlone(_ error: ScriptError) -> Bool {
        if case .uncertainVariable = error.kind { return true }
        guard options.checkOnly, history?.unfollowedBelow != nil || definitionsUncertain else { return false }
        switch error.kind {
        case .variablesTooLarge: return true
        case .domain(let domain):
            switch domain {
            case .duplicateModel, .duplicateOption, .duplicateCurrency, .duplicateRule, .duplicateFamily, .defaultsBreakRule,
                .tooManyFamilies, .catalogTooLarge, .tooManyOptions, .modelCouldCostLessThanNothing:
                return true
            default: return false
            }
        default: return false
        }
    }

    /// Whether running `spec` may change the stock, the catalog or a variable (a step for `undo`).
    static func changesWhenRun(_ spec: CommandSpec) -> Bool { rehearses(spec) && !spec.answersOnly }

    /// `--check`: whether one of the last `count` done steps is made only of commands the
    /// check does not run (when run, it may have been no step at all).
    private func someStepIsUnchecked(amongLast count: Int) -> Bool {
        guard let steps = history?.stepCount, steps >= count, let base = history?.journalBase,
            var end = history?.openJournalStart, let changes = history?.changes
        else { return false }
        // The changes are in journal order: each step's are found walking back with its start.
        var next = changes.count - 1
        for _ in 0..<count {
            var index = end - base - 1
            guard index >= 0 else { return false }
            while index > 0 && stock.journal?.startsStep(index) == false { index -= 1 }
            let start = base + index
            while next >= 0 && changes[next].journalPosition > end { next -= 1 }
            var unchecked = false
            var checked = false
            while next >= 0 && changes[next].journalPosition > start {
                if case .unchecked = changes[next].change { unchecked = true } else { checked = true }
                next -= 1
            }
            if unchecked && !checked { return true }
            end = start
        }
        return false
    }

    /// `begin`: opens a transaction, or a savepoint inside one.
    func beginTransaction(at range: SourceRange) throws(ScriptError) {
        if let history, history.savepoints.count >= UndoHistory.maximumTransactionDepth {
            throw ScriptError(.transactionDepth(limit: UndoHistory.maximumTransactionDepth), at: range)
        }
        // Checking keeps few steps: no room is set aside for the bound's.
        if history == nil { startHistory(reserving: !options.checkOnly) }
        history?.begin()
    }

    /// `commit`: closes the innermost transaction, keeping its changes as one step.
    func commitTransaction(at range: SourceRange) throws(ScriptError) {
        guard history?.inTransaction == true, let savepoint = history?.endTransaction(rolledBack: false) else {
            throw ScriptError(.history("no transaction is open: 'begin' opens one"), at: range)
        }
        guard history?.merge(since: savepoint) == true, let base = history?.journalBase, let end = history?.openJournalStart
        else { return }
        // One step: only its first entry starts it.
        for index in (savepoint.journalStart + 1 - base)..<(end - base) { stock.journal?.joinStep(index) }
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
        if history?.runMayHaveRolledBack == true {
            // Nothing is taken back, but a variable set in them since the run may have failed
            // is taken back when run, where the run has them still: uncertain too (it said
            // `unknown model 'nosuch'` for `var v nosuch; rollback; car $v`, where the run's `$v`
            // was the value from before the `begin`; chkfuzz, seed 5162).
            runMayHaveFailed()
            for _ in 0..<levels { _ = history?.endTransaction(rolledBack: true) }
            history?.forgetUndone()
            return
        }
        takeBackOpen()
        for _ in 0..<levels {
            guard let savepoint = history?.endTransaction(rolledBack: true) else { return }
            while (history?.stepCount ?? 0) > savepoint.steps {
                _ = try? takeBackLastStep()
            }
        }
        history?.forgetUndone()
    }

    /// Takes back every step the history holds and the one being made, whatever its
    /// transactions (what `try` tried, in a history of its own).
    func takeBackEverything() {
        takeBackOpen()
        while (history?.stepCount ?? 0) > 0 {
            _ = try? takeBackLastStep()
        }
    }

    /// At the end of input, an open transaction is rolled back, with a warning.
    func endOfInput(_ frame: ScriptFrame) {
        endOfInput(at: (file: frame.lines.file, line: frame.lineNumber))
    }

    /// `endOfInput`, the warning placed at the last line read of `file`.
    func endOfInput(at place: (file: String, line: Int)) {
        guard let open = history?.savepoints.count, open > 0 else { return }
        rollBackEverything()
        // The run may have rolled them back already, on an error the check did not see.
        if history?.runMayHaveRolledBack == true { return }
        let what = open == 1 ? "a transaction" : "\(open) nested transactions"
        sink.receive(
            Diagnostic(
                id: "history", severity: .warning, file: place.file, line: max(place.line, 1),
                column: 1, message: "end of input with \(what) open: rolled back"))
    }

    private static func noHistory(_ command: String, at range: SourceRange) -> ScriptError {
        ScriptError(
            .history("no undo history is kept in a script: '\(command)' works at the prompt, or after 'begin'"),
            at: range)
    }
}
