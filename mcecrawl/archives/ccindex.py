"""Common Crawl's columnar index: select the records worth reading, then fetch only those, by range.

Common Crawl publishes one row per capture in Parquet (``cc-index/table/cc-main/warc/crawl=…/subset=warc/``,
the schema of ``commoncrawl/cc-index-table``): ``url``, ``url_host_name``, ``url_host_tld``,
``fetch_time``, ``fetch_status``, ``content_mime_detected``, ``content_charset`` (its detector's
charset, the ``charset-detected`` of the WARC's metadata record), ``content_languages`` (CLD2's top
three, ISO 639-3: ``fas,eng``), ``warc_filename``, ``warc_record_offset``, ``warc_record_length``.

:func:`select` reads only those columns (pyarrow's dataset scanner: column selection and the filter
pushed down, row groups skipped on their statistics) and keeps HTML 200 responses whose
``content_languages`` holds one of the wanted languages, on the wanted hosts, fetched on or after
``since``.  The rows are grouped by WARC file into :class:`RecordSet` s sorted by offset.  Each
record is one gzip member, fetched with one ``Range`` request (:func:`fetch_selected`) and read
by the same reader as a WARC file; the run (:mod:`mcecrawl.archives.run`) treats a RecordSet as
one WARC: the same page path, duplicates, commit and resume.

Why not a Scrapy spider over the selected records, although Scrapy has retries, AutoThrottle and
JOBDIR: (1) the work per record is CPU (decode, extract, language) and runs in the run's worker
processes, while a spider runs every callback in its one reactor process; (2) resume after
``kill -9`` has to be exact, and the run's per-WARC commit already is (tests/archives), whereas JOBDIR
keeps the request queue for graceful stops, and items in flight at a kill are written twice or
never; (3) Scrapy's RetryMiddleware retries 503/429 at once, without ``Retry-After``; (4) archive
workers import no Scrapy (start-up time).  The HTTP side that Scrapy would have given is small:
:mod:`mcecrawl.archives.remote` (retries with backoff, ``Retry-After`` shared per host, bounded
requests in flight per host, a cut body resumed by range).

``--since`` is pushed down on ``fetch_time`` (a page fetched before a day cannot be published after
it); ``--since``/``--until`` are then applied to the page as from-warc does (its publication date,
else the fetch date), so both commands keep the same pages.
"""
from __future__ import annotations

import glob
import os
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from io import BytesIO
from pathlib import Path
from typing import Any, Callable, Iterator

from mcecrawl.archives.reader import Record, Rejected, iter_records
from mcecrawl.archives.remote import COMMON_CRAWL, FetchOptions, HostGate, RemoteError, RemoteFile, fetch_range, is_url

__all__ = ["CC_LANGUAGES", "COLUMNS", "HTML_TYPES", "RecordSet", "Selection", "cc_languages", "fetch_selected",
           "select"]

# Our language codes (ISO 639-1, mcecrawl.corpus.langid.LANGUAGES) -> Common Crawl's content_languages
# codes (ISO 639-3, as CLD2 reports them in the index).
CC_LANGUAGES = {"fa": "fas", "ar": "ara", "ur": "urd", "ps": "pus", "en": "eng", "he": "heb"}
# The index columns read; nothing else is fetched from the index.
COLUMNS = ("url", "url_host_name", "url_host_tld", "fetch_time", "fetch_status", "content_mime_detected",
           "content_charset", "content_languages", "warc_filename", "warc_record_offset", "warc_record_length")
# content_mime_detected values of HTML pages (Tika's names; the index's top HTML types).
HTML_TYPES = ("text/html", "application/xhtml+xml")
# Selected records fetched ahead of the page path, per range request in flight (bounded memory: a
# record is at most ~1 MiB, Common Crawl truncates payloads there).
PREFETCH_PER_SLOT = 4


@dataclass(frozen=True)
class RecordSet:
    """The selected records of one WARC file, in offset order: a unit of work and of commit."""

    warc: str  # the WARC's URL (base URL + warc_filename)
    offsets: tuple[int, ...]
    lengths: tuple[int, ...]
    urls: tuple[str, ...]
    charsets: tuple[str | None, ...]  # content_charset: Common Crawl's detected charset


@dataclass
class Selection:
    """What :func:`select` found: the record sets and what reading the index cost."""

    sets: list[RecordSet] = field(default_factory=list)
    rows: int = 0  # index rows read (after the pushed-down filter)
    index_bytes: int = 0  # bytes of index files received over HTTP (local files: 0)

    @property
    def records(self) -> int:
        return sum(len(s.offsets) for s in self.sets)

    @property
    def record_bytes(self) -> int:
        return sum(sum(s.lengths) for s in self.sets)


def cc_languages(langs: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """Common Crawl's codes of ``langs`` (None: every language); ValueError for one it lacks."""
    if not langs:
        return None
    unknown = [lang for lang in langs if lang not in CC_LANGUAGES]
    if unknown:
        raise ValueError(f"no Common Crawl language code for {', '.join(unknown)}")
    return tuple(CC_LANGUAGES[lang] for lang in langs)


def expand_index(sources: list[str]) -> tuple[list[str], list[str]]:
    """Index files of ``sources`` (Parquet files, globs, directories; URLs as given), and the sources
    that matched nothing."""
    found: list[str] = []
    missing: list[str] = []
    for src in sources:
        if is_url(src):
            hits = [src]
        elif os.path.isdir(src):
            hits = sorted(str(p) for p in Path(src).rglob("*.parquet"))
        elif glob.has_magic(src):
            hits = sorted(glob.glob(src, recursive=True))
        else:
            hits = [src] if os.path.isfile(src) else []
        if not hits:
            missing.append(src)
        found += [h for h in hits if h not in found]
    return found, missing


def _filter(schema: Any, cc_langs: tuple[str, ...] | None, hosts: tuple[str, ...] | None,
            since: str | None) -> Any:
    """The pyarrow expression of the selection over the columns ``names`` the index has."""
    import re

    import pyarrow.compute as pc
    import pyarrow.dataset as ds

    names = set(schema.names)
    expr = (ds.field("fetch_status") == 200) & ds.field("content_mime_detected").isin(list(HTML_TYPES))
    if "subset" in names:  # a hive-partitioned index: only the successful captures
        expr &= ds.field("subset") == "warc"
    if cc_langs:
        alt = "|".join(re.escape(c) for c in cc_langs)
        expr &= pc.match_substring_regex(ds.field("content_languages"), f"(^|,)({alt})(,|$)")
    if hosts:
        host_expr = None
        for h in hosts:
            bare = h.lower().strip().lstrip(".")
            if "." not in bare:  # a TLD: the column Common Crawl keeps for it (row groups skip on stats)
                e = ds.field("url_host_tld") == bare
            else:
                e = (ds.field("url_host_name") == bare) | pc.ends_with(ds.field("url_host_name"), "." + bare)
            host_expr = e if host_expr is None else host_expr | e
        expr &= host_expr
    if since:
        expr &= ds.field("fetch_time") >= _timestamp(since, schema.field("fetch_time").type)
    return expr


def _timestamp(day: str, column_type: Any) -> Any:
    """Midnight UTC of ``day`` as a scalar of the column's own type: Spark writes the index's
    ``fetch_time`` as INT96 (read as ``timestamp[ns]``, no time zone), other writers with one."""
    from datetime import datetime, timezone

    import pyarrow as pa

    midnight = datetime.fromisoformat(day[:10])
    if getattr(column_type, "tz", None):
        return pa.scalar(midnight.replace(tzinfo=timezone.utc), column_type)
    return pa.scalar(midnight, column_type if pa.types.is_timestamp(column_type) else pa.timestamp("us"))


def _http_filesystem(fetch: FetchOptions) -> tuple[Any, list[RemoteFile]]:
    """A pyarrow filesystem over URLs (each file a :class:`~mcecrawl.archives.remote.RemoteFile`:
    range reads with the run's retries), and the list of the files it opened (their byte counts)."""
    import pyarrow as pa
    import pyarrow.fs as pafs

    from mcecrawl.archives.remote import get_with_retries

    opened: list[RemoteFile] = []

    class Handler(pafs.FileSystemHandler):  # only what a dataset scan of given files calls
        def get_type_name(self) -> str:
            return "mcecrawl-http"

        def __eq__(self, other: object) -> bool:
            return self is other

        def __ne__(self, other: object) -> bool:
            return self is not other

        def normalize_path(self, path: str) -> str:
            return path

        def get_file_info(self, paths: list[str]) -> list[Any]:
            infos = []
            for url in paths:
                resp = get_with_retries(url, {"Range": "bytes=0-0"}, fetch.retry)
                resp.close()
                total = resp.headers.get("Content-Range", "").rsplit("/", 1)[-1]
                size = int(total) if total.isdigit() else int(resp.headers.get("Content-Length") or 0)
                infos.append(pafs.FileInfo(url, pafs.FileType.File, size=size))
            return infos

        def open_input_file(self, path: str) -> Any:
            f = RemoteFile(path, retry=fetch.retry)
            opened.append(f)
            return pa.PythonFile(f, mode="r")

        def open_input_stream(self, path: str) -> Any:
            return self.open_input_file(path)

        def _read_only(self, *args: Any) -> Any:
            raise OSError("the index is read only")

        get_file_info_selector = create_dir = delete_dir = delete_dir_contents = _read_only
        delete_root_dir_contents = delete_file = move = copy_file = _read_only
        open_output_stream = open_append_stream = _read_only

    return pafs.PyFileSystem(Handler()), opened


def select(sources: list[str], *, langs: tuple[str, ...] | None, hosts: tuple[str, ...] | None = None,
           since: str | None = None, base_url: str = COMMON_CRAWL, fetch: FetchOptions | None = None) -> Selection:
    """The records of the index files ``sources`` worth fetching, grouped per WARC (see the module
    docstring).  Raises ImportError without pyarrow, OSError/ValueError for an unreadable index."""
    import pyarrow.dataset as ds

    fetch = fetch or FetchOptions()
    cc_langs = cc_languages(langs)
    base = base_url if base_url.endswith("/") else base_url + "/"
    per_warc: dict[str, list[tuple[int, int, str, str | None]]] = {}
    sel = Selection()
    local = [s for s in sources if not is_url(s)]
    remote = [s for s in sources if is_url(s)]
    opened: list[RemoteFile] = []
    datasets = []
    if local:
        datasets.append(ds.dataset(local, format="parquet", partitioning="hive"))
    if remote:
        http, opened = _http_filesystem(fetch)
        datasets.append(ds.dataset(remote, filesystem=http, format="parquet", partitioning="hive"))
    try:
        for dataset in datasets:
            names = set(dataset.schema.names)
            missing = [c for c in COLUMNS if c not in names]
            if missing:
                raise ValueError(f"not a Common Crawl index table (no {', '.join(missing)} column)")
            scanner = dataset.scanner(columns=list(COLUMNS), filter=_filter(dataset.schema, cc_langs, hosts, since))
            for batch in scanner.to_batches():
                cols = batch.to_pydict()
                sel.rows += batch.num_rows
                for i in range(batch.num_rows):
                    per_warc.setdefault(cols["warc_filename"][i], []).append(
                        (int(cols["warc_record_offset"][i]), int(cols["warc_record_length"][i]), cols["url"][i],
                         cols["content_charset"][i] or None))
    finally:
        sel.index_bytes = sum(f.bytes_read for f in opened)
        for f in opened:
            f.close()
    for name in sorted(per_warc):
        rows = sorted(set(per_warc[name]))
        sel.sets.append(RecordSet(warc=name if is_url(name) else base + name.lstrip("/"),
                                  offsets=tuple(r[0] for r in rows), lengths=tuple(r[1] for r in rows),
                                  urls=tuple(r[2] for r in rows), charsets=tuple(r[3] for r in rows)))
    return sel


class fetch_selected:  # noqa: N801  (used like a function: an iterable of records)
    """The records of ``rs`` fetched by range (a few in flight, in offset order), read as WARC records:
    :class:`~mcecrawl.archives.reader.Record` with the index's offset and charset, or
    :class:`~mcecrawl.archives.reader.Rejected`.  A record whose range cannot be fetched after the
    retries raises :class:`~mcecrawl.archives.remote.RemoteError` (the set is read again by the
    next run); a range the file does not have is rejected (``bad_range``)."""

    def __init__(self, rs: RecordSet, want: Callable[[bytes], bool] | None, fetch: FetchOptions | None):
        self.rs = rs
        self.want = want
        self.fetch = fetch or FetchOptions()
        self.gate = HostGate(self.fetch.concurrency)
        self.bytes = self.fetched = self.retries = 0

    def _retried(self, reason: str) -> None:
        self.retries += 1

    def _get(self, i: int) -> tuple[bytes, int]:
        return fetch_range(self.rs.warc, self.rs.offsets[i], self.rs.lengths[i], self.fetch.retry, self.gate,
                           self._retried)

    def __iter__(self) -> Iterator[Record | Rejected]:
        rs = self.rs
        ahead = max(1, self.fetch.concurrency) * PREFETCH_PER_SLOT
        with ThreadPoolExecutor(max(1, self.fetch.concurrency)) as pool:
            pending: dict[int, Future[tuple[bytes, int]]] = {}
            try:
                for i in range(len(rs.offsets)):
                    for j in range(i, min(i + ahead, len(rs.offsets))):
                        if j not in pending:
                            pending[j] = pool.submit(self._get, j)
                    try:
                        data, received = pending.pop(i).result()
                    except RemoteError as e:
                        if e.reason != "range_not_satisfiable":
                            raise
                        yield Rejected("bad_range", rs.offsets[i], rs.urls[i], str(e))
                        continue
                    self.bytes += received
                    self.fetched += 1
                    yield from self._records(i, data)
            finally:
                for fut in pending.values():
                    fut.cancel()

    def _records(self, i: int, data: bytes) -> Iterator[Record | Rejected]:
        rs = self.rs
        for rec in iter_records(rs.warc, fileobj=BytesIO(data), want=self.want):
            if isinstance(rec, Record):
                if rec.url != rs.urls[i]:  # the index points elsewhere than it says
                    yield Rejected("index_mismatch", rs.offsets[i], rs.urls[i], f"the record is {rec.url}")
                    continue
                yield replace(rec, offset=rs.offsets[i] + rec.offset,
                              charset_detected=rec.charset_detected or rs.charsets[i])
            elif rec.reason in ("not_warc", "unreadable_file"):  # a bad row, not a bad file
                yield Rejected("bad_record", rs.offsets[i], rs.urls[i], f"no WARC record at this offset: {rec.detail}")
            else:
                yield replace(rec, offset=rs.offsets[i] + rec.offset)

    def counts(self) -> dict[str, Any]:
        return {"bytes": self.bytes, "fetched": self.fetched, "retries": self.retries}
