"""A ``from-warc`` run: WARC files over worker processes, duplicates marked across the run, the
output committed per WARC (resumable, :mod:`mcecrawl.archives.output`), progress and a summary.

Work is split by WARC file (as datatrove and cc-pyspark split it): each worker reads whole WARCs
with its own :class:`~mcecrawl.archives.pages.PageMaker` and writes the kept items to a scratch
file; the parent marks duplicates with the run's one dedup store (the duplicate step of the corpus
quality step, :meth:`~mcecrawl.corpus.quality.CorpusQuality.mark_duplicates`, on the worker's
``text_norm``; so the answer does not depend on which worker saw a text first within a WARC) and
commits the WARC.  On resume, an in-memory store is refilled from the committed items, so the
interrupted run's items are neither lost nor duplicates of themselves.
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
    warcs: list[str]
    output: str
    config: PageConfig = field(default_factory=PageConfig)
    workers: int = 0  # 0: one per core
    dedup_db: str | None = None  # a persistent SQLite store; None: one in memory for the run
    progress: bool = False


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

    def add(self, counts: dict[str, Any]) -> None:
        self.records += counts.get("records", 0)
        self.bytes += counts.get("bytes", 0)
        self.not_pages += counts.get("not_pages", 0)
        self.reasons.update(counts.get("rejected", {}))
        self.peak_rss_mb = max(self.peak_rss_mb, counts.get("peak_rss_mb", 0.0))

    def as_dict(self) -> dict[str, Any]:
        secs = max(self.seconds, 1e-9)
        return {"files": self.files, "files_skipped": self.files_skipped, "records": self.records,
                "kept": self.kept, "duplicates": self.duplicates, "rejected": dict(self.reasons.most_common()),
                "not_pages": self.not_pages, "bytes": self.bytes, "seconds": round(self.seconds, 2),
                "records_per_s": round(self.records / secs, 1), "mb_per_s": round(self.bytes / secs / 1e6, 2),
                "peak_rss_mb": round(self.peak_rss_mb, 1), "unreadable": self.unreadable}

    def text(self) -> str:
        d = self.as_dict()
        rejected = ", ".join(f"{k} {v}" for k, v in d["rejected"].items()) or "none"
        lines = [f"{d['files']} WARC files ({d['files_skipped']} done before), {d['records']} response records, "
                 f"{d['kept']} kept ({d['duplicates']} marked duplicate), {sum(self.reasons.values())} rejected",
                 f"rejected by reason: {rejected}",
                 f"{d['seconds']} s, {d['records_per_s']} records/s, {d['mb_per_s']} MB/s, "
                 f"peak RSS per worker {d['peak_rss_mb']} MB"]
        lines += [f"unreadable: {u}" for u in self.unreadable]
        return "\n".join(lines)


def expand_inputs(patterns: list[str]) -> tuple[list[str], list[str]]:
    """Paths of ``patterns`` (files, globs, directories of ``*.warc``/``*.warc.gz``), and the patterns
    that matched nothing."""
    found: list[str] = []
    missing: list[str] = []
    for pat in patterns:
        if os.path.isdir(pat):
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
# Where a worker reports progress: a multiprocessing queue, or a callable in-process; the items are
# increments (records, kept, rejected by reason).
_progress: Any = None


def _init_worker(config: PageConfig, progress: Any) -> None:
    global _maker, _progress
    _maker, _progress = PageMaker(config), progress


def _peak_rss_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def process_warc(job: tuple[str, str]) -> tuple[str, str, dict[str, Any]]:
    """Read one WARC (in a worker): kept items to the scratch file ``part``; returns its counts."""
    from mcecrawl.jsonlines import dumps_line

    warc, part = job
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
    with open(part, "w", encoding="utf-8", newline="\n") as out:
        for rec in iter_records(warc, want=want, keep_truncated=_maker.config.keep_failed):
            if isinstance(rec, Rejected):
                if rec.reason in NOT_PAGES:
                    not_pages += 1
                    continue
                if rec.reason in ("not_warc", "unreadable_file"):
                    rejected[rec.reason] += 1
                    report()
                    return warc, part, {"records": 0, "rejected": dict(rejected), "not_pages": not_pages,
                                        "bytes": 0, "unreadable": f"{warc}: {rec.detail}",
                                        "peak_rss_mb": _peak_rss_mb()}
                rejected[rec.reason] += 1
                if rec.reason != "bad_record":
                    records += 1
                continue
            records += 1
            try:
                result = _maker.make(rec, prefiltered=want is not None)
            except Exception as e:  # a page no phase expected: counted, the run goes on
                result = Rejected("internal_error", rec.offset, rec.url, repr(e))
            if isinstance(result, Rejected):
                rejected[result.reason] += 1
            else:
                out.write(dumps_line(result))
                kept += 1
            if time.monotonic() - last >= PROGRESS_EVERY:
                report()
                last = time.monotonic()
    report()
    return warc, part, {"records": records, "rejected": dict(rejected), "not_pages": not_pages,
                        "bytes": os.path.getsize(warc), "peak_rss_mb": _peak_rss_mb()}


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


def _dedup(items: Iterator[dict[str, Any]], quality: Any, summary: Summary) -> Iterator[dict[str, Any]]:
    for item in items:  # text_norm is the worker's: only the duplicate step is left
        quality.mark_duplicates(item)
        if item.get("duplicate_of"):
            summary.duplicates += 1
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
    from mcecrawl.corpus.dedup import DedupStore
    from mcecrawl.corpus.quality import CorpusQuality

    t0 = time.monotonic()
    out = Output(Path(opts.output))
    out.open()
    summary = Summary(files=len(opts.warcs))
    todo = []
    for w in opts.warcs:
        if warc_key(w) in out.done:
            summary.files_skipped += 1
        else:
            todo.append(w)
    workers = max(1, min(opts.workers or os.cpu_count() or 1, len(todo) or 1))
    progress = _Progress(opts.progress, len(todo))
    store = DedupStore(opts.dedup_db or ":memory:")
    dedup = CorpusQuality(store=store, langid=False, dates=False)
    if out.resumed and not opts.dedup_db:
        _replay(out, dedup)
    jobs = [(w, str(out.part_path(w))) for w in todo]

    def commit(result: tuple[str, str, dict[str, Any]]) -> None:
        warc, part, counts = result
        summary.add(counts)
        if counts.get("unreadable"):
            summary.unreadable.append(counts["unreadable"])
        out.commit(warc, _dedup(_read_part(part), dedup, summary),
                   {k: v for k, v in counts.items() if k != "peak_rss_mb"})
        store.commit()
        os.unlink(part)
        progress.files += 1
        progress.show(force=True)
        if on_commit is not None:
            on_commit(warc)

    try:
        if workers == 1:
            _init_worker(opts.config, progress.add)
            for job in jobs:
                commit(process_warc(job))
        else:
            ctx = mp.get_context("forkserver" if sys.platform != "win32" else "spawn")
            queue = ctx.Queue()
            stop = threading.Event()
            drainer = threading.Thread(target=_drain, args=(queue, progress, stop), daemon=True)
            drainer.start()
            with ctx.Pool(workers, initializer=_init_worker, initargs=(opts.config, queue)) as pool:
                for result in pool.imap_unordered(process_warc, jobs):
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

