"""Dedup: exact + near-duplicate (OPH MinHash + datasketch LSH), persistence, syndication."""
from __future__ import annotations

import random

import numpy as np
import pytest

from evalsets import article_texts, edit_words, near_dup_eval
from mcecrawl.corpus.dedup import DedupStore, estimate_jaccard, shingle_hashes, signature
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
