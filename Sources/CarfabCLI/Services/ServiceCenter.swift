// The composition root: services are registered once, set up and started in order,
// and stopped in reverse order on every way out.

import CarScript

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
}

extension Service {
    /// Most services need nothing at start.
    public func start() throws {}
}

/// Where a service is in its lifetime.
public enum ServiceState: String, Sendable {
    case registered, ready, running, stopped, failed
}

/// Holds the program's services and runs their lifetimes in order.
public final class ServiceCenter {
    private var entries: [(service: any Service, state: ServiceState)] = []

    /// An empty center.
    public init() {}

    /// Adds a service; services are set up and started in registration order.
    public func register(_ service: any Service) {
        entries.append((service, .registered))
    }

    /// Each service's name and state, in registration order.
    public var states: [(name: String, state: ServiceState)] {
        entries.map { ($0.service.name, $0.state) }
    }

    /// The first registered service of type `T`.
    public func service<T: Service>(_ type: T.Type) -> T? {
        entries.lazy.compactMap { $0.service as? T }.first
    }

    /// Sets up, then starts, every service; the first failure is rethrown after marking it failed.
    public func startAll() throws {
        for index in entries.indices where entries[index].state == .registered {
            do {
                try entries[index].service.setUp()
                entries[index].state = .ready
            } catch {
                entries[index].state = .failed
                throw error
            }
        }
        for index in entries.indices where entries[index].state == .ready {
            do {
                try entries[index].service.start()
                entries[index].state = .running
            } catch {
                entries[index].state = .failed
                throw error
            }
        }
    }

    /// Stops every service that was set up, last first; calling it again does nothing.
    public func stopAll() {
        for index in entries.indices.reversed() {
            switch entries[index].state {
            case .ready, .running:
                entries[index].service.stop()
                entries[index].state = .stopped
            case .registered, .stopped, .failed:
                break
            }
        }
    }
}
