/// Turns results and diagnostics into output; text and JSON are two renderers of the same values.
public protocol ResultRenderer: AnyObject {
    /// Writes what `command` produced.
    func render(_ result: CommandResult, command: CommandSpec)
    /// Writes a problem.
    func render(_ diagnostic: Diagnostic)
    /// Writes everything still buffered.
    func flush()
    /// Where results go (the session reads its `failed` to stop at a closed pipe).
    var output: Output { get }
}

