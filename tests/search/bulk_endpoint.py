"""A small HTTP endpoint on 127.0.0.1 (port 0) that answers ``POST /<index>/_bulk`` as
Elasticsearch does: NDJSON in, ``{"took", "errors", "items": [{"index": {...}}]}`` out.

Scriptable failures: whole-request 429s (with ``Retry-After``), per-item 429s on first sight, and
permanent per-item errors.  It validates the request like the server would (content type,
action/source pairs, final newline) and answers 400 otherwise.
"""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class BulkEndpoint:
    def __init__(self, *, throttle_requests: int = 0, retry_after: str | None = "0",
                 item_429_once: set[str] = frozenset(), reject: dict[str, str] | None = None,
                 status: int | None = None):
        self.throttle_requests = throttle_requests  # first N requests answered HTTP 429
        self.retry_after = retry_after
        self.item_429_once = set(item_429_once)  # ids answered 429 the first time they are sent
        self.reject = reject or {}  # id -> error type, answered 400 every time
        self.status = status  # answer every request with this HTTP status (e.g. 401)
        self.requests: list[dict] = []  # {"path", "content_type", "ids", "auth"}
        self.documents: dict[str, dict] = {}  # the "index": _id -> source
        self.templates: dict[str, dict] = {}  # PUT path -> body
        self._lock = threading.Lock()
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep pytest output clean
                pass

            def do_PUT(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with endpoint._lock:
                    endpoint.templates[self.path] = json.loads(body)
                code = endpoint.status or 200
                data = json.dumps({"acknowledged": code == 200}).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                code, headers, answer = endpoint._answer(self.path, self.headers, body)
                data = json.dumps(answer).encode()
                self.send_response(code)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> BulkEndpoint:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def _answer(self, path: str, headers, body: bytes) -> tuple[int, dict, dict]:
        with self._lock:
            record = {"path": path, "content_type": headers.get("Content-Type"),
                      "auth": headers.get("Authorization"), "ids": []}
            self.requests.append(record)
            if self.status:
                return self.status, {}, {"error": {"type": "security_exception", "reason": "scripted"}}
            if len(self.requests) <= self.throttle_requests:
                extra = {"Retry-After": self.retry_after} if self.retry_after is not None else {}
                return 429, extra, {"error": {"type": "es_rejected_execution_exception", "reason": "queue full"},
                                    "status": 429}
            if not path.endswith("/_bulk") or headers.get("Content-Type") != "application/x-ndjson":
                return 400, {}, {"error": {"type": "illegal_argument_exception", "reason": "bad request"}}
            text = body.decode("utf-8")
            lines = text.split("\n")
            if not text.endswith("\n") or len(lines[:-1]) % 2:
                return 400, {}, {"error": {"type": "illegal_argument_exception",
                                           "reason": "The bulk request must be terminated by a newline"}}
            items, errors = [], False
            for action_line, source_line in zip(lines[0:-1:2], lines[1:-1:2]):
                meta = json.loads(action_line)["index"]
                source = json.loads(source_line)
                _id = meta["_id"]
                record["ids"].append(_id)
                if _id in self.item_429_once:
                    self.item_429_once.discard(_id)
                    items.append({"index": {"_index": meta["_index"], "_id": _id, "status": 429,
                                            "error": {"type": "es_rejected_execution_exception",
                                                      "reason": "rejected execution"}}})
                    errors = True
                elif _id in self.reject:
                    items.append({"index": {"_index": meta["_index"], "_id": _id, "status": 400,
                                            "error": {"type": self.reject[_id], "reason": "failed to parse"}}})
                    errors = True
                else:
                    created = _id not in self.documents
                    self.documents[_id] = source
                    items.append({"index": {"_index": meta["_index"], "_id": _id, "status": 201 if created else 200,
                                            "result": "created" if created else "updated"}})
            return 200, {}, {"took": 1, "errors": errors, "items": items}
