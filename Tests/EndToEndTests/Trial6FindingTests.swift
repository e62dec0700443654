import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The findings of the sixth trial of main (trial6) at the program's edge, each shown fixed end
/// to end: the prompt in a real pseudo-terminal, TAP output.
@Suite(.serialized) struct Trial6FindingTests {
    let state: URL

    init() throws {
        state = try scratchFolder("trial6")
    }

    /// carfab at a prompt with `arguments` run first, on a terminal `columns` wide.
    func start(_ arguments: [String] = [], columns: UInt16 = 100, environment: [String: String] = [:]) throws
        -> PseudoTerminal
    {
        try PseudoTerminal(
            arguments: arguments,
            environment: ["XDG_STATE_HOME": state.path, "HOME": state.path].merging(environment) { $1 },
            columns: columns)
    }

    /// A script that makes a stock of `lines` lines, line N of N sports cars.
    func stockScript(lines: Int) throws -> URL {
        let file = state.appendingPathComponent("stock.carfab")
        try (1...lines).map { "car sports \($0)\n" }.joined().write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// 7: Ctrl-C or SIGTERM while a long `list` or `save -` writes to the terminal ends it
    /// between rows (a terminal always takes the bytes, so the rule for a reader that stopped
    /// never cut it short: all 100,000 rows were still written).
    @Test(arguments: [("list", "  {N}  sports  "), ("save -", "car sports {N}\r\n")])
    func a_stop_ends_a_long_listing_at_the_prompt_between_rows(command: String, row: String) throws {
        func line(_ number: Int) -> String { row.replacing("{N}", with: String(number)) }
        let terminal = try start([try stockScript(lines: 100_000).path, "-i"])
        #expect(terminal.waitFor("carfab> ", timeout: 30))
        // Counted before: counting reads the terminal, which must not be read until the signal.
        let prompts = terminal.count("carfab> ")
        terminal.type(command + "\r")
        // Not read meanwhile, the terminal fills: carfab waits to write (as for a person whose
        // terminal draws slower than carfab writes), a few kilobytes in.
        #expect(Self.waitUntilBlockedWriting(terminal.pid))
        kill(terminal.pid, SIGINT)
        #expect(terminal.waitFor("carfab> ", times: prompts + 1, timeout: 30))
        #expect(
            terminal.count(line(50_000)) == 0 && terminal.count(line(100_000)) == 0,
            "\(terminal.output.suffix(300).debugDescription)")
        // Stopped between rows: the last row written is whole, then the prompt on a line of its own.
        // (The prompt asks for bracketed paste while it reads: `\e[?2004h`.)
        #expect(terminal.output.hasSuffix("\r\n\r\n\u{1B}[?2004hcarfab> "), "\(terminal.output.suffix(200).debugDescription)")
        // The session goes on, its stock as it was.
        #expect(terminal.enter("total", expecting: "5000050000 Cars in Stock. Total Value: $341,503,415,000,000.00"))
        terminal.type(command + "\r")
        #expect(Self.waitUntilBlockedWriting(terminal.pid))
        kill(terminal.pid, SIGTERM)
        #expect(terminal.exitStatus(timeout: 30) == 143)
        #expect(terminal.count(line(50_000)) == 0 && terminal.count(line(100_000)) == 0)
    }

    /// Waits until `pid` is blocked in a write (to a terminal no one reads).
    static func waitUntilBlockedWriting(_ pid: pid_t, timeout: Double = 30) -> Bool {
        #if arch(arm64)
        let write = "64"
        #else
        let write = "1"
        #endif
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let channel = (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? ""
            let call = (try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8)) ?? ""
            if channel == "wait_woken" && call.split(separator: " ").first.map(String.init) == write { return true }
            usleep(2_000)
        }
        return false
    }

    /// Waits until `pid` sleeps reading a pipe or FIFO (the kernel's wait channel says so).
    static func waitUntilBlockedReadingAPipe(_ pid: pid_t, timeout: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let channel = (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? ""
            if channel.hasSuffix("pipe_read") { return true }
            usleep(2_000)
        }
        return false
    }

    /// 6: a failing test file named `... # TODO ...` or `... # SKIP ...` is a failure to tappy
    /// as to prove (tappy ended the description at the `\#` and read the rest as a directive:
    /// its run was "OK"), and its name is shown whole.
    @Test func a_hash_in_a_test_file_name_is_no_tap_directive_to_tappy_or_prove() throws {
        let directory = state.appendingPathComponent("tests")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in ["x # TODO later.carfab", "y # SKIP.carfab", "z#we\\ird.carfab"] {
            try Data("car nosuch\n".utf8).write(to: directory.appendingPathComponent(name))
        }
        let run = try carfab(["--test", "tests", "--format", "tap"], directory: state)
        #expect(run.status == 1)
        let points = run.stdout.split(separator: "\n").filter { $0.hasPrefix("not ok") || $0.hasPrefix("ok") }
        #expect(
            points == [
                #"not ok 1 - tests/x \x23 TODO later.carfab"#, #"not ok 2 - tests/y \x23 SKIP.carfab"#,
                #"not ok 3 - tests/z\x23we\\ird.carfab"#
            ], "\(run.stdout)")
        let message = "unknown model 'nosuch'; valid models: compact, sports, suv"
        let expected = (1...3).map { "\($0) not ok | \(message) | 1 | " }
        let perl = try launch("/usr/bin/perl", ["-e", TestRunnerTests.perlReader], stdin: run.stdout)
        let tappy = try launch("/usr/bin/python3", ["-c", TestRunnerTests.tappyReader], stdin: run.stdout)
        for reader in [perl, tappy] {
            let lines = reader.stdout.split(separator: "\n")
            #expect(lines.count == 4 && lines.last == "passed 0 failed 3", "\(reader)")
            for (line, start) in zip(lines, expected) { #expect(line.hasPrefix(start), "\(reader)") }
        }
        // tappy's own description of each point: the name whole, no directive.
        let descriptions = try launch(
            "/usr/bin/python3",
            [
                "-c",
                "import sys\nfrom tap.parser import Parser\nfor l in Parser().parse_text(sys.stdin.read()):\n"
                    + "    if l.category == 'test': print(l.description, l.directive.text == '')"
            ], stdin: run.stdout)
        #expect(
            descriptions.stdout == #"""
                - tests/x \x23 TODO later.carfab True
                - tests/y \x23 SKIP.carfab True
                - tests/z\x23we\\ird.carfab True

                """#, "\(descriptions)")
    }

    /// 1: Tab's list of candidates stays whole on the screen when the line typed wraps over
    /// several rows (the redisplay cleared the edit's rows upward from where libedit thought
    /// its cursor was, inside the list: one candidate lost per extra row of the line).
    @Test(arguments: [
        (20, "echo abcdefgh abcdefgh abcdefgh abcdefgh abcdefgh ; car ", ["compact", "sports", "suv"]),
        (40, "car sports 1; car sports; set drivetrain ", ["front", "rear", "4wd", "all", "awd"]),
        (
            80, "car sports 1; set drivetrain 4wd; set floorplan standard; set suspension ",
            ["road", "race", "offroad", "standard", "sports", "firm", "soft"]
        )
    ])
    func tab_lists_every_candidate_when_the_line_wraps(columns: Int, line: String, candidates: [String]) throws {
        let terminal = try start(columns: UInt16(columns))
        #expect(terminal.waitFor("carfab> "))
        // The line as the screen shows it, blanks left out (a row's last blank is not drawn).
        let drawn = ("carfab> " + line).replacing(" ", with: "")
        func shown() -> String {
            TerminalScreen(rows: 24, columns: columns, output: terminal.output).text.joined().replacing(" ", with: "")
        }
        terminal.type(line)
        #expect(terminal.wait { shown().hasSuffix(drawn) })
        let prompts = terminal.count("carfab> ")
        terminal.type("\t")
        // The list, then the line drawn again below it.
        #expect(terminal.wait { terminal.count("carfab> ") > prompts && shown().hasSuffix(drawn) })
        let screen = TerminalScreen(rows: 24, columns: columns, output: terminal.output).text
        let listed = candidates.map { name in screen.contains { $0.hasPrefix(name + " ") } }
        #expect(listed.allSatisfy { $0 }, "\(screen.joined(separator: "|\n"))")
        // Below the last candidate, the line as typed (wrapped as the terminal wraps it).
        let last = screen.lastIndex { $0.hasPrefix(candidates[candidates.count - 1] + " ") } ?? 0
        let redrawn = screen[(last + 1)...].joined().replacing(" ", with: "")
        #expect(redrawn == drawn, "\(redrawn)")
        terminal.type("\u{15}\u{04}")
        #expect(terminal.exitStatus() == 0)
    }

    /// 11: with `bind -v` in the editrc (vi's keys, as the README suggests), Tab still
    /// completes (the new key maps made it insert a Tab); an editrc that binds Tab keeps its own.
    @Test func tab_completes_with_vi_keys_from_the_editrc() throws {
        let editrc = state.appendingPathComponent("editrc")
        try "bind -v\n".write(to: editrc, atomically: true, encoding: .utf8)
        let terminal = try start(environment: ["EDITRC": editrc.path])
        #expect(terminal.enter("car spo\t", expecting: "carfab> "))
        #expect(terminal.enter("show", expecting: "Price: $68,300.00"), "\(terminal.output.debugDescription)")
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
        // Its own Tab binding (insert a Tab, a blank between words) is kept: completion would glue them.
        try "bind -v\nbind ^I ed-insert\n".write(to: editrc, atomically: true, encoding: .utf8)
        let own = try start(environment: ["EDITRC": editrc.path])
        #expect(own.enter("echo a\tb", expecting: "a b\r\n"), "\(own.output.debugDescription)")
        own.type("\u{04}")
        #expect(own.exitStatus() == 0)
    }

    /// 9: text pasted at the prompt (bracketed by the terminal) is inserted as it is: a Tab in a
    /// quoted value is kept, one between words is a blank, one at a line's start lists nothing;
    /// its lines run one after another as if typed, and what follows the last stays on the line.
    @Test func a_paste_is_inserted_as_it_is_and_its_lines_run_as_typed() throws {
        let terminal = try start()
        // Asked for while a line is read, and no longer while the command runs.
        #expect(terminal.waitFor("\u{1B}[?2004hcarfab> "))
        terminal.type("\u{1B}[200~var t \"x\ty\"; echo \"[$t]\"\u{1B}[201~\r")
        #expect(terminal.waitFor("\u{1B}[?2004l[x\ty]\r\n"), "\(terminal.output.debugDescription)")
        terminal.type("\u{1B}[200~\tcar sports\r\n\tset drivetrain\t4wd\r\techo a\tb\r\tsho\u{1B}[201~")
        #expect(terminal.waitFor("a b\r\n"), "\(terminal.output.debugDescription)")
        #expect(terminal.enter("w", expecting: "Drive: 4WD\r\n"), "\(terminal.output.debugDescription)")
        // No list of commands (a Tab at the start of a line completed the command).
        #expect(!terminal.output.contains("cheapest"))
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
        // Off again at the end, for the shell.
        #expect(terminal.output.hasSuffix("\u{1B}[?2004l\r\n"), "\(terminal.output.suffix(100).debugDescription)")
        // A dumb terminal is not asked.
        let dumb = try start(environment: ["TERM": "dumb"])
        #expect(dumb.enter("echo plain", expecting: "plain\r\n"))
        dumb.type("\u{04}")
        #expect(dumb.exitStatus() == 0)
        #expect(!dumb.output.contains("2004"))
    }

    /// 3: Tab completes file names after `source ~/` and `save ~/` in the home folder, as both
    /// read `~/`, keeping `~/` in the line; the language server's completion too.
    @Test func file_names_after_tilde_slash_are_completed_in_the_home_folder() throws {
        let directory = try temporaryDirectory(with: [
            "home/quotes/fleet.carfab": "car suv\n", "doc.carfab": "", "client.py": Self.completionClient
        ])
        let home = directory.appendingPathComponent("home").path
        let terminal = try start(environment: ["HOME": home])
        // The line typed is `source ~/q<Tab>f<Tab>; list`: the file's car is listed.
        #expect(
            terminal.enter("source ~/q\tf\t; list", expecting: "Cadillac Escalade"), "\(terminal.output.debugDescription)")
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
        let server = try shell("HOME=\"$PWD/home\" python3 client.py", directory: directory)
        #expect(server == RunResult(stdout: "~/quotes/fleet.carfab\n", stderr: "", status: 0))
    }

    /// Asks `carfab --lsp` to complete `source ~/quotes/f` and prints the labels.
    static let completionClient = #"""
        import json, os, subprocess
        server = subprocess.Popen([os.environ["CARFAB"], "--lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        def send(message):
            body = json.dumps(dict(message, jsonrpc="2.0")).encode()
            server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            server.stdin.flush()
        def ask(id, method, params):
            send(dict(id=id, method=method, params=params))
            while True:
                length = None
                while True:
                    line = server.stdout.readline()
                    if line == b"\r\n": break
                    if line.lower().startswith(b"content-length:"): length = int(line.split(b":")[1])
                answer = json.loads(server.stdout.read(length))
                if answer.get("id") == id: return answer.get("result")
        document = {"uri": "file://" + os.getcwd() + "/doc.carfab"}
        ask(1, "initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        send({"method": "initialized", "params": {}})
        text = "source ~/quotes/f"
        send({"method": "textDocument/didOpen", "params": {"textDocument": dict(document, languageId="carfab", version=1, text=text)}})
        result = ask(2, "textDocument/completion", {"textDocument": document, "position": {"line": 0, "character": len(text)}})
        for item in (result["items"] if isinstance(result, dict) else result): print(item["label"])
        ask(3, "shutdown", None)
        send({"method": "exit"})
        server.wait()
        """#

    /// A `less` that notes its environment in `less.env` beside itself and reads its page; the
    /// folder to put first on PATH.
    func fakeLess(_ name: String) throws -> URL {
        let folder = state.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let less = folder.appendingPathComponent("less")
        try writeFile("#!/bin/sh\nenv > \"$0.env.part\"\ncat > /dev/null\nmv \"$0.env.part\" \"$0.env\"\n", to: less, mode: 0o755)
        return folder
    }

    /// 10: the default pager runs with `LESSHISTFILE=-` (and `LESSSECURE=1`): a page of help
    /// writes no search history, `~/.lesshst`, into the home folder.
    @Test func the_default_pager_keeps_no_history_in_the_home_folder() throws {
        let folder = try fakeLess("pager-history")
        let terminal = try PseudoTerminal(
            environment: ["XDG_STATE_HOME": state.path, "HOME": state.path, "PATH": folder.path + ":/usr/bin:/bin"],
            unset: ["PAGER"])
        #expect(terminal.waitFor("carfab> "))
        terminal.type("help\r")
        let noted = folder.appendingPathComponent("less.env")
        #expect(terminal.wait { FileManager.default.fileExists(atPath: noted.path) })
        let environment = try String(contentsOf: noted, encoding: .utf8).split(separator: "\n")
        #expect(environment.contains("LESSHISTFILE=-") && environment.contains("LESSSECURE=1"), "\(environment)")
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
    }

    /// 10: on a terminal `less` cannot draw on (`TERM` dumb, unset or unknown) no default pager
    /// runs (less stopped to warn "terminal is not fully functional" first): the page is printed.
    @Test(arguments: [["TERM": "dumb"], ["TERM": "no-such-terminal-xyz"], [:]])
    func no_default_pager_on_a_terminal_it_cannot_draw_on(term: [String: String]) throws {
        let folder = try fakeLess("pager-dumb-\(term["TERM"] ?? "unset")")
        let terminal = try PseudoTerminal(
            environment: ["XDG_STATE_HOME": state.path, "HOME": state.path, "PATH": folder.path + ":/usr/bin:/bin"]
                .merging(term) { $1 },
            unset: term.isEmpty ? ["PAGER", "TERM"] : ["PAGER"])
        #expect(terminal.enter("help", expecting: "Type 'help keys' for the keys"), "\(terminal.output.debugDescription)")
        terminal.type("\u{04}")
        #expect(terminal.exitStatus() == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("less.env").path))
    }

    /// 10: Ctrl-C while the init file runs before the prompt says where it stopped and that
    /// carfab ends (it ended silently, status 130).
    @Test func ctrl_c_in_the_init_file_says_what_it_stopped() throws {
        // An init file that is a FIFO: its second line never comes while the test holds it open.
        let fifo = state.appendingPathComponent("init-fifo")
        unlink(fifo.path)
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let writer = open(fifo.path, O_RDWR | O_CLOEXEC)
        defer { close(writer) }
        var first = Array("echo started\n".utf8)
        #expect(write(writer, &first, first.count) == first.count)
        let terminal = try start(["--init", fifo.path])
        #expect(terminal.waitFor("started\r\n"))
        // Once it waits for line 2: a signal just after `echo` printed could still find it at
        // line 1 (CI saw `:1` once).
        #expect(Self.waitUntilBlockedReadingAPipe(terminal.pid))
        // As Ctrl-C sends it (typing waits for a prompt, which never comes).
        kill(terminal.pid, SIGINT)
        #expect(terminal.exitStatus() == 130)
        #expect(
            terminal.output.hasSuffix(
                "carfab: init file interrupted at \(fifo.path):2: carfab ends (it never starts without all of its init file)\r\n"),
            "\(terminal.output.debugDescription)")
        #expect(!terminal.output.contains("carfab> "))
    }
}
