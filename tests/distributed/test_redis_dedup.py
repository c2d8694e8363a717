"""The Redis near-duplicate store: same answers as the SQLite store, query-and-insert atomic."""
from __future__ import annotations

import sys
import threading
from pathlib import Path

from mcecrawl.distributed.dedup import RedisDedupStore

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "spiders"))
from bbc_texts import SERVICES  # noqa: E402

ARTICLES = [" ".join(a["paragraphs"]) for s in SERVICES.values() for a in s["articles"]]


def test_exact_near_and_new(redis_url):
    store = RedisDedupStore(redis_url, "t:dedup")
    a, b = ARTICLES[0], ARTICLES[1]
    assert store.check(a, "u/a", "s1").duplicate_of is None
    assert store.check(a, "u/a", "s1").duplicate_of is None  # the same article fetched again
    exact = store.check(a, "u/a2", "s2")
    assert (exact.duplicate_of, exact.kind, exact.cross_site) == ("u/a", "exact", True)
    near = store.check(a + " یک جملهٔ تازه به پایان خبر افزوده شد.", "u/a3", "s1")
    assert (near.duplicate_of, near.kind) == ("u/a", "near") and 0.5 <= near.similarity < 1
    assert store.check(b, "u/b", "s1").duplicate_of is None
    assert len(RedisDedupStore(redis_url, "t:dedup")) == 2  # another worker sees the same store


def test_two_workers_checking_near_copies_at_once_keep_one_original(redis_url):
    pairs = [(t, t + f" نسخهٔ دوم {i}.") for i, t in enumerate(ARTICLES)]
    stores = [RedisDedupStore(redis_url, "t:race"), RedisDedupStore(redis_url, "t:race")]
    barrier = threading.Barrier(2, timeout=30)
    results: list[list] = [[], []]

    def worker(n: int) -> None:
        for i, pair in enumerate(pairs):
            barrier.wait()  # both check their copy of pair i at the same moment
            results[n].append(stores[n].check(pair[n], f"w{n}/{i}"))

    threads = [threading.Thread(target=worker, args=(n,)) for n in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(results[0]) == len(results[1]) == len(pairs)
    for i, (r0, r1) in enumerate(zip(*results)):
        kept = [r for r in (r0, r1) if r.duplicate_of is None]
        assert len(kept) == 1, f"pair {i}: {r0} / {r1}"


def test_recrawl_is_unchanged_and_an_edit_an_update_as_in_the_sqlite_store(redis_url):
    """The SQLite store's re-crawl answers (docs of MCE_RECRAWL_UNCHANGED), shared by workers."""
    from mcecrawl.corpus.dedup import DedupStore

    a = ARTICLES[2]
    edited = a + " این خبر به‌روز شد و جملهٔ تازه‌ای گرفت."
    for store in (DedupStore(":memory:"), RedisDedupStore(redis_url, "t:recrawl")):
        first = store.check(a, "u/x", "s", content_sha1="h1")
        assert first.duplicate_of is None and first.unchanged_since is None
        again = store.check(a, "u/x", "s", content_sha1="h1")
        assert again.duplicate_of is None and again.unchanged_since  # never a copy of itself
        update = store.check(edited, "u/x", "s", content_sha1="h2")
        assert update.duplicate_of is None and update.previous_content_sha1 == "h1"
        copy = store.check(edited, "u/y", "s")
        assert copy.duplicate_of == "u/x" and copy.kind == "exact"
