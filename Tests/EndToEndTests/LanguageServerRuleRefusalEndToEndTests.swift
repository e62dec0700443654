import Foundation
import Testing

/// Trial 9, finding 6, with the release binary over pipes, as an editor that asks nothing
/// after opening (Neovim 0.7 asks no inlay hints): a `set` a rule refuses is published as an
/// error once the server has run the document, with no request to make it; a document whose
/// pass searches long (each `fit`) is stopped by the next message, which is answered at once.
@Suite struct LanguageServerRuleRefusalEndToEndTests {
    @Test func a_refused_set_is_published_with_no_request_and_a_long_pass_yields_to_messages() throws {
        let directory = try temporaryDirectory(with: ["client.py": Self.client])
        let result = try shell("python3 client.py", directory: directory)
        #expect(
            result
                == RunResult(
                    stdout: """
                        published: []
                        published: ['2:16 rule-violation: front drivetrain cannot go with the short floorplan']
                        long pass, published: []
                        hover during the pass: answered
                        exit 0

                        """, stderr: "", status: 0))
    }

    static let client = #"""
        import json, os, random, select, subprocess, sys, time
        deadline = time.monotonic() + 20
        """# + "\n" + LanguageServerStopTests.bigCatalog + "\n" + #"""
            uri = "file://" + os.getcwd() + "/doc.carfab"
            process = subprocess.Popen([os.environ["CARFAB"], "--lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            buffer = b""
            def fail(why):
                print(why); process.kill(); sys.exit(1)
            def send(message):
                body = json.dumps(dict(message, jsonrpc="2.0")).encode()
                process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body); process.stdin.flush()
            def receive():
                global buffer
                while True:
                    end = buffer.find(b"\r\n\r\n")
                    if end >= 0:
                        length = int(buffer[:end].split(b":")[1])
                        if len(buffer) >= end + 4 + length:
                            body = buffer[end + 4:end + 4 + length]; buffer = buffer[end + 4 + length:]
                            return json.loads(body)
                    left = deadline - time.monotonic()
                    if left <= 0 or not select.select([process.stdout], [], [], left)[0]: fail("no message by the deadline")
                    chunk = os.read(process.stdout.fileno(), 1 << 16)
                    if not chunk: fail("the server ended")
                    buffer += chunk
            def published():
                while True:
                    message = receive()
                    if message.get("method") == "textDocument/publishDiagnostics":
                        return ["%d:%d %s: %s" % (d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1, d["code"], d["message"])
                                for d in message["params"]["diagnostics"]]
            def answer(id):
                while True:
                    message = receive()
                    if message.get("id") == id and "method" not in message: return message
            def busy(since):
                # Until the server has spent a fifth of a second of CPU time since `since`: it is running the pass.
                while cpu() < since + os.sysconf("SC_CLK_TCK") // 5:
                    if time.monotonic() > deadline: fail("the server did not start its pass")
                    time.sleep(0.01)
            def cpu():
                fields = open(f"/proc/{process.pid}/stat").read().rsplit(")", 1)[1].split()
                return int(fields[11]) + int(fields[12])
            def open_document(version, text):
                if version == 1:
                    send({"method": "textDocument/didOpen", "params": {
                        "textDocument": {"uri": uri, "languageId": "carfab", "version": 1, "text": text}}})
                else:
                    send({"method": "textDocument/didChange", "params": {
                        "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}})
            send({"id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}}); answer(1)
            send({"method": "initialized", "params": {}})
            # The check's diagnostics (none), then, with no message waiting, the refusal.
            open_document(1, "car sports\nset drivetrain front\nset drivetrain 4wd\n")
            print("published:", published())
            print("published:", published())
            # A pass of 1,000 searches: the check's diagnostics at once, then a hover while the pass runs.
            before = cpu()
            open_document(2, "source big.carfab\ncar sports\n" + "car sports\nfit g0 t\nset drivetrain front\n" * 1000)
            print("long pass, published:", published())
            busy(before)
            send({"id": 2, "method": "textDocument/hover", "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 1}}})
            hover = answer(2)
            print("hover during the pass:", "answered" if hover.get("result") else hover)
            send({"id": 3, "method": "shutdown"}); answer(3); send({"method": "exit"})
            try: print("exit", process.wait(max(deadline - time.monotonic(), 0.1)))
            except subprocess.TimeoutExpired: fail("still running")
            """#
}
