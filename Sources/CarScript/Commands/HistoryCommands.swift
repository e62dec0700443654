import CarFactory

/// `undo`, `redo`, `begin`, `commit`, `rollback` (see `Interpreter/UndoHistory.swift`).
enum HistoryCommands {
    /// The most steps one `undo N` or `redo N` names.
    static let mostSteps = 1 << 30

    static let all: [CommandSpec] = [
        CommandSpec(
            name: "undo", aliases: [], group: .history,
            arguments: [.optional("N", .integer(.steps))],
            summary: "take back the last N changes (default 1)",
            details:
                "A step is one command that changed the stock, the current line, the catalog (a definition or a rate) or a variable; a whole 'source' is one step. Commands that change nothing are not steps. N is from 1 to \(mostSteps). 'redo' replays what was undone until the next change. Undoing more steps than there are is an error that changes nothing; inside a transaction, undo goes back no further than its 'begin'. The history is kept at the prompt (and, in a script, from its first 'begin'), bounded at \(UndoHistory.memoryBound >> 20) MiB: once its steps keep \(UndoHistory.byteLimit >> 20) MiB, the oldest are forgotten first. The steps of an open transaction are never forgotten, and no step is: a command whose step the history cannot hold even so (a transaction's steps past the bound, a 'source' larger than it) fails with 'history-too-large' and changes nothing.",
            example: "begin; car compact 2; undo; commit",
            // In a script their effect is known without running: `--check` follows it.
            runsWhenChecking: true,
            run: { session, call throws(ScriptError) in try session.undo(steps(call), at: call.range(0), countAt: stepsRange(call)) }),
        CommandSpec(
            name: "redo", aliases: [], group: .history,
            arguments: [.optional("N", .integer(.steps))],
            summary: "replay the last N steps undone (default 1)",
            details:
                "Replays what 'undo' took back, most recently undone first, until a new change is made, which forgets them. N is from 1 to \(mostSteps). Redoing more steps than were undone is an error that changes nothing.",
            example: "begin; car compact 2; undo; redo; commit",
            // In a script their effect is known without running: `--check` follows it.
            runsWhenChecking: true,
            run: { session, call throws(ScriptError) in try session.redo(steps(call), at: call.range(0), countAt: stepsRange(call)) }),
        CommandSpec(
            name: "begin", aliases: [], group: .history,
            arguments: [],
            summary: "open a transaction (inside one: a savepoint)",
            details:
                "The changes after 'begin' are kept together: 'commit' keeps them (as one step for 'undo'), 'rollback' takes them all back. A 'begin' inside a transaction opens a savepoint, which 'commit' and 'rollback' close first; they nest at most \(UndoHistory.maximumTransactionDepth) deep ('transaction-depth'). In a script, an error inside a transaction rolls every open one back (with --keep-going the script then goes on); at the prompt, a failed command changes nothing and the transaction stays open. At the end of input an open transaction is rolled back, with a warning; the end of a sourced file is not the end of input (a transaction it leaves open stays open after it), but 'try source FILE' rolls it back with the rest, with the same warning. Its steps are never forgotten, so they count against the undo history's bound (see 'help undo'): the command that would pass it fails with 'history-too-large' (in a script, that rolls the transaction back).",
            example: "begin; car compact 2; rollback",
            // In a script their effect is known without running: `--check` follows it.
            runsWhenChecking: true,
            run: { session, call throws(ScriptError) in try session.beginTransaction(at: call.range(0)) }),
        CommandSpec(
            name: "commit", aliases: [], group: .history,
            arguments: [],
            summary: "keep the changes since the innermost 'begin'",
            details:
                "Closes the innermost transaction or savepoint; its changes become one step, which 'undo' takes back whole. Without an open transaction it is an error.",
            example: "begin; car compact 2; commit",
            // In a script their effect is known without running: `--check` follows it.
            runsWhenChecking: true,
            run: { session, call throws(ScriptError) in try session.commitTransaction(at: call.range(0)) }),
        CommandSpec(
            name: "rollback", aliases: [], group: .history,
            arguments: [],
            summary: "take back every change since the innermost 'begin'",
            details:
                "Puts the stock, the catalog and the variables back as they were at the innermost 'begin', and closes that transaction or savepoint. Without an open transaction it is an error.",
            example: "begin; rate GBP 0.5; rollback",
            // In a script their effect is known without running: `--check` follows it.
            runsWhenChecking: true,
            run: { session, call throws(ScriptError) in try session.rollBackTransaction(at: call.range(0)) }),
        CommandSpec(
            name: "try", aliases: [], group: .history,
            arguments: [.required("COMMAND", .words)],
            summary: "show what COMMAND would change, and change nothing",
            details:
                "Runs COMMAND (up to the next ';' or the end of the line) as a what-if: its results are shown, then the cars in stock and their total value in the base currency before, after and the change; then everything it changed is taken back, so the session is exactly as it was. 'try source FILE' tries a whole file (a transaction it leaves open is taken back with the rest, with the end-of-input warning). Files are not written inside 'try' ('save -' still prints). It is not a step for 'undo', and inside a transaction it is not part of it: the transaction, 'undo' and 'redo' are as they were. It cannot try undo, redo, begin, commit, rollback, another try or quit: to try several changes together, use 'begin' ... 'rollback'. If COMMAND fails (in 'try source FILE', if anything in FILE fails), that is the error of 'try': no table is shown, nothing is changed, and in a script an open transaction is rolled back, as by any error. --check checks COMMAND as it checks it outside 'try'.",
            example: "car sports; try set drivetrain 4wd",
            // `--check` checks COMMAND as it checks it outside 'try' (and takes back what that runs).
            runsWhenChecking: true,
            run: { session, call throws(ScriptError) in try session.whatIf(call) })
    ]

    /// Where N is, if given: more steps than there are is said there.
    private static func stepsRange(_ call: Invocation) -> SourceRange? {
        if case .integer = call.value(1) { return call.range(1) }
        return nil
    }

    private static func steps(_ call: Invocation) -> Int {
        if case .integer(let count) = call.value(1) { return count }
        return 1
    }
}
