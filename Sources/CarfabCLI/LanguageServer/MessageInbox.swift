import CarScript
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The client's messages, read on a thread of their own, so that while the server answers
/// a request (an analysis that may take long: trial 3, T6) a `$/cancelRequest` of it is seen
/// at once: the reader asks the server's `StopRequest` to stop (code -1), which the engine
/// and the configurator's searches poll. A stop signal is seen too: it interrupts either
/// thread's wait, and the server ends.
///
/// The reader reads as the server did: a message (waiting for it), then those already waiting,
/// at most `LanguageServer.readAhead`, as one batch, which the server takes whole. At most one
/// batch waits to be taken while the reader holds the next: the reader never runs far ahead.
/// The two waits are reads of socket pairs (a byte a batch posted, a byte a batch taken),
/// which a signal interrupts, where a lock's wait would not.
final class MessageInbox: Sendable {
    private struct State {
        var batches: [[MessageReader.Item]] = []
        /// The id (as JSON text) of the request the server is answering, if any.
        var answering: String?
        /// Whether the server is doing work of its own that any message stops (see `beginOwnWork`).
        var ownWork = false
        /// Ids that a `$/cancelRequest` named while its request was not being answered (queued,
        /// or read in the same batch): it is not begun (at most `remembered`, the newest kept).
        /// The one place a cancellation is kept: every message passes the reader first.
        var cancelledAhead: [String] = []
    }

    private let state = Mutex(State())
    private let stop: StopRequest
    /// A byte for each batch posted.
    private let posted: (read: Int32, write: Int32)
    /// A byte for each batch taken (one to begin with).
    private let taken: (read: Int32, write: Int32)

    /// Starts reading `reader` on a thread of its own; nil if no thread or pipe could be made.
    static func start(_ reader: sending MessageReader, stop: StopRequest) -> MessageInbox? {
        guard let posted = Self.pipe(), let taken = Self.pipe() else { return nil }
        let inbox = MessageInbox(stop: stop, posted: posted, taken: taken)
        inbox.signal(taken.write)
        let handoff = Handoff(reader, inbox)
        starting.withLock { $0.append(handoff) }
        var thread = pthread_t()
        let made = pthread_create(
            &thread, nil,
            { _ in
                if let handoff = starting.withLock({ $0.popLast() }), let reader = handoff.reader.withLock({ $0.take() }) {
                    handoff.inbox.read(reader)
                }
                return nil
            }, nil)
        guard made == 0 else {
            _ = starting.withLock { $0.popLast() }
            return nil
        }
        pthread_detach(thread)
        return inbox
    }

    private init(stop: StopRequest, posted: (read: Int32, write: Int32), taken: (read: Int32, write: Int32)) {
        self.stop = stop
        self.posted = posted
        self.taken = taken
    }

    /// The next batch, waiting for it; nil if a stop signal came first.
    func next() -> [MessageReader.Item]? {
        if wait(posted.read) == .stopped { return nil }
        let batch = state.withLock { $0.batches.isEmpty ? [.end] : $0.batches.removeFirst() }
        signal(taken.write)
        return batch
    }

    /// The server begins answering request `id`: false if a `$/cancelRequest` of it was read
    /// before (it is not to run); else a cancellation of it read from now on stops it.
    func begin(_ id: String) -> Bool {
        state.withLock {
            if let index = $0.cancelledAhead.firstIndex(of: id) {
                $0.cancelledAhead.remove(at: index)
                return false
            }
            $0.answering = id
            return true
        }
    }

    /// The server has answered the request it began.
    func end() {
        state.withLock { $0.answering = nil }
    }

    /// The server begins work no request asked for (the rules' refusals of a document, which
    /// may run long searches): false if a batch is waiting; else the next batch posted stops
    /// it, so that no message waits for it (trial 9, 6).
    func beginOwnWork() -> Bool {
        state.withLock {
            guard $0.batches.isEmpty else { return false }
            $0.ownWork = true
            return true
        }
    }

    /// The server's own work has ended.
    func endOwnWork() {
        state.withLock { $0.ownWork = false }
    }

    /// How many cancellations of requests not yet begun are remembered.
    private static let remembered = 64

    /// The server is done: the reader ends at its next wait (a process ends it at once).
    func close() {
        _ = Glibc.close(posted.read)
        _ = Glibc.close(taken.write)
    }

    /// The reader thread: batches until the end of the input, or until the server is done.
    private func read(_ reader: MessageReader) {
        defer {
            _ = Glibc.close(posted.write)
            _ = Glibc.close(taken.read)
        }
        while true {
            var batch = [reader.next()]
            while batch.count < LanguageServer.readAhead, batch.last != .end, reader.hasWaitingMessage {
                batch.append(reader.next())
            }
            for case .message(let body) in batch { noteCancellation(body) }
            // Waits for the batch before to be taken (a stop signal here is the server's to see).
            var waited = wait(taken.read)
            while waited == .stopped { waited = wait(taken.read) }
            if waited == .closed { return }
            state.withLock {
                $0.batches.append(batch)
                // Under the lock, so that the server's `endOwnWork()` then `withdraw(-1)` leaves no stop behind.
                if $0.ownWork { stop.requestUnlessRequested(-1) }
            }
            signal(posted.write)
            if batch.last == .end { return }
        }
    }

    /// Stops the request being answered if `body` is a `$/cancelRequest` of it; one not yet
    /// begun is remembered, and not begun.
    private func noteCancellation(_ body: [UInt8]) {
        // A cancellation is a short message: longer ones are not parsed twice.
        guard body.count < 1024, let message = try? JSONParser.parse(body), message["method"]?.string == "$/cancelRequest",
            let id = message["params"]?["id"]?.text
        else { return }
        state.withLock {
            // Under the lock, so that the server's `end()` then `withdraw(-1)` leaves no stop behind.
            if $0.answering == id {
                stop.requestUnlessRequested(-1)
            } else {
                $0.cancelledAhead.append(id)
                if $0.cancelledAhead.count > Self.remembered { $0.cancelledAhead.removeFirst() }
            }
        }
    }

    private enum Waited { case byte, stopped, closed }

    /// Reads one byte of `fd`, waiting for it.
    private func wait(_ fd: Int32) -> Waited {
        var byte: UInt8 = 0
        while true {
            let n = recv(fd, &byte, 1, 0)
            if n == 1 { return .byte }
            if n < 0 && errno == EINTR {
                if stop.code > 0 { return .stopped }
                continue
            }
            return .closed
        }
    }

    /// Writes one byte to `fd`; a closed other end (the server or the reader done) is no error.
    private func signal(_ fd: Int32) {
        var byte: UInt8 = 1
        while send(fd, &byte, 1, Int32(MSG_NOSIGNAL)) < 0 && errno == EINTR {}
    }

    /// A one-way channel of bytes: a socket pair, so that writing to a closed one raises no SIGPIPE.
    private static func pipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else { return nil }
        return (fds[0], fds[1])
    }
}

/// A reader on its way to the thread `MessageInbox.start` makes, which takes it out.
private final class Handoff: Sendable {
    let reader: Mutex<MessageReader?>
    let inbox: MessageInbox

    init(_ reader: sending MessageReader, _ inbox: MessageInbox) {
        self.reader = Mutex(reader)
        self.inbox = inbox
    }
}

/// Readers handed to the thread `MessageInbox.start` makes (a C thread function captures nothing).
private let starting = Mutex<[Handoff]>([])
