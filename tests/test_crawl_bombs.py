"""Decompression bombs in the crawl path: a site whose pages are gzip, deflate, brotli, zstd and
nested bombs (and a plain body over DOWNLOAD_MAXSIZE) is crawled with WARC archiving on; the crawl
finishes, every other article is written, each bomb is counted under its reason and named in the
end summary, peak RSS stays under the issue's 500 MB, and the WARC files stay small (they hold the
bombs as sent, compressed: bounded by DOWNLOAD_MAXSIZE each)."""
from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from bomb_site import BombSite
from mcecrawl.demo.crawl import read_jsonl, start_crawl, stats_from_log
from mcecrawl.demo.server import FixtureServer

sys.path.insert(0, str(Path(__file__).resolve().parent / "spiders"))
from bbc_texts import SERVICES  # noqa: E402

POOL = [p for a in SERVICES["persian"]["articles"] for p in a["paragraphs"]]
MAX_RSS_MB = 500  # the crawl's memory target, bombs or not
N_ARTICLES = 12


def peak_rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except (FileNotFoundError, ProcessLookupError):
        return None
    return None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="peak RSS from Linux /proc")
def test_bombs_are_dropped_counted_and_summarised_with_bounded_memory(tmp_path):
    site = BombSite(N_ARTICLES, POOL, size_kb=(4, 8), per_sitemap=100, per_listing=50)
    profile = site.write_profile(tmp_path / "bombs.json")
    out, log = tmp_path / "out.jsonl", tmp_path / "crawl.log"
    peak = 0.0
    with FixtureServer(resolver=site.resolver) as srv:
        proc = start_crawl("profile", base_url=srv.url, args={"profile": str(profile)}, output=out, cwd=tmp_path,
                           log_path=log, settings={"MCE_EXTRACTION_WORKERS": "0", "MCE_WARC_ENABLED": "True",
                                                   "MCE_WARC_DIR": str(tmp_path / "warc"),
                                                   "MCE_DEDUP_DB": str(tmp_path / "dedup.sqlite")})
        try:
            deadline = time.monotonic() + 180
            while proc.poll() is None and time.monotonic() < deadline:
                peak = max(peak, peak_rss_mb(proc.pid) or 0.0)
                time.sleep(0.02)
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
    text = log.read_text(encoding="utf-8")
    assert proc.returncode == 0, text[-3000:]
    assert "Traceback" not in text, text[-3000:]
    stats = stats_from_log(text)
    expected = Counter(reason for _, _, reason in (b for _, b in site.bombs))
    for reason, n in expected.items():
        assert int(stats.get(f"mcecrawl/dropped/{reason}", 0)) == n, (reason, stats)
    written = {int(r["canonical_url"].rsplit("/", 1)[1]) for r in read_jsonl(out) if r["status"] == "ok"}
    assert written == set(range(len(site.bombs), N_ARTICLES))
    assert f"{len(site.bombs)} responses were dropped before parsing" in text
    assert "[decompressed_too_large]" in text and "[too_large]" in text
    assert 0 < peak < MAX_RSS_MB, f"peak RSS {peak:.0f} MB"
    warc_bytes = sum(p.stat().st_size for p in (tmp_path / "warc").rglob("*") if p.is_file())
    assert warc_bytes < 8 * 2**20, warc_bytes  # the bombs as sent (~3 MB), not inflated
