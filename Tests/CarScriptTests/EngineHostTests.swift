import CarFactory
import Testing

@testable import CarScript

/// The engine touches files, standard input and folders only through the host its options
/// give (issue 21): none, none of them; an in-memory one, its files and nothing else.
@Suite struct EngineHostTests {
    @Test func without_a_host_files_and_standard_input_are_refused_and_save_dash_still_prints() {
        let engine = Engine(
            options: {
                var o = EngineOptions()
                o.keepGoing = true
                return o
            }())
        let run = engine.evaluate("car sports\nsource quote.carfab\nsave fleet.carfab\nsource -\nsave -")
        #expect(
            run.diagnostics.map(\.message) == [
                "'source' touches files and is refused by the program running the engine, which gives it no files",
                "'save' touches files and is refused by the program running the engine, which gives it no files",
                "'source -' reads standard input and is refused by the program running the engine, which gives it no files"
            ])
        #expect(run.diagnostics.map(\.id) == ["refused", "refused", "refused"])
        guard case .text(let script)? = run.results.last?.result else {
            Issue.record("save - printed nothing")
            return
        }
        #expect(script.contains("car sports"))
        // Nor are file names completed.
        #expect(engine.completer().complete("source ").candidates == [])
    }

    @Test func source_and_save_read_and_write_the_hosts_files_only() {
        let files = MemoryHost(["parts/four.carfab": "set drivetrain 4wd\nsource ../more.carfab\n", "more.carfab": "car suv\n"])
        let h = EngineHarness(files: files)
        #expect(h.run("car sports; source parts/four.carfab; save out/fleet.carfab").diagnostics.isEmpty)
        #expect(h.session.stock.lineCount == 2)
        let saved = String(decoding: files.files["out/fleet.carfab"] ?? [], as: UTF8.self)
        let replayed = EngineHarness()
        #expect(replayed.run(saved).diagnostics.isEmpty)
        #expect(replayed.session.stock.lineCount == 2 && replayed.session.stock.carCount == 2)
        // The host's words for a missing file and a folder, at the file name.
        let missing = h.run("source nothing.carfab").diagnostics
        #expect(missing.map(\.message) == ["cannot open 'nothing.carfab': No such file or directory"])
        #expect(missing.first?.column == 8)
        #expect(h.run("save parts").diagnostics.map(\.message) == ["cannot save 'parts': it is a directory"])
    }

    @Test func a_source_cycle_is_found_by_the_hosts_identity() {
        let files = MemoryHost(["a.carfab": "source ./b.carfab\n", "b.carfab": "source a.carfab\n"])
        let diagnostics = EngineHarness(files: files).run("source a.carfab").diagnostics
        #expect(diagnostics.first?.message == "'source' cycle: t -> a.carfab -> ./b.carfab -> a.carfab")
    }

    @Test func standard_input_is_the_hosts() {
        let files = MemoryHost()
        files.standardInput = "car suv 2\n"
        let h = EngineHarness(files: files)
        #expect(h.run("source -").diagnostics.isEmpty)
        #expect(h.session.stock.carCount == 2)
    }

    @Test func read_only_access_asks_the_host_what_a_file_is() {
        var options = EngineOptions()
        options.fileAccess = .readOnly(otherwiseRefusedBy: "while checking")
        let files = MemoryHost(["folder/x.carfab": "car suv\n"])
        let h = EngineHarness(options: options, files: files)
        #expect(h.run("source folder").diagnostics.map(\.message) == ["'source' reads only regular files while checking"])
        #expect(h.run("source folder/x.carfab").diagnostics.isEmpty)
    }

    /// A sink that keeps diagnostics and chooses its source window's width.
    final class NarrowSink: ResultSink {
        let width: Int
        var diagnostics: [Diagnostic] = []
        init(width: Int) { self.width = width }
        func receive(_ result: CommandResult, from command: CommandSpec) {}
        func receive(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }
        var sourceWindowWidth: Int { width }
    }

    @Test func the_source_window_is_as_wide_as_the_sink_chooses() {
        let line = "echo " + String(repeating: "x", count: 100) + "; car sprots; echo " + String(repeating: "y", count: 100)
        func excerpt(width: Int?) -> SourceExcerpt? {
            if let width {
                let sink = NarrowSink(width: width)
                Engine(sink: sink).evaluate(line)
                return sink.diagnostics.first?.source
            }
            return Engine().evaluate(line).diagnostics.first?.source
        }
        // 80 columns unless the sink says: 74 of the line and "..." on each side.
        #expect(excerpt(width: nil)?.text.count == 74)
        #expect(excerpt(width: 80) == excerpt(width: nil))
        let narrow = excerpt(width: 40)
        #expect(narrow?.text.count == 34 && narrow?.text.contains("sprots") == true)
        #expect(narrow?.cutBefore == true && narrow?.cutAfter == true)
        // A wide window shows the whole line.
        #expect(excerpt(width: 300) == SourceExcerpt(line))
    }
}

/// The host the Embedding article shows (Sources/CarScript/CarScript.docc/Embedding.md), word
/// for word, so that the article's code compiles and does what it says.
struct Shelf: EngineHost {
    let scripts: [String: String]

    func openFile(_ path: [UInt8], stop: StopRequest) throws(LineSourceFailure) -> any LineSource {
        let name = String(decoding: path, as: UTF8.self)
        guard let text = scripts[name] else { throw .unreadable("cannot open '\(name)': no such script") }
        return textLines(Array(text.utf8), name: name, path: name)
    }
    func openStandardInput(stop: StopRequest) throws(LineSourceFailure) -> any LineSource {
        throw .unreadable("there is no standard input here")
    }
    func kind(of path: [UInt8]) -> FileKind? {
        scripts[String(decoding: path, as: UTF8.self)] == nil ? nil : .regular
    }
    func identity(of path: [UInt8]) -> [UInt8]? { kind(of: path) == nil ? nil : path }
    func save(_ bytes: [UInt8], to path: [UInt8], stop: StopRequest) throws(SaveFailure) {
        throw .reason("the shelf is read-only")
    }
    func entries(ofFolder path: [UInt8]) -> [FolderEntry]? { nil }
}

@Suite struct EmbeddingArticleHostTests {
    @Test func the_articles_shelf_gives_its_scripts_and_refuses_the_rest() {
        var options = EngineOptions()
        options.host = Shelf(scripts: ["fleet.carfab": "car suv 2\ncar sports\n"])
        options.keepGoing = true
        let engine = Engine(options: options)
        let run = engine.evaluate("source fleet.carfab; total GBP\nsave x.carfab\nsource -\nsource y.carfab")
        #expect(engine.stock.carCount == 3)
        guard case .total(let count, let value, let valuation)? = run.results.last?.result else {
            Issue.record("no total")
            return
        }
        #expect(count == 3 && valuation.money(value).description == "£140,038.46")
        #expect(
            run.diagnostics.map(\.message) == [
                "cannot save 'x.carfab': the shelf is read-only", "there is no standard input here",
                "cannot open 'y.carfab': no such script"
            ])
    }
}

/// A prompt of the test's own: it asks for a stop with a code only it knows while a line is
/// read, and takes that stop back as a person's interrupt.
final class InterruptingPrompt: LineSource {
    var lines = ["car suv", "car compact", "car sports"]
    let interruptCode: Int32
    var reads = 0
    var toldInterrupted = 0
    let stop: StopRequest
    init(stop: StopRequest, interruptCode: Int32) {
        self.stop = stop
        self.interruptCode = interruptCode
    }
    var name: String { "<prompt>" }
    var isInteractive: Bool { true }
    func readLine(continuation: Bool) throws(LineSourceFailure) -> [UInt8]? {
        reads += 1
        if reads == 2 { stop.request(interruptCode) }
        return lines.isEmpty ? nil : Array(lines.removeFirst().utf8)
    }
    func withdrawInterrupt(from stop: StopRequest) -> Bool { stop.withdraw(interruptCode) }
    func interrupted(at place: String?) { toldInterrupted += 1 }
}

@Suite struct InterruptTests {
    @Test func the_prompt_decides_what_an_interrupt_is_and_takes_it_back() {
        let engine = Engine()
        // Any code the prompt chooses: the engine knows no signal numbers.
        let prompt = InterruptingPrompt(stop: engine.cancellation, interruptCode: 99)
        engine.evaluate(prompt)
        #expect(prompt.toldInterrupted == 1)
        #expect(!engine.cancellation.isRequested)
        let models = (0..<engine.stock.lineCount).compactMap { try? engine.stock.line($0 + 1).car.carType }
        #expect(models.first == "Cadillac Escalade" && models.last == "Porsche Boxster")
    }

    @Test func another_stop_ends_the_prompt() {
        let engine = Engine()
        let prompt = InterruptingPrompt(stop: engine.cancellation, interruptCode: 99)
        engine.cancellation.request(15)
        engine.evaluate(prompt)
        #expect(engine.stock.lineCount == 0 && prompt.toldInterrupted == 0)
    }
}
