"""A JSON-RPC 2.0 client of clarityd over its Unix socket (NDJSON), for the scripts that drive a
daemon: soak.py and reliability.py. Python 3 standard library only."""
import json, socket


class Client:
    """One connection. `timeout` (seconds, None waits forever) bounds the connect and each read."""

    def __init__(self, path, timeout=None):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.file = self.sock.makefile("rb")
        self.next = 0

    def send(self, method, params=None):
        self.next += 1
        message = {"jsonrpc": "2.0", "id": self.next, "method": method}
        if params is not None:
            message["params"] = params
        self.sock.sendall((json.dumps(message) + "\n").encode())

    def answer(self):
        """The next response, skipping notifications (lines without an id)."""
        while True:
            line = self.file.readline()
            if not line:
                raise EOFError("closed")
            message = json.loads(line)
            if "id" in message:
                return message

    def call(self, method, params=None):
        self.send(method, params)
        return self.answer()

    def close(self):
        try:
            self.file.close()
            self.sock.close()
        except OSError:
            pass
