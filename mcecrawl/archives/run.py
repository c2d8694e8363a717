"""A ``from-warc`` run: WARC files over worker processes, duplicates marked across the run, the
output committed per WARC (resumable, :mod:`mcecrawl.archives.output`), progress and a summary.

Work is split by WARC file (as datatrove and cc-pyspark split it): each worker reads whole WARCs
with its own :class:`~mcecrawl.archives.pages.PageMaker` and writes the kept items to a scratch
file; the parent marks duplicates with the run's one dedup store (the duplicate step of the corpus
quality step, :meth:`~mcecrawl.corpus.quality.CorpusQuality.mark_duplicates`, on the worker's
``text_norm``; so the answer does not depend on which worker saw a text first within a WARC) and
commits the WARC.  On resume, an in-memory store is refilled from the committed items, so the
interrupted run's items are neither lost nor duplicates of themselves.

A WARC may be a local file, a URL (:mod:`mcecrawl.archives.remote`: streamed, retried, resumed by
range) or the records Common Crawl's index selected from one WARC
(:class:`mcecrawl.archives.ccindex.RecordSet`, fetched by range).  A WARC that could not be read to
its end is not committed: its items are dropped, it is listed as unreadable, and the next run of the
same command reads it again.
"""
from __future__ import annotations

import glob
import json
import multiprocessing as mp
import os
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from mcecrawl.archives.output import Output, warc_key
from mcecrawl.archives.pages import PageConfig, PageMaker
from mcecrawl.archives.reader import Rejected, iter_records

__all__ = ["NOT_PAGES", "RunOptions", "Summary", "expand_inputs", "process_warc", "run"]

# Reasons that are not rejects: records that are no pages at all (requests, warcinfo, metadata).
NOT_PAGES = frozenset({"not_response"})
# Seconds between progress reports of a worker, and between progress lines of the parent.
PROGRESS_EVERY = 0.5
PROGRESS_LINE_EVERY = 1.0
# Reject reasons shown on the progress line (all of them are in the end summary).
PROGRESS_REASONS = 3


@dataclass
class RunOptions:
    warcs: list[Any]  # paths, URLs or mcecrawl.archives.ccindex.RecordSet
    output: str
    config: PageConfig = field(default_factory=PageConfig)
    workers: int = 0  # 0: one per core
    dedup_db: str | None = None  # a SQLite path or redis:// URL (open_dedup_store); None: one in memory for the run
    drop_duplicates: bool = False  # True: copies (duplicate_of set) are counted, not written
    # a same-URL same-text repeat is a copy (each text once); False: the crawl's reading, unchanged_since only
    repeats_are_copies: bool = True
    progress: bool = False
    fetch: Any = None  # mcecrawl.archives.remote settings for URLs and ranges (FetchOptions); None: defaults


@dataclass
class Summary:
    files: int = 0
    files_skipped: int = 0  # done by an earlier run of this output
    records: int = 0  # response records read
    kept: int = 0
    duplicates: int = 0
    bytes: int = 0
    seconds: float = 0.0
    reasons: Counter[str] = field(default_factory=Counter)
    not_pages: int = 0
    peak_rss_mb: float = 0.0  # largest peak RSS of a worker
    unreadable: list[str] = field(default_factory=list)
    selected: int = 0  # records Common Crawl's index selected (from-cc-index)
    fetched: int = 0  # of them, fetched by range
    index_bytes: int = 0  # bytes of the index read
    retries: int = 0  # HTTP requests retried (503/429, broken connections)

    def add(self, counts: dict[str, Any]) -> None:
        self.records += counts.get("records", 0)
        self.bytes += counts.get("bytes", 0)
        self.fetched += counts.get("fetched", 0)
        self.retries += counts.get("retries", 0)
        self.not_pages += counts.get("not_pages", 0)
        self.reasons.update(counts.get("rejected", {}))
        self.peak_rss_mb = max(self.peak_rss_mb, counts.get("peak_rss_mb", 0.0))

    def as_dict(self) -> dict[str, Any]:
        secs = max(self.seconds, 1e-9)
        return {"files": self.files, "files_skipped": self.files_skipped, "records": self.records,
                "kept": self.kept, "duplicates": self.duplicates, "rejected": dict(self.reasons.most_common()),
                "not_pages": self.not_pages, "bytes": self.bytes, "seconds": round(self.seconds, 2),
                "records_per_s": round(self.records / secs, 1), "mb_per_s": round(self.bytes / secs / 1e6, 2),
                "peak_rss_mb": round(self.peak_rss_mb, 1), "unreadable": self.unreadable,
                **({"selected": self.selected, "fetched": self.fetched, "index_bytes": self.index_bytes}
                   if self.selected else {}), "retries": self.retries}

    def text(self) -> str:
        d = self.as_dict()
        rejected = ", ".join(f"{k} {v}" for k, v in d["rejected"].items()) or "none"
        lines = [f"{d['files']} WARC files ({d['files_skipped']} done before), {d['records']} response records, "
                 f"{d['kept']} kept ({d['duplicates']} marked duplicate), {sum(self.reasons.values())} rejected",
                 f"rejected by reason: {rejected}",
                 f"{d['seconds']} s, {d['records_per_s']} records/s, {d['mb_per_s']} MB/s, "
                 f"peak RSS per worker {d['peak_rss_mb']} MB"]
        if self.selected:
            over_http = f" ({self.index_bytes} bytes of it read over HTTP)" if self.index_bytes else ""
            lines.insert(0, f"{self.selected} records selected from the index{over_http}, "
                            f"{self.fetched} fetched by range ({self.bytes} bytes)")
        if self.retries:
            lines.append(f"{self.retries} HTTP requests retried")
        lines += [f"unreadable: {u}" for u in self.unreadable]
        return "\n".join(lines)


def expand_inputs(patterns: list[str]) -> tuple[list[str], list[str]]:
    """Paths of ``patterns`` (files, globs, directories of ``*.warc``/``*.warc.gz``; URLs as given),
    and the patterns that matched nothing."""
    found: list[str] = []
    missing: list[str] = []
    for pat in patterns:
        if pat.startswith(("http://", "https://")):
            hits = [pat]
        elif os.path.isdir(pat):
            hits = sorted(str(p) for p in Path(pat).rglob("*") if p.name.endswith((".warc", ".warc.gz")))
        elif glob.has_magic(pat):
            hits = sorted(glob.glob(pat, recursive=True))
        else:
            hits = [pat] if os.path.isfile(pat) else []
        if not hits:
            missing.append(pat)
        found += [h for h in hits if h not in found]
    return found, missing


# --- workers --------------------------------------------------------------------------------------

_maker: PageMaker | None = None
_fetch: Any = None  # the run's FetchOptions
# Where a worker reports progress: a multiprocessing queue, or a callable in-process; the items are
# increments (records, kept, rejected by reason).
_progress: Any = None


def _init_worker(config: PageConfig, progress: Any, fetch: Any = None) -> None:
    global _maker, _progress, _fetch
    _maker, _progress, _fetch = PageMaker(config), progress, fetch


def _peak_rss_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


class _Source:
    """The records of one WARC source and, once read, what reading cost and whether it ended."""

    def __init__(self, source: Any, want: Callable[[bytes], bool] | None, keep_truncated: bool = False):
        self.remote: Any = None
        self.selection: Any = None
        if not isinstance(source, str):  # Common Crawl's index: the selected records by range
            from mcecrawl.archives.ccindex import fetch_selected

            self.selection = fetch_selected(source, want, _fetch)
            self.records: Iterator[Any] = iter(self.selection)
        elif source.startswith(("http://", "https://")):
            from mcecrawl.archives.remote import RemoteFile

            fetch = _fetch
            self.remote = RemoteFile(source, retry=fetch.retry if fetch else None)
            self.records = iter_records(source, fileobj=self.remote, want=want, keep_truncated=keep_truncated)
        else:
            self.path = source
            self.records = iter_records(source, want=want, keep_truncated=keep_truncated)

    def counts(self) -> dict[str, Any]:
        """bytes read, retries, records fetched; ``incomplete``: why the source was not read to its end."""
        if self.selection is not None:
            counts: dict[str, Any] = self.selection.counts()
            return counts
        if self.remote is not None:
            r = self.remote
            self.remote.close()
            error = r.error or (None if r.complete else "stopped before the end of the file")
            return {"bytes": r.bytes_read, "retries": r.retries, **({"incomplete": str(error)} if error else {})}
        try:
            return {"bytes": os.path.getsize(self.path)}
        except OSError:
            return {"bytes": 0}


def process_warc(job: tuple[Any, str]) -> tuple[Any, str, dict[str, Any]]:
    """Read one WARC (in a worker): kept items to the scratch file ``part``; returns its counts."""
    from mcecrawl.archives.remote import RemoteError

    source, part = job
    warc = source if isinstance(source, str) else source.warc
    assert _maker is not None, "worker not initialised"
    rejected: Counter[str] = Counter()
    records = kept = not_pages = 0
    sent: tuple[int, int, Counter[str]] = (0, 0, Counter())
    last = time.monotonic()

    def report() -> None:
        nonlocal sent
        if _progress is not None:
            _report((records - sent[0], kept - sent[1], dict(rejected - sent[2])))
            sent = (records, kept, rejected.copy())

    want = _maker.prefilter.passes if _maker.prefilter.scripts else None
    src = _Source(source, want, keep_truncated=_maker.config.keep_failed)
    with open(part, "w", encoding="utf-8", newline="\n") as out:
        try:
            for rec in src.records:
                if isinstance(rec, Rejected) and rec.reason in ("not_warc", "unreadable_file"):
                    rejected[rec.reason] += 1
                    report()
                    read = {k: v for k, v in src.counts().items() if k != "incomplete"}  # done: no WARC
                    return source, part, {"records": 0, "rejected": dict(rejected), "not_pages": not_pages,
                                          **read, "unreadable": f"{warc}: {rec.detail}",
                                          "peak_rss_mb": _peak_rss_mb()}
                if _page(rec, out, rejected, want):
                    kept += 1
                if isinstance(rec, Rejected) and rec.reason in NOT_PAGES:
                    not_pages += 1
                elif not (isinstance(rec, Rejected) and rec.reason == "bad_record"):
                    records += 1
                if time.monotonic() - last >= PROGRESS_EVERY:
                    report()
                    last = time.monotonic()
        except RemoteError as e:  # retries exhausted: the source is left for the next run
            counts = src.counts()
            counts.setdefault("incomplete", str(e))
        else:
            counts = src.counts()
    report()
    if counts.get("incomplete"):
        rejected["fetch_failed"] += 1
        counts["unreadable"] = f"{warc}: not read to its end ({counts['incomplete']}); read again by the next run"
    return source, part, {"records": records, "rejected": dict(rejected), "not_pages": not_pages,
                          **counts, "peak_rss_mb": _peak_rss_mb()}


def _page(rec: Any, out: Any, rejected: Counter[str], want: Callable[[bytes], bool] | None) -> bool:
    """One record of the reader: its item written to ``out`` (True) or its reason counted."""
    from mcecrawl.jsonlines import dumps_line

    assert _maker is not None
    if isinstance(rec, Rejected):
        if rec.reason not in NOT_PAGES:
            rejected[rec.reason] += 1
        return False
    try:
        result = _maker.make(rec, prefiltered=want is not None)
    except Exception as e:  # a page no phase expected: counted, the run goes on
        result = Rejected("internal_error", rec.offset, rec.url, repr(e))
    if isinstance(result, Rejected):
        rejected[result.reason] += 1
        return False
    out.write(dumps_line(result))
    return True


def _report(delta: tuple[int, int, dict[str, int]]) -> None:
    if callable(_progress):
        _progress(delta)
    else:
        _progress.put(delta)


# --- parent ---------------------------------------------------------------------------------------

class _Progress:
    """records/s, kept and the main reject reasons so far, on one refreshed line of stderr."""

    def __init__(self, enabled: bool, total_files: int):
        self.enabled = enabled
        self.total_files = total_files
        self.records = self.kept = self.files = 0
        self.rejected: Counter[str] = Counter()
        self.t0 = time.monotonic()
        self._last = 0.0
        self._lock = threading.Lock()

    def add(self, delta: tuple[int, int, dict[str, int]]) -> None:
        with self._lock:
            self.records += delta[0]
            self.kept += delta[1]
            self.rejected.update(delta[2])
        self.show()

    def show(self, force: bool = False) -> None:
        now = time.monotonic()
        if not self.enabled or (not force and now - self._last < PROGRESS_LINE_EVERY):
            return
        self._last = now
        rate = self.records / max(now - self.t0, 1e-9)
        top = ", ".join(f"{k} {v}" for k, v in self.rejected.most_common(PROGRESS_REASONS))
        sys.stderr.write(f"\r{self.files}/{self.total_files} WARCs, {self.records} records ({rate:.0f}/s), "
                         f"{self.kept} kept, {sum(self.rejected.values())} rejected ({top}) ")
        sys.stderr.flush()


def _drain(queue: Any, progress: _Progress, stop: threading.Event) -> None:
    import queue as queue_mod

    while not stop.is_set():
        try:
            progress.add(queue.get(timeout=0.2))
        except queue_mod.Empty:
            continue
        except (EOFError, OSError):
            return


def _name(source: Any) -> str:
    """The WARC a source reads (its path or URL)."""
    return source if isinstance(source, str) else str(source.warc)


def _dedup(items: Iterator[dict[str, Any]], quality: Any, summary: Summary, drop: bool) -> Iterator[dict[str, Any]]:
    for item in items:  # text_norm is the worker's: only the duplicate step is left
        quality.mark_duplicates(item)
        if item.get("duplicate_of"):
            summary.duplicates += 1
            if drop:
                continue
        summary.kept += 1
        yield item


def _read_part(part: str) -> Iterator[dict[str, Any]]:
    with open(part, encoding="utf-8") as f:
        for line in f:
            yield json.loads(line)


def _replay(out: Output, quality: Any) -> None:
    """Refill a fresh store (``quality``'s) with the committed items of an interrupted run, in their order."""
    from mcecrawl.corpus.files import iter_items

    for item in iter_items(out.committed_files()):
        if item.get("text_norm"):
            quality.mark_duplicates(item)


def run(opts: RunOptions, *, on_commit: Callable[[str], None] | None = None) -> Summary:
    """Run ``opts``; returns the summary (also stored with the state).  ``on_commit`` is called
    with each WARC once it is committed (tests use it to stop a run half-way)."""
    from mcecrawl.corpus.dedup import open_dedup_store
    from mcecrawl.corpus.quality import CorpusQuality

    t0 = time.monotonic()
    out = Output(Path(opts.output))
    out.open()
    summary = Summary(files=len(opts.warcs))
    todo = []
    for w in opts.warcs:
        if warc_key(_name(w)) in out.done:
            summary.files_skipped += 1
        else:
            todo.append(w)
    workers = max(1, min(opts.workers or os.cpu_count() or 1, len(todo) or 1))
    progress = _Progress(opts.progress, len(todo))
    # an archive holds a page once per visit: a same-URL same-text repeat is a copy (each text once)
    store = open_dedup_store(opts.dedup_db, repeats_are_copies=opts.repeats_are_copies)
    dedup = CorpusQuality(store=store, langid=False, dates=False)
    if out.resumed and not opts.dedup_db:
        _replay(out, dedup)
    jobs = [(w, str(out.part_path(_name(w)))) for w in todo]

    def commit(result: tuple[Any, str, dict[str, Any]]) -> None:
        source, part, counts = result
        warc = _name(source)
        summary.add(counts)
        if counts.get("unreadable"):
            summary.unreadable.append(counts["unreadable"])
        if not counts.get("incomplete"):  # else not done: the next run reads it again
            # the store's records of this WARC stay tagged until its items are committed: a run killed in
            # between undoes them on its re-run (begin_batch) instead of finding its own items seen before
            store.begin_batch(f"{out.path.resolve()}|{warc_key(warc)}")
            out.commit(warc, _dedup(_read_part(part), dedup, summary, opts.drop_duplicates),
                       {k: v for k, v in counts.items() if k not in ("peak_rss_mb", "incomplete")})
            store.end_batch()
        os.unlink(part)
        progress.files += 1
        progress.show(force=True)
        if on_commit is not None:
            on_commit(warc)

    try:
        if workers == 1:
            _init_worker(opts.config, progress.add, opts.fetch)
            for job in jobs:
                commit(process_warc(job))
        else:
            ctx = mp.get_context("forkserver" if sys.platform != "win32" else "spawn")
            if ctx.get_start_method() == "forkserver":  # workers forked warm: modules and model loaded once
                ctx.set_forkserver_preload(["mcecrawl.archives.warm"])
            queue = ctx.Queue()
            stop = threading.Event()
            drainer = threading.Thread(target=_drain, args=(queue, progress, stop), daemon=True)
            drainer.start()
            with ctx.Pool(workers, initializer=_init_worker, initargs=(opts.config, queue, opts.fetch)) as pool:
                # committed in input order, whichever worker finishes first: the first copy of a text
                # is the first in the WARC list (then record order), the same in every run
                for result in pool.imap(process_warc, jobs):
                    commit(result)
            stop.set()
            drainer.join(timeout=2)
    finally:
        store.close()
    out.close()
    summary.seconds = time.monotonic() - t0
    if opts.progress:
        sys.stderr.write("\n")
    return summary

