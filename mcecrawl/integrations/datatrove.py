"""mcecrawl's WARC path as datatrove pipeline steps, so datatrove's executors (``LocalPipelineExecutor``,
``SlurmPipelineExecutor``, ``RayPipelineExecutor``) run it over thousands of WARCs.

* :class:`WarcPagesReader` -- reads WARCs with :func:`mcecrawl.archives.reader.iter_records`
  (FastWARC, bad records counted, never raised) and keeps each HTML response's *raw bytes*: they
  travel in the ``Document`` as a ``Media`` of type DOCUMENT, with the HTTP Content-Type and Common
  Crawl's ``charset-detected`` in the metadata.  (datatrove's own ``WarcReader`` decodes with
  cchardet and keeps only the string, which is what garbles legacy-encoded R2L pages.)
* :class:`McecrawlPages` -- our pipeline step: script prefilter, :func:`mcecrawl.encoding.decode`,
  extraction and the corpus quality step (:class:`mcecrawl.archives.pages.PageMaker`, the same as
  ``mcecrawl from-warc``); the document's text becomes the main content and its metadata the
  item's fields.  Rejected records are dropped and counted in datatrove's stats by reason.
  Duplicates across tasks: tasks are independent processes, so they share one dedup store,
  ``dedup_db``: ``redis://host:port/db`` on a cluster (:class:`mcecrawl.corpus.dedup_redis.RedisDedupStore`,
  the crawl's store; SQLite's locking is unreliable on network file systems), or a SQLite path
  on one machine (:func:`mcecrawl.corpus.dedup.open_dedup_store`).  As in ``from-warc``, a
  same-URL same-text repeat is a copy, so ``not duplicate_of`` keeps each text once; which of two
  copies read at the same moment by two tasks is the first is the one whose check reached the
  store first (the store's lock orders them).
* :class:`McecrawlExtractor` -- a ``BaseExtractor`` (str in, str out) for pipelines that already
  read WARCs with datatrove's reader: our extraction on the decoded page.

datatrove is an optional extra (``pip install mcecrawl[datatrove]``) and imported only when one of
these classes is first used: ``import mcecrawl.integrations.datatrove`` works without it.  Steps
keep only picklable configuration and build their state in ``run`` (datatrove pickles the pipeline
into its worker processes).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

# The steps, built on first access (module __getattr__) so that datatrove is imported only then.
_CLASSES = ("McecrawlExtractor", "McecrawlPages", "WarcPagesReader")
__all__ = ["record_of", *_CLASSES]
# Item fields not copied into a document's metadata (the text is the document's text).
_NOT_METADATA = ("text",)


def record_of(doc: Any) -> Any:
    """The :class:`~mcecrawl.archives.reader.Record` a :class:`WarcPagesReader` document carries."""
    from mcecrawl.archives.reader import Record

    m = doc.metadata
    return Record(warc=m.get("warc_file", ""), offset=m.get("warc_offset", 0), record_id=doc.id, url=m["url"],
                  date=m.get("date"), status=200, content_type=m.get("content_type"),
                  body=doc.media[0].media_bytes if doc.media else b"", charset_detected=m.get("charset_detected"))


@lru_cache(maxsize=None)
def _classes() -> dict[str, type]:
    from datatrove.data import Document, DocumentsPipeline, Media, MediaType
    from datatrove.pipeline.base import PipelineStep
    from datatrove.pipeline.extractors.base import BaseExtractor
    from datatrove.pipeline.readers.base import BaseDiskReader

    from mcecrawl.archives.reader import Record, Rejected, iter_records

    class WarcPagesReader(BaseDiskReader):  # type: ignore[misc]
        """HTML response records of WARC files, raw bytes kept (see the module docstring).
        Arguments as datatrove's ``WarcReader`` (``data_folder``, ``glob_pattern``, ``limit`` ...)."""

        name = "🕷 mcecrawl WARC (raw bytes)"

        def read_file(self, filepath: str) -> DocumentsPipeline:
            with self.data_folder.open(filepath, "rb") as f:
                for item in iter_records(filepath, fileobj=f):
                    if isinstance(item, Rejected):
                        if item.reason != "not_response":
                            self.stat_update(f"rejected_{item.reason}")
                        continue
                    assert isinstance(item, Record)
                    yield Document(text="", id=item.record_id,
                                   media=[Media(id=item.record_id, type=MediaType.DOCUMENT, url=item.url,
                                                media_bytes=item.body, offset=item.offset)],
                                   metadata={"url": item.url, "date": item.date, "content_type": item.content_type,
                                             "charset_detected": item.charset_detected, "warc_file": filepath,
                                             "warc_offset": item.offset})

    class McecrawlPages(PipelineStep):  # type: ignore[misc]
        """Prefilter, decode, extract, language, dates (and duplicates with ``dedup_db``): one corpus
        item per kept page; arguments as :class:`mcecrawl.archives.pages.PageConfig`."""

        name = "🔤 mcecrawl pages"
        type = "🛢 - EXTRAC"

        def __init__(self, dedup_db: str | None = None, drop_duplicates: bool = False, **config: Any):
            from mcecrawl.archives.pages import PageConfig

            super().__init__()
            self.config = PageConfig(**config)
            self.dedup_db = dedup_db
            self.drop_duplicates = drop_duplicates
            if dedup_db:  # created (or its parameters checked) here, once, before any task starts
                _open_store(dedup_db).close()

        def run(self, data: DocumentsPipeline, rank: int = 0, world_size: int = 1) -> DocumentsPipeline:
            from mcecrawl.archives.pages import PageMaker

            maker = PageMaker(self.config)
            store = dedup = None
            if self.dedup_db:
                from mcecrawl.corpus.quality import CorpusQuality

                store = _open_store(self.dedup_db)
                dedup = CorpusQuality(store=store, langid=False, dates=False)
            try:
                for doc in data:
                    self.stat_update("records")
                    with self.track_time():
                        try:
                            result = maker.make(record_of(doc))
                        except Exception as e:  # noqa: BLE001 - a page no phase expected: counted
                            result = Rejected("internal_error", 0, detail=repr(e))
                    if isinstance(result, Rejected):
                        self.stat_update(f"rejected_{result.reason}")
                        continue
                    if dedup is not None:
                        dedup.mark_duplicates(result)
                        if result.get("duplicate_of"):
                            self.stat_update("duplicates")
                            if self.drop_duplicates:
                                continue
                    doc.text = result["text"]
                    doc.media = []
                    doc.metadata = {k: v for k, v in result.items() if k not in _NOT_METADATA}
                    self.stat_update("kept")
                    self.update_doc_stats(doc)
                    yield doc
            finally:
                if store is not None:
                    store.close()

    class McecrawlExtractor(BaseExtractor):  # type: ignore[misc]
        """``extract(html) -> main text`` with our extraction (default: the package's algorithm)."""

        name = "⛏ mcecrawl"

        def __init__(self, algorithm: str | None = None, timeout: float = 1, **params: Any):
            from mcecrawl.algorithms import DEFAULT_ALGORITHM

            super().__init__(timeout)
            self.algorithm = algorithm or DEFAULT_ALGORITHM
            self.params = params

        def extract(self, text: str) -> str:
            from mcecrawl.extraction import ExtractionJob, run_job

            outcome = run_job(ExtractionJob(text.encode("utf-8", errors="replace"), self.algorithm, self.params))
            return outcome.text if outcome.status == "ok" else ""

    classes: dict[str, type] = {"WarcPagesReader": WarcPagesReader, "McecrawlPages": McecrawlPages,
                                "McecrawlExtractor": McecrawlExtractor}
    for name, cls in classes.items():  # picklable by reference: module.name resolves via __getattr__
        cls.__module__, cls.__qualname__ = __name__, name
    return classes


# Attempts at opening a SQLite store while another task holds its lock (creating its tables), and the
# pause between.
OPEN_ATTEMPTS = 20
OPEN_PAUSE = 0.25


def _open_store(spec: str) -> Any:
    """The step's dedup store (:func:`~mcecrawl.corpus.dedup.open_dedup_store`), a repeat of a text at the
    same URL marked as a copy as in ``from-warc``."""
    import sqlite3
    import time

    from mcecrawl.corpus.dedup import open_dedup_store

    for attempt in range(OPEN_ATTEMPTS):
        try:
            return open_dedup_store(spec, repeats_are_copies=True)
        except sqlite3.OperationalError:
            if attempt == OPEN_ATTEMPTS - 1:
                raise
            time.sleep(OPEN_PAUSE)
    raise AssertionError("unreachable")


def __getattr__(name: str) -> Any:
    if name in _CLASSES:
        return _classes()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

