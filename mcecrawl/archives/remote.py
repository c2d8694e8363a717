"""WARC files and byte ranges over HTTP(S): streamed, retried, resumed by range.  No Scrapy here.

Common Crawl serves its WARCs from ``https://data.commoncrawl.org/`` and rate-limits with ``503``
(sometimes ``429``) and a ``Retry-After``.  Two readers share one retry policy
(:func:`get_with_retries`):

* :class:`RemoteFile`, a seekable read-only file over one URL for :func:`~mcecrawl.archives.reader.iter_records`:
  it streams the body (never the whole file in memory); when the connection breaks, it reopens at the
  byte it had reached with a ``Range`` request, or, when the server ignores ``Range``, restarts and
  skips the bytes already read, so the reader sees every byte exactly once.  ``complete`` says the
  file was read to its end (a WARC is marked done only then).
* :func:`fetch_range`, one ``Range: bytes=a-b`` request (a Common Crawl index row: one gzip member =
  one record), a cut body resumed from its last byte.

:class:`HostGate` bounds the requests in flight per host and makes every thread of a worker wait
out a host's ``Retry-After``, not only the one that got it.

requests (urllib3 underneath) does the HTTP: well kept, streaming with ``raw.read``; the retry loop is
ours because Retry-After on a streamed body that breaks mid-way is not something urllib3's Retry covers.
"""
from __future__ import annotations

import gzip
import io
import random
import threading
import time
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any, Callable
from urllib.parse import urlsplit

from mcecrawl.exceptions import MceError

__all__ = ["COMMON_CRAWL", "FetchOptions", "HostGate", "RemoteError", "RemoteFile", "Retry", "fetch_range", "is_url",
           "read_paths", "shard"]

# Where Common Crawl's files are served over HTTPS (its "Get started" page); warc.paths.gz lists paths below it.
COMMON_CRAWL = "https://data.commoncrawl.org/"
# Statuses worth a retry: rate limits (429, Common Crawl's 503 "slow down") and the gateway errors
# of a CDN.  Every other 4xx/5xx is an answer.
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
# Bytes per read of a streamed body: large enough that the per-call overhead vanishes, small enough
# to stay out of the way of memory (FastWARC asks for 16 KiB-1 MiB at a time).
CHUNK = 1 << 20
# Seconds to connect, and between two bytes of a response (requests' timeout pair).
CONNECT_TIMEOUT = 30.0
READ_TIMEOUT = 120.0
# The first bytes of a file are kept: readers peek at the start (gzip magic) and seek back, which
# should not cost a second request.
HEAD_KEEP = 64 << 10
USER_AGENT = "mcecrawl (archives; +https://github.com/mcecrawl)"


@dataclass(frozen=True)
class Retry:
    """How often and how long to retry.  Backoff doubles from ``base`` up to ``cap`` seconds, with
    up to 25 % jitter (so that workers that failed together do not retry together); a
    ``Retry-After`` is honoured up to ``max_retry_after`` seconds.  ``attempts`` counts consecutive
    failures without progress: a long download that breaks now and then is never given up."""

    attempts: int = 8  # 1+2+4+...+60 s: about 3 minutes of outage before a file is left for the next run
    base: float = 1.0
    cap: float = 60.0
    max_retry_after: float = 600.0

    def delay(self, failures: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_retry_after)
        wait = min(self.cap, self.base * 2 ** max(failures - 1, 0))
        return wait * (1 + 0.25 * random.random())


class RemoteError(MceError):
    """A URL that could not be read after the retries; ``reason`` is the category
    (``http_404``, ``connection``, ``range_not_satisfiable``...).  Not an OSError on purpose: the
    WARC reader takes OSError for a bad record and reads on, whereas this ends the file's reading."""

    def __init__(self, reason: str, detail: str):
        super().__init__(f"{reason}: {detail}")
        self.reason = reason


def is_url(name: str) -> bool:
    return name.startswith(("http://", "https://"))


def _retry_after(value: str | None) -> float | None:
    """Seconds of a ``Retry-After`` header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        return parsedate_to_datetime(value).timestamp() - time.time()
    except (TypeError, ValueError, IndexError):
        return None


class HostGate:
    """At most ``limit`` requests in flight per host (this process), and a shared pause after a
    host said 503/429: every thread waits until the host's ``not_before``."""

    def __init__(self, limit: int = 1):
        self.limit = max(1, limit)
        self._lock = threading.Lock()
        self._slots: dict[str, threading.Semaphore] = {}
        self._not_before: dict[str, float] = {}

    def _slot(self, host: str) -> threading.Semaphore:
        with self._lock:
            return self._slots.setdefault(host, threading.Semaphore(self.limit))

    def pause(self, host: str, seconds: float) -> None:
        with self._lock:
            self._not_before[host] = max(self._not_before.get(host, 0.0), time.monotonic() + seconds)

    def wait(self, host: str) -> None:
        while True:
            with self._lock:
                left = self._not_before.get(host, 0.0) - time.monotonic()
            if left <= 0:
                return
            time.sleep(min(left, 1.0))

    def hold(self, host: str) -> Any:
        return self._slot(host)


_local = threading.local()


def _session() -> Any:
    """One requests session per thread (connection reuse; sessions are not documented thread-safe)."""
    import requests

    s = getattr(_local, "session", None)
    if s is None:
        s = requests.Session()
        s.headers["User-Agent"] = USER_AGENT
        s.headers["Accept-Encoding"] = "identity"  # the bytes as stored: offsets are byte offsets
        _local.session = s
    return s


def _transient() -> tuple[type[BaseException], ...]:
    import requests
    import urllib3

    return (requests.RequestException, urllib3.exceptions.HTTPError, OSError)


def get_with_retries(url: str, headers: dict[str, str], retry: Retry, gate: HostGate | None = None,
                     on_retry: Callable[[str], None] | None = None) -> Any:
    """A streamed GET of ``url`` answered 2xx (or 416: the caller decides), retried on connection
    errors and :data:`RETRY_STATUSES`; raises :class:`RemoteError` after ``retry.attempts`` failures
    or on any other status."""
    host = urlsplit(url).netloc
    gate = gate or HostGate()
    failures = 0
    while True:
        gate.wait(host)
        retry_after = None
        try:
            resp = _session().get(url, headers=headers, stream=True, timeout=(CONNECT_TIMEOUT, READ_TIMEOUT))
        except _transient() as e:
            failures += 1
            reason, detail = "connection", str(e)
        else:
            if resp.status_code < 300 or resp.status_code == 416:
                return resp
            resp.close()
            if resp.status_code not in RETRY_STATUSES:
                raise RemoteError(f"http_{resp.status_code}", url)
            failures += 1
            reason, detail = f"http_{resp.status_code}", url
            retry_after = _retry_after(resp.headers.get("Retry-After"))
        if failures >= retry.attempts:
            raise RemoteError(reason, f"{detail} ({failures} attempts)")
        wait = retry.delay(failures, retry_after)
        if retry_after is not None:
            gate.pause(host, wait)
        if on_retry is not None:
            on_retry(reason)
        time.sleep(wait)


def _content_range_total(value: str | None) -> int | None:
    """The complete length of ``Content-Range: bytes a-b/total``."""
    if value and "/" in value:
        total = value.rsplit("/", 1)[1].strip()
        if total.isdigit():
            return int(total)
    return None


class RemoteFile(io.RawIOBase):
    """A URL as a seekable, read-only binary file, streamed; see the module docstring."""

    def __init__(self, url: str, retry: Retry | None = None, gate: HostGate | None = None):
        super().__init__()
        self.url = url
        self.retry = retry or Retry()
        self.gate = gate or HostGate()
        self.pos = 0
        self.size: int | None = None
        self.bytes_read = 0  # bytes received from the network, re-reads included
        self.retries = 0
        self.error: RemoteError | None = None  # set when a read gave up (FastWARC may swallow the exception)
        self.complete = False  # read to the end of the file
        self._resp: Any = None
        self._at = -1  # the stream's position (-1: none open)
        self._head = b""  # the file's first bytes (up to HEAD_KEEP), as read

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        if whence == io.SEEK_CUR:
            offset += self.pos
        elif whence == io.SEEK_END:
            if self.size is None:
                self._open()
            offset += self.size or 0
        self.pos = max(0, offset)
        return self.pos

    def _drop(self) -> None:
        if self._resp is not None:
            self._resp.close()
        self._resp, self._at = None, -1

    def _count_retry(self, reason: str) -> None:
        self.retries += 1

    def _open(self) -> None:
        """A response streaming from ``self.pos``."""
        self._drop()
        headers = {"Range": f"bytes={self.pos}-"} if self.pos else {}
        resp = get_with_retries(self.url, headers, self.retry, self.gate, self._count_retry)
        if resp.status_code == 416:  # at or past the end
            self.size = self.size if self.size is not None else self.pos
            resp.close()
            self._resp, self._at = None, self.pos
            return
        if resp.status_code == 206:
            self.size = _content_range_total(resp.headers.get("Content-Range")) or self.size
            self._resp, self._at = resp, self.pos
            return
        length = resp.headers.get("Content-Length")
        if length and length.isdigit():
            self.size = int(length)
        self._resp, self._at = resp, 0
        while self._at < self.pos:  # the server ignored Range: restart and skip what was read already
            got = resp.raw.read(min(CHUNK, self.pos - self._at), decode_content=False)
            if not got:
                break
            self.bytes_read += len(got)
            self._at += len(got)

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        n = len(data)
        buffer[:n] = data
        return n

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:
            return self.readall()
        if self.error is not None:
            raise self.error
        if self.pos < len(self._head) and self._at == len(self._head):  # a re-read of the start
            data = self._head[self.pos:self.pos + size]
            self.pos += len(data)
            return data + self.read(size - len(data)) if len(data) < size else data
        failures = 0
        while True:
            if self.size is not None and self.pos >= self.size:
                self.complete = True
                return b""
            try:
                if self._resp is None or self._at != self.pos:
                    self._open()
                    if self._resp is None:  # 416
                        continue
                data = self._resp.raw.read(min(size, CHUNK), decode_content=False)
            except RemoteError as e:
                self.error = e
                self._drop()
                raise
            except _transient() as e:  # the connection broke (urllib3: IncompleteRead, ProtocolError)
                self._drop()
                failures += 1
                if failures >= self.retry.attempts:
                    self.error = RemoteError("connection", f"{self.url} at byte {self.pos}: {e}")
                    raise self.error from None
                self._count_retry("connection")
                time.sleep(self.retry.delay(failures, None))
                continue
            if data:
                if self.pos == len(self._head) and self.pos < HEAD_KEEP:
                    self._head += data[:HEAD_KEEP - self.pos]
                self.bytes_read += len(data)
                self.pos += len(data)
                self._at = self.pos
                return data
            if self.size is None or self.pos >= self.size:  # the end (of a body of unknown length too)
                self.size = self.pos if self.size is None else self.size
                self.complete = True
                return b""
            self._drop()  # ended early without an error: reopen at pos
            failures += 1
            if failures >= self.retry.attempts:
                self.error = RemoteError("connection", f"{self.url} ended at byte {self.pos} of {self.size}")
                raise self.error
            self._count_retry("short_body")
            time.sleep(self.retry.delay(failures, None))

    def readall(self) -> bytes:
        chunks: list[bytes] = []
        while True:
            data = self.read(CHUNK)
            if not data:
                return b"".join(chunks)
            chunks.append(data)

    def close(self) -> None:
        self._drop()
        super().close()


def fetch_range(url: str, offset: int, length: int, retry: Retry | None = None, gate: HostGate | None = None,
                on_retry: Callable[[str], None] | None = None) -> tuple[bytes, int]:
    """Bytes ``offset .. offset+length-1`` of ``url`` and the bytes received for them (more than
    ``length`` only when the server ignores ``Range``).  A body cut short is resumed from its last
    byte.  Raises :class:`RemoteError` (``range_not_satisfiable`` when the file is shorter)."""
    retry = retry or Retry()
    gate = gate or HostGate()
    host = urlsplit(url).netloc
    parts: list[bytes] = []
    got = received = failures = 0
    while got < length:
        start = offset + got
        with gate.hold(host):
            resp = get_with_retries(url, {"Range": f"bytes={start}-{offset + length - 1}"}, retry, gate, on_retry)
            try:
                if resp.status_code == 416:
                    raise RemoteError("range_not_satisfiable", f"{url} bytes {start}-{offset + length - 1}")
                skip = start if resp.status_code == 200 else 0  # Range ignored: the whole file comes
                while got < length:
                    data = resp.raw.read(min(CHUNK, length - got + skip), decode_content=False)
                    if not data:
                        break
                    received += len(data)
                    if skip:
                        cut = min(skip, len(data))
                        data, skip = data[cut:], skip - cut
                    data = data[:length - got]
                    parts.append(data)
                    got += len(data)
            except RemoteError:
                raise
            except _transient():
                pass  # resumed below from ``got``
            finally:
                resp.close()
        if got < length:
            failures += 1
            if failures >= retry.attempts:
                raise RemoteError("connection", f"{url}: {got} of {length} bytes at {offset}")
            if on_retry is not None:
                on_retry("short_body")
            time.sleep(retry.delay(failures, None))
    return b"".join(parts), received


def shard(items: list[str], spec: str | None) -> list[str]:
    """``items`` of shard ``K/N`` (0 <= K < N): every N-th item from the K-th, in order, so that N
    machines given the same list and K = 0..N-1 read each item exactly once."""
    if not spec:
        return items
    k_s, sep, n_s = spec.partition("/")
    try:
        k, n = int(k_s), int(n_s)
    except ValueError:
        k, n = -1, 0
    if not sep or n < 1 or not 0 <= k < n:
        raise ValueError(f"--shard wants K/N with 0 <= K < N, not {spec!r}")
    return items[k::n]


def read_paths(source: str, base_url: str = COMMON_CRAWL) -> list[str]:
    """The URLs a ``warc.paths(.gz)`` file lists (a local file or a URL; gzipped or not): each
    line a path below ``base_url``, or a full URL; blank lines and ``#`` comments skipped."""
    if is_url(source):
        with RemoteFile(source) as f:
            raw = f.read()
    else:
        with open(source, "rb") as fh:
            raw = fh.read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    base = base_url if base_url.endswith("/") else base_url + "/"
    urls = []
    for line in raw.decode("utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        urls.append(line if is_url(line) else base + line.lstrip("/"))
    return urls


@dataclass(frozen=True)
class FetchOptions:
    """A run's HTTP settings (picklable, handed to each worker)."""

    retry: Retry = Retry()
    concurrency: int = 1  # range requests in flight per host, per worker
