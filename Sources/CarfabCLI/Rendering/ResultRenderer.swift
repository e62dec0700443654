import CarScript

/// Turns results and diagnostics into output: text and JSON are two renderers of the same
/// values, and each is the engine's sink.
public protocol ResultRenderer: ResultSink {
    /// Writes what `command` produced.
    func render(_ result: CommandResult, command: CommandSpec)
    /// Writes a problem.
    func render(_ diagnostic: Diagnostic)
    /// Where results go.
    var output: Output { get }
}
