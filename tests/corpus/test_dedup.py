"""Dedup: exact + near-duplicate (OPH MinHash + datasketch LSH), persistence, syndication."""
from __future__ import annotations

import random

import numpy as np
import pytest

from evalsets import article_texts, edit_words, near_dup_eval
from mcecrawl.corpus import dedup
from mcecrawl.corpus.dedup import DedupStore, estimate_jaccard, fingerprint_of, shingle_hashes, signature
from mcecrawl.corpus.normalize import normalize

# Targets (recall >= 0.95 at precision >= 0.99) on edited copies of real R2L texts.
RECALL = 0.95
PRECISION = 0.99

TEXT = ("وزارت امور خارجه ایران روز دوشنبه اعلام کرد که مذاکرات هسته‌ای هفته آینده در وین ادامه خواهد یافت. "
        "سخنگوی این وزارتخانه گفت که هیئت ایرانی با پیشنهادهای تازه به مذاکرات بازمی‌گردد و انتظار دارد "
        "طرف‌های مقابل نیز با اراده سیاسی لازم در گفت‌وگوها شرکت کنند. او افزود که تحریم‌ها باید برداشته شود.")
OTHER = ("تیم ملی فوتبال ایران در دیدار دوستانه مقابل تیم ملی عراق با نتیجه دو بر یک به پیروزی رسید. "
         "سرمربی تیم ملی پس از بازی گفت بازیکنان جوان عملکرد خوبی داشتند و برای جام ملت‌های آسیا آماده می‌شوند. "
         "این بازی در ورزشگاه آزادی تهران و در حضور هزاران تماشاگر برگزار شد و گل‌ها در نیمه دوم به ثمر رسید.")


def test_shingle_hashes_are_deterministic_and_zwnj_space_insensitive():
    a = shingle_hashes("می\u200cخواهد برود")
    assert np.array_equal(a, shingle_hashes("می خواهد  برود"))
    assert len(a) == len("می خواهد برود") - 4
    assert shingle_hashes("abc").size == 0


def _whole_text_hashes(text_norm: str, k: int = dedup.SHINGLE_CHARS) -> np.ndarray:
    """The shingle hashes as first written: the whole text folded, encoded and hashed at once."""
    s = " ".join(text_norm.replace("\u200c", " ").lower().split())
    cp = np.frombuffer(s.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    n = len(cp) - k + 1
    if n <= 0:
        return np.empty(0, dtype=np.uint64)
    with np.errstate(over="ignore"):
        h = np.full(n, np.uint64(dedup.SEED), dtype=np.uint64)
        for j in range(k):
            h = (h * dedup._FNV_PRIME) ^ cp[j:j + n]
        return dedup._mix64(h)


def test_a_long_text_is_hashed_slice_by_slice_as_the_whole_text():
    """Folded, lowercased and hashed a slice at a time (a 4 M-character text took +131 MB at once): the
    same shingle hashes as the whole text's, and the same signature (a minimum of minima), across slice
    boundaries, Greek final sigmas and ZWNJ."""
    from mcecrawl.textpieces import PIECE_CHARS

    rnd = random.Random(13)
    alphabet = [" ", "\n", "\u200c", "Σ", "ΑΣ", "\u0301", "x", "İ", "سلام", "ب", "\u00a0", "ß"]
    texts = ["", "abcd", "abcde", "w" * (3 * PIECE_CHARS + 2), TEXT * 2000]
    texts += ["".join(rnd.choice(alphabet) for _ in range(n))
              for n in (PIECE_CHARS - 3, PIECE_CHARS + 4, 2 * PIECE_CHARS + 9, *(rnd.randrange(1, 5 * PIECE_CHARS)
                                                                                  for _ in range(8)))]
    for text in texts:
        whole = _whole_text_hashes(text)
        assert np.array_equal(shingle_hashes(text), whole), len(text)
        expected = np.full(128, dedup._EMPTY, dtype=np.uint64)
        np.minimum.at(expected, (((whole >> dedup._HIGH) * np.uint64(128)) >> dedup._HIGH).astype(np.intp),
                      whole & dedup._MASK32)
        got = signature(text)
        filled = expected != dedup._EMPTY  # densification fills the others from these
        assert np.array_equal(got[filled], expected[filled]), len(text)


def test_a_long_texts_fingerprint_holds_a_slice_at_a_time():
    import tracemalloc

    text = TEXT * 12_000  # 3.5 M characters
    tracemalloc.start()
    try:
        fingerprint_of(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 40_000_000, peak  # now ~15 MB; the whole text at once: 120 MB


def test_signature_jaccard_estimates():
    s1, s2 = signature(normalize(TEXT, "fa")), signature(normalize(OTHER, "fa"))
    assert s1.shape == (128,) and s1.dtype == np.uint64
    assert estimate_jaccard(s1, s1) == 1.0
    assert estimate_jaccard(s1, s2) < 0.2
    edited = TEXT.replace("دوشنبه", "سه‌شنبه")
    assert estimate_jaccard(s1, signature(normalize(edited, "fa"))) > 0.8


def test_densification_fills_every_bin_for_short_text():
    sig = signature("کوتاه است")
    assert (sig != np.uint64(2**64 - 1)).all()
    assert estimate_jaccard(sig, signature("کوتاه است")) == 1.0


def test_a_fingerprint_computed_elsewhere_saves_the_signature(monkeypatch):
    """A worker's fingerprint of the same text, for this store, is used as it is; one of another
    text or another store's size is not (the SHA-1 and the sizes are checked)."""
    store = DedupStore(":memory:")
    text, other = normalize(TEXT, "fa"), normalize(OTHER, "fa")
    first = fingerprint_of(text)
    assert first.sha1 == fingerprint_of(text).sha1 and np.array_equal(first.signature, signature(text))
    assert fingerprint_of("کوتاه").signature is None  # below NEAR_DUP_MIN_CHARS: exact check only
    near = fingerprint_of(normalize(TEXT.replace("دوشنبه", "یکشنبه"), "fa"))
    smaller = fingerprint_of(text, num_perm=64)
    calls = []
    real = dedup.signature
    monkeypatch.setattr(dedup, "signature", lambda *a, **k: calls.append(a) or real(*a, **k))
    assert store.check(text, "http://a/1", "a", fingerprint=first).duplicate_of is None
    res = store.check(normalize(TEXT.replace("دوشنبه", "یکشنبه"), "fa"), "http://b/1", "b", fingerprint=near)
    assert res.kind == "near" and res.duplicate_of == "http://a/1"
    assert calls == []
    assert store.check(other, "http://c/1", "c", fingerprint=first).duplicate_of is None  # not its text
    assert len(calls) == 1
    assert store.check(text, "http://d/1", "d", fingerprint=smaller).kind == "exact"
    assert len(calls) == 2  # another store's size: computed again


def test_exact_and_near_duplicates_marked_with_first_url():
    store = DedupStore()
    assert store.check(normalize(TEXT, "fa"), "http://a/1", "a").duplicate_of is None
    assert store.check(normalize(OTHER, "fa"), "http://a/2", "a").duplicate_of is None
    exact = store.check(normalize(TEXT, "fa"), "http://a/3", "a")
    assert (exact.duplicate_of, exact.kind, exact.similarity, exact.cross_site) == ("http://a/1", "exact", 1.0, False)
    near = store.check(normalize(TEXT.replace("دوشنبه", "یکشنبه"), "fa"), "http://b/9", "b")
    assert near.duplicate_of == "http://a/1" and near.kind == "near" and near.cross_site
    assert len(store) == 2  # duplicates are not recorded: duplicate_of always names the first copy


def test_short_texts_only_exact():
    store = DedupStore()
    store.check("خبر کوتاه", "u1")
    assert store.check("خبر کوتاه", "u2").kind == "exact"
    assert store.check("خبر کوتاهی", "u3").duplicate_of is None


def test_empty_text_never_duplicate():
    store = DedupStore()
    assert store.check("", "u1").duplicate_of is None
    assert store.check("", "u2").duplicate_of is None


def test_persistent_across_runs(tmp_path):
    db = tmp_path / "dedup.sqlite"
    with DedupStore(db) as store:
        store.check(normalize(TEXT, "fa"), "http://a/1", "a")
    with DedupStore(db) as store:  # a second run: exact and near copies of the first run's text
        assert store.check(normalize(TEXT, "fa"), "http://a/1?x", "a").kind == "exact"
        res = store.check(normalize(TEXT + " پایان.", "fa"), "http://c/1", "c")
        assert res.kind == "near" and res.duplicate_of == "http://a/1" and res.original_site == "a"


def test_store_refuses_other_parameters(tmp_path):
    db = tmp_path / "dedup.sqlite"
    DedupStore(db).close()
    with pytest.raises(ValueError):
        DedupStore(db, num_perm=64)


def test_edit_words_rate():
    rng = random.Random(0)
    words = TEXT.split(" ")
    out = edit_words(TEXT, 0.1, rng, ["x"])
    assert out != TEXT and abs(len(out.split(" ")) - len(words)) <= round(0.1 * len(words))


def test_near_dup_recall_precision_real_texts(shared_data):
    docs = article_texts(shared_data)
    assert len(docs) >= 20 and len({d.site for d in docs}) >= 4
    for seed in range(3):
        r = near_dup_eval(docs, DedupStore, normalize, seed=seed)
        assert r["recall"] >= RECALL, r
        assert r["precision"] >= PRECISION, r


def test_two_processes_share_one_store(tmp_path):
    db = tmp_path / "dedup.sqlite"
    with DedupStore(db) as first, DedupStore(db) as second:  # e.g. two spiders running at once
        first.check(normalize(OTHER, "fa"), "http://x/0", "x")
        second.check(normalize(TEXT, "fa"), "http://b/1", "b")
        res = first.check(normalize(TEXT + " پایان.", "fa"), "http://a/1", "a")
        assert (res.duplicate_of, res.kind, res.cross_site) == ("http://b/1", "near", True)
        assert second.check(normalize(OTHER, "fa"), "http://y/0", "y").kind == "exact"


def test_recrawl_same_url_same_text_is_unchanged_not_a_duplicate(tmp_path):
    db = tmp_path / "dedup.sqlite"
    with DedupStore(db) as store:
        first = store.check(normalize(TEXT, "fa"), "http://a/1", "a")
        assert first.duplicate_of is None and first.unchanged_since is None
    with DedupStore(db) as store:  # the next run crawls the same URL again
        again = store.check(normalize(TEXT, "fa"), "http://a/1", "a")
        assert again.duplicate_of is None and again.kind is None
        assert again.unchanged_since and again.previous_content_sha1 is None
        # another URL with that text is still a duplicate of the first one
        assert store.check(normalize(TEXT, "fa"), "http://a/2", "a").duplicate_of == "http://a/1"


def test_recrawl_changed_text_is_an_update_with_the_previous_hash(tmp_path):
    db = tmp_path / "dedup.sqlite"
    with DedupStore(db) as store:
        store.check(normalize(TEXT, "fa"), "http://a/1", "a", content_sha1="1" * 40)
    with DedupStore(db) as store:
        edited = normalize(TEXT.replace("دوشنبه", "یکشنبه"), "fa")  # a near copy of its own old text
        upd = store.check(edited, "http://a/1", "a", content_sha1="2" * 40)
        assert upd.duplicate_of is None and upd.unchanged_since is None
        assert upd.previous_content_sha1 == "1" * 40
        again = store.check(edited, "http://a/1", "a", content_sha1="2" * 40)
        assert again.unchanged_since and again.previous_content_sha1 is None
        # the edited text copied elsewhere names the URL it came from, never itself
        assert store.check(edited, "http://b/1", "b").duplicate_of == "http://a/1"


def test_duplicate_of_never_names_the_url_itself():
    store = DedupStore()
    store.check(normalize(TEXT, "fa"), "http://a/1", "a")
    store.check(normalize(OTHER, "fa"), "http://a/1", "a")  # the page changed completely
    back = store.check(normalize(TEXT, "fa"), "http://a/1", "a")  # and changed back
    assert back.duplicate_of is None and back.previous_content_sha1


def test_a_copy_recrawled_stays_a_copy_of_the_other_url():
    store = DedupStore()
    store.check(normalize(TEXT, "fa"), "http://a/1", "a")
    assert store.check(normalize(TEXT, "fa"), "http://b/1", "b").duplicate_of == "http://a/1"
    again = store.check(normalize(TEXT, "fa"), "http://b/1", "b")
    assert again.duplicate_of == "http://a/1" and again.unchanged_since


def test_version_1_store_is_migrated(tmp_path):
    import sqlite3

    db = tmp_path / "v1.sqlite"
    with DedupStore(db) as store:
        store.check(normalize(TEXT, "fa"), "http://a/1", "a")
    con = sqlite3.connect(db)  # as version 1 left it: no urls table
    con.execute("DROP TABLE urls")
    con.execute("UPDATE meta SET value = '1' WHERE key = 'schema'")
    con.commit()
    con.close()
    with DedupStore(db) as store:
        res = store.check(normalize(TEXT, "fa"), "http://a/1", "a")
        assert res.duplicate_of is None and res.unchanged_since


def test_a_near_copy_recrawled_stays_a_near_copy(tmp_path):
    """The store keeps first copies only: a near copy's own text is in no document, so its
    re-crawl is checked again and keeps its mark (before, it came back unchanged and unmarked)."""
    db = tmp_path / "dedup.sqlite"
    near_text = normalize(TEXT.replace("دوشنبه", "یکشنبه"), "fa")
    with DedupStore(db) as store:
        store.check(normalize(TEXT, "fa"), "http://a/1", "a")
        first = store.check(near_text, "http://b/1", "b")
        assert (first.duplicate_of, first.kind, first.unchanged_since) == ("http://a/1", "near", None)
    for _ in range(2):  # two more runs
        with DedupStore(db) as store:
            again = store.check(near_text, "http://b/1", "b")
            assert (again.duplicate_of, again.kind, again.similarity) == ("http://a/1", "near", first.similarity)
            assert again.cross_site and again.unchanged_since and again.previous_content_sha1 is None
            original = store.check(normalize(TEXT, "fa"), "http://a/1", "a")
            assert original.duplicate_of is None and original.unchanged_since
            assert len(store) == 1


# --- any signature length, one factory for both stores, repeats, batches --------------------------

@pytest.mark.parametrize("num_perm", [16, 64, 100, 128, 256])
def test_any_num_perm_finds_exact_and_near_copies(tmp_path, num_perm):
    sig = signature(normalize(TEXT, "fa"), num_perm)
    assert sig.shape == (num_perm,) and (sig != np.uint64(2**64 - 1)).all()
    with DedupStore(tmp_path / "d.sqlite", num_perm=num_perm) as store:
        assert store.check(normalize(TEXT, "fa"), "http://a/1", "a").duplicate_of is None
        assert store.check(normalize(OTHER, "fa"), "http://a/2", "a").duplicate_of is None
        assert store.check(normalize(TEXT, "fa"), "http://a/3", "a").kind == "exact"
        if num_perm >= 64:  # fewer bins cannot tell a 0.9 copy from noise reliably
            near = store.check(normalize(TEXT.replace("دوشنبه", "یکشنبه"), "fa"), "http://b/9", "b")
            assert (near.duplicate_of, near.kind) == ("http://a/1", "near")
    with DedupStore(tmp_path / "d.sqlite", num_perm=num_perm) as store:  # reopened: the same bins
        assert store.check(normalize(TEXT, "fa"), "http://c/1", "c").duplicate_of == "http://a/1"
    with pytest.raises(ValueError):
        DedupStore(num_perm=1)


def test_signature_bins_of_128_are_those_of_the_top_seven_bits():
    """Stores written before any length was allowed binned by the top 7 bits: still the same bins."""
    h = shingle_hashes(normalize(TEXT, "fa"))
    old = np.full(128, np.uint64(2**64 - 1), dtype=np.uint64)
    np.minimum.at(old, (h >> np.uint64(57)).astype(np.intp), h & np.uint64(0xFFFF_FFFF))
    new = signature(normalize(TEXT, "fa"))
    filled = old != np.uint64(2**64 - 1)
    assert np.array_equal(old[filled], new[filled])



@pytest.fixture(params=["sqlite", "redis"])
def open_store(request, tmp_path):
    """A factory of stores of one kind, all sharing one database, through open_dedup_store's string."""
    from mcecrawl.corpus.dedup import open_dedup_store

    if request.param == "redis":
        server = request.getfixturevalue("redis_server")
        server.client.flushall()
        spec = server.url
    else:
        spec = str(tmp_path / "dedup.sqlite")
    opened = []

    def make(**options):
        opened.append(open_dedup_store(spec, **options))
        return opened[-1]

    yield make
    for store in opened:
        store.close()


def test_open_dedup_store_picks_the_store_from_the_string(tmp_path, redis_server):
    from mcecrawl.corpus.dedup import is_redis_url, open_dedup_store
    from mcecrawl.corpus.dedup_redis import RedisDedupStore

    assert isinstance(open_dedup_store(None), DedupStore)
    assert isinstance(open_dedup_store(str(tmp_path / "x.sqlite")), DedupStore)
    assert is_redis_url("redis://127.0.0.1:6379/0") and is_redis_url("rediss://h/1")
    assert not is_redis_url("/data/redis.sqlite") and not is_redis_url(None)
    named = open_dedup_store(redis_server.url + "#run7")
    assert isinstance(named, RedisDedupStore) and named.prefix == "run7"
    named.check(normalize(TEXT, "fa"), "http://a/1", "a")
    assert len(open_dedup_store(redis_server.url + "#run7")) == 1 and len(open_dedup_store(redis_server.url)) == 0
    with pytest.raises(ValueError):  # another signature length in the same keys
        open_dedup_store(redis_server.url + "#run7", num_perm=64)


def test_same_url_same_text_repeat_is_a_copy_when_repeats_are_copies(open_store):
    store = open_store(repeats_are_copies=True)
    text, other = normalize(TEXT, "fa"), normalize(OTHER, "fa")
    assert store.check(text, "http://a/1", "a").duplicate_of is None
    again = store.check(text, "http://a/1", "a")  # the next month's crawl of the same page
    assert (again.duplicate_of, again.kind, again.similarity, again.cross_site) == ("http://a/1", "exact", 1.0, False)
    assert again.unchanged_since
    assert store.check(other, "http://a/1", "a").duplicate_of is None  # the page changed: a new text
    back = store.check(text, "http://a/1", "a")  # and changed back: that text was counted once already
    assert back.duplicate_of == "http://a/1" and back.previous_content_sha1
    assert store.check(text, "http://b/1", "b").duplicate_of == "http://a/1"
    crawl = open_store()  # the crawl's own reading of the same store: a re-crawl is unchanged, no copy
    assert crawl.check(other, "http://a/2", "a").duplicate_of == "http://a/1"
    assert crawl.check(text, "http://a/1", "a").duplicate_of is None


def _batch_answers(store, docs):
    return [(url, r.duplicate_of, r.kind, r.unchanged_since is not None, r.previous_content_sha1 is not None)
            for url, r in ((url, store.check(text, url, "s")) for text, url in docs)]


def test_rolled_back_batch_is_answered_as_if_never_seen(open_store):
    """A run killed after the store took a WARC's texts but before its output was committed: the
    re-run rolls the batch back and gets the answers of a run never interrupted."""
    text, other = normalize(TEXT, "fa"), normalize(OTHER, "fa")
    near = normalize(TEXT.replace("دوشنبه", "یکشنبه"), "fa")
    before = [(text, "http://a/1")]  # an earlier, finished batch
    batch = [(other, "http://a/1"), (text, "http://b/1"), (near, "http://c/1"), (other, "http://a/1"),
             (other, "http://d/1")]
    ref = open_store(repeats_are_copies=True)
    ref.begin_batch("w0")
    _batch_answers(ref, before)
    ref.end_batch()
    ref.begin_batch("w1")
    expected = _batch_answers(ref, batch)
    ref.end_batch()
    for store in list(_opened_pair(open_store)):
        store.begin_batch("w0")
        _batch_answers(store, before)
        store.end_batch()
        store.begin_batch("w1")
        _batch_answers(store, batch)  # ... killed here: the output never got these items
        store.source = None
        again = open_store(repeats_are_copies=True)
        again.begin_batch("w1")  # rolls back what w1 left
        assert _batch_answers(again, batch) == expected
        again.end_batch()
        assert again.rollback_batch("w1") == 0  # a finished batch is never undone


def _opened_pair(open_store):
    # the reference above filled the same database: start the interrupted run on an empty one
    store = open_store(repeats_are_copies=True)
    for name in ("w0", "w1"):
        store.begin_batch(name)
        store.source = None
    _wipe(store)
    yield store


def _wipe(store):
    if isinstance(store, DedupStore):
        for table in ("docs", "urls"):
            store._db.execute(f"DELETE FROM {table}")
        store._reindex()
    else:
        store.server.flushdb()
        store._check_meta()
