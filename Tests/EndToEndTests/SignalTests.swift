import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// SIGINT, SIGTERM, SIGHUP and SIGQUIT are honoured promptly wherever carfab is: reading input
/// that never pauses, writing to a reader that does not read, opening a FIFO that has no writer.
@Suite struct SignalTests {
    @Test func an_endless_line_is_reported_at_the_limit_and_a_signal_stops_the_skipping() throws {
        // Input that never pauses and never ends its line: without a check of its own, a read
        // loop would never notice the signal. (--keep-going reads on after the error.)
        let result = try shell(
            """
            yes | tr -d '\\n' | tr y '\\0' | "$CARFAB" --keep-going 2> err & pid=$!
            for i in $(seq 1000); do grep -q 'line longer' err 2>/dev/null && break; sleep 0.01; done
            kill -TERM $pid
            # Promptly: a carfab that ignored the signal is killed after 5 s, and the status says so.
            for i in $(seq 500); do kill -0 $pid 2>/dev/null || break; sleep 0.01; done
            kill -KILL $pid 2>/dev/null; wait $pid; echo "status $?"; cat err
            """, directory: try temporaryDirectory(with: [:]))
        let nul = String(repeating: "\\x00", count: 18)
        #expect(
            result.stdout == """
                status 143
                <stdin>:1:1: error: line longer than the limit of 1024 KiB (1048576 bytes); it is skipped
                \(nul)...
                ^~~~

                """)
    }

    @Test func an_endless_line_ends_a_script_at_the_limit() throws {
        // A carfab that read on for ever is killed after 20 s (status 137).
        let result = try shell("yes | tr -d '\\n' | timeout -s KILL 20 \"$CARFAB\"; echo \"status $?\"")
        #expect(result.stdout == "status 1\n")
        #expect(result.stderr.hasPrefix("<stdin>:1:1: error: line longer than the limit of 1024 KiB (1048576 bytes); it is skipped\nyyyyy"))
    }

    @Test(arguments: [(Int32(SIGTERM), Int32(143)), (Int32(SIGINT), Int32(130)), (Int32(SIGQUIT), Int32(131))])
    func a_signal_stops_a_write_to_a_reader_that_does_not_read(signal: Int32, status: Int32) throws {
        let shows = String(repeating: "show;", count: 20_000)
        let running = try RunningCarfab(["-e", "car suv", "-e", shows], output: .unreadPipe)
        // Blocked in write once the pipe is full.
        #expect(running.wait { running.isBlocked })
        kill(running.pid, signal)
        #expect(running.exitStatus(timeout: 5) == status)
        #expect(running.stderr == "")
    }

    @Test func sigquit_stops_a_script_quietly_with_131() throws {
        let running = try RunningCarfab(["-e", "car suv 2; total GBP", "-"], pipedInput: true)
        #expect(running.write(Array("echo from the pipe\n".utf8)))
        // Blocked reading the pipe once the line is run (its output still buffered).
        #expect(running.wait { running.isBlocked })
        kill(running.pid, SIGQUIT)
        #expect(running.exitStatus() == 131)
        #expect(running.stdout == "2 Cars in Stock. Total Value: £98,827.61\nfrom the pipe\n")
        #expect(running.stderr == "")
    }

    @Test(arguments: [(Int32(SIGTERM), Int32(143)), (Int32(SIGHUP), Int32(129))])
    func a_signal_while_a_catalog_fifo_waits_for_a_writer_stops_quietly(signal: Int32, status: Int32) throws {
        let dir = try temporaryDirectory(with: [:])
        #expect(mkfifo(dir.appendingPathComponent("catalog.fifo").path, 0o644) == 0)
        let running = try RunningCarfab(["--catalog", "catalog.fifo", "-e", "echo never"], directory: dir)
        #expect(running.wait { running.isBlocked })
        kill(running.pid, signal)
        #expect(running.exitStatus() == status)
        #expect(running.stderr == "" && running.stdout == "")
    }

    @Test func sigint_while_source_opens_a_fifo_stops_quietly() throws {
        let dir = try temporaryDirectory(with: [:])
        #expect(mkfifo(dir.appendingPathComponent("in.fifo").path, 0o644) == 0)
        let running = try RunningCarfab(["-e", "echo before; source in.fifo; echo after"], directory: dir)
        #expect(running.wait { running.isBlocked })
        kill(running.pid, SIGINT)
        #expect(running.exitStatus() == 130)
        #expect(running.stdout == "before\n" && running.stderr == "")
    }
}
