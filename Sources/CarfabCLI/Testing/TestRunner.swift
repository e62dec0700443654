import CEditLine
import CarFactory
import CarScript
import CarfabPOSIX

#if canImport(Glibc)
import Glibc
#endif

// `carfab --test PATH...`: every test file runs in a fresh session (the catalog, with any
// --catalog files, loaded once and given to each), and is reported in file order, as text,
// TAP or JSON lines, and as JUnit XML if asked. With -j N, N files run at a time, each in a
// process forked from this one (which has the catalog loaded already); each sends its
// outcome back over a pipe, and the outcomes are reported in file order, so the output is
// the same for any N. `--timeout` ends a process that runs too long; a hosted program, which
// runs the tests in its own process, cannot end one, and has no time limit.

/// One problem a test file reported.
struct TestProblem: Equatable {
    var id: String
    var file: String
    var line: Int
    var column: Int
    var message: String
    /// As carfab writes it on standard error (no colour).
    var text: String
    /// As `--format json` writes it.
    var json: String

    init(_ diagnostic: Diagnostic) {
        id = diagnostic.id
        file = diagnostic.file
        line = diagnostic.line
        column = diagnostic.column
        message = diagnostic.message
        text = TextRenderer.text(of: diagnostic)
        json = JSONRenderer.object(of: diagnostic)
    }

    init(id: String, file: String, line: Int, column: Int, message: String, text: String, json: String) {
        (self.id, self.file, self.line, self.column, self.message, self.text, self.json) =
            (id, file, line, column, message, text, json)
    }
}

/// How one test file went.
struct TestOutcome: Equatable {
    /// The file, as named.
    var path: String
    var passed: Bool
    /// How many `expect` assertions ran.
    var expects: Int
    var problems: [TestProblem]
    /// Why it failed, if no problem says (`quit 3`, a test process that died).
    var note: String?
    /// Seconds it took (JUnit's report only: the output is the same from run to run).
    var seconds: Double
}

/// Keeps a test's diagnostics; its results are not shown.
private final class TestCollector: ResultSink {
    /// The most problems kept of one file (`--keep-going` over a long file).
    static let kept = 1000
    var problems: [TestProblem] = []
    var dropped = 0

    func receive(_ result: CommandResult, from command: CommandSpec) {}

    func receive(_ diagnostic: Diagnostic) {
        if problems.count < Self.kept { problems.append(TestProblem(diagnostic)) } else { dropped += 1 }
    }
}

enum TestRunner {
    /// Runs the tests `parsed` names; what the program then ends with.
    static func run(_ parsed: ProgramArguments, environment: ProgramEnvironment, out: Output, err: Output) -> Program.Outcome {
        let stop = environment.stop
        let started = now()
        var options = EngineOptions()
        options.host = POSIXHost()
        options.keepGoing = parsed.keepGoing
        options.fileAccess = parsed.safe ? .refused(by: "by --safe") : .allowed
        options.environment = parsed.safe ? .refused(by: "by --safe") : .reading(environment.variableBytes)
        options.stop = stop
        ProgramCommands.add(to: &options, center: nil)
        // Every named path yields a test, or an entry that fails as one (missing, empty, unreadable).
        let paths = parsed.inputs.compactMap { input -> [UInt8]? in if case .file(let path) = input { path.bytes } else { nil } }
        var files = TestWalk.entries(paths, safe: parsed.safe)
        if !parsed.filters.isEmpty {
            // A folder that could not be walked stays: what it hides may match.
            files = files.filter { entry in entry.isFolder || parsed.filters.contains { matches(entry.path, $0.bytes) } }
            guard files.contains(where: { !$0.isFolder }) else {
                let patterns = parsed.filters.map { "'\(DisplayText.escaped($0.description))'" }.joined(separator: ", ")
                err.write("carfab: error: no test file matches --filter \(patterns)\n")
                err.flush()
                return .exit(Program.ExitStatus.failure)
            }
        }
        if parsed.list { return list(files, out: out, err: err) }
        // A test may not save over a test file of the run, nor its --init or --catalog files (see `TestHost`).
        let host = TestHost(protecting: files, initFile: parsed.initFile?.bytes, catalogs: parsed.catalogs.map(\.bytes))
        options.host = host
        // The report would replace a file the run reads (gcc's "input file is the same as
        // output file"): refused before any test runs, as a test's `save` over it is.
        if let junit = parsed.junit, let refusal = host.refusal(toWrite: junit.bytes) {
            return Program.refuse(
                UsageError(message: "--junit \(junit.description): \(refusal.reason), which the report would replace"), err: err)
        }
        if let junit = parsed.junit, let stream = TestHost.standardStream(at: junit.bytes) {
            return Program.refuse(
                UsageError(message: "--junit \(junit.description): it is the \(stream) of this run, which the report cannot share"),
                err: err)
        }
        // A folder that is not there cannot be written in at the end either: said before the
        // tests run, not after (the status of a failed test; review of trial 12's finding 5).
        // One that is there but cannot be reached (a folder this user may not search, a path
        // too long, a file on the way) is refused below, with the system's reason: it was
        // called a folder that is not there.
        if let junit = parsed.junit, let slash = junit.bytes.lastIndex(of: UInt8(ascii: "/")), slash > 0 {
            let folder = Array(junit.bytes[..<slash])
            var info = stat()
            if stat(cPath(folder), &info) != 0 && errno == ENOENT {
                let shown = DisplayText.escaped(String(decoding: folder, as: UTF8.self))
                return Program.refuse(
                    UsageError(message: "--junit \(junit.description): there is no folder '\(shown)' to write the report in"), err: err)
            }
        }
        // Nor can a name `save` refuses: a directory, a device (`/dev/null`, a terminal), a
        // FIFO, a link the link rule refuses, a folder this user may not write in (review of
        // trial 12's finding 5).
        if let junit = parsed.junit, let refusal = saveRefusal(at: junit.bytes) {
            let reason =
                switch refusal {
                case .stream: "it is a process's open stream (a link in /proc), not a file"
                case .reason(let reason): reason
                }
            return Program.refuse(
                UsageError(message: "--junit \(junit.description): \(reason); the report could not be written there"), err: err)
        }
        let reporter = TestReporter(format: parsed.format, out: out)
        let loader = TextRenderer(out: out, err: err)
        guard let catalog = Engine.catalog(files: parsed.catalogs.map(\.bytes), reportingTo: loader, options: options) else {
            err.flush()
            return stop.code > 0 ? .stoppedBy(signal: stop.code) : .exit(Program.ExitStatus.failure)
        }
        let test = Test(catalog: catalog, options: options, variables: parsed.variables, initFile: parsed.initFile?.bytes)
        reporter.begin(count: files.count)
        var outcomes: [TestOutcome] = []
        let report: (TestOutcome) -> Void = { outcome in
            outcomes.append(outcome)
            reporter.report(outcome, number: outcomes.count)
        }
        let jobs = min(parsed.jobs ?? processorCount(), files.count)
        // Each test runs in a process of its own, so one that crashes fails alone; only a
        // hosted program (see `isHosted`) keeps them in its own.
        let running: [String]
        if !environment.isHosted {
            // A test reads nothing of the runner's standard input (`source -` reads an empty
            // file), so its result cannot depend on -j, on timing or on what CI left there.
            emptyStandardInput()
            running = runInProcesses(
                files, jobs: jobs, timeout: parsed.timeout, test: test, out: out, err: err, stop: stop,
                report: report)
        } else {
            running = runHere(files, test: test, stop: stop, report: report)
        }
        if !running.isEmpty || stop.isRequested {
            out.flush()
            // A stop that a failed write asked for (no signal: code -1) ends the run with the
            // write's error (or quietly, for a closed pipe), as every other mode does; it was
            // no interruption.
            if stop.code <= 0, let ending = Program.outcome(writing: out, to: err) { return ending }
            for name in running { err.write("carfab: interrupted while testing \(DisplayText.escaped(name))\n") }
            err.flush()
            return .stoppedBy(signal: stop.code > 0 ? stop.code : SIGINT)
        }
        let failed = outcomes.filter { !$0.passed }.count
        reporter.end(passed: outcomes.count - failed, failed: failed)
        out.flush()
        let seconds = now() - started
        var status = failed > 0 ? Program.ExitStatus.failure : Program.ExitStatus.success
        if let junit = parsed.junit {
            let xml = JUnitReport.xml(outcomes, seconds: seconds, timestamp: timestamp(), hostname: hostname())
            if let failure = writeWhole(Array(xml.utf8), to: junit.bytes, stop: stop) {
                let reason = failure.message(saving: junit.bytes, streamAdvice: "the report cannot share standard output or standard error")
                err.write("carfab: error: JUnit report not written: \(DisplayText.escaped(reason))\n")
                status = Program.ExitStatus.failure
            }
        }
        err.write("carfab: \(outcomes.count) test file\(outcomes.count == 1 ? "" : "s") in \(formatSeconds(seconds)) s\n")
        err.flush()
        return Program.outcome(writing: out, to: err) ?? .exit(status)
    }

    /// What one test needs: the catalog each fresh session starts from, and how it runs.
    struct Test {
        let catalog: Catalog
        let options: EngineOptions
        let variables: [VariableSetting]
        /// `--init FILE`: run first in each test's session.
        let initFile: [UInt8]?

        /// Runs the test file `entry` names in a fresh session (or fails it, if it cannot be read).
        func run(_ entry: TestEntry) -> TestOutcome {
            let started = now()
            let shown = String(decoding: entry.path, as: UTF8.self)
            if let problem = entry.problem {
                return TestOutcome(path: shown, passed: false, expects: 0, problems: [], note: problem, seconds: 0)
            }
            let collector = TestCollector()
            let engine = Engine(catalog: catalog, options: options, sink: collector)
            for setting in variables { engine.setVariable(setting.name, to: setting.value) }
            if let initFile {
                do {
                    engine.evaluate(try openLineSource(.filePath(initFile), stop: options.stop))
                } catch .interrupted {
                    // Stopped: the runner reports nothing more.
                } catch {
                    engine.report(unreadable: String(decoding: initFile, as: UTF8.self), error)
                }
            }
            if engine.failureCount == 0 && !engine.shouldStop {
                do {
                    engine.evaluate(try openLineSource(.descriptor(try open(entry), path: entry.path), stop: options.stop))
                } catch .interrupted {
                    // Stopped: the runner reports nothing more.
                } catch {
                    engine.report(unreadable: shown, error)
                }
            }
            var note: String?
            if collector.dropped > 0 { note = "and \(collector.dropped) more problems" }
            if let status = engine.requestedExitStatus, status != 0 { note = "ended by 'quit \(status)'" }
            let passed = engine.failureCount == 0 && (engine.requestedExitStatus ?? 0) == 0
            return TestOutcome(
                path: shown, passed: passed, expects: engine.expectationCount, problems: collector.problems,
                note: note, seconds: now() - started)
        }

        /// Opens the test file `entry` names for reading, however long its path, and only if it
        /// is still the file that was listed (under --safe).
        private func open(_ entry: TestEntry) throws(LineSourceFailure) -> Int32 {
            let shown = String(decoding: entry.path, as: UTF8.self)
            var fd: Int32
            repeat {
                fd = TestWalk.openPath(entry.path, O_RDONLY | O_CLOEXEC)
                if fd < 0 && errno == EINTR && options.stop.isRequested { throw .interrupted }
            } while fd < 0 && errno == EINTR
            guard fd >= 0 else { throw .unreadable("cannot open '\(shown)': \(String(cString: strerror(errno)))") }
            if let identity = entry.identity {
                var info = stat()
                guard fstat(fd, &info) == 0, FileIdentity(info) == identity else {
                    close(fd)
                    throw .unreadable("cannot open '\(shown)': it is not the file that was listed (refused by --safe)")
                }
            }
            return fd
        }
    }

    /// `--filter`: whether `path` matches the glob `pattern` (fnmatch(3) without flags: `*`
    /// also matches `/`, and a leading `.` is nothing special).
    static func matches(_ path: [UInt8], _ pattern: [UInt8]) -> Bool {
        fnmatch(cPath(pattern), cPath(path), 0) == 0
    }

    /// `--list`: the test files, one per line as the results name them; an entry that cannot
    /// be run is an error on standard error, and the status 1.
    private static func list(_ files: [TestEntry], out: Output, err: Output) -> Program.Outcome {
        var failed = false
        for entry in files {
            let shown = DisplayText.escaped(String(decoding: entry.path, as: UTF8.self))
            if let problem = entry.problem {
                err.write("carfab: error: \(shown): \(DisplayText.escaped(problem))\n")
                failed = true
            } else {
                out.write(shown + "\n")
            }
        }
        out.flush()
        err.flush()
        return Program.outcome(writing: out, to: err) ?? .exit(failed ? Program.ExitStatus.failure : Program.ExitStatus.success)
    }

    /// Runs `files` one after another in this process; the file a stop cut short, if one did.
    private static func runHere(_ files: [TestEntry], test: Test, stop: StopRequest, report: (TestOutcome) -> Void) -> [String] {
        for file in files {
            let outcome = test.run(file)
            if stop.isRequested { return [outcome.path] }
            report(outcome)
        }
        return []
    }

    /// A test running in a forked process: the pipe its outcome comes back on.
    private struct Worker {
        let pid: pid_t
        let pipe: Int32
        let file: Int
        /// When `--timeout` ends it (monotonic seconds), if it does; once asked to stop, when
        /// it is killed if it has not sent its outcome.
        var deadline: Double?
        /// Whether its time ran out and it was asked to stop.
        var timedOut = false
        var received: [UInt8] = []
    }

    /// Runs `files` in up to `jobs` forked processes at a time, reporting in file order; the
    /// files still running if a stop cut it short (their processes are then ended).
    private static func runInProcesses(
        _ files: [TestEntry], jobs: Int, timeout: Double?, test: Test, out: Output, err: Output,
        stop: StopRequest, report: (TestOutcome) -> Void
    ) -> [String] {
        var workers: [Worker] = []
        var outcomes = [TestOutcome?](repeating: nil, count: files.count)
        var next = 0
        var reported = 0
        defer {
            for worker in workers {
                kill(worker.pid, SIGTERM)
                close(worker.pipe)
                var status: Int32 = 0
                _ = waitpid(worker.pid, &status, 0)
            }
        }
        func running() -> [String] { workers.map { String(decoding: files[$0.file].path, as: UTF8.self) } }
        while reported < files.count {
            if stop.isRequested { return running() }
            while workers.count < jobs && next < files.count {
                // Nothing may be waiting in a buffer a child would inherit and write again.
                out.flush()
                err.flush()
                guard let worker = fork(test, file: next, path: files[next], deadline: timeout.map { now() + $0 }) else {
                    // No process to be had: this one runs the test itself.
                    outcomes[next] = test.run(files[next])
                    next += 1
                    continue
                }
                workers.append(worker)
                next += 1
            }
            if !workers.isEmpty {
                var polled = workers.map { pollfd(fd: $0.pipe, events: Int16(POLLIN), revents: 0) }
                // Wait for an outcome, or until the nearest deadline.
                let nearest = workers.compactMap(\.deadline).min()
                let wait = nearest.map { Int32(min(max(($0 - now()) * 1000, 0).rounded(.up), 3_600_000)) } ?? -1
                if poll(&polled, nfds_t(polled.count), wait) < 0 {
                    if errno == EINTR { continue }
                    return running()
                }
                var late = workers.count - 1
                while late >= 0, let timeout {
                    defer { late -= 1 }
                    guard let deadline = workers[late].deadline, now() >= deadline, polled[late].revents == 0 else { continue }
                    if !workers[late].timedOut {
                        // Out of time: asked to stop as a SIGTERM stops carfab (between commands,
                        // or a wait or search cut short), so that it sends the failures and
                        // expects it had; killed if it has not within a second.
                        kill(workers[late].pid, SIGTERM)
                        workers[late].timedOut = true
                        workers[late].deadline = now() + 1
                        continue
                    }
                    // Still running: ended, and failed with that reason.
                    let worker = workers.remove(at: late)
                    polled.remove(at: late)
                    kill(worker.pid, SIGKILL)
                    close(worker.pipe)
                    var status: Int32 = 0
                    while waitpid(worker.pid, &status, 0) < 0 && errno == EINTR {}
                    outcomes[worker.file] = TestOutcome(
                        path: String(decoding: files[worker.file].path, as: UTF8.self), passed: false,
                        expects: 0, problems: [], note: "timed out after \(seconds(timeout)) s",
                        seconds: timeout)
                }
                var index = workers.count - 1
                while index >= 0 {
                    defer { index -= 1 }
                    guard polled[index].revents != 0 else { continue }
                    var chunk = [UInt8](repeating: 0, count: 65536)
                    let count = chunk.withUnsafeMutableBytes { read(workers[index].pipe, $0.baseAddress, $0.count) }
                    if count > 0 {
                        workers[index].received += chunk[0..<count]
                        continue
                    }
                    if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                    let worker = workers.remove(at: index)
                    close(worker.pipe)
                    var status: Int32 = 0
                    while waitpid(worker.pid, &status, 0) < 0 && errno == EINTR {}
                    var outcome = TestWire.outcome(
                        worker.received, status: status,
                        path: String(decoding: files[worker.file].path, as: UTF8.self), timedOut: worker.timedOut)
                    if worker.timedOut, let timeout {
                        // What it found before its time ran out is kept; the timeout is why it stopped.
                        outcome.passed = false
                        outcome.note = "timed out after \(seconds(timeout)) s" + (outcome.note.map { "; \($0)" } ?? "")
                        outcome.seconds = timeout
                    }
                    outcomes[worker.file] = outcome
                }
            }
            while reported < files.count, let outcome = outcomes[reported] {
                report(outcome)
                reported += 1
            }
        }
        return []
    }

    /// Makes descriptor 0 an empty input: /dev/null, or a pipe with no writer if there is none.
    private static func emptyStandardInput() {
        var empty = open("/dev/null", O_RDONLY | O_CLOEXEC)
        if empty < 0 {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { return }
            close(ends[1])
            empty = ends[0]
        }
        if empty != 0 {
            dup2(empty, 0)
            close(empty)
        }
    }

    /// Starts a process that runs test `file` and writes its outcome to a pipe; nil if no
    /// process or pipe could be made.
    private static func fork(_ test: Test, file: Int, path: TestEntry, deadline: Double?) -> Worker? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        let parent = getpid()
        let pid = Glibc.fork()
        if pid < 0 {
            close(ends[0])
            close(ends[1])
            return nil
        }
        if pid == 0 {
            // The child: run the test, send the outcome, and leave without running anything of
            // the parent's (no buffered output, no services) on the way out. It dies with the
            // runner, however the runner ends (a CI job's SIGKILL on timeout included), and
            // ends at once if the runner died before it could ask for that.
            guard cf_die_with_parent(parent) == 1 else { _exit(1) }
            close(ends[0])
            // A signal that stopped the test (its own process sent SIGTERM, SIGINT, SIGHUP or
            // SIGQUIT, which its session takes as a stop) is sent with the outcome: the test did
            // not run to its end, whatever it found before (trial 13, 1: it passed).
            let bytes = TestWire.bytes(of: test.run(path), stoppedBy: test.options.stop.code)
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                sent += count
            }
            _exit(0)
        }
        close(ends[1])
        return Worker(pid: pid, pipe: ends[0], file: file, deadline: deadline)
    }

    private static func processorCount() -> Int {
        max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// `--timeout`'s seconds as given: `2`, `0.5`.
    /// `value` as a plain decimal, as `--timeout` takes it: never in exponent notation
    /// (Swift writes 1e-10 for 0.0000000001; the option takes no exponent, so neither is it shown one).
    static func seconds(_ value: Double) -> String {
        if value == value.rounded() { return String(Int(value)) }
        let text = String(value)
        guard let e = text.firstIndex(of: "e"), let exponent = Int(text[text.index(after: e)...]) else { return text }
        let mantissa = text[..<e]
        let digits = mantissa.filter { $0 != "." }
        // Where the point goes among `digits`; --timeout's values (at most 1000000) print
        // with a negative exponent only, so the point comes before every digit.
        let point = (mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count) + exponent
        guard point <= 0 else { return text }
        return "0." + String(repeating: "0", count: -point) + digits
    }

    static func formatSeconds(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// The time now, as ISO 8601 in UTC (`2026-11-23T15:04:05`).
    private static func timestamp() -> String {
        var seconds = time(nil)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }

    private static func hostname() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A test's outcome as a forked test process sends it: one record per line, fields separated
/// by tabs, with backslash, tab and line break escaped.
enum TestWire {
    static func bytes(of outcome: TestOutcome, stoppedBy signal: Int32 = 0) -> [UInt8] {
        var text = "carfab-test 1\n"
        text += "passed\t\(outcome.passed ? 1 : 0)\n"
        if signal > 0 { text += "stopped\t\(signal)\n" }
        text += "expects\t\(outcome.expects)\n"
        text += "seconds\t\(outcome.seconds)\n"
        if let note = outcome.note { text += "note\t\(escaped(note))\n" }
        for problem in outcome.problems {
            text +=
                [
                    "problem", escaped(problem.id), escaped(problem.file), String(problem.line), String(problem.column),
                    escaped(problem.message), escaped(problem.text), escaped(problem.json)
                ].joined(separator: "\t") + "\n"
        }
        text += "end\n"
        return Array(text.utf8)
    }

    /// The outcome in `bytes`, from a process that ended with wait status `status`; a
    /// failure saying what went wrong if the process did not send one whole, or if a signal
    /// stopped its test before the end (unless the runner sent it, `timedOut`: the caller says so).
    static func outcome(_ bytes: [UInt8], status: Int32, path: String, timedOut: Bool = false) -> TestOutcome {
        var outcome = TestOutcome(path: path, passed: false, expects: 0, problems: [], note: nil, seconds: 0)
        var stopped: Int32 = 0
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        var complete = lines.first == "carfab-test 1"
        var ended = false
        for line in lines.dropFirst() where complete && !ended {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch (fields.first, fields.count) {
            case ("passed", 2): outcome.passed = fields[1] == "1"
            case ("stopped", 2): stopped = Int32(fields[1]) ?? 0
            case ("expects", 2): outcome.expects = Int(fields[1]) ?? 0
            case ("seconds", 2): outcome.seconds = Double(fields[1]) ?? 0
            case ("note", 2): outcome.note = unescaped(fields[1])
            case ("problem", 8):
                outcome.problems.append(
                    TestProblem(
                        id: unescaped(fields[1]), file: unescaped(fields[2]), line: Int(fields[3]) ?? 0,
                        column: Int(fields[4]) ?? 0, message: unescaped(fields[5]),
                        text: unescaped(fields[6]), json: unescaped(fields[7])))
            case ("end", 1): ended = true
            default: complete = false
            }
        }
        if !(complete && ended) {
            outcome.passed = false
            let stopped = status & 0x7F
            outcome.note =
                stopped != 0
                ? "the test's process was ended by signal \(stopped)"
                : "the test's process ended (status \((status >> 8) & 0xFF)) without its outcome"
        } else if stopped > 0 && !timedOut {
            outcome.passed = false
            let stop = "the test's process was stopped by signal \(stopped) before its end"
            outcome.note = outcome.note.map { "\(stop); \($0)" } ?? stop
        }
        return outcome
    }

    // By scalar, not character: CR LF is one character, and must not reach the wire whole.
    static func escaped(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result.append(contentsOf: "\\\\".unicodeScalars)
            case "\t": result.append(contentsOf: "\\t".unicodeScalars)
            case "\n": result.append(contentsOf: "\\n".unicodeScalars)
            case "\r": result.append(contentsOf: "\\r".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    static func unescaped(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var escaping = false
        for scalar in text.unicodeScalars {
            if escaping {
                switch scalar {
                case "t": result.append("\t")
                case "n": result.append("\n")
                case "r": result.append("\r")
                default: result.append(scalar)
                }
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
