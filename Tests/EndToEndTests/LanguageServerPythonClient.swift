/// The start of a Python client of `carfab --lsp` (the binary `$CARFAB`, run in the current
/// folder) for the end-to-end tests: `send` a message, `receive` the next, and `ask`, which
/// sends a request and gives its whole response (printing each `window/showMessage` on the way
/// as `  message: TEXT`). A test's client is this, a line break, then its own steps.
let languageServerPythonClient = #"""
    import json, os, resource, subprocess, sys
    here = os.getcwd()
    server = subprocess.Popen([os.environ["CARFAB"], "--lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    def send(message):
        body = json.dumps(dict(message, jsonrpc="2.0")).encode()
        server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        server.stdin.flush()
    def receive():
        length = None
        while True:
            line = server.stdout.readline()
            if line == b"\r\n": break
            if line.lower().startswith(b"content-length:"): length = int(line.split(b":")[1])
        return json.loads(server.stdout.read(length))
    ids = iter(range(1, 1000))
    def ask(method, params):
        id = next(ids)
        send(dict(id=id, method=method, params=params))
        while True:
            answer = receive()
            if answer.get("method") == "window/showMessage": print("  message:", answer["params"]["message"])
            if answer.get("id") == id: return answer
    """#
