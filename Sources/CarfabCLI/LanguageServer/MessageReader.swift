import CarScript

#if canImport(Glibc)
import Glibc
#endif

/// Where the server's bytes come from: standard input, or bytes given in a test.
protocol ByteInput: AnyObject {
    /// Reads up to `count` bytes into `buffer`, waiting for at least one; 0 at the end, -1 on an error.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int
    /// Whether a read would return at once (bytes or the end are waiting).
    var hasWaitingBytes: Bool { get }
}

/// A descriptor's bytes (standard input).
final class DescriptorInput: ByteInput {
    private let fd: Int32
    /// A stop signal ends the input (the read it interrupts returns -1).
    private let stop: StopRequest

    init(fd: Int32, stop: StopRequest) {
        self.fd = fd
        self.stop = stop
    }

    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        while true {
            let n = Glibc.read(fd, buffer, count)
            if n < 0 && errno == EINTR && stop.code <= 0 { continue }
            return n
        }
    }

    var hasWaitingBytes: Bool {
        var item = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&item, 1, 0)
            if ready < 0 && errno == EINTR { continue }
            return ready > 0
        }
    }
}

/// Bytes held in memory (a test's whole session).
final class MemoryInput: ByteInput {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        let n = min(count, bytes.count - position)
        for index in 0..<n { buffer[index] = bytes[position + index] }
        position += n
        return n
    }

    var hasWaitingBytes: Bool { true }
}

/// Splits the input into messages by their `Content-Length` headers (the LSP base protocol).
///
/// Each header block is read up to its blank line; a block that cannot be used (no
/// `Content-Length` or two, a length that is not a number, one beyond `maximumLength`, a line that
/// is not `Name: value`) is reported as malformed. If its length is known its body is read
/// past without being kept; if not, the next message is looked for where the next
/// `Content-Length:` begins, so that one bad block costs one error, not a cascade.
final class MessageReader {
    /// What reading found next.
    enum Item: Equatable, Sendable {
        /// A message's body, not yet checked as UTF-8 or JSON.
        case message([UInt8])
        /// A header block that cannot be used, and why.
        case malformed(String)
        /// The input ended (or could not be read).
        case end
    }

    /// The largest body accepted: 64 MiB, far beyond any script an editor holds, small
    /// enough that a hostile length cannot make the server hold gigabytes.
    static let maximumLength = 64 << 20
    /// The largest header block accepted (LSP has two short headers).
    static let maximumHeaderLength = 8192

    private let input: any ByteInput
    private var buffer: [UInt8] = []
    private var start = 0
    private var ended = false
    /// Whether the bytes before the next `Content-Length:` are to be dropped.
    private var resynchronizing = false
    /// The bytes of a refused message's body still to be read past: the refusal is reported
    /// first, so that a client sending a huge length hears why before the server waits for it.
    private var toSkip = 0

    init(input: any ByteInput) { self.input = input }

    /// Whether a whole message, or the end, can be read without waiting.
    var hasWaitingMessage: Bool {
        if ended || headerEnd() != nil { return true }
        return input.hasWaitingBytes
    }

    /// The next message, malformed header block, or the end.
    func next() -> Item {
        if toSkip > 0 {
            skip(toSkip)
            toSkip = 0
        }
        if resynchronizing {
            resynchronizing = false
            guard dropToNextHeader() else { return .end }
        }
        // The header block, up to its blank line.
        var headerEndIndex = headerEnd()
        while headerEndIndex == nil {
            if buffer.count - start > Self.maximumHeaderLength {
                // Not a header block: drop what was read, and look for the next one from here.
                buffer.removeAll(keepingCapacity: true)
                start = 0
                resynchronizing = true
                return .malformed("a header block longer than \(Self.maximumHeaderLength) bytes")
            }
            guard fill() else {
                let blank = buffer[start...].allSatisfy { $0 == 0x0D || $0 == 0x0A || $0 == 0x20 || $0 == 0x09 }
                buffer.removeAll()
                start = 0
                return blank ? .end : .malformed("the input ended inside a header block")
            }
            headerEndIndex = headerEnd()
        }
        guard let headerEndIndex else { return .end }
        let header = Array(buffer[start..<headerEndIndex])
        let (length, failure) = Self.contentLength(header)
        if let failure, failure.breaksFraming {
            // Its lines are not what they seem (a bare LF may have run it into the next
            // message's header): no length in it can be trusted, so the next message is
            // looked for from just after where this block began.
            start += 1
            resynchronizing = true
            return .malformed(failure.reason)
        }
        start = headerEndIndex + 4
        guard let length else {
            resynchronizing = true
            return .malformed(failure?.reason ?? "a header block without Content-Length")
        }
        if let failure {
            toSkip = length
            return .malformed(failure.reason)
        }
        guard length <= Self.maximumLength else {
            toSkip = length
            return .malformed("Content-Length \(length) is over the limit of \(Self.maximumLength) bytes")
        }
        while buffer.count - start < length {
            guard fill() else {
                buffer.removeAll()
                start = 0
                return .malformed("the input ended inside a message's body")
            }
        }
        let body = Array(buffer[start..<start + length])
        start += length
        compact()
        return .message(body)
    }

    /// Where `\r\n\r\n` starts in the unread bytes.
    private func headerEnd() -> Int? {
        var index = start
        while index + 3 < buffer.count {
            if buffer[index] == 0x0D && buffer[index + 1] == 0x0A && buffer[index + 2] == 0x0D && buffer[index + 3] == 0x0A {
                return index
            }
            index += 1
        }
        return nil
    }

    /// Reads more bytes; false at the end.
    private func fill() -> Bool {
        guard !ended else { return false }
        compact()
        let chunk = 1 << 16
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        let n = buffer.withUnsafeMutableBufferPointer { pointer in
            guard let base = pointer.baseAddress else { return -1 }
            return input.read(into: base + old, count: chunk)
        }
        buffer.removeLast(chunk - max(n, 0))
        if n <= 0 { ended = true }
        return n > 0
    }

    /// Drops the bytes already read, once they are many. The room a large message took is
    /// given back once little of it is left unread: removing the read bytes keeps the array's
    /// capacity, and a 46 MB document kept 64 MiB here after it was closed (trial 8, 4).
    private func compact() {
        if start > 0 && (start == buffer.count || start >= 1 << 16) {
            if buffer.capacity > Self.keptRoom && buffer.count - start <= Self.keptRoom {
                buffer = Array(buffer[start...])
            } else {
                buffer.removeFirst(start)
            }
            start = 0
        }
    }

    /// The most room kept for reading once the bytes in it are read (1 MiB).
    private static let keptRoom = 1 << 20

    /// Drops the bytes before the next `Content-Length:` (in any case); false if the input ends first.
    private func dropToNextHeader() -> Bool {
        let name = Array("content-length:".utf8)
        while true {
            var index = start
            while index + name.count <= buffer.count {
                if buffer[index] | 0x20 == name[0] && zip(buffer[index..<index + name.count], name).allSatisfy({ $0 | 0x20 == $1 }) {
                    start = index
                    return true
                }
                index += 1
            }
            // Keep what could be the start of the name.
            start = max(start, buffer.count - name.count + 1)
            guard fill() else { return false }
        }
    }

    /// Reads past `count` bytes without keeping them.
    private func skip(_ count: Int) {
        var left = count
        while left > 0 {
            let held = buffer.count - start
            if held >= left {
                start += left
                return
            }
            left -= held
            buffer.removeAll(keepingCapacity: true)
            start = 0
            guard fill() else { return }
        }
    }

    /// The `Content-Length` of a header block, if it gives one, and why the block cannot be used, if it cannot.
    static func contentLength(_ header: [UInt8]) -> (length: Int?, failure: HeaderFailure?) {
        var length: Int?
        var failure: HeaderFailure?
        // Every line is looked at: a broken line after another problem still breaks the framing.
        var breaksFraming = false
        var lengthUnreadable = false
        var lengthsGiven = 0
        for line in header.split(separator: 0x0A, omittingEmptySubsequences: false) {
            var line = line
            guard line.last == 0x0D || line.endIndex == header.endIndex else {
                failure = failure ?? HeaderFailure("a header line not ended by CR LF")
                breaksFraming = true
                continue
            }
            if line.last == 0x0D { line = line.dropLast() }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                failure = failure ?? HeaderFailure("a header line without ':'")
                breaksFraming = true
                continue
            }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            let value = line[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
            let trimmed = value.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
            if name == "content-length" {
                lengthsGiven += 1
                guard !trimmed.isEmpty, trimmed.count <= 18, trimmed.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                    let number = Int(String(decoding: trimmed, as: UTF8.self))
                else {
                    failure = failure ?? HeaderFailure("Content-Length is not a number of bytes")
                    lengthUnreadable = true
                    continue
                }
                // Two lengths: which one frames the body cannot be known unless they agree; as
                // a block with one unreadable length, the block is malformed, and with two
                // different ones the next message is looked for where the next header begins.
                if lengthsGiven > 1 {
                    failure = failure ?? HeaderFailure("a header block with more than one Content-Length")
                    if number != length { lengthUnreadable = true }
                }
                length = number
            } else if name == "content-type" {
                let text = String(decoding: trimmed, as: UTF8.self).lowercased()
                let parameters = text.split(separator: ";").map { $0.filter { $0 != " " } }
                if let charset = parameters.first(where: { $0.hasPrefix("charset=") }) {
                    let value = charset.dropFirst("charset=".count)
                    if value != "utf-8" && value != "utf8" {
                        failure = failure ?? HeaderFailure("only the utf-8 charset is served, not '\(value)'")
                    }
                }
            }
        }
        if lengthUnreadable { length = nil }
        guard var failure = length == nil ? failure ?? HeaderFailure("a header block without Content-Length") : failure else {
            return (length, nil)
        }
        failure.breaksFraming = breaksFraming
        return (length, failure)
    }
}

/// Why a header block cannot be used.
struct HeaderFailure: Error, Equatable {
    var reason: String
    /// Whether the block's own lines are broken, so that its length cannot mark where the next message begins.
    var breaksFraming = false
    init(_ reason: String) { self.reason = reason }
}
