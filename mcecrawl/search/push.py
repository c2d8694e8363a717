"""Stream a corpus to Elasticsearch/OpenSearch ``_bulk`` in batches, with retries and back-off.

Plain ``urllib`` (stdlib), not the official clients, on purpose: ``_bulk`` is a stable REST
format, whereas the clients are per-product and per-major (elasticsearch-py 8 refuses to talk to
OpenSearch, opensearch-py is a separate package, and news-please's pipeline broke with each
client major, lessons c.8).  One tested code path for every cluster and no dependency; what the
clients' ``streaming_bulk`` adds (batching, retry of 429 items with exponential back-off) is
here, with the same defaults.

Failure handling per batch:

- whole request answered 429/502/503/504, or a connection error/timeout: the batch is re-sent
  after a back-off (``Retry-After`` honoured), at most ``max_retries`` times;
- per-item ``status`` 429 or >= 500 in the ``_bulk`` response: only those items are re-sent;
- any other per-item error (mapping conflict, malformed document): recorded, never retried;
- other HTTP errors (400, 401, 403, 404): :class:`PushError` at once (a configuration problem).
"""
from __future__ import annotations

import base64
import json
import logging
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from mcecrawl.exceptions import MceError
from mcecrawl.search.bulk import _dumps, bulk_actions
from mcecrawl.search.documents import is_searchable

logger = logging.getLogger(__name__)

# Batch limits: elasticsearch-py helpers.streaming_bulk defaults chunk_size=500; its
# max_chunk_bytes (100 MB) is far above the few-MB requests ES's "tune for indexing speed" guide
# recommends, so we cap at 5 MB.
BATCH_DOCS = 500
BATCH_BYTES = 5 * 1024 * 1024
# Retries and back-off: streaming_bulk's initial_backoff=2 s, doubled per attempt; its
# max_backoff=600 s is too long for an interactive command, we stop doubling at 60 s.
MAX_RETRIES = 5
INITIAL_BACKOFF = 2.0
MAX_BACKOFF = 60.0
TIMEOUT = 60.0  # seconds per HTTP request (elasticsearch-py's default request_timeout is 10; bulk needs more)
RETRY_HTTP_STATUSES = frozenset({429, 502, 503, 504})
MAX_RECORDED_ERRORS = 100  # failed-item details kept in the report (counts are always complete)


class PushError(MceError):
    """The cluster refused the push as a whole (bad URL, auth, index) or kept failing."""


@dataclass
class PushReport:
    """Counts of one push; ``errors`` holds up to ``MAX_RECORDED_ERRORS`` failed items."""

    batches: int = 0
    requests: int = 0
    indexed: int = 0
    failed: int = 0
    skipped: int = 0
    retries: int = 0
    errors: list[dict] = field(default_factory=list)


class BulkPusher:
    """Send items to ``<url>/<index>/_bulk`` in batches.

    Parameters
    ----------
    url : str
        Cluster base URL; ``user:password@`` in it becomes HTTP basic auth.
    index : str
        Target index (the action lines name it too).
    api_key : str, optional
        Elasticsearch API key (``Authorization: ApiKey ...``), instead of basic auth.
    sleep : callable
        ``time.sleep``; tests pass a recorder.
    """

    def __init__(self, url: str, index: str, *, batch_docs: int = BATCH_DOCS, batch_bytes: int = BATCH_BYTES,
                 max_retries: int = MAX_RETRIES, initial_backoff: float = INITIAL_BACKOFF,
                 max_backoff: float = MAX_BACKOFF, timeout: float = TIMEOUT, api_key: str | None = None,
                 sleep: Callable[[float], None] = time.sleep):
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise PushError(f"--url must be an http(s) URL of the cluster, not {url!r}")
        netloc = parts.hostname + (f":{parts.port}" if parts.port else "")
        self.base = urllib.parse.urlunsplit((parts.scheme, netloc, parts.path.rstrip("/"), "", ""))
        self.endpoint = f"{self.base}/{index}/_bulk"
        self.headers = {"Content-Type": "application/x-ndjson", "Accept": "application/json"}
        if api_key:
            self.headers["Authorization"] = f"ApiKey {api_key}"
        elif parts.username:
            creds = f"{urllib.parse.unquote(parts.username)}:{urllib.parse.unquote(parts.password or '')}"
            self.headers["Authorization"] = "Basic " + base64.b64encode(creds.encode()).decode()
        self.index = index
        self.batch_docs, self.batch_bytes = batch_docs, batch_bytes
        self.max_retries, self.initial_backoff, self.max_backoff = max_retries, initial_backoff, max_backoff
        self.timeout = timeout
        self.sleep = sleep

    def push(self, items: Iterable[Mapping], *, progress: Callable[[PushReport], None] | None = None) -> PushReport:
        """Stream ``items`` (corpus records) as batches; never holds more than one batch in memory."""
        report = PushReport()
        batch: list[tuple[str, bytes]] = []
        size = 0
        for item in items:
            if not is_searchable(item):
                report.skipped += 1
                continue
            action, source = bulk_actions(item, self.index)
            entry = (action["index"]["_id"], f"{_dumps(action)}\n{_dumps(source)}\n".encode("utf-8"))
            if batch and (len(batch) >= self.batch_docs or size + len(entry[1]) > self.batch_bytes):
                self._send_batch(batch, report)
                if progress:
                    progress(report)
                batch, size = [], 0
            batch.append(entry)
            size += len(entry[1])
        if batch:
            self._send_batch(batch, report)
            if progress:
                progress(report)
        return report

    def put_template(self, template: Mapping, name: str | None = None) -> None:
        """``PUT _index_template/<name>`` (default: the index name); :class:`PushError` if refused."""
        url = f"{self.base}/_index_template/{name or self.index}"
        data = json.dumps(template, ensure_ascii=False).encode("utf-8")
        request = urllib.request.Request(url, data=data, method="PUT",
                                         headers={**self.headers, "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                response.read()
        except urllib.error.HTTPError as e:
            raise PushError(f"{url}: HTTP {e.code}: {_reason(e.read())}") from e
        except (urllib.error.URLError, socket.timeout, ConnectionError) as e:
            raise PushError(f"{url}: unreachable ({getattr(e, 'reason', e)})") from e

    # -- one batch ------------------------------------------------------------------------------
    def _backoff(self, attempt: int, retry_after: str | None) -> float:
        if retry_after:
            try:
                return min(self.max_backoff, max(0.0, float(retry_after)))
            except ValueError:
                pass  # an HTTP-date Retry-After: fall back to exponential back-off
        # Exponential with "equal jitter" so parallel pushers do not retry in lockstep.
        delay = min(self.max_backoff, self.initial_backoff * 2 ** attempt)
        return delay / 2 + random.uniform(0, delay / 2)

    def _send_batch(self, batch: list[tuple[str, bytes]], report: PushReport) -> None:
        report.batches += 1
        pending = batch
        for attempt in range(self.max_retries + 1):
            status, retry_after, body = self._post(b"".join(chunk for _, chunk in pending), report)
            if status in RETRY_HTTP_STATUSES or status is None:
                retry = pending
            elif status >= 400:
                raise PushError(f"{self.endpoint}: HTTP {status}: {_reason(body)}")
            else:
                retry = self._read_items(pending, body, report)
            if not retry:
                return
            if attempt == self.max_retries:
                break
            delay = self._backoff(attempt, retry_after)
            logger.info("bulk: %d of %d documents to retry (HTTP %s), waiting %.1f s",
                        len(retry), len(pending), status, delay)
            report.retries += 1
            self.sleep(delay)
            pending = retry
        for doc_id, _ in retry:
            self._record(report, doc_id, status or 0, f"gave up after {self.max_retries} retries")
        if status is None and len(retry) == len(batch):
            raise PushError(f"{self.endpoint}: unreachable after {self.max_retries} retries ({_reason(body)})")

    def _post(self, data: bytes, report: PushReport) -> tuple[int | None, str | None, bytes]:
        request = urllib.request.Request(self.endpoint, data=data, headers=self.headers, method="POST")
        report.requests += 1
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return response.status, response.headers.get("Retry-After"), response.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers.get("Retry-After"), e.read()
        except (urllib.error.URLError, socket.timeout, ConnectionError) as e:
            return None, None, str(getattr(e, "reason", e)).encode()

    def _read_items(self, pending: list[tuple[str, bytes]], body: bytes, report: PushReport) -> list:
        """Count per-item results; return the entries to retry (429 / 5xx items)."""
        try:
            result = json.loads(body)
            items = result["items"]
        except (ValueError, KeyError, TypeError) as e:
            raise PushError(f"{self.endpoint}: not a _bulk response ({e})") from e
        if len(items) != len(pending):
            raise PushError(f"{self.endpoint}: _bulk answered {len(items)} items for {len(pending)} sent")
        retry = []
        for entry, item in zip(pending, items):
            outcome = next(iter(item.values()))  # {"index": {...}}
            status = int(outcome.get("status", 0))
            if 200 <= status < 300:
                report.indexed += 1
            elif status == 429 or status >= 500:
                retry.append(entry)
            else:
                self._record(report, entry[0], status, _reason(outcome.get("error")))
        return retry

    @staticmethod
    def _record(report: PushReport, doc_id: str, status: int, reason: str) -> None:
        report.failed += 1
        if len(report.errors) < MAX_RECORDED_ERRORS:
            report.errors.append({"_id": doc_id, "status": status, "reason": reason})


def _reason(error) -> str:
    """A one-line reason from an Elasticsearch error object, a response body or a string."""
    if isinstance(error, bytes):
        try:
            error = json.loads(error)
        except ValueError:
            return error.decode("utf-8", "replace")[:200]
    if isinstance(error, dict):
        inner = error.get("error", error)
        if isinstance(inner, dict):
            return f"{inner.get('type', 'error')}: {inner.get('reason', '')}".strip()
        return str(inner)[:200]
    return str(error)[:200]
