"""End-to-end: re-crawls are not duplicates, and copies stay copies.  The hamshahri fixture site
is crawled twice with one dedup store, then once more after one article was edited: the second crawl marks every article
``unchanged_since`` (never ``duplicate_of`` itself), the third keeps the edited article as an
update with its previous hash, and with ``MCE_RECRAWL_UNCHANGED=skip`` writes nothing else.
"""
from __future__ import annotations

import json
import shutil

import pytest

from mcecrawl.demo.crawl import read_jsonl, run_crawl, stats_from_log
from mcecrawl.demo.server import FixtureServer, site_dir

SPIDER = "hamshahri"


def _crawl(root, tmp_path, name, **settings):
    out = tmp_path / f"{name}.jsonl"
    with FixtureServer(root) as srv:
        proc = run_crawl(SPIDER, base_url=srv.url, output=out, cwd=tmp_path, timeout=120,
                         settings={"MCE_DEDUP_DB": str(tmp_path / "dedup.sqlite"), **settings})
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [r for r in read_jsonl(out) if r["status"] == "ok"], stats_from_log(proc.stderr)


def test_crawl_twice_then_after_an_edit(tmp_path):
    root = tmp_path / "site"
    shutil.copytree(site_dir(SPIDER), root)
    expected = json.loads((root / "expected.json").read_text(encoding="utf-8"))
    first, _ = _crawl(root, tmp_path, "first")
    assert len(first) == len(expected["articles"])
    assert all(r["duplicate_of"] is None and r["unchanged_since"] is None for r in first)

    second, stats = _crawl(root, tmp_path, "second")
    assert sorted(r["canonical_url"] for r in second) == sorted(r["canonical_url"] for r in first)
    for r in second:
        assert r["duplicate_of"] is None, r["canonical_url"]
        assert r["unchanged_since"] and r["previous_content_sha1"] is None
    assert int(stats["mcecrawl/corpus/recrawl/unchanged"]) == len(first)
    assert not any(k.startswith("mcecrawl/corpus/duplicates") for k in stats)

    art = expected["articles"][0]
    page = root / (art["path"].lstrip("/") + ".html")
    html = page.read_text(encoding="utf-8")
    assert art["body"][0] in html
    page.write_text(html.replace(art["body"][0], art["body"][0] + " این خبر به‌روز شد."), encoding="utf-8")
    third, stats = _crawl(root, tmp_path, "third", MCE_RECRAWL_UNCHANGED="skip")
    assert [r["canonical_url"].endswith(art["path"]) for r in third] == [True]
    updated = third[0]
    before = next(r for r in first if r["canonical_url"] == updated["canonical_url"])
    assert updated["previous_content_sha1"] == before["content_sha1"] != updated["content_sha1"]
    assert updated["duplicate_of"] is None and updated["unchanged_since"] is None
    assert int(stats["mcecrawl/corpus/recrawl/unchanged_skipped"]) == len(first) - 1
    assert int(stats["mcecrawl/corpus/recrawl/updated"]) == 1


# --- exact and near copies across re-crawls, in both stores: one check sequence -------------------------

ORIGINALS = 8
COPIES = {8: (0, "exact"), 9: (1, "exact"), 10: (2, "near"), 11: (3, "near")}  # copy -> (original, kind)


def _copies_site():
    import sys
    from pathlib import Path

    from synthetic_site import SyntheticSite

    sys.path.insert(0, str(Path(__file__).resolve().parent / "spiders"))
    from bbc_texts import SERVICES

    pool = [p for a in SERVICES["persian"]["articles"] for p in a["paragraphs"]]
    assert len(pool) >= 3 * ORIGINALS

    class CopiesSite(SyntheticSite):
        """Originals of three distinct paragraphs each, exact copies, and near copies (one word
        changed, one sentence added) at other URLs."""

        def title(self, i: int) -> str:
            return f"خبر شماره {COPIES.get(i, (i,))[0]}"

        def body(self, i: int) -> list[str]:
            if i not in COPIES:
                return pool[3 * i:3 * i + 3]
            orig, kind = COPIES[i]
            paras = self.body(orig)
            if kind == "near":
                first = paras[0].split()
                first[len(first) // 2] = "امروز"
                paras = [" ".join(first), *paras[1:-1], paras[-1] + " این خبر تکمیل شد."]
            return paras

    return CopiesSite(ORIGINALS + len(COPIES), pool, size_kb=(4, 8), per_sitemap=100, per_listing=50)


def _crawl_copies(site, tmp_path, run: str, store: dict) -> tuple[list[dict], dict]:
    profile = site.write_profile(tmp_path / "copies.json")
    out = tmp_path / f"{run}.jsonl"
    with FixtureServer(resolver=site.resolver) as srv:
        proc = run_crawl("profile", base_url=srv.url, args={"profile": str(profile)}, output=out, cwd=tmp_path,
                         timeout=120, settings={"MCE_EXTRACTION_WORKERS": "0", **store})
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [r for r in read_jsonl(out) if r["status"] == "ok"], stats_from_log(proc.stderr)


def _article_id(record: dict) -> int:
    return int(record["canonical_url"].rsplit("/", 1)[1])


def _store_settings(kind: str, tmp_path, redis) -> dict[str, str]:
    if kind == "sqlite":
        return {"MCE_DEDUP_DB": str(tmp_path / "dedup.sqlite")}
    return {"MCE_REDIS_URL": redis.url}


@pytest.fixture(scope="module")
def redis(tmp_path_factory):
    from redis_server import RedisServer

    try:
        server = RedisServer(tmp_path_factory.mktemp("redis"))
    except FileNotFoundError as e:
        pytest.skip(f"{e}; .ci/run installs it")
    yield server
    server.stop()


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_copies_stay_marked_in_every_recrawl(tmp_path, kind, redis):
    """Exact and near copies at other URLs are marked duplicate_of in the first crawl and again in
    the re-crawls (a near copy used to come back unchanged_since with no mark); no article is
    its own copy; both stores give the same answers."""
    redis.client.flushall()
    site = _copies_site()
    marked_by_run = []
    for run in ("first", "second"):
        store = _store_settings(kind, tmp_path, redis)
        if kind == "redis":
            store["MCE_CRAWL_ID"] = run  # a new crawl of the site; the dedup store is shared by all crawls
        records, stats = _crawl_copies(site, tmp_path, run, store)
        by_id = {_article_id(r): r for r in records}
        assert sorted(by_id) == list(range(ORIGINALS + len(COPIES))), run
        marked = {}
        for i, r in by_id.items():
            assert r["duplicate_of"] != r["canonical_url"], (run, i)
            if r["duplicate_of"]:
                marked[i] = (_article_id({"canonical_url": r["duplicate_of"]}), r["duplicate_kind"])
            if run != "first":
                assert r["unchanged_since"], (run, i)
        # one of each pair is the copy of the other (whichever was fetched second the first time)
        assert len(marked) == len(COPIES), (run, marked)
        for copy, (orig, how) in COPIES.items():
            assert marked.get(copy) == (orig, how) or marked.get(orig) == (copy, how), (run, copy, marked)
        marked_by_run.append(marked)
        if run != "first":
            assert int(stats["mcecrawl/corpus/recrawl/unchanged"]) == len(by_id)
    assert marked_by_run[0] == marked_by_run[1]


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_dropped_copies_stay_dropped_in_every_recrawl(tmp_path, kind, redis):
    """With MCE_DEDUP_DROP a copy dropped by the first crawl is dropped by the next one too."""
    redis.client.flushall()
    site = _copies_site()
    written = []
    for run in ("first", "second"):
        store = {**_store_settings(kind, tmp_path, redis), "MCE_DEDUP_DROP": "True"}
        if kind == "redis":
            store["MCE_CRAWL_ID"] = run
        records, stats = _crawl_copies(site, tmp_path, run, store)
        ids = {_article_id(r) for r in records}
        assert all(r["duplicate_of"] is None for r in records)
        assert len(ids) == ORIGINALS, (run, sorted(ids))
        for copy, (orig, _) in COPIES.items():
            assert (copy in ids) != (orig in ids), (run, copy, sorted(ids))
        assert int(stats["mcecrawl/corpus/duplicates_dropped"]) == len(COPIES), run
        written.append(ids)
    assert written[0] == written[1]
