"""Three crawl processes, one Redis, a 600-article site: SIGKILLs at random points and restarts,
one kill between a feed line and its record; every article once in the union of the raw feeds."""
from __future__ import annotations

import os
import random
import signal
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from mcecrawl.demo.crawl import read_jsonl, start_crawl
from mcecrawl.demo.server import FixtureServer
from synthetic_site import HOST, SyntheticSite

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "spiders"))
from bbc_texts import SERVICES  # noqa: E402

N_ARTICLES = 600
WORKERS = 3
KILLS = 3
PAIRS = 12  # the last PAIRS articles are near-copies of earlier ones
POOL = [p for a in SERVICES["persian"]["articles"] for p in a["paragraphs"]]
TIMEOUT = 300.0


def original_of(i: int) -> int | None:
    first = N_ARTICLES - PAIRS
    return (i - first) * 37 if i >= first else None


class PairedSite(SyntheticSite):
    """Article ``original_of(i)`` plus one more paragraph, for the last PAIRS articles."""

    def body(self, i: int) -> list[str]:
        orig = original_of(i)
        if orig is None:
            return super().body(i)
        return super().body(orig) + [f"این نسخهٔ به‌روز شدهٔ خبر شمارهٔ {orig} است."]


def _lines(paths) -> int:
    n = 0
    for p in paths:
        try:
            n += p.read_bytes().count(b"\n")
        except FileNotFoundError:
            pass
    return n


def _start(srv, profile, tmp, redis_url, n, extra=None):
    # A 20 ms delay for the site, shared by all workers: the crawl lasts long enough to be killed.
    settings = {"MCE_REDIS_URL": redis_url, "MCE_CRAWL_ID": "e2e", "MCE_LEASE_SECONDS": "3", "DOWNLOAD_DELAY": "0.02",
                "MCE_EXTRACTION_WORKERS": "0", "CONCURRENT_REQUESTS_PER_DOMAIN": "4", **(extra or {})}
    return start_crawl("profile", base_url=srv.url, args={"profile": str(profile)}, settings=settings, cwd=tmp,
                       log_path=tmp / f"worker{n}.log")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="SIGKILL (Linux)")
def test_three_workers_killed_and_restarted_write_every_article_once(tmp_path, redis_url):
    seed = random.randrange(1 << 30)
    rng = random.Random(seed)
    site = PairedSite(N_ARTICLES, POOL, size_kb=(4, 12), per_sitemap=100, per_listing=25)
    profile = site.write_profile(tmp_path / "synthetic.json", algorithm="xpath_blocks")
    out = tmp_path / "output"
    # One random point in each of three spans of the crawl (15-30 %, 35-50 %, 55-70 % of the lines).
    kill_at = [rng.randrange(int(N_ARTICLES * (0.15 + 0.2 * k)), int(N_ARTICLES * (0.3 + 0.2 * k)))
               for k in range(KILLS)]
    with FixtureServer(resolver=site.resolver, delay=0.02) as srv:
        procs = [_start(srv, profile, tmp_path, redis_url, n, {"MCE_FAULT_KILL_AFTER_WRITE": "40"} if n == 0 else None)
                 for n in range(WORKERS)]
        faulty = procs[0]
        started, killed = WORKERS, []
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            if faulty is not None and faulty.poll() is not None:  # killed itself after a feed line
                assert faulty.returncode == -signal.SIGKILL, (faulty.returncode, seed)
                procs.append(_start(srv, profile, tmp_path, redis_url, started))
                started, faulty = started + 1, None
            if kill_at and _lines(out.rglob("*.jsonl")) >= kill_at[0]:
                alive = [p for p in procs if p.poll() is None and p is not faulty]
                if not alive:
                    break
                victim = rng.choice(alive)
                os.kill(victim.pid, signal.SIGKILL)
                victim.wait()
                killed.append(kill_at.pop(0))
                procs.append(_start(srv, profile, tmp_path, redis_url, started))
                started += 1
            if all(p.poll() is not None for p in procs) and faulty is None:
                break
            time.sleep(0.05)
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
                pytest.fail(f"a worker did not finish within {TIMEOUT:.0f} s (seed {seed})")
    logs = "\n".join(f.read_text(encoding="utf-8", errors="replace") for f in sorted(tmp_path.glob("worker*.log")))
    assert "MCE_FAULT_KILL_AFTER_WRITE=40: SIGKILL after the feed line" in logs
    assert len(killed) == KILLS, f"the crawl ended before all kills (at {killed}; seed {seed})"
    assert "stopped without closing" in logs  # dead workers were reaped by the others

    feeds = sorted(out.rglob("*.jsonl"))
    records = read_jsonl(feeds)  # raises on an invalid line
    by_url = Counter(r["canonical_url"] for r in records)
    expected = {f"https://{HOST}/news/{i}" for i in range(N_ARTICLES)}
    twice = sorted(u for u, n in by_url.items() if n > 1)
    assert not twice, f"written more than once: {twice[:5]} (seed {seed}, kills at {killed})"
    assert set(by_url) == expected, f"missing: {sorted(expected - set(by_url))[:5]} (seed {seed})"
    assert all(r["status"] == "ok" for r in records)

    # Near-copies: never both kept as originals; some marked against an original another worker wrote.
    writer = {r["canonical_url"]: feed.name for feed in feeds for r in read_jsonl(feed)}
    rec = {r["canonical_url"]: r for r in records}
    cross = 0
    for i in range(N_ARTICLES - PAIRS, N_ARTICLES):
        copy, orig = f"https://{HOST}/news/{i}", f"https://{HOST}/news/{original_of(i)}"
        assert rec[copy]["duplicate_of"] or rec[orig]["duplicate_of"], (copy, orig)
        if rec[copy]["duplicate_of"] == orig and rec[copy]["duplicate_kind"] == "near":
            cross += writer[copy] != writer[orig]
    assert cross >= 1, "no near-copy was marked against an original written by another worker"


def test_redis_going_away_stops_the_worker_with_a_clear_message(tmp_path, own_redis):
    server = own_redis
    site = SyntheticSite(300, POOL, size_kb=(4, 8), per_sitemap=100, per_listing=25)
    profile = site.write_profile(tmp_path / "synthetic.json", algorithm="xpath_blocks")
    out = tmp_path / "output"
    proc = None
    try:
        with FixtureServer(resolver=site.resolver, delay=0.02) as srv:
            proc = _start(srv, profile, tmp_path, server.url, 0, {"DOWNLOAD_DELAY": "0.05"})
            deadline = time.monotonic() + 120
            while _lines(out.rglob("*.jsonl")) < 20 and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            server.stop()
            written = _lines(out.rglob("*.jsonl"))
            proc.wait(timeout=120)
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
    log = (tmp_path / "worker0.log").read_text(encoding="utf-8", errors="replace")
    assert "is unreachable" in log and "stopping this worker" in log
    assert "Spider closed (redis_unavailable)" in log
    records = read_jsonl(sorted(out.rglob("*.jsonl")))
    assert 20 <= written <= len(records) < site.n


def test_a_worker_stopped_with_sigterm_hands_its_requests_back(tmp_path, redis_url):
    site = SyntheticSite(200, POOL, size_kb=(4, 8), per_sitemap=100, per_listing=25)
    profile = site.write_profile(tmp_path / "synthetic.json", algorithm="xpath_blocks")
    out = tmp_path / "output"
    with FixtureServer(resolver=site.resolver, delay=0.02) as srv:
        procs = [_start(srv, profile, tmp_path, redis_url, n, {"DOWNLOAD_DELAY": "0.03"}) for n in range(2)]
        deadline = time.monotonic() + 120
        while _lines(out.rglob("*.jsonl")) < 40 and procs[0].poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        procs[0].send_signal(signal.SIGTERM)
        for p in procs:
            p.wait(timeout=120)
    log = (tmp_path / "worker0.log").read_text(encoding="utf-8", errors="replace")
    assert "Spider closed (shutdown)" in log
    assert "stopped without closing" not in (tmp_path / "worker1.log").read_text(encoding="utf-8", errors="replace")
    by_url = Counter(r["canonical_url"] for r in read_jsonl(sorted(out.rglob("*.jsonl"))))
    assert len(by_url) == site.n and max(by_url.values()) == 1


def test_same_crawl_id_resumes_new_id_starts_fresh(tmp_path, redis_url):
    site = SyntheticSite(30, POOL, size_kb=(4, 8), per_sitemap=100, per_listing=25)
    profile = site.write_profile(tmp_path / "synthetic.json", algorithm="xpath_blocks")

    def run(crawl_id: str, n: int) -> tuple[int, int]:
        before = srv.hits["/sitemap.xml"]
        proc = _start(srv, profile, tmp_path, redis_url, n, {"MCE_CRAWL_ID": crawl_id})
        proc.wait(timeout=120)
        assert proc.returncode == 0
        lines = sum(len(read_jsonl(f)) for f in (tmp_path / "output").rglob("*.jsonl") if f not in seen)
        seen.update((tmp_path / "output").rglob("*.jsonl"))
        return lines, srv.hits["/sitemap.xml"] - before

    seen: set[Path] = set()
    with FixtureServer(resolver=site.resolver) as srv:
        assert run("daily-1", 0) == (site.n, 1)
        assert run("daily-1", 1) == (0, 0)  # finished crawl: discovery is not scheduled again
        assert run("daily-2", 2) == (site.n, 1)  # a new id crawls afresh
