import Synchronization

/// The signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT) that asked the program to stop, or 0.
///
/// Set by the executable's signal handler; read between lines and when a read is interrupted.
public let pendingStopSignal = Atomic<Int32>(0)

/// Whether a signal has asked the program to stop.
public var stopRequested: Bool { pendingStopSignal.load(ordering: .relaxed) != 0 }
