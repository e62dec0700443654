/// Turns results and diagnostics into output; text and JSON are two renderers of the same values.
public protocol ResultRenderer: AnyObject {
    /// Writes what `command` produced.
    func render(_ result: CommandResult, command: CommandSpec)
    /// Writes a problem.
    func render(_ diagnostic: Diagnostic)
    /// Writes everything still buffered.
    func flush()
    /// Where results go.
    var output: Output { get }
}

extension ResultRenderer {
    /// Whether standard output can no longer be written (e.g. a closed pipe).
    public var outputFailed: Bool { output.failed }
}
