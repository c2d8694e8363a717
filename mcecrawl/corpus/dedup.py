"""Exact and near-duplicate detection, persistent across runs (SQLite).

* Exact: SHA-1 of ``text_norm`` (docs/decisions.md c.5).
* Near: MinHash signatures of character 5-gram shingles of ``text_norm`` indexed with
  datasketch's ``MinHashLSH``; candidates are confirmed by the estimated Jaccard similarity.

Signatures use *one permutation hashing* (Li, Owen & Zhang, "One Permutation Hashing", NIPS 2012)
with rotation densification (Shrivastava & Li, "Densifying One Permutation Hashing via Rotation
for Fast Near Neighbor Search", ICML 2014): every shingle is hashed once (numpy-vectorised) and
the minimum is kept per bin, so the cost is O(shingles) rather than O(shingles x permutations).
Its collision probability per bin equals the Jaccard similarity, exactly as for k-permutation
MinHash, so datasketch's LSH banding and ``jaccard`` apply unchanged.  (The plain per-shingle
``MinHash.update`` loop costs ~3 ms per article, docs/decisions.md c.5; this costs ~0.1 ms.)

The store keeps the *first* copy of every text: a later copy gets ``duplicate_of`` = the URL of
that first copy (possibly from an earlier run, possibly from another site: syndication).

It also keeps the latest text of every URL, so a re-crawl is not a duplicate of itself: the same
URL with the same text is *unchanged* since it was first seen; the same URL with another text is
an *update* (with the previous hash); ``duplicate_of`` always names another document.  A copy's
own text is in no document, so its re-crawl is checked again and stays a copy (in drop mode:
stays dropped).  :class:`DedupSequence` is that ``check()`` sequence, for this store and the Redis
one (:mod:`mcecrawl.corpus.dedup_redis`) alike; :func:`open_dedup_store` opens either from one string.
"""
from __future__ import annotations

import hashlib
import sqlite3
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, ContextManager, Iterator, NamedTuple, cast

import numpy as np

from mcecrawl.textpieces import PIECE_CHARS, word_pieces

__all__ = ["DedupResult", "DedupSequence", "DedupStore", "Fingerprint", "estimate_jaccard", "fingerprint_of",
           "is_redis_url", "open_dedup_store", "shingle_hashes", "signature"]

# Character shingle length: docs/decisions.md c.5 (char-5-grams separate Persian near-copies, 0.95,
# from unrelated texts, 0.02; word shingles are fragile with ZWNJ/space variation).
SHINGLE_CHARS = 5
# Signature length (bins): datasketch's default num_perm; Jaccard std error sqrt(J(1-J)/128) <= 0.044.
NUM_PERM = 128
# Fewest bins datasketch's MinHashLSH takes (it also needs >= 2 bands at the store's threshold, which
# it checks itself: ValueError).
MIN_NUM_PERM = 2
# Largest signature: densified values add 2**32 per bin of distance and must stay below 2**64
# (datasketch's affine64 range); 2**31 bins would already be ~16 GiB of signature per text.
MAX_NUM_PERM = 2**31 - 1
# Near-duplicate threshold on estimated Jaccard of shingle sets.  Copies with 10% of words edited
# measure J ~ 0.6-0.8 on real R2L texts, unrelated same-site texts <= 0.1
# (tests/corpus/test_dedup.py::test_near_dup_recall_precision_real_texts, benchmarks/bench_corpus.py).
NEAR_DUP_THRESHOLD = 0.5
# Texts shorter than this (characters of text_norm) are only checked for exact duplicates:
# a 100-char text has < 100 shingles, so a 128-bin estimate is mostly densification noise.
NEAR_DUP_MIN_CHARS = 200
# Every check is one transaction (committed as it ends): in WAL mode with synchronous=NORMAL a commit
# does not fsync (~20 us), and holding the write lock across items would block other crawls sharing
# the store.
# Seconds a writer waits for another process's lock on a shared store (sqlite3's default is 5).
LOCK_TIMEOUT = 30.0
# Seed of the shingle hash; stored in the database so that a store is never mixed across seeds.
SEED = 0x6D63_6563  # "mcec"

_MASK32 = np.uint64(0xFFFF_FFFF)
_EMPTY = np.uint64(0xFFFF_FFFF_FFFF_FFFF)
_HIGH = np.uint64(32)  # the high 32 bits of a shingle hash pick its bin, the low 32 are its value
_FNV_PRIME = np.uint64(0x100_0000_01B3)
# 2: table urls (latest text per URL); 3: batch tags (``source``, ``prev``) for rolling back an
# interrupted batch.  Older stores are migrated.
_SCHEMA_VERSION = 3


def _mix64(h: np.ndarray) -> np.ndarray:
    """splitmix64 finaliser (Steele et al., OOPSLA 2014): spreads the polynomial hash over 64 bits."""
    h = h ^ (h >> np.uint64(30))
    h = h * np.uint64(0xBF58476D1CE4E5B9)
    h = h ^ (h >> np.uint64(27))
    h = h * np.uint64(0x94D049BB133111EB)
    return cast(np.ndarray, h ^ (h >> np.uint64(31)))


def _shingle_text(text_norm: str) -> str:
    """Fold what should not tell copies apart: case, and ZWNJ vs space (c.5).  A long text is lowercased
    and split a piece at a time (:func:`mcecrawl.textpieces.word_pieces`: the same words)."""
    pieces = word_pieces(text_norm.replace("\u200c", " "))
    return " ".join(filter(None, (" ".join(piece.lower().split()) for piece in pieces)))


def _hashes(s: str, k: int) -> np.ndarray:
    """64-bit hashes of the character ``k``-grams of ``s``, vectorised over its code-point array."""
    cp = np.frombuffer(s.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    n = len(cp) - k + 1
    if n <= 0:
        return np.empty(0, dtype=np.uint64)
    with np.errstate(over="ignore"):
        h = np.full(n, np.uint64(SEED), dtype=np.uint64)
        for j in range(k):  # FNV-style polynomial over the k code points, then a 64-bit mixer
            h = (h * _FNV_PRIME) ^ cp[j:j + n]
        return _mix64(h)


def _hash_slices(text_norm: str, k: int) -> Iterator[np.ndarray]:
    """:func:`shingle_hashes`, for the shingles starting in each slice of :data:`PIECE_CHARS` code points
    in turn (each slice read with the ``k - 1`` after it): a whole long text's code-point and hash arrays
    were 32 bytes a character (+131 MB for a text of 4 M characters)."""
    s = _shingle_text(text_norm)
    for start in range(0, len(s) - k + 1, PIECE_CHARS):
        yield _hashes(s[start:start + PIECE_CHARS + k - 1], k)


def shingle_hashes(text_norm: str, k: int = SHINGLE_CHARS) -> np.ndarray:
    """64-bit hashes of all character ``k``-grams of the folded text, in order (its slices' hashes joined)."""
    slices = list(_hash_slices(text_norm, k))
    return np.concatenate(slices) if slices else np.empty(0, dtype=np.uint64)


def signature(text_norm: str, num_perm: int = NUM_PERM) -> np.ndarray:
    """One-permutation MinHash signature (uint64 array of ``num_perm`` 32-bit values).

    Li et al. 2012 section 3: bin = the high 32 bits of the hash scaled to ``[0, num_perm)``
    (Lemire's multiply-shift range reduction: ``(high * num_perm) >> 32``, uniform for any
    ``num_perm``, and for 128 the same bins as the top 7 bits), value = minimum of the low 32
    bits per bin; empty bins are filled by rotation densification (Shrivastava & Li 2014,
    section 4): the value of the nearest non-empty bin to the right plus ``C * distance``, C a
    constant > max value.  Returns an all-``_EMPTY`` array for texts with no shingle.
    """
    if not MIN_NUM_PERM <= num_perm <= MAX_NUM_PERM:
        raise ValueError(f"num_perm must be in {MIN_NUM_PERM}..{MAX_NUM_PERM}, not {num_perm}")
    out = np.full(num_perm, _EMPTY, dtype=np.uint64)
    for h in _hash_slices(text_norm, SHINGLE_CHARS):  # the minimum of minima: a long text slice by slice
        bins = ((h >> _HIGH) * np.uint64(num_perm)) >> _HIGH
        np.minimum.at(out, bins.astype(np.intp), h & _MASK32)
    empty = out == _EMPTY
    if empty.any() and not empty.all():
        full = np.flatnonzero(~empty)
        idx = np.flatnonzero(empty)
        nxt = np.searchsorted(full, idx) % len(full)  # next non-empty bin, circularly
        dist = (full[nxt] - idx) % num_perm
        out[idx] = out[full[nxt]] + (np.uint64(1) << np.uint64(32)) * dist.astype(np.uint64)
    return out


@dataclass(frozen=True)
class Fingerprint:
    """What :meth:`DedupSequence.check` computes from a text before it looks anything up: its SHA-1
    and, for a text of ``min_chars`` or more, its :func:`signature` of ``num_perm`` bins.  A crawl's
    extraction worker computes it beside ``text_norm`` (:class:`mcecrawl.corpus.quality.TextQuality`),
    off the crawl process, which is the crawl's bottleneck."""

    sha1: str
    signature: np.ndarray | None
    num_perm: int
    min_chars: int


def _sha1(text_norm: str) -> str:
    return hashlib.sha1(text_norm.encode("utf-8")).hexdigest()


def fingerprint_of(text_norm: str, num_perm: int = NUM_PERM, min_chars: int = NEAR_DUP_MIN_CHARS) -> Fingerprint:
    """The :class:`Fingerprint` of ``text_norm`` for a store of ``num_perm`` bins and ``min_chars``."""
    return Fingerprint(_sha1(text_norm), signature(text_norm, num_perm) if len(text_norm) >= min_chars else None,
                       num_perm, min_chars)


def estimate_jaccard(a: np.ndarray, b: np.ndarray) -> float:
    """Fraction of equal bins: an unbiased Jaccard estimate (Li et al. 2012, Theorem 1)."""
    return float(np.count_nonzero(a == b)) / len(a)


@dataclass(frozen=True)
class DedupResult:
    """Outcome of checking one document against the store."""

    duplicate_of: str | None = None  # URL of the first copy, None for a new text
    kind: str | None = None  # "exact" | "near" | None
    similarity: float = 0.0  # 1.0 for exact, estimated Jaccard for near
    original_site: str | None = None
    cross_site: bool = False  # the first copy came from another site (syndication)
    unchanged_since: str | None = None  # same URL, same text: when this text was first seen there
    previous_content_sha1: str | None = None  # same URL, another text: the previous text's hash


def copy_of(first_url: str, kind: str, similarity: float, first_site: str | None, site: str | None) -> DedupResult:
    """A text whose first copy is ``first_url``; cross-site when that copy came from another site."""
    return DedupResult(first_url, kind, similarity, first_site, bool(site and first_site and site != first_site))


class UrlRecord(NamedTuple):
    """What a store remembers of a URL: its latest text's hash, the caller's hash of it, since when."""

    sha1: str
    content_sha1: str | None
    first_seen: str | None


class FirstCopy(NamedTuple):
    """A stored first copy of a text: where it was seen."""

    url: str
    site: str | None


class DedupSequence:
    """The one ``check()`` sequence of every store (SQLite here, Redis in
    :mod:`mcecrawl.corpus.dedup_redis`); a store supplies the primitives, run under ``_atomic()``:

    1. ``_lookup``: the URL's record and the exact text's first copy (and, for a store that
       fetches them with the lookup, the near-duplicate candidates);
    2. exact: a first copy at another URL; else, for a text with no stored first copy at all,
       ``_nearest``: the most similar first copy at another URL.  A re-crawled near copy is
       checked again, so it keeps its mark (the store keeps first copies only);
    3. ``_record``: the URL's record, and the text as a first copy if it is one;
    4. the re-crawl fields: same URL, same text ``unchanged_since``; a new text
       ``previous_content_sha1``.

    Two switches of the archive path (``from-warc``, the datatrove steps):

    * ``repeats_are_copies``: an archive holds the same page many times (monthly crawls, one WARC
      record per visit): a text already stored as a first copy *at the same URL* is then marked
      like any other copy (``duplicate_of`` = that URL, kind ``exact``), so that
      ``status == "ok" and not duplicate_of`` counts each text once.  (A crawl writes a page once
      per run and keeps ``unchanged_since`` for re-crawls: off.)
    * batches (:meth:`begin_batch`, :meth:`end_batch`, :meth:`rollback_batch`): what a batch
      writes (one WARC's items) is tagged with its name until :meth:`end_batch`, so a run killed
      after the store took a WARC's texts but before its output was committed can undo them and
      redo the WARC as if never seen.
    """

    threshold: float
    min_chars: int
    num_perm: int = NUM_PERM
    repeats_are_copies: bool = False
    source: str | None = None  # the open batch's name; what is recorded now is tagged with it

    def _atomic(self) -> ContextManager[Any]:
        return nullcontext()

    def _lookup(self, url: str, sha1: str, sig: np.ndarray | None) -> tuple[UrlRecord | None, FirstCopy | None, Any]:
        raise NotImplementedError

    def _nearest(self, sig: np.ndarray, url: str, candidates: Any) -> tuple[FirstCopy, float] | None:
        raise NotImplementedError

    def _record(self, url: str, seen: UrlRecord, new: FirstCopy | None, sig: np.ndarray | None, chars: int,
                now: str) -> None:
        """Store ``seen`` (the text's hash ``seen.sha1``) as ``url``'s record and, if ``new``, the text as a
        first copy; ``now`` is :meth:`check`'s time stamp.  Tagged with :attr:`source` when set."""
        raise NotImplementedError

    def __len__(self) -> int:
        """Stored first copies."""
        raise NotImplementedError

    def commit(self) -> None:
        """Every check is committed when it returns (kept for callers of the earlier API)."""

    def close(self) -> None:
        raise NotImplementedError

    def begin_batch(self, name: str) -> None:
        """Tag what is recorded from now on with ``name``; first undo what an interrupted batch of
        that name left (:meth:`rollback_batch`)."""
        self.rollback_batch(name)
        self.source = name

    def end_batch(self) -> None:
        """The batch is safe elsewhere (its output committed): drop its tags, keep its records."""
        raise NotImplementedError

    def rollback_batch(self, name: str) -> int:
        """Undo the records of an unfinished batch ``name``: its first copies go, each URL gets back
        the record it had before the batch.  Returns the number of records undone."""
        raise NotImplementedError

    def check(self, text_norm: str, url: str, site: str | None = None, *, record: bool = True,
              content_sha1: str | None = None, fingerprint: Fingerprint | None = None) -> DedupResult:
        """Is ``text_norm`` a copy of another stored text, or ``url``'s own text seen before?

        Same URL, same text: ``unchanged_since`` (when it was first seen there), with the
        ``duplicate_of`` it had when first seen (a copy stays a copy); with
        ``repeats_are_copies`` also ``duplicate_of`` = ``url`` when it holds the first copy.  Same
        URL, new text: an update, ``previous_content_sha1`` set (``content_sha1`` is the caller's
        hash of the text, reported back on the next change; the hash of ``text_norm`` otherwise),
        then checked against the other documents like a new text.  Without
        ``repeats_are_copies``, ``duplicate_of`` never names ``url`` itself.  New texts and URLs
        are recorded unless ``record=False``.  ``fingerprint``: :func:`fingerprint_of` ``text_norm``
        computed elsewhere; used when it is this text's (its SHA-1 is checked) for this store.
        """
        if not text_norm or not text_norm.strip():
            return DedupResult()
        fp = fingerprint
        if fp is None or (fp.num_perm, fp.min_chars) != (self.num_perm, self.min_chars) or fp.sha1 != _sha1(text_norm):
            fp = fingerprint_of(text_norm, self.num_perm, self.min_chars)
        sha1, sig = fp.sha1, fp.signature
        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        with self._atomic():
            seen, first, candidates = self._lookup(url, sha1, sig)
            same = seen.sha1 == sha1 if seen is not None else first is not None and first.url == url
            result = DedupResult()
            if first is not None and (first.url != url or self.repeats_are_copies):
                result = copy_of(first.url, "exact", 1.0, first.site, site)
            elif first is None and sig is not None:
                near = self._nearest(sig, url, candidates)
                if near is not None and near[1] >= self.threshold:
                    result = copy_of(near[0].url, "near", near[1], near[0].site, site)
            if record:
                since = seen.first_seen if same and seen is not None else now
                new = FirstCopy(url, site) if first is None and result.duplicate_of is None else None
                self._record(url, UrlRecord(sha1, content_sha1, since), new, sig, len(text_norm), now)
        if same:
            return replace(result, unchanged_since=seen.first_seen if seen is not None else None)
        if seen is not None:
            return replace(result, previous_content_sha1=seen.content_sha1 or seen.sha1)
        return result


class DedupStore(DedupSequence):
    """First-seen texts of a corpus: SHA-1 table + MinHash signatures, in one SQLite file.

    Open with ``path=":memory:"`` for a per-process store.  On open the signatures are loaded
    into an in-memory datasketch ``MinHashLSH`` (about 30 us per stored document); rows other
    processes add later are picked up before each near-duplicate query.  A check runs in one
    ``BEGIN IMMEDIATE`` transaction, so processes sharing the file never both keep a text (or two
    near copies) as a first copy.
    """

    def __init__(self, path: str | Path = ":memory:", *, threshold: float = NEAR_DUP_THRESHOLD,
                 num_perm: int = NUM_PERM, min_chars: int = NEAR_DUP_MIN_CHARS, repeats_are_copies: bool = False):
        from datasketch import MinHashLSH

        if not MIN_NUM_PERM <= num_perm <= MAX_NUM_PERM:
            raise ValueError(f"num_perm must be in {MIN_NUM_PERM}..{MAX_NUM_PERM}, not {num_perm}")
        self.repeats_are_copies = repeats_are_copies
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.threshold = threshold
        self.num_perm = num_perm
        self.min_chars = min_chars
        # isolation_level=None: transactions are explicit (``_atomic``), never begun behind our back
        self._db = sqlite3.connect(self.path, timeout=LOCK_TIMEOUT, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(
            """
            CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
            CREATE TABLE IF NOT EXISTS docs (
                id INTEGER PRIMARY KEY, sha1 TEXT NOT NULL UNIQUE, url TEXT NOT NULL, site TEXT,
                sig BLOB, chars INTEGER, first_seen TEXT, source TEXT);
            CREATE TABLE IF NOT EXISTS urls (
                url TEXT PRIMARY KEY, sha1 TEXT NOT NULL, content_sha1 TEXT, first_seen TEXT, last_seen TEXT,
                source TEXT, prev TEXT);
            """
        )
        expected = {"schema": str(_SCHEMA_VERSION), "seed": str(SEED), "num_perm": str(num_perm),
                    "shingle_chars": str(SHINGLE_CHARS)}
        stored = dict(self._db.execute("SELECT key, value FROM meta"))
        if stored.get("schema") == "1":  # version 1 knew first copies only: they are their URLs' texts
            self._db.execute("INSERT OR IGNORE INTO urls (url, sha1, first_seen, last_seen) "
                             "SELECT url, sha1, first_seen, first_seen FROM docs")
            self._db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(_SCHEMA_VERSION),))
            stored["schema"] = "2"
        if stored.get("schema") == "2":  # version 2 had no batch tags
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(docs)")}
            if "source" not in columns:
                self._db.execute("ALTER TABLE docs ADD COLUMN source TEXT")
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(urls)")}
            for column in ("source", "prev"):
                if column not in columns:
                    self._db.execute(f"ALTER TABLE urls ADD COLUMN {column} TEXT")
            self._db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(_SCHEMA_VERSION),))
            stored["schema"] = str(_SCHEMA_VERSION)
        self._db.execute("CREATE INDEX IF NOT EXISTS docs_source ON docs (source) WHERE source IS NOT NULL")
        self._db.execute("CREATE INDEX IF NOT EXISTS urls_source ON urls (source) WHERE source IS NOT NULL")
        if stored and stored != expected:
            raise ValueError(f"{self.path} was built with {stored}, this code uses {expected}")
        self._db.executemany("INSERT OR IGNORE INTO meta VALUES (?, ?)", expected.items())
        self._lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)
        self._sigs: dict[int, np.ndarray] = {}
        self._last_id = 0
        self._refresh()

    def _reindex(self) -> None:
        """Rebuild the in-memory index from the table (after rows were deleted)."""
        from datasketch import MinHashLSH

        self._lsh = MinHashLSH(threshold=self.threshold, num_perm=self.num_perm)
        self._sigs = {}
        self._last_id = 0
        self._refresh()

    @contextmanager
    def _atomic(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")  # the write lock from the first lookup on
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            self._reindex()  # signatures indexed in the rolled-back transaction
            raise
        self._db.execute("COMMIT")

    def _refresh(self) -> None:
        """Index signatures added since the last look, by this or another process (crawls of
        several sites running at once share one store: syndicated copies are found while they run)."""
        rows = self._db.execute("SELECT id, sig FROM docs WHERE id > ? AND sig IS NOT NULL ORDER BY id",
                                (self._last_id,)).fetchall()
        for doc_id, blob in rows:
            if doc_id not in self._sigs:
                self._index(doc_id, np.frombuffer(blob, dtype=np.uint64))
        if rows:
            self._last_id = rows[-1][0]

    def __len__(self) -> int:
        return cast(int, self._db.execute("SELECT COUNT(*) FROM docs").fetchone()[0])

    def _index(self, doc_id: int, sig: np.ndarray) -> None:
        self._sigs[doc_id] = sig
        self._lsh.insert(doc_id, self._lean(sig), check_duplication=False)

    def _lean(self, sig: np.ndarray) -> Any:
        from datasketch import LeanMinHash

        # OPH values are 32-bit, densified bins add multiples of 2**32: within the 64-bit range of
        # datasketch's affine64 scheme.  Only LSH banding (equality of band slices) uses them.
        return LeanMinHash(seed=SEED, hashvalues=sig, scheme="affine64")

    def _doc(self, doc_id: int) -> FirstCopy:
        return FirstCopy(*self._db.execute("SELECT url, site FROM docs WHERE id = ?", (doc_id,)).fetchone())

    def _lookup(self, url: str, sha1: str, sig: np.ndarray | None) -> tuple[UrlRecord | None, FirstCopy | None, Any]:
        seen = self._db.execute("SELECT sha1, content_sha1, first_seen FROM urls WHERE url = ?", (url,)).fetchone()
        first = self._db.execute("SELECT url, site FROM docs WHERE sha1 = ?", (sha1,)).fetchone()
        return (UrlRecord(*seen) if seen else None), (FirstCopy(*first) if first else None), None

    def _nearest(self, sig: np.ndarray, url: str, candidates: Any) -> tuple[FirstCopy, float] | None:
        self._refresh()
        best: tuple[FirstCopy, float] | None = None
        for doc_id in self._lsh.query(self._lean(sig)):
            sim = estimate_jaccard(sig, self._sigs[doc_id])
            if best is None or sim > best[1]:
                doc = self._doc(doc_id)
                if doc.url != url:  # an earlier version of this URL is no copy
                    best = doc, sim
        return best

    def _record(self, url: str, seen: UrlRecord, new: FirstCopy | None, sig: np.ndarray | None, chars: int,
                now: str) -> None:
        if new is not None:
            cur = self._db.execute(
                "INSERT INTO docs (sha1, url, site, sig, chars, first_seen, source) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (seen.sha1, new.url, new.site, sig.tobytes() if sig is not None else None, chars, now, self.source))
            rowid = cur.lastrowid
            if sig is not None and rowid is not None:  # rowid: always set after an INSERT
                self._index(rowid, sig)
                # our own row: skip it on the next refresh unless others wrote rows before it
                if self._last_id == rowid - 1:
                    self._last_id = rowid
        # prev: the record before the batch first touched this URL (kept through the batch's later writes)
        self._db.execute(
            "INSERT INTO urls (url, sha1, content_sha1, first_seen, last_seen, source) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT(url) DO UPDATE SET sha1 = excluded.sha1, content_sha1 = excluded.content_sha1, "
            "first_seen = excluded.first_seen, last_seen = excluded.last_seen, source = excluded.source, "
            "prev = CASE WHEN excluded.source IS NULL THEN NULL WHEN urls.source IS excluded.source THEN urls.prev "
            "ELSE json_array(urls.sha1, urls.content_sha1, urls.first_seen, urls.last_seen, urls.source) END",
            (url, seen.sha1, seen.content_sha1, seen.first_seen, now, self.source))

    def end_batch(self) -> None:
        if self.source is not None:
            with self._atomic():
                self._db.execute("UPDATE docs SET source = NULL WHERE source = ?", (self.source,))
                self._db.execute("UPDATE urls SET source = NULL, prev = NULL WHERE source = ?", (self.source,))
        self.source = None

    def rollback_batch(self, name: str) -> int:
        with self._atomic():
            n = self._db.execute("DELETE FROM docs WHERE source = ?", (name,)).rowcount
            n += self._db.execute("DELETE FROM urls WHERE source = ? AND prev IS NULL", (name,)).rowcount
            n += self._db.execute(
                "UPDATE urls SET sha1 = json_extract(prev, '$[0]'), content_sha1 = json_extract(prev, '$[1]'), "
                "first_seen = json_extract(prev, '$[2]'), last_seen = json_extract(prev, '$[3]'), "
                "source = json_extract(prev, '$[4]'), prev = NULL WHERE source = ?", (name,)).rowcount
        if n:
            self._reindex()
        return n

    def commit(self) -> None:
        """Every check is committed when it returns (kept for callers of the earlier API)."""

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "DedupStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def is_redis_url(spec: str | Path | None) -> bool:
    """``spec`` names a Redis database (``redis://``, ``rediss://``, ``unix://``) rather than a file."""
    return isinstance(spec, str) and spec.split("://", 1)[0].lower() in ("redis", "rediss", "unix") and "://" in spec


def open_dedup_store(spec: str | Path | None, *, prefix: str = "mce:dedup", **options: Any) -> DedupSequence:
    """The dedup store ``spec`` names: ``redis://host:port/db`` (:class:`~mcecrawl.corpus.dedup_redis.RedisDedupStore`,
    keys under ``prefix``; ``redis://host:port/db#name`` puts them under ``name`` instead), a SQLite
    file path, or None / ``""`` / ``":memory:"`` for a store of this process only.  ``options`` go to
    the store (``threshold``, ``num_perm``, ``min_chars``, ``repeats_are_copies``)."""
    if is_redis_url(spec):
        from mcecrawl.corpus.dedup_redis import RedisDedupStore

        url, _, name = str(spec).partition("#")
        return RedisDedupStore(url, name or prefix, **options)
    return DedupStore(spec or ":memory:", **options)
