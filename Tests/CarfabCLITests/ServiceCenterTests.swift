import CarFactory
import Testing

@testable import CarfabCLI

final class RecordingService: Service {
    let name: String
    let failSetUp: Bool
    let log: Log
    final class Log { var events: [String] = [] }
    init(_ name: String, log: Log, failSetUp: Bool = false) {
        self.name = name
        self.log = log
        self.failSetUp = failSetUp
    }
    struct Failure: Error {}
    func setUp() throws {
        log.events.append("setUp \(name)")
        if failSetUp { throw Failure() }
    }
    func start() throws { log.events.append("start \(name)") }
    func stop() { log.events.append("stop \(name)") }
}

@Suite struct ServiceCenterTests {
    @Test func services_start_in_order_and_stop_in_reverse_once() throws {
        let log = RecordingService.Log()
        let center = ServiceCenter()
        center.register(RecordingService("catalog", log: log))
        center.register(RecordingService("output", log: log))
        try center.startAll()
        #expect(center.states.map { "\($0.name) \($0.state)" } == ["catalog running", "output running"])
        center.stopAll()
        center.stopAll()
        #expect(log.events == ["setUp catalog", "setUp output", "start catalog", "start output", "stop output", "stop catalog"])
        #expect(center.states.map(\.state) == [.stopped, .stopped])
    }

    @Test func a_failed_set_up_stops_what_was_set_up() {
        let log = RecordingService.Log()
        let center = ServiceCenter()
        center.register(RecordingService("a", log: log))
        center.register(RecordingService("b", log: log, failSetUp: true))
        center.register(RecordingService("c", log: log))
        #expect(throws: RecordingService.Failure.self) { try center.startAll() }
        center.stopAll()
        #expect(log.events == ["setUp a", "setUp b", "stop a"])
        #expect(center.states.map(\.state) == [.stopped, .failed, .registered])
    }
}
