"""Serve a bundled fixture site (``mcecrawl/demo/sites/<spider>/``) on 127.0.0.1.

Layout of a site directory: files mirror URL paths.  ``/persian/articles/c1abc`` is served from
``persian/articles/c1abc.html`` (or the exact file, or ``.../index.html``); a query string maps to
``<path>@<query>`` (``/persian/topics/x?page=2`` -> ``persian/topics/x@page=2.html``).  The
Content-Type follows the file extension (``.html`` -> ``text/html; charset=utf-8``, ``.xml`` ->
``application/xml``, ``.txt`` -> ``text/plain; charset=utf-8``).

``_headers.json`` (optional) overrides responses per request path (with query, if any)::

    {"/ar/news/1": {"headers": {"Content-Type": "text/html; charset=utf-8"}},   # a lying charset
     "/ar/news/2": {"status": 429, "headers": {"Retry-After": "1"}, "times": 1}, # first hit only
     "/gone": {"status": 404, "body": "not here"}}

``status``/``headers``/``body`` replace the defaults; ``times`` limits the override to the first N
hits of that path.  Run one by hand: ``python -m mcecrawl.demo.server bbc_persian --port 8000``.
"""
from __future__ import annotations

import argparse
import json
import mimetypes
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable
from urllib.parse import unquote, urlsplit

SITES_DIR = Path(__file__).resolve().parent / "sites"

CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".htm": "text/html; charset=utf-8",
                 ".xml": "application/xml", ".txt": "text/plain; charset=utf-8",
                 ".json": "application/json", ".rss": "application/rss+xml"}

# A resolver maps (path, query) to (status, headers, body) or None (404); used by benchmarks to
# serve generated sites without writing them to disk.
Resolver = Callable[[str, str], "tuple[int, dict[str, str], bytes] | None"]


def site_dir(name: str) -> Path:
    return SITES_DIR / name


class _QuietServer(ThreadingHTTPServer):
    """Clients that hang up mid-response (a killed crawl) are normal here, not tracebacks."""

    def handle_error(self, request, client_address):
        import sys

        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


class FixtureServer:
    """A threaded HTTP server for one fixture site.  Use as a context manager; ``.url`` is the base.

    ``delay`` (seconds) slows every response (crash/resume tests need a crawl that lasts);
    ``hits`` counts requests per path+query, ``log`` keeps their times.
    """

    def __init__(self, root: Path | str | None = None, *, host: str = "127.0.0.1", port: int = 0,
                 delay: float = 0.0, resolver: Resolver | None = None):
        self.root = Path(root) if root is not None else None
        if self.root is not None and not self.root.is_dir():
            self.root = site_dir(str(root))
        self.delay = delay
        self.resolver = resolver
        self.hits: Counter[str] = Counter()
        self.log: list[tuple[float, str]] = []  # (monotonic time, path+query) of every request
        self._lock = threading.Lock()
        self.overrides: dict[str, dict] = {}
        if self.root is not None and (self.root / "_headers.json").exists():
            self.overrides = json.loads((self.root / "_headers.json").read_text(encoding="utf-8"))
        self.httpd = _QuietServer((host, port), self._handler_class())
        self.httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{str(host)}:{port}"

    def start(self) -> "FixtureServer":
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> "FixtureServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- resolution ------------------------------------------------------------------------------
    def find_file(self, path: str, query: str) -> Path | None:
        if self.root is None:
            return None
        rel = unquote(path).lstrip("/")
        if ".." in Path(rel).parts:
            return None
        stem = rel + (f"@{unquote(query)}" if query else "")
        base = stem.rstrip("/")
        cands = (base, base + ".html", base + "/index.html") if base else ("index.html",)
        for cand in cands:
            p = self.root / cand
            if p.is_file():
                return p
        return None

    def respond(self, raw_path: str) -> tuple[int, dict[str, str], bytes]:
        parts = urlsplit(raw_path)
        key = parts.path + (f"?{parts.query}" if parts.query else "")
        with self._lock:
            self.hits[key] += 1
            self.log.append((time.monotonic(), key))
            hit = self.hits[key]
        result = self.resolver(parts.path, parts.query) if self.resolver else None
        if result is None:
            f = self.find_file(parts.path, parts.query)
            if f is None:
                result = (404, {"Content-Type": "text/plain; charset=utf-8"}, b"not found")
            else:
                ctype = CONTENT_TYPES.get(f.suffix) or mimetypes.guess_type(f.name)[0] or "text/html; charset=utf-8"
                result = (200, {"Content-Type": ctype}, f.read_bytes())
        status, headers, body = result
        ov = self.overrides.get(key)
        if ov and hit <= ov.get("times", 1 << 30):
            status = ov.get("status", status)
            headers = {**headers, **ov.get("headers", {})}
            if "body" in ov:
                body = ov["body"].encode("utf-8")
        return status, headers, body

    def _handler_class(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):  # noqa: N802 (http.server API)
                if server.delay:
                    time.sleep(server.delay)
                status, headers, body = server.respond(self.path)
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):  # keep test and demo output quiet
                pass

        return Handler


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve a bundled fixture site on 127.0.0.1")
    parser.add_argument("site", help="site directory name under mcecrawl/demo/sites, or a path")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--delay", type=float, default=0.0)
    args = parser.parse_args(argv)
    root = Path(args.site) if Path(args.site).is_dir() else site_dir(args.site)
    with FixtureServer(root, port=args.port, delay=args.delay) as srv:
        print(f"Serving {root} at {srv.url} (Ctrl-C to stop)", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
