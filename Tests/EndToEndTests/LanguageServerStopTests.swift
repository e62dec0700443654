import Foundation
import Testing

/// An editor's analysis of a document that asks the configurator big questions ends, and can
/// be stopped (trial 3, T6: on a catalog of 61 families and 5,000 rules, one `cheapest` line
/// kept `carfab --lsp` searching for good; `$/cancelRequest` and SIGTERM were not honoured).
/// `cheapest`, `why` and `options` are checked, not run, by the analysis; what it runs (a
/// `fit`'s search) has a bounded budget and stops when the request is cancelled
/// or a stop signal comes. The client waits on conditions (an answer, the server's CPU time,
/// its exit), each under one overall deadline that fails the test.
@Suite struct LanguageServerStopTests {
    @Test func questions_are_checked_and_a_busy_analysis_stops_for_a_cancellation_or_sigterm() throws {
        let directory = try temporaryDirectory(with: ["client.py": Self.client])
        let result = try shell("python3 client.py", directory: directory)
        #expect(
            result
                == RunResult(
                    stdout: """
                        diagnostics: 5:13: unknown g0 option 'tt'; did you mean 't'?
                        inlay hints: $68,300.00 $81,895.00
                        exit 0
                        cancelled -32800 the request was cancelled
                        hover after the cancellation: answered
                        the first: answered
                        the second, cancelled in the queue: -32800
                        SIGTERM while analysing: 143
                        SIGTERM while waiting: 143

                        """, stderr: "", status: 0))
    }

    /// Python that writes `big.carfab` (trial 2's gen_big3.py 5000): 61 families of 8 options and
    /// 5,000 forbid rules (174 KB), on which each `fit` searches its 100,000 steps.
    static let bigCatalog = #"""
        rng = random.Random(3); lines = []; N = 61
        for i in range(N):
            lines.append(f'family g{i} "G{i}" default a{i} "A" price 0')
            for j in range(1, 8): lines.append(f'option g{i} o{i}_{j} "O" price {rng.randint(0, 900)}')
        lines.append('option g0 t "T" price 1')
        for j in range(1, N): lines.append(f'forbid g0 t with g{j} a{j}')
        seen = set(); rules = []
        while len(rules) < 5000:
            i, j = rng.sample(range(1, N), 2); a = rng.randint(1, 7); b = rng.randint(1, 7)
            k = (min((i, a), (j, b)), max((i, a), (j, b)))
            if k in seen: continue
            seen.add(k); rules.append(f'forbid g{i} o{i}_{a} with g{j} o{j}_{b}')
        open("big.carfab", "w").write("\n".join(lines + rules) + "\n")
        """#

    static let client = #"""
        import json, os, random, select, signal, subprocess, sys, time
        # Each part has 20 s (it takes well under one): before the fix, `cheapest g0 t` searched for ~50 s.
        def part():
            global deadline
            deadline = time.monotonic() + 20
        """# + "\n" + bigCatalog + "\n" + #"""
            uri = "file://" + os.getcwd() + "/doc.carfab"

            class Server:
                def __init__(self):
                    self.process = subprocess.Popen([os.environ["CARFAB"], "--lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
                    self.buffer = b""; self.ids = 0
                def send(self, message, flush=True):
                    body = json.dumps(dict(message, jsonrpc="2.0")).encode()
                    self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
                    if flush: self.process.stdin.flush()
                def request(self, method, params, flush=True):
                    self.ids += 1; self.send(dict(id=self.ids, method=method, params=params), flush); return self.ids
                def receive(self):
                    while True:
                        end = self.buffer.find(b"\r\n\r\n")
                        if end >= 0:
                            length = int(self.buffer[:end].split(b":")[1])
                            if len(self.buffer) >= end + 4 + length:
                                body = self.buffer[end + 4:end + 4 + length]; self.buffer = self.buffer[end + 4 + length:]
                                return json.loads(body)
                        left = deadline - time.monotonic()
                        if left <= 0 or not select.select([self.process.stdout], [], [], left)[0]: self.fail("no answer by the deadline")
                        chunk = os.read(self.process.stdout.fileno(), 1 << 16)
                        if not chunk: self.fail("the server ended")
                        self.buffer += chunk
                def answer(self, id):
                    while True:
                        message = self.receive()
                        if message.get("id") == id and "method" not in message: return message
                def published(self):
                    while True:
                        message = self.receive()
                        if message.get("method") == "textDocument/publishDiagnostics": return message["params"]["diagnostics"]
                def cpu(self):
                    fields = open(f"/proc/{self.process.pid}/stat").read().rsplit(")", 1)[1].split()
                    return int(fields[11]) + int(fields[12])
                def busy(self, since):
                    # Until the server has spent a fifth of a second of CPU time since `since`: it is analysing.
                    while self.cpu() < since + os.sysconf("SC_CLK_TCK") // 5:
                        if time.monotonic() > deadline: self.fail("the server did not start analysing")
                        time.sleep(0.01)
                def ended(self):
                    try: return self.process.wait(max(deadline - time.monotonic(), 0.1))
                    except subprocess.TimeoutExpired: self.fail("still running")
                def fail(self, why):
                    print(why); self.process.kill(); sys.exit(1)
                def open(self, text):
                    self.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}}); self.answer(1)
                    self.send({"method": "initialized", "params": {}})
                    self.send({"method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "carfab", "version": 1, "text": text}}})
                def hints(self, last, flush=True):
                    return self.request("textDocument/inlayHint", {"textDocument": {"uri": uri},
                        "range": {"start": {"line": 0, "character": 0}, "end": {"line": last, "character": 0}}}, flush)

            # The questions are checked (their words' errors stay), not run: the hints come at once.
            part(); server = Server()
            server.open("source big.carfab\ncar sports\ncheapest g0 t\nwhy g0 t\ncheapest g0 tt\noptions\ncar suv\n")
            for d in server.published():
                print("diagnostics: %d:%d: %s" % (d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1, d["message"]))
            print("inlay hints:", " ".join(hint["label"] for hint in server.answer(server.hints(7))["result"]))
            server.request("shutdown", None); server.send({"method": "exit"}); print("exit", server.ended())

            # A long analysis (each `fit`, on a car of its own, searches up to its 100,000 steps):
            # cancelled once it runs.
            part(); server = Server()
            server.open("source big.carfab\ncar sports\n" + "car sports\nfit g0 t\n" * 1000)
            server.published()
            before = server.cpu(); id = server.hints(2002); server.busy(before)
            server.send({"method": "$/cancelRequest", "params": {"id": id}})
            error = server.answer(id)["error"]
            print("cancelled", error["code"], error["message"])
            hover = server.answer(server.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 1}}))
            print("hover after the cancellation:", "answered" if hover.get("result") else hover)
            # Two requests read together; the second, cancelled while the first is answered, stops
            # as soon as it is begun (the cancellation was dropped: it ran whole).
            part(); before = server.cpu()
            first = server.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "context": {"diagnostics": []},
                "range": {"start": {"line": 4, "character": 0}, "end": {"line": 4, "character": 0}}}, False)
            second = server.hints(2002); server.busy(before)
            server.send({"method": "$/cancelRequest", "params": {"id": second}})
            print("the first:", "answered" if "result" in server.answer(first) else "not answered")
            print("the second, cancelled in the queue:", server.answer(second).get("error", {}).get("code"))
            part(); before = server.cpu(); server.hints(2002); server.busy(before)
            server.process.send_signal(signal.SIGTERM)
            print("SIGTERM while analysing:", server.ended())

            part(); server = Server(); server.open("car sports\n"); server.published()
            server.process.send_signal(signal.SIGTERM)
            print("SIGTERM while waiting:", server.ended())
            """#
}
