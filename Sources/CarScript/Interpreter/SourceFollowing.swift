// An analysis (`--check`, an editor's) follows `source` into files as a run does, but a run of
// a small tree of files that each source the next twice is 2^40 commands (trial 8, 1): a
// check that followed every `source` never ended, and the editor's analysis wedged the
// language server. What a check's following of a file does and reports depends on the
// catalog, the variables and the undo history (`Session.stateChanges` counts every change to
// the first two, and the history's counts move with every change a check makes to it), and
// on where the file runs: in `try` (which refuses `save` and takes back what it tried) and in
// commands (`expect error` nesting's bound), from which folder its own relative paths are read
// (a link may stand in another), and which files run around it (a `source` in it may be a
// cycle under some, or pass the depth bound). The first two are in the `AnalysisMark`, the
// folder and the files around it in the key a file is known by. So a file
// whose last following changed none of them, ended in no `quit` and is sourced again with none
// changed since, would do and report exactly what it did: it is not followed again (its errors
// were reported once already). Inside `try`, one that reported an error is followed again: the
// error fails the `try`, which rolls back a transaction open outside it. Each file is then
// followed at most twice while nothing changes (a tree of `source`s is linear in its files).
// Where followings keep changing the state (a file that appends to a variable, or makes a step
// in a transaction), each is followed, at most `maximumRefollowings` times in all: past that
// the analysis stops at that `source`, with a warning, for good (no `try` takes that stop
// back), having found less than a run may, never more.

/// How many times an analysis follows a file it has followed already, in all.
package let maximumRefollowings = 1 << 16

/// What an analysis reads of a session, as numbers any change to it moves: the changes to the
/// catalog and variables, the undo history's counts (steps, changes kept, steps undone,
/// transactions, how far it is followed), and how deep the file runs in `try`s and commands
/// (how deep in scripts is in the key: see `followingKey`). Made only where a `source` begins or ends, so the commands in between pay
/// nothing for it.
struct AnalysisMark: Equatable {
    var stateChanges: Int
    var whatIfDepth: Int
    var commandNesting: Int
    var steps = 0
    var changes = 0
    var undone = 0
    var savepoints = 0
    var undoable = 0
    var bytes = 0
    var unfollowedBelow: Int?
    var runMayHaveRolledBack = false
    var effectsUnknown = false
}

/// How a file's last following in an analysis went.
struct FollowedFile {
    /// The session's mark when it ended.
    var after: AnalysisMark
    /// Whether it changed nothing an analysis reads.
    var changedNothing: Bool
    /// Whether it reported an error.
    var failed: Bool
    /// Whether it ended in `quit`: followed again, it would end the script that sources it.
    var quit: Bool
}

extension Session {
    /// The session as an analysis reads it, in numbers.
    var analysisMark: AnalysisMark {
        var mark = AnalysisMark(
            stateChanges: stateChanges, whatIfDepth: whatIfDepth, commandNesting: commandNesting)
        mark.effectsUnknown = effectsUnknown
        if let history {
            mark.steps = history.stepCount
            mark.changes = history.changes.count
            mark.undone = history.redoableSteps
            mark.savepoints = history.savepoints.count
            mark.undoable = history.undoableSteps
            mark.bytes = history.bytes
            mark.unfollowedBelow = history.unfollowedBelow
            mark.runMayHaveRolledBack = history.runMayHaveRolledBack
        }
        return mark
    }

    /// Whether `source` (at `call`) of the file known as `key` (`followingKey`) is followed; if
    /// not, and the bound was passed, the analysis stops here with a warning.
    func mayFollow(_ key: [UInt8], identity: [UInt8], for call: Invocation) -> Bool {
        if let last = followedFiles?[key],
            options.checkOnly && last.changedNothing && !last.quit
                && (!last.failed || whatIfDepth == 0) && last.after == analysisMark
        {
            return false
        }
        // A file's first following is free; every later one counts, under any key: the files
        // around it are in the key, so a tree of files reached by two ways at each level (`a`
        // sourcing `b` both directly and through a wrapper) has keys as many as its paths.
        if followedIdentities == nil { followedIdentities = [] }
        if followedIdentities?.insert(identity).inserted == true { return true }
        guard refollowings < maximumRefollowings else {
            // Once said; a later `source` (after a `try` that took the stop back) stops again.
            if refollowings == maximumRefollowings, let frame = frames.last {
                var warning = frame.diagnostic(
                    ScriptError(
                        .sourceRepeats(
                            "the check has followed files it had followed already \(maximumRefollowings) times, as many as it may: it stops here, and the lines after this are not checked"
                        ), at: call.range(1)),
                    width: sink.sourceWindowWidth)
                warning.severity = .warning
                sink.receive(warning)
                refollowings += 1
            }
            stopAnalysis()
            return false
        }
        refollowings += 1
        return true
    }

    /// The file known as `key` has been followed, from a session marked `before`, when
    /// `failuresBefore` errors had been reported.
    func noteFollowed(_ key: [UInt8], from before: AnalysisMark, failuresBefore: Int) {
        let after = analysisMark
        let file = FollowedFile(
            after: after, changedNothing: after == before, failed: failureCount > failuresBefore, quit: quitRequested)
        if followedFiles == nil { followedFiles = [:] }
        followedFiles?[key] = file
    }

    /// What a followed file is known by: its host `identity` and that of the folder its relative
    /// paths are read from (`directory`, as its name was written: a link to it from another
    /// folder reads other files). The folder's identity, not its name: names that spell one
    /// folder many ways (`./././x`) would each be a file not followed yet, and a tree of them
    /// as long to check as to run.
    /// The files running around it are in the key too, one NUL-led segment each (names hold no
    /// NUL): whether a `source` inside it is a cycle (`source-cycle`) or too deep
    /// (`source-depth`) depends on them (review: `a` and `b` each sourcing `g`, which sources
    /// `b`, is a cycle only under `b`).
    func followingKey(_ identity: [UInt8], directory: String) -> [UInt8] {
        var key = identity + [0] + (options.host?.identity(of: Array(directory.utf8)) ?? Array(directory.utf8))
        for running in enclosingScripts.map(\.identity) + frames.map(\.identity) {
            key += [0] + (running ?? [])
        }
        return key
    }
}
