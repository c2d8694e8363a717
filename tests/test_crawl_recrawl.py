"""End-to-end: re-crawls are not duplicates.  The hamshahri fixture site is crawled twice with one
dedup store, then once more after one article was edited: the second crawl marks every article
``unchanged_since`` (never ``duplicate_of`` itself), the third keeps the edited article as an
update with its previous hash, and with ``MCE_RECRAWL_UNCHANGED=skip`` writes nothing else.
"""
from __future__ import annotations

import json
import shutil

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
