"""A real crawl in a subprocess against pages served on 127.0.0.1, for tests that need lying headers.

``pages`` maps a path to ``(content_type, body, gzip)``; the crawl script gets the server's base
URL and an output directory as ``argv[1:3]`` and writes ``items.jsonl`` and ``stats.json`` there.
"""
from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _handler(pages: dict[str, tuple[str, bytes, bool]]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server API)
            if self.path not in pages:
                self.send_error(404)
                return
            ctype, body, compress = pages[self.path]
            if compress:
                body = gzip.compress(body)
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            if compress:
                self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    return Handler


def crawl_served_pages(pages: dict, script: str, out: Path) -> tuple[list[dict], dict, str]:
    """Serve ``pages``, run ``script`` (Python source) against them; return (items, stats, base URL)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(pages))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    path = out / "crawl.py"
    path.write_text(script, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))}
    try:
        proc = subprocess.run([sys.executable, str(path), base, str(out)],
                              cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)
    finally:
        server.shutdown()
    assert proc.returncode == 0, proc.stderr[-3000:]
    items = [json.loads(line) for line in (out / "items.jsonl").read_text(encoding="utf-8").splitlines()]
    return items, json.loads((out / "stats.json").read_text(encoding="utf-8")), base
