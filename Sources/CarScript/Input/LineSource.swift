/// Why a line could not be read.
public enum LineSourceFailure: Error, Equatable, Sendable {
    /// A physical line was longer than the limit; it was skipped.
    case lineTooLong(limit: Int)
    /// The input could not be read at all.
    case unreadable(String)
    /// A stop was asked for (a signal, `Engine.cancellation`).
    case interrupted
    /// Ctrl-C at the prompt: what was typed is dropped.
    case abandoned
}

/// Where lines come from: a file, a pipe, text, or a person at a terminal.
///
/// The engine makes its own for text; files and standard input come from its ``EngineHost``;
/// a program adds its own (carfab's prompt on libedit) by conforming.
public protocol LineSource: AnyObject {
    /// The name diagnostics show: a path, `<stdin>` or `<command-line>`.
    var name: String { get }
    /// The file's path, for a file (relative paths in it resolve against its directory).
    var path: String? { get }
    /// Whether a person types the lines: errors then end only the line.
    var isInteractive: Bool { get }
    /// Whether it reads the program's standard input, under whatever name (`<stdin>`,
    /// `/dev/stdin`, `/proc/self/fd/0`): a script read from there cannot source it again.
    var readsProcessInput: Bool { get }
    /// The next physical line, without its line break; nil at the end of input.
    /// `continuation` says the line continues an open one (a prompt shows another prompt).
    func readLine(continuation: Bool) throws(LineSourceFailure) -> [UInt8]?
    /// Takes a whole command as typed (a logical line, as one line that means the same), for
    /// history: its bytes, which may be refused (not UTF-8, a NUL, a bad escape) and still kept.
    func record(_ command: [UInt8])
    /// Tells the person at the prompt that Ctrl-C interrupted what was running, and where.
    func interrupted(at place: String?)
    /// At a prompt, takes back a stop that a person's interrupt (Ctrl-C) asked for, so that it
    /// ends only what was running, not the session; true if it did. Only an interactive
    /// source is asked, and only it knows what the interrupt is (a signal, a key).
    func withdrawInterrupt(from stop: StopRequest) -> Bool
}

extension LineSource {
    /// Not a file.
    public var path: String? { nil }

    /// Files, pipes and text are not interactive.
    public var isInteractive: Bool { false }

    /// Text and files are not standard input unless the host says so.
    public var readsProcessInput: Bool { false }

    /// Only a prompt keeps history.
    public func record(_ command: [UInt8]) {}

    /// Only a prompt is told.
    public func interrupted(at place: String?) {}

    /// Only a prompt takes an interrupt back.
    public func withdrawInterrupt(from stop: StopRequest) -> Bool { false }
}

/// A source that reads into the engine's own buffer, or lends a line where it lies: the
/// engine's file, pipe and text sources, on the command loop's hot path.
package protocol BufferedLineSource: LineSource {
    /// Appends the next physical line, without its line break, to `bytes`; false at the end of input.
    func readLine(into bytes: ByteBuffer, continuation: Bool) throws(LineSourceFailure) -> Bool
    /// The input the source holds in memory, whose whole lines the runner takes where they lie
    /// (see `LineChunk`), reading through `readLine(into:continuation:)` what is not whole there.
    var chunk: LineChunk { get }
    /// How many physical lines of a larger text come before the source's first: its lines are
    /// numbered on from there (an editor's analysis runs a document a line at a time).
    var linesBefore: Int { get }
}

extension BufferedLineSource {
    /// The next line, copied out of the buffer.
    package func readLine(continuation: Bool) throws(LineSourceFailure) -> [UInt8]? {
        let bytes = ByteBuffer()
        return try readLine(into: bytes, continuation: continuation) ? bytes.array : nil
    }

    /// A whole text or file: its first line is line 1.
    package var linesBefore: Int { 0 }
}

/// The most bytes a source reads of one physical line: the longest logical line, and the
/// `\` and CR of its line end, which the limit does not count.
package let maximumPhysicalLineLength = maximumLineLength + 2

/// Lines of text held in memory (`-e`).
final class TextLineSource: BufferedLineSource {
    let name: String
    /// The file the text stands for, if any (an editor's unsaved copy): relative paths in it resolve against its directory.
    let path: String?
    /// The text, whole, in memory that stays put, so lines can be lent in place.
    let chunk: LineChunk

    /// Lines of the larger text this one is part of before its first (see `BufferedLineSource`).
    let linesBefore: Int

    init(bytes: [UInt8], name: String, path: String? = nil, linesBefore: Int = 0) {
        self.name = name
        self.path = path
        self.linesBefore = linesBefore
        chunk = LineChunk(holding: bytes)
    }

    func readLine(into out: ByteBuffer, continuation: Bool) throws(LineSourceFailure) -> Bool {
        // The text is all there is: nothing more to read.
        try chunk.readLine(into: out) { () throws(LineSourceFailure) in false }
    }
}

/// A source of `bytes` held in memory, named `name` in diagnostics (`-e` text; they need not be
/// UTF-8); `path`, if given, is the file they stand for, whose directory relative paths resolve
/// against; `linesBefore`, the lines of that file before these (their first is line `linesBefore + 1`).
package func openLineSource(text bytes: [UInt8], name: String, path: String? = nil, linesBefore: Int = 0) -> any BufferedLineSource {
    TextLineSource(bytes: bytes, name: name, path: path, linesBefore: linesBefore)
}

/// Lines of `text` held in memory, named `name` in diagnostics; `path`, if given, is the file
/// they stand for (relative names in them resolve against its folder). For a host whose files
/// are in memory, and for text that is not a file.
public func textLines(_ text: [UInt8], name: String, path: String? = nil) -> any LineSource {
    TextLineSource(bytes: text, name: name, path: path)
}
