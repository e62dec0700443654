// The composition root: services are registered once, set up and started in order,
// and stopped in reverse order on every way out.

import CarScript
import Synchronization

/// A part of the program with a lifetime: set up, started, stopped.
public protocol Service: AnyObject {
    /// The name `services` shows.
    var name: String { get }
    /// Prepares the service (e.g. loads the catalog); may fail.
    func setUp() throws
    /// Starts the service.
    func start() throws
    /// Stops the service (e.g. flushes output, saves history); must not fail.
    func stop()
    /// Whether, started, it does none of its work (it warned why as it was set up): it is then
    /// `off`, not `running`.
    var isOff: Bool { get }
}

extension Service {
    /// Most services need nothing at start.
    public func start() throws {}
    /// Most services, started, run.
    public var isOff: Bool { false }
}

/// Where a service is in its lifetime.
public enum ServiceState: String, Sendable {
    /// `off`: started, but doing none of its work (the history with its file left alone).
    case registered, ready, running, off, stopped, failed
}

/// Holds the program's services and runs their lifetimes in order.
public final class ServiceCenter {
    private var entries: [(service: any Service, state: ServiceState)] = []
    /// The services' names and states, kept where the `services` command can read them.
    public let board = ServiceBoard()

    /// An empty center.
    public init() {}

    /// Adds a service; services are set up and started in registration order.
    public func register(_ service: any Service) {
        entries.append((service, .registered))
        board.add(service.name)
    }

    /// Each service's name and state, in registration order.
    public var states: [(name: String, state: ServiceState)] { board.states }

    /// The first registered service of type `T`.
    public func service<T: Service>(_ type: T.Type) -> T? {
        entries.lazy.compactMap { $0.service as? T }.first
    }

    /// Sets up, then starts, every service; the first failure is rethrown after marking it failed.
    public func startAll() throws {
        for index in entries.indices where entries[index].state == .registered {
            do {
                try entries[index].service.setUp()
                set(index, .ready)
            } catch {
                set(index, .failed)
                throw error
            }
        }
        for index in entries.indices where entries[index].state == .ready {
            do {
                try entries[index].service.start()
                set(index, entries[index].service.isOff ? .off : .running)
            } catch {
                set(index, .failed)
                throw error
            }
        }
    }

    /// Stops every service that was set up, last first; calling it again does nothing.
    public func stopAll() {
        for index in entries.indices.reversed() {
            switch entries[index].state {
            case .ready, .running, .off:
                entries[index].service.stop()
                set(index, .stopped)
            case .registered, .stopped, .failed:
                break
            }
        }
    }

    /// Puts service `index` in `state`, and the board with it.
    private func set(_ index: Int, _ state: ServiceState) {
        entries[index].state = state
        board.set(index, state)
    }
}

/// The services' names and states, in registration (and so start) order, as their center
/// sets them: what the `services` command lists. A command the engine runs is `Sendable`, and
/// the center, which holds the services themselves, is not; this board is.
public final class ServiceBoard: Sendable {
    /// Names and states' raw values, as arrays of strings: an array of any other element type
    /// would have its type made at every start (~24,000 instructions, callgrind, for an array
    /// of name and state pairs), and `String`'s is made already.
    private struct Entries {
        var names: [String] = []
        var states: [String] = []
    }

    private let entries = Mutex(Entries())

    /// A board with no services on it.
    public init() {}

    /// Each service's name and state, in registration order.
    public var states: [(name: String, state: ServiceState)] {
        entries.withLock { entries in
            zip(entries.names, entries.states).map { ($0, ServiceState(rawValue: $1) ?? .failed) }
        }
    }

    /// Adds a service, registered.
    func add(_ name: String) {
        entries.withLock {
            $0.names.append(name)
            $0.states.append(ServiceState.registered.rawValue)
        }
    }

    /// Puts service `index` in `state`.
    func set(_ index: Int, _ state: ServiceState) {
        entries.withLock { $0.states[index] = state.rawValue }
    }
}
