"""A local HTTP server for the archive tests (127.0.0.1 only): files of a directory with ``Range``
support, bytes sent counted per path, and faults on demand (503/429 with ``Retry-After``, a connection
cut mid-body, ``Range`` ignored)."""
from __future__ import annotations

import os
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


@dataclass
class Faults:
    busy: int = 0  # answer the next N requests 503 (or ``busy_status``) with Retry-After
    busy_status: int = 503
    retry_after: str = "1"
    cut_after: int | None = None  # the next response of a body stops after this many bytes (once)
    cut_paths: tuple[str, ...] = ()  # only these paths are cut ("" : any)
    ignore_range: bool = False
    down_after_cut: bool = False  # after the cut, answer every request 503 (an outage mid-file)
    rate: float = 0.0  # bytes/s per response (0: as fast as it goes), a WAN link's stand-in


@dataclass
class State:
    root: Path
    faults: Faults = field(default_factory=Faults)
    sent: Counter = field(default_factory=Counter)  # body bytes sent per path
    requests: Counter = field(default_factory=Counter)
    statuses: Counter = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state: State

    def log_message(self, *args):  # quiet
        pass

    def _status(self, code):
        with self.state.lock:
            self.state.statuses[code] += 1

    def do_GET(self):
        st = self.state
        path = self.path.split("?", 1)[0]
        with st.lock:
            st.requests[path] += 1
            busy = st.faults.busy > 0
            if busy:
                st.faults.busy -= 1
        if busy:
            self._status(st.faults.busy_status)
            self.send_response(st.faults.busy_status)
            self.send_header("Retry-After", st.faults.retry_after)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        file = (st.root / path.lstrip("/")).resolve()
        if not str(file).startswith(str(st.root.resolve())) or not file.is_file():
            self._status(404)
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        size = file.stat().st_size
        start, end = 0, size - 1
        rng = self.headers.get("Range")
        partial = False
        if rng and rng.startswith("bytes=") and not st.faults.ignore_range:
            a, _, b = rng[6:].partition("-")
            start = int(a) if a else 0
            end = min(int(b), size - 1) if b else size - 1
            if start >= size:
                self._status(416)
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{size}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            partial = True
        length = end - start + 1
        self._status(206 if partial else 200)
        self.send_response(206 if partial else 200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(length))
        self.send_header("Accept-Ranges", "none" if st.faults.ignore_range else "bytes")
        if partial:
            self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.end_headers()
        limit = length
        with st.lock:
            cut = st.faults.cut_after
            if cut is not None and (not st.faults.cut_paths or path in st.faults.cut_paths) and cut < length:
                limit, st.faults.cut_after = cut, None
                if st.faults.down_after_cut:
                    st.faults.busy = 10 ** 9
        with open(file, "rb") as f:
            f.seek(start)
            left = limit
            while left > 0:
                data = f.read(min(65536, left))
                if not data:
                    break
                try:
                    self.wfile.write(data)
                except OSError:
                    break
                left -= len(data)
                if st.faults.rate:
                    time.sleep(len(data) / st.faults.rate)
                with st.lock:
                    st.sent[path] += len(data)
        if limit < length:  # cut the connection mid-body
            self.wfile.flush()
            self.close_connection = True
            try:
                self.connection.shutdown(2)
            except OSError:
                pass


class _Quiet(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):  # a client that hung up: expected here
        pass


class Server:
    """``with Server(root) as s: s.url + "/x.warc.gz"``."""

    def __init__(self, root: Path):
        self.state = State(Path(root))
        handler = type("H", (Handler,), {"state": self.state})
        self.httpd = _Quiet(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()

    def bytes_sent(self) -> int:
        return sum(self.state.sent.values())


def serve_forever(root: str, port_file: str, rate: float = 0.0) -> None:
    """Run a server in its own process (the kill -9 tests): its URL written to ``port_file``."""
    s = Server(Path(root))
    s.state.faults.rate = rate
    tmp = port_file + ".tmp"
    Path(tmp).write_text(s.url)
    os.replace(tmp, port_file)
    s.httpd.serve_forever()


if __name__ == "__main__":
    import sys

    serve_forever(sys.argv[1], sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 0.0)
