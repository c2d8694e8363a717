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
one (``mcecrawl.distributed.dedup``) alike.
"""
from __future__ import annotations

import hashlib
import sqlite3
from contextlib import nullcontext
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, ContextManager, NamedTuple, cast

import numpy as np

__all__ = ["DedupResult", "DedupSequence", "DedupStore", "signature", "estimate_jaccard", "shingle_hashes"]

# Character shingle length: docs/decisions.md c.5 (char-5-grams separate Persian near-copies, 0.95,
# from unrelated texts, 0.02; word shingles are fragile with ZWNJ/space variation).
SHINGLE_CHARS = 5
# Signature length (bins): datasketch's default num_perm; Jaccard std error sqrt(J(1-J)/128) <= 0.044.
NUM_PERM = 128
# Near-duplicate threshold on estimated Jaccard of shingle sets.  Copies with 10% of words edited
# measure J ~ 0.6-0.8 on real R2L texts, unrelated same-site texts <= 0.1
# (tests/corpus/test_dedup.py::test_near_dup_recall_precision_real_texts, benchmarks/bench_corpus.py).
NEAR_DUP_THRESHOLD = 0.5
# Texts shorter than this (characters of text_norm) are only checked for exact duplicates:
# a 100-char text has < 100 shingles, so a 128-bin estimate is mostly densification noise.
NEAR_DUP_MIN_CHARS = 200
# Commit after every new document: in WAL mode with synchronous=NORMAL a commit does not fsync
# (~20 us), and holding the write lock across items would block other crawls sharing the store.
COMMIT_EVERY = 1
# Seconds a writer waits for another process's lock on a shared store (sqlite3's default is 5).
LOCK_TIMEOUT = 30.0
# Seed of the shingle hash; stored in the database so that a store is never mixed across seeds.
SEED = 0x6D63_6563  # "mcec"

_MASK32 = np.uint64(0xFFFF_FFFF)
_EMPTY = np.uint64(0xFFFF_FFFF_FFFF_FFFF)
_BIN_SHIFT = np.uint64(64 - 7)  # top 7 bits pick one of 128 bins (NUM_PERM must be 128)
_FNV_PRIME = np.uint64(0x100_0000_01B3)
_SCHEMA_VERSION = 2  # 2: table urls (latest text per URL); a version-1 store is migrated


def _mix64(h: np.ndarray) -> np.ndarray:
    """splitmix64 finaliser (Steele et al., OOPSLA 2014): spreads the polynomial hash over 64 bits."""
    h = h ^ (h >> np.uint64(30))
    h = h * np.uint64(0xBF58476D1CE4E5B9)
    h = h ^ (h >> np.uint64(27))
    h = h * np.uint64(0x94D049BB133111EB)
    return cast(np.ndarray, h ^ (h >> np.uint64(31)))


def _shingle_text(text_norm: str) -> str:
    """Fold what should not tell copies apart: case, and ZWNJ vs space (c.5)."""
    return " ".join(text_norm.replace("\u200c", " ").lower().split())


def shingle_hashes(text_norm: str, k: int = SHINGLE_CHARS) -> np.ndarray:
    """64-bit hashes of all character ``k``-grams, vectorised over the code-point array."""
    s = _shingle_text(text_norm)
    cp = np.frombuffer(s.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    n = len(cp) - k + 1
    if n <= 0:
        return np.empty(0, dtype=np.uint64)
    with np.errstate(over="ignore"):
        h = np.full(n, np.uint64(SEED), dtype=np.uint64)
        for j in range(k):  # FNV-style polynomial over the k code points, then a 64-bit mixer
            h = (h * _FNV_PRIME) ^ cp[j:j + n]
        return _mix64(h)


def signature(text_norm: str, num_perm: int = NUM_PERM) -> np.ndarray:
    """One-permutation MinHash signature (uint64 array of ``num_perm`` 32-bit values).

    Li et al. 2012 section 3: bin = top bits of the hash, value = minimum of the low bits per bin;
    empty bins are filled by rotation densification (Shrivastava & Li 2014, section 4): the value
    of the nearest non-empty bin to the right plus ``C * distance``, C a constant > max value.
    Returns an all-``_EMPTY`` array for texts with no shingle.
    """
    if num_perm != 128:
        raise ValueError("signature() bins by the top 7 hash bits: num_perm must be 128")
    h = shingle_hashes(text_norm)
    out = np.full(num_perm, _EMPTY, dtype=np.uint64)
    if h.size == 0:
        return out
    np.minimum.at(out, (h >> _BIN_SHIFT).astype(np.intp), h & _MASK32)
    empty = out == _EMPTY
    if empty.any() and not empty.all():
        full = np.flatnonzero(~empty)
        idx = np.flatnonzero(empty)
        nxt = np.searchsorted(full, idx) % len(full)  # next non-empty bin, circularly
        dist = (full[nxt] - idx) % num_perm
        out[idx] = out[full[nxt]] + (np.uint64(1) << np.uint64(32)) * dist.astype(np.uint64)
    return out


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
    :mod:`mcecrawl.distributed.dedup`); a store supplies the primitives, run under ``_atomic()``:

    1. ``_lookup``: the URL's record and the exact text's first copy (and, for a store that
       fetches them with the lookup, the near-duplicate candidates);
    2. exact: a first copy at another URL; else, for a text with no stored first copy at all,
       ``_nearest``: the most similar first copy at another URL.  A re-crawled near copy is
       checked again, so it keeps its mark (the store keeps first copies only);
    3. ``_record``: the URL's record, and the text as a first copy if it is one;
    4. the re-crawl fields: same URL, same text ``unchanged_since``; a new text
       ``previous_content_sha1``.
    """

    threshold: float
    min_chars: int

    def _atomic(self) -> ContextManager[Any]:
        return nullcontext()

    def _lookup(self, url: str, sha1: str, sig: np.ndarray | None) -> tuple[UrlRecord | None, FirstCopy | None, Any]:
        raise NotImplementedError

    def _nearest(self, sig: np.ndarray, url: str, candidates: Any) -> tuple[FirstCopy, float] | None:
        raise NotImplementedError

    def _record(self, url: str, seen: UrlRecord, new: FirstCopy | None, sig: np.ndarray | None, chars: int,
                now: str) -> None:
        """Store ``seen`` (the text's hash ``seen.sha1``) as ``url``'s record and, if ``new``, the text as a
        first copy; ``now`` is :meth:`check`'s time stamp."""
        raise NotImplementedError

    def check(self, text_norm: str, url: str, site: str | None = None, *, record: bool = True,
              content_sha1: str | None = None) -> DedupResult:
        """Is ``text_norm`` a copy of another stored text, or ``url``'s own text seen before?

        Same URL, same text: ``unchanged_since`` (when it was first seen there), with the
        ``duplicate_of`` it had when first seen (a copy stays a copy).  Same URL, new text: an
        update, ``previous_content_sha1`` set (``content_sha1`` is the caller's hash of the text,
        reported back on the next change; the hash of ``text_norm`` otherwise), then checked
        against the other documents like a new text.  ``duplicate_of`` never names ``url``
        itself.  New texts and URLs are recorded unless ``record=False``.
        """
        if not text_norm or not text_norm.strip():
            return DedupResult()
        sha1 = hashlib.sha1(text_norm.encode("utf-8")).hexdigest()
        sig = signature(text_norm) if len(text_norm) >= self.min_chars else None
        now = datetime.now(timezone.utc).isoformat(timespec="seconds")
        with self._atomic():
            seen, first, candidates = self._lookup(url, sha1, sig)
            same = seen.sha1 == sha1 if seen is not None else first is not None and first.url == url
            result = DedupResult()
            if first is not None and first.url != url:
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
    processes add later are picked up before each near-duplicate query.
    """

    def __init__(self, path: str | Path = ":memory:", *, threshold: float = NEAR_DUP_THRESHOLD,
                 num_perm: int = NUM_PERM, min_chars: int = NEAR_DUP_MIN_CHARS):
        from datasketch import MinHashLSH

        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.threshold = threshold
        self.num_perm = num_perm
        self.min_chars = min_chars
        self._db = sqlite3.connect(self.path, timeout=LOCK_TIMEOUT)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(
            """
            CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
            CREATE TABLE IF NOT EXISTS docs (
                id INTEGER PRIMARY KEY, sha1 TEXT NOT NULL UNIQUE, url TEXT NOT NULL, site TEXT,
                sig BLOB, chars INTEGER, first_seen TEXT);
            CREATE TABLE IF NOT EXISTS urls (
                url TEXT PRIMARY KEY, sha1 TEXT NOT NULL, content_sha1 TEXT, first_seen TEXT, last_seen TEXT);
            """
        )
        expected = {"schema": str(_SCHEMA_VERSION), "seed": str(SEED), "num_perm": str(num_perm),
                    "shingle_chars": str(SHINGLE_CHARS)}
        stored = dict(self._db.execute("SELECT key, value FROM meta"))
        if stored.get("schema") == "1":  # version 1 knew first copies only: they are their URLs' texts
            self._db.execute("INSERT OR IGNORE INTO urls (url, sha1, first_seen, last_seen) "
                             "SELECT url, sha1, first_seen, first_seen FROM docs")
            self._db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(_SCHEMA_VERSION),))
            stored["schema"] = str(_SCHEMA_VERSION)
        if stored and stored != expected:
            raise ValueError(f"{self.path} was built with {stored}, this code uses {expected}")
        self._db.executemany("INSERT OR IGNORE INTO meta VALUES (?, ?)", expected.items())
        self._db.commit()
        self._lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)
        self._sigs: dict[int, np.ndarray] = {}
        self._pending = 0
        self._last_id = 0
        self._refresh()

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
                "INSERT INTO docs (sha1, url, site, sig, chars, first_seen) VALUES (?, ?, ?, ?, ?, ?)",
                (seen.sha1, new.url, new.site, sig.tobytes() if sig is not None else None, chars, now))
            rowid = cur.lastrowid
            if sig is not None and rowid is not None:  # rowid: always set after an INSERT
                self._index(rowid, sig)
                # our own row: skip it on the next refresh unless others wrote rows before it
                if self._last_id == rowid - 1:
                    self._last_id = rowid
        self._db.execute("INSERT INTO urls (url, sha1, content_sha1, first_seen, last_seen) VALUES (?, ?, ?, ?, ?) "
                         "ON CONFLICT(url) DO UPDATE SET sha1 = excluded.sha1, content_sha1 = excluded.content_sha1, "
                         "first_seen = excluded.first_seen, last_seen = excluded.last_seen",
                         (url, seen.sha1, seen.content_sha1, seen.first_seen, now))
        self._pending += 1
        if self._pending >= COMMIT_EVERY:
            self.commit()

    def commit(self) -> None:
        self._db.commit()
        self._pending = 0

    def close(self) -> None:
        self.commit()
        self._db.close()

    def __enter__(self) -> "DedupStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
