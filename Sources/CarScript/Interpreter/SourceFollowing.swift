// An analysis (`--check`, an editor's) follows `source` into files as a run does, but a run of
// a small tree of files that each source the next twice is 2^40 commands (trial 8, 1): a
// check that followed every `source` never ended, and the editor's analysis wedged the
// language server. A check only reads the catalog, the variables and the undo history, and
// `Session.stateChanges` counts every change to them; so a file whose last following changed
// none of them, sourced again with none changed since, would do and report exactly what it
// did: it is not followed again (its errors were reported once already). Inside `try`, one
// that reported an error is followed again: the error fails the `try`, which rolls back a
// transaction open outside it. Each file is then followed at most
// twice while nothing changes (a tree of `source`s is linear in its files). Where followings
// keep changing the state (a file that appends to a variable, or makes a step in a
// transaction), each is followed, at most `maximumRefollowings` times in all: past that the
// analysis stops at that `source`, with a warning, having found less than a run may, never more.

/// How many times an analysis follows a file it has followed already, in all.
package let maximumRefollowings = 1 << 16

/// How a file's last following in an analysis went.
struct FollowedFile {
    /// `Session.stateChanges` when it ended.
    var changesAfter: Int
    /// Whether it changed nothing an analysis reads.
    var changedNothing: Bool
    /// Whether it reported an error.
    var failed: Bool
}

extension Session {
    /// Whether `source` (at `call`) of the file `identity` is followed; if not, and the bound
    /// was passed, the analysis stops here with a warning.
    func mayFollow(_ identity: [UInt8], for call: Invocation) -> Bool {
        guard let last = followedFiles[identity] else { return true }
        if options.checkOnly && last.changedNothing && last.changesAfter == stateChanges && (!last.failed || whatIfDepth == 0) {
            return false
        }
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
            // The run goes on, and may close the transactions open here: none is warned of
            // at the end, nor rolled back as if it had been.
            history?.runMayHaveFailed()
            quitRequested = true
            return false
        }
        refollowings += 1
        return true
    }

    /// The file `identity` has been followed, from when the state had changed `changesBefore`
    /// times and `failuresBefore` errors had been reported.
    func noteFollowed(_ identity: [UInt8], changesBefore: Int, failuresBefore: Int) {
        followedFiles[identity] = FollowedFile(
            changesAfter: stateChanges, changedNothing: stateChanges == changesBefore, failed: failureCount > failuresBefore)
    }
}
