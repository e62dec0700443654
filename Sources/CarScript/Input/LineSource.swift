#if canImport(Glibc)
import Glibc
#endif

/// Why a line could not be read.
public enum LineSourceFailure: Error, Equatable {
    /// A physical line was longer than the limit; it was skipped.
    case lineTooLong(limit: Int)
    /// The input could not be read at all.
    case unreadable(String)
    /// A signal asked the program to stop.
    case interrupted
    /// Ctrl-C at the prompt: what was typed is dropped.
    case abandoned
}

/// Where lines come from: a file, a pipe, text given on the command line, or a person at a terminal.
///
/// A class cluster: callers get a source from `openLineSource` and never name the kind behind it.
public protocol LineSource: AnyObject {
    /// The name diagnostics show: a path, `<stdin>` or `<command-line>`.
    var name: String { get }
    /// The file's path, for a file (relative paths in it resolve against its directory).
    var path: String? { get }
    /// Appends the next physical line, without its line break, to `bytes`; false at the end of input.
    /// `continuation` says the line continues an open one (an interactive source shows another prompt).
    func readLine(into bytes: ByteBuffer, continuation: Bool) throws(LineSourceFailure) -> Bool
    /// The next physical line, without its line break, where it already lies, if it lies there
    /// whole (valid until the next read); nil, having read nothing, if it does not.
    func nextLineInPlace() -> UnsafeBufferPointer<UInt8>?
    /// Whether a person types the lines: errors then end only the line.
    var isInteractive: Bool { get }
    /// Takes a whole command as typed (a logical line, as one line that means the same), for history.
    func record(_ command: String)
    /// Tells the person at the prompt that Ctrl-C interrupted what was running, and where.
    func interrupted(at place: String?)
}

extension LineSource {
    /// Files, pipes and text are not interactive.
    public var isInteractive: Bool { false }

    /// A source that reads line by line has no lines in place.
    public func nextLineInPlace() -> UnsafeBufferPointer<UInt8>? { nil }

    /// Only a prompt keeps history.
    public func record(_ command: String) {}

    /// Only a prompt is told.
    public func interrupted(at place: String?) {}
}

/// The most bytes a source reads of one physical line: the longest logical line, and the
/// `\` and CR of its line end, which the limit does not count.
let maximumPhysicalLineLength = maximumLineLength + 2

/// Where a line source reads from.
public enum LineOrigin {
    /// Standard input, whatever it is.
    case standardInput
    /// A file by path (`-` for standard input).
    case file(String)
    /// A file by the bytes of its path, which need not be UTF-8 (a command-line argument).
    case filePath([UInt8])
    /// Text given in full, with the name to show for it.
    case text(String, name: String)
    /// Raw bytes given in full (they need not be valid UTF-8), with the name to show for them.
    case bytes([UInt8], name: String)
    /// Standard input read at a prompt: line editing if it is a terminal, a plain stream if not.
    case prompt(PromptSettings)
}

/// What a prompt needs from the program.
public struct PromptSettings {
    /// Colour the prompt.
    var color: Bool
    /// The descriptor of the terminal the prompt is drawn on: standard output, or standard
    /// error when standard output goes elsewhere.
    var terminal: Int32
    /// The history the prompt recalls and records.
    var history: HistoryService?
    /// Makes a completer from the session's current catalog.
    var completer: () -> Completer
    /// Writes out pending results before each prompt.
    var beforePrompt: () -> Void
}

/// Opens the line source for `origin`: the one entry point of the cluster.
public func openLineSource(_ origin: LineOrigin) throws(LineSourceFailure) -> any LineSource {
    switch origin {
    case .standardInput, .file("-"):
        return StreamLineSource(fd: 0, name: "<stdin>", path: nil, ownsDescriptor: false)
    case .file(let path):
        return try openFile(Array(path.utf8))
    case .filePath(let path):
        return path == [UInt8(ascii: "-")] ? try openLineSource(.standardInput) : try openFile(path)
    case .text(let text, let name):
        return TextLineSource(bytes: Array(text.utf8), name: name)
    case .bytes(let bytes, let name):
        return TextLineSource(bytes: bytes, name: name)
    case .prompt(let settings):
        if isatty(0) == 1 {
            useUTF8Locale()
            if let editor = EditLineSource(history: settings.history, color: settings.color, terminal: settings.terminal,
                                           completer: settings.completer, beforePrompt: settings.beforePrompt) {
                return editor
            }
        }
        return StreamLineSource(fd: 0, name: "<stdin>", path: nil, ownsDescriptor: false)
    }
}

/// A stream source reading the file at `path`.
private func openFile(_ path: [UInt8]) throws(LineSourceFailure) -> StreamLineSource {
    let name = String(decoding: path, as: UTF8.self)
    // Opening a FIFO waits for a writer: a stop signal ends the wait without an error of its own.
    let terminated = path.map { CChar(bitPattern: $0) } + [0]
    var fd: Int32
    repeat {
        fd = open(terminated, O_RDONLY | O_CLOEXEC)
        if fd < 0 && errno == EINTR && stopRequested { throw .interrupted }
    } while fd < 0 && errno == EINTR
    guard fd >= 0 else { throw .unreadable("cannot open '\(name)': \(String(cString: strerror(errno)))") }
    var info = stat()
    if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
        close(fd)
        throw .unreadable("cannot read '\(name)': it is a directory")
    }
    return StreamLineSource(fd: fd, name: name, path: name, ownsDescriptor: true)
}

/// Lines of text held in memory (`-e`).
final class TextLineSource: LineSource {
    let name: String
    var path: String? { nil }
    /// The text, in memory that stays put, so lines can be lent in place.
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private var position = 0

    init(bytes: [UInt8], name: String) {
        self.name = name
        self.bytes = .allocate(capacity: bytes.count)
        _ = self.bytes.initialize(from: bytes)
    }

    deinit {
        bytes.deallocate()
    }

    func readLine(into out: ByteBuffer, continuation: Bool) throws(LineSourceFailure) -> Bool {
        guard position < bytes.count else { return false }
        let end = lineEnd()
        guard end - position <= maximumPhysicalLineLength else {
            out.append(UnsafeBufferPointer(rebasing: bytes[position..<position + maximumPhysicalLineLength]))
            position = end + 1
            throw .lineTooLong(limit: maximumLineLength)
        }
        out.append(UnsafeBufferPointer(rebasing: bytes[position..<end]))
        position = end + 1
        return true
    }

    func nextLineInPlace() -> UnsafeBufferPointer<UInt8>? {
        guard position < bytes.count else { return nil }
        let end = lineEnd()
        guard end - position <= maximumPhysicalLineLength else { return nil }
        let line = UnsafeBufferPointer(rebasing: bytes[position..<end])
        position = end + 1
        return line
    }

    /// Where the line at `position` ends: its line break, or the end of the text.
    private func lineEnd() -> Int {
        var end = position
        while end < bytes.count && bytes[end] != 0x0A { end += 1 }
        return end
    }
}

/// Lines of a file or pipe, read in large chunks: memory stays constant however long the input.
final class StreamLineSource: LineSource {
    let name: String
    let path: String?
    private let fd: Int32
    private let ownsDescriptor: Bool
    private let chunk: UnsafeMutableBufferPointer<UInt8>
    private var start = 0
    private var end = 0
    private var atEOF = false

    init(fd: Int32, name: String, path: String?, ownsDescriptor: Bool, chunkSize: Int = 1 << 16) {
        self.fd = fd
        self.name = name
        self.path = path
        self.ownsDescriptor = ownsDescriptor
        chunk = .allocate(capacity: chunkSize)
    }

    deinit {
        chunk.deallocate()
        if ownsDescriptor { close(fd) }
    }

    /// Set once a line ran over the limit: the rest of it is read and dropped before the next line.
    private var skipping = false

    func readLine(into out: ByteBuffer, continuation: Bool) throws(LineSourceFailure) -> Bool {
        if skipping {
            // Dropped as it is read, never held: an endless line (`< /dev/zero`) costs no memory.
            while true {
                if start < end, let base = chunk.baseAddress,
                   let newline = memchr(base + start, 0x0A, end - start) {
                    start += (base + start).distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
                    break
                }
                start = end
                if atEOF { return false }
                try refill()
            }
            skipping = false
        }
        var copied = 0
        var sawAny = false
        while true {
            if start < end {
                sawAny = true
                let base = chunk.baseAddress! + start
                let available = end - start
                let newline = memchr(base, 0x0A, available)
                let length = newline.map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? available
                // Over the limit, the line is reported at once, with what was read of it.
                if copied + length > maximumPhysicalLineLength {
                    let kept = maximumPhysicalLineLength - copied
                    out.append(UnsafeBufferPointer(start: base, count: kept))
                    start += kept
                    skipping = true
                    throw .lineTooLong(limit: maximumLineLength)
                }
                out.append(UnsafeBufferPointer(start: base, count: length))
                copied += length
                if newline != nil {
                    start += length + 1
                    break
                }
                start = end
            }
            if atEOF {
                if !sawAny { return false }
                break
            }
            try refill()
        }
        return true
    }

    func nextLineInPlace() -> UnsafeBufferPointer<UInt8>? {
        guard start < end, let base = chunk.baseAddress else { return nil }
        let first = base + start
        guard let newline = memchr(first, 0x0A, end - start) else { return nil }
        let length = first.distance(to: newline.assumingMemoryBound(to: UInt8.self))
        start += length + 1
        return UnsafeBufferPointer(start: first, count: length)
    }

    private func refill() throws(LineSourceFailure) {
        start = 0
        end = 0
        while true {
            let n = read(fd, chunk.baseAddress, chunk.count)
            // Input that never pauses (`< /dev/zero`) is never interrupted: look for a stop anyway.
            if stopRequested { throw .interrupted }
            if n > 0 {
                end = n
                return
            }
            if n == 0 {
                atEOF = true
                return
            }
            if errno == EINTR {
                if stopRequested { throw .interrupted }
                continue
            }
            throw .unreadable("cannot read '\(name)': \(String(cString: strerror(errno)))")
        }
    }
}
