import Synchronization

/// A request that an evaluation stop: made from another thread, or from a signal handler
/// (all it does is store into an atomic). The engine looks for it between lines, between
/// commands, and whenever a read or a wait is interrupted.
public final class StopRequest: Sendable {
    private let pending = Atomic<Int32>(0)

    /// No stop asked for yet.
    public init() {}

    /// Asks to stop; `code` says why, in the host's terms (carfab's: a signal's number), or -1
    /// for `Engine.cancellation`. The engine only tells 0 (no request) from the rest.
    public func request(_ code: Int32 = -1) {
        pending.store(code, ordering: .relaxed)
    }

    /// Asks to stop with `code` unless a stop is asked for already (a signal's is not overwritten).
    public func requestUnlessRequested(_ code: Int32 = -1) {
        _ = pending.compareExchange(expected: 0, desired: code, ordering: .relaxed)
    }

    /// Whether a stop has been asked for.
    public var isRequested: Bool { pending.load(ordering: .relaxed) != 0 }

    /// Why a stop was asked for (0 if it was not).
    public var code: Int32 { pending.load(ordering: .relaxed) }

    /// Takes back a pending request of `code`, true if there was one: Ctrl-C at a prompt stops
    /// only what was running (see ``LineSource/withdrawInterrupt(from:)``).
    public func withdraw(_ code: Int32) -> Bool {
        pending.compareExchange(expected: code, desired: 0, ordering: .relaxed).exchanged
    }
}
