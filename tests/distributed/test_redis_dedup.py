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


def test_copies_recrawled_answer_as_in_the_sqlite_store(redis_url):
    """Exact and near copies checked again (a re-crawl) stay copies, in both stores alike."""
    from mcecrawl.corpus.dedup import DedupStore

    a, b = ARTICLES[3], ARTICLES[4]
    near = a.replace(a.split()[5], "امروز", 1) + " جمله‌ای تازه."
    answers = []
    for store in (DedupStore(":memory:"), RedisDedupStore(redis_url, "t:copies")):
        got = []
        for _ in range(3):
            for text, url in ((a, "u/a"), (a, "u/exact"), (near, "u/near"), (b, "u/b")):
                r = store.check(text, url, "s")
                got.append((url, r.duplicate_of, r.kind, round(r.similarity, 6), bool(r.unchanged_since)))
        answers.append(got)
    assert answers[0] == answers[1]
    marks = {url: (dup, kind) for url, dup, kind, _, _ in answers[1][-4:]}
    assert marks == {"u/a": (None, None), "u/exact": ("u/a", "exact"), "u/near": ("u/a", "near"), "u/b": (None, None)}


def test_a_check_makes_three_round_trips_under_the_lock(redis_url, monkeypatch):
    """Look up (record, first copy, band buckets), fetch the candidates, record: one pipeline each,
    plus taking and releasing the lock (the store made two more: a round trip per candidate hash
    and one for the URL's record)."""
    import redis

    store = RedisDedupStore(redis_url, "t:trips")
    store.check(ARTICLES[5], "u/a", "s")
    trips: list[str] = []
    real_command, real_execute = redis.Redis.execute_command, redis.client.Pipeline.execute

    def command(self, *args, **kwargs):
        if not isinstance(self, redis.client.Pipeline):
            trips.append(str(args[0]))
        return real_command(self, *args, **kwargs)

    def execute(self, *args, **kwargs):
        trips.append("pipeline")
        return real_execute(self, *args, **kwargs)

    monkeypatch.setattr(redis.Redis, "execute_command", command)
    monkeypatch.setattr(redis.client.Pipeline, "execute", execute)
    near = store.check(ARTICLES[5] + " جمله‌ای تازه.", "u/near", "s")  # candidates found, a near copy
    assert near.kind == "near"
    assert trips.count("pipeline") == 3 and len(trips) == 5, trips
    trips.clear()
    store.check(ARTICLES[6], "u/new", "s")  # no candidate: look up and record only
    assert trips.count("pipeline") == 2 and len(trips) == 4, trips
