"""Embedded full-text index: SQLite FTS5 with BM25 over folded title and text, plus metadata.

No server: one SQLite file (stdlib ``sqlite3``).  FTS5's own tokenizer folds neither harakat nor
kaf/yeh and splits at ZWNJ (lessons c.8), so both fields are stored already folded by
:mod:`mcecrawl.search.analysis` and every query goes through the same folding.  The faithful text
is kept in ``docs`` for snippets.  Indexing is idempotent and incremental: documents are keyed by
:func:`~mcecrawl.search.documents.doc_id`; an unchanged item is skipped, a changed one replaced.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path

from mcecrawl.search.analysis import ANALYZER_VERSION, TOKEN_RE, fold_for_search, query_variants, title_key
from mcecrawl.search.documents import SearchIndexError, doc_id, is_searchable
from mcecrawl.search.snippets import snippet

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 6  # 6: docs.page_type (filter by the kind of page)
# BM25 column weights (title, body) for FTS5's bm25(); a title hit counts 4x a body hit.  Our
# assumption, not tuned: ranking gold is absent; exact-title matches are ranked first anyway.
TITLE_WEIGHT = 4.0
BODY_WEIGHT = 1.0
# Items per write transaction: one fsync per batch instead of per item (SQLite FAQ #19).
BATCH_SIZE = 1000
# Seconds a connection waits on another writer's lock before "database is locked" (sqlite3 default 5).
LOCK_TIMEOUT = 5.0
# A term in more than this share of documents gets idf <= 0, which FTS5's bm25() clamps to 1e-6
# (fts5_aux.c): it cannot change the ranking, so it is left out of multi-term queries, and a
# query made only of such terms is answered newest-first instead of scoring every document.
COMMON_TERM_SHARE = 0.5

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS docs(
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    url TEXT, canonical_url TEXT, site TEXT, lang TEXT, title TEXT,
    published TEXT, published_day TEXT, page_type TEXT,
    text TEXT NOT NULL, title_key TEXT, version TEXT NOT NULL, indexed_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS docs_site ON docs(site);
CREATE INDEX IF NOT EXISTS docs_lang ON docs(lang);
CREATE INDEX IF NOT EXISTS docs_page_type ON docs(page_type);
CREATE INDEX IF NOT EXISTS docs_published_day ON docs(published_day);
CREATE INDEX IF NOT EXISTS docs_title_key ON docs(title_key);
-- Contentless: the folded text is not stored twice (a third of the size); the faithful text
-- lives in docs, and a deletion re-folds it (analyzer_version guards that fold_for_search is unchanged).
-- detail=full is required: with content='' and detail=column FTS5's bm25() sees no instances
-- and scores every row 0 (tested in tests/search/test_sqlite_index.py).
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(title, body, content='',
                                                  tokenize='unicode61 remove_diacritics 2');
INSERT OR IGNORE INTO fts(fts, rank) VALUES('rank', 'bm25({TITLE_WEIGHT}, {BODY_WEIGHT})');
"""


@dataclass
class IndexReport:
    """What one :meth:`SearchIndex.add` call did."""

    added: int = 0
    updated: int = 0
    unchanged: int = 0
    skipped: int = 0

    def merge(self, other: IndexReport) -> None:
        for k, v in asdict(other).items():
            setattr(self, k, getattr(self, k) + v)


@dataclass(frozen=True)
class Hit:
    """One ranked search result; ``score`` is -bm25 (higher is better)."""

    id: str
    url: str
    title: str
    site: str | None
    lang: str | None
    published: str | None
    score: float
    exact_title: bool
    snippet: str = field(default="")


def published_day(value) -> str | None:
    """``YYYY-MM-DD`` of an ISO-8601 date/datetime string, else None (unparseable dates are kept
    in ``published`` but never pass a ``since`` filter)."""
    if not isinstance(value, str) or len(value) < 10:
        return None
    try:
        return dt.date.fromisoformat(value[:10]).isoformat()
    except ValueError:
        return None


def _describe(path: Path, e: sqlite3.Error) -> str:
    msg = str(e)
    if "locked" in msg or "busy" in msg:
        return (f"{path}: the search index is locked by another writer (a running `mcecrawl index` "
                f"or a crawl with SearchIndexPipeline); try again when it has finished")
    if "not a database" in msg or "malformed" in msg or "no such table" in msg or "corrupt" in msg:
        return (f"{path}: not a usable mcecrawl search index ({msg}); delete it and rebuild it "
                f"with `mcecrawl index CORPUS.jsonl --db {path}`")
    return f"{path}: SQLite error: {msg}"


class SearchIndex:
    """An SQLite FTS5 search index file.

    Parameters
    ----------
    path : str or Path
        The database file.  Created on first write unless ``readonly``.
    readonly : bool
        Open for searching only; a missing file is an error instead of an empty index.
    timeout : float
        Seconds to wait for another writer's lock.
    """

    def __init__(self, path: str | Path, *, readonly: bool = False, timeout: float = LOCK_TIMEOUT):
        self.path = Path(path)
        self.readonly = readonly
        self._common: frozenset[str] | None = None
        if readonly and not self.path.is_file():
            raise SearchIndexError(f"{self.path}: no such search index; build it with "
                                   f"`mcecrawl index CORPUS.jsonl --db {self.path}`")
        try:
            if readonly:
                self._db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True,
                                           timeout=timeout, check_same_thread=False)
            else:
                self._db = sqlite3.connect(self.path, timeout=timeout, check_same_thread=False)
            self._setup()
        except sqlite3.Error as e:
            if hasattr(self, "_db"):
                self._db.close()
            raise SearchIndexError(_describe(self.path, e)) from e

    def _setup(self) -> None:
        db = self._db
        if not self.readonly:
            # WAL: searches keep reading while a crawl writes; NORMAL is durable at checkpoints.
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            with db:
                db.executescript(_SCHEMA)
                db.execute("INSERT OR IGNORE INTO meta VALUES('schema_version', ?)", (str(SCHEMA_VERSION),))
                db.execute("INSERT OR IGNORE INTO meta VALUES('analyzer_version', ?)", (str(ANALYZER_VERSION),))
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("analyzer_version") != str(ANALYZER_VERSION) or meta.get("schema_version") != str(SCHEMA_VERSION):
            raise SearchIndexError(
                f"{self.path}: built by another mcecrawl version (schema {meta.get('schema_version')}, "
                f"analyzer {meta.get('analyzer_version')}; this one needs {SCHEMA_VERSION}/{ANALYZER_VERSION}); "
                f"rebuild it with `mcecrawl index`")

    # -- context manager ------------------------------------------------------------------------
    def __enter__(self) -> SearchIndex:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    def _guard(self, fn, *args):
        try:
            return fn(*args)
        except sqlite3.Error as e:
            raise SearchIndexError(_describe(self.path, e)) from e

    # -- writing --------------------------------------------------------------------------------
    def add(self, items: Iterable[Mapping], *, batch_size: int = BATCH_SIZE) -> IndexReport:
        """Index or update ``items`` (corpus records), committing every ``batch_size`` items."""
        if self.readonly:
            raise SearchIndexError(f"{self.path}: opened read-only")
        report = IndexReport()
        batch: list[Mapping] = []
        for item in items:
            batch.append(item)
            if len(batch) >= batch_size:
                report.merge(self._guard(self._write_batch, batch))
                batch = []
        if batch:
            report.merge(self._guard(self._write_batch, batch))
        return report

    def _write_batch(self, items: list[Mapping]) -> IndexReport:
        report = IndexReport()
        now = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
        db = self._db
        with db:
            for item in items:
                if not is_searchable(item):
                    report.skipped += 1
                    continue
                did = doc_id(item)
                lang = item.get("lang")
                title = item.get("title") or ""
                text = item["text"]
                row = (item.get("url"), item.get("canonical_url"), item.get("site"), lang, title,
                       item.get("published"), published_day(item.get("published")), item.get("page_type"))
                version = hashlib.sha1(json.dumps([row, text], ensure_ascii=False).encode("utf-8")).hexdigest()
                old = db.execute("SELECT rowid, version, title, text, lang FROM docs WHERE id = ?", (did,)).fetchone()
                if old and old[1] == version:
                    report.unchanged += 1
                    continue
                # The faithful text, not ``text_norm``: the corpus normaliser's ZWNJ/digit policies
                # are settings (MCE_NORMALIZE_*), and the index needs one fixed analysis.
                body = fold_for_search(text, lang, expand=True)
                values = (*row, text, title_key(title, lang), version, now)
                if old:
                    rowid = old[0]
                    self._unindex(rowid, old[2], old[3], old[4])
                    db.execute("UPDATE docs SET url=?, canonical_url=?, site=?, lang=?, title=?, published=?, "
                               "published_day=?, page_type=?, text=?, title_key=?, version=?, indexed_at=? "
                               "WHERE rowid=?",
                               (*values, rowid))
                    report.updated += 1
                else:
                    rowid = db.execute("INSERT INTO docs(url, canonical_url, site, lang, title, published, "
                                       "published_day, page_type, text, title_key, version, indexed_at, id) "
                                       "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", (*values, did)).lastrowid
                    report.added += 1
                db.execute("INSERT INTO fts(rowid, title, body) VALUES (?, ?, ?)",
                           (rowid, fold_for_search(title, lang, expand=True), body))
        return report

    def _unindex(self, rowid: int, title: str | None, text: str, lang: str | None) -> None:
        """Remove a row from the contentless FTS5 table (FTS5 docs §4.4.3: 'delete' with the old values)."""
        self._db.execute("INSERT INTO fts(fts, rowid, title, body) VALUES('delete', ?, ?, ?)",
                         (rowid, fold_for_search(title or "", lang, expand=True),
                          fold_for_search(text, lang, expand=True)))

    def delete(self, ids: Iterable[str]) -> int:
        """Remove documents by id; returns how many existed."""
        def run() -> int:
            n = 0
            with self._db:
                for did in ids:
                    row = self._db.execute("SELECT rowid, title, text, lang FROM docs WHERE id = ?", (did,)).fetchone()
                    if row:
                        self._unindex(*row)
                        self._db.execute("DELETE FROM docs WHERE rowid = ?", row[:1])
                        n += 1
            return n
        return self._guard(run)

    def optimize(self) -> None:
        """Merge FTS5 b-trees into one (faster queries after a bulk load; FTS5 docs §6.8)."""
        def run() -> None:
            with self._db:
                self._db.execute("INSERT INTO fts(fts) VALUES('optimize')")
        self._guard(run)
        self.refresh_statistics()

    def refresh_statistics(self) -> int:
        """Record the terms in more than ``COMMON_TERM_SHARE`` of documents (one vocabulary scan,
        ~0.6 s at 100k articles); returns how many.  Stale statistics only cost speed."""
        def run() -> int:
            db = self._db
            n = db.execute("SELECT count(*) FROM docs").fetchone()[0]
            db.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_vocab USING fts5vocab(main, 'fts', 'row')")
            common = [t for (t,) in db.execute("SELECT term FROM temp.fts_vocab WHERE doc > ?",
                                               (n * COMMON_TERM_SHARE,))]
            with db:
                db.execute("INSERT OR REPLACE INTO meta VALUES('common_terms', ?)",
                           (json.dumps(common, ensure_ascii=False),))
            self._common = frozenset(common)
            return len(common)
        return self._guard(run)

    @property
    def common_terms(self) -> frozenset[str]:
        if self._common is None:
            row = self._guard(lambda: self._db.execute("SELECT value FROM meta WHERE key = 'common_terms'").fetchone())
            self._common = frozenset(json.loads(row[0])) if row else frozenset()
        return self._common

    def __len__(self) -> int:
        return self._guard(lambda: self._db.execute("SELECT count(*) FROM docs").fetchone()[0])

    # -- searching ------------------------------------------------------------------------------
    @staticmethod
    def _match(variants) -> str:
        """FTS5 query: OR of variants, each an AND of quoted single terms (no phrases)."""
        return " OR ".join("(" + " ".join(f'"{t}"' for t in v) + ")" for v in variants)

    def search(self, query: str, *, site: str | None = None, lang: str | None = None,
               since: str | None = None, page_type: str | None = None, limit: int = 10,
               with_snippets: bool = True) -> list[Hit]:
        """Ranked hits for ``query``: exact (folded) title matches first, then BM25.

        All terms must match (FTS5 implicit AND), except terms in more than
        ``COMMON_TERM_SHARE`` of the documents next to rarer ones; a query of only such terms is
        answered newest-first.  Each query segmentation variant
        (:func:`~mcecrawl.search.analysis.query_variants`) is OR-ed in.  ``since`` is an
        ISO-8601 date: only documents published that day or later (undated ones never pass).
        ``page_type``: only documents of that kind (``article``, ``listing``, ...; the item's
        ``page_type``, :data:`mcecrawl.algorithms.result.PAGE_TYPES`).
        """
        variants = query_variants(query)
        if not variants or limit <= 0:
            return []
        if since is not None:
            day = published_day(since)
            if day is None:
                raise SearchIndexError(f"--since must be an ISO-8601 date (YYYY-MM-DD), not {since!r}")
            since = day
        common = self.common_terms
        kept = list(dict.fromkeys(tuple(t for t in v if t not in common) or v for v in variants))
        if common:
            # Variants with a selective term are ranked; those matching nothing (most joined
            # segmentations) are dropped, so a query of common words is answered newest-first.
            selective = [v for v in kept if not common.issuperset(v)]
            live = [v for v in selective if self._guard(lambda v=v: self._db.execute(
                "SELECT 1 FROM fts WHERE fts MATCH ? LIMIT 1", (self._match([v]),)).fetchone())]
            kept = live or [v for v in kept if common.issuperset(v)] or kept
        newest_first = bool(common) and all(common.issuperset(v) for v in kept)
        match = self._match(kept)
        order_by = "fts.rowid DESC" if newest_first else "fts.rank"
        filters, params = [], []
        for column, value in (("site", site), ("lang", lang), ("page_type", page_type)):
            if value:
                filters.append(f"d.{column} = ?")
                params.append(value)
        if since:
            filters.append("d.published_day >= ?")
            params.append(since)
        where = "".join(f" AND {f}" for f in filters)
        qkey = "".join(TOKEN_RE.findall(fold_for_search(query.replace("\u200c", ""))))
        db = self._db

        def run():
            # Exact-title candidates come from the title_key index, the rest in FTS5 rank order;
            # an unfiltered query never touches ``docs`` until the top ``limit`` are known.
            exact = [r[0] for r in db.execute(f"SELECT d.rowid FROM docs d WHERE d.title_key = ?{where} LIMIT ?",
                                              (qkey, *params, limit))]
            if filters:
                cursor = db.execute(f"SELECT fts.rowid, fts.rank FROM fts JOIN docs d ON d.rowid = fts.rowid "
                                    f"WHERE fts MATCH ?{where} ORDER BY {order_by} LIMIT ?", (match, *params, limit))
            else:
                cursor = db.execute(
                    f"SELECT fts.rowid, fts.rank FROM fts WHERE fts MATCH ? ORDER BY {order_by} LIMIT ?",
                    (match, limit))
            ranked = cursor.fetchall()
            scores = dict(ranked)
            for rowid in exact:
                if rowid not in scores:
                    row = db.execute("SELECT rank FROM fts WHERE fts MATCH ? AND rowid = ?", (match, rowid)).fetchone()
                    if row:
                        scores[rowid] = row[0]
            exact = sorted((r for r in exact if r in scores), key=lambda r: scores[r])
            rest = [r for r, _ in ranked if r not in exact]  # already in rank (or newest-first) order
            order = (exact + rest)[:limit]
            if not order:
                return []
            marks = ",".join("?" * len(order))
            docs = {r[0]: r for r in db.execute(
                f"SELECT rowid, id, url, title, site, lang, published, text FROM docs WHERE rowid IN ({marks})", order)}
            return [(*docs[r][:7], scores[r], r in exact, docs[r][7]) for r in order if r in docs]

        rows = self._guard(run)
        terms = frozenset(t for v in variants for t in v)
        return [Hit(id=r[1], url=r[2], title=r[3] or "", site=r[4], lang=r[5], published=r[6],
                    score=-r[7], exact_title=r[8], snippet=snippet(r[9], terms) if with_snippets else "")
                for r in rows]
