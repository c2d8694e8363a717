"""Distributed crawl on one machine: articles/s for 1, 2, 3 workers, Redis round trips per article,
Redis memory per million queued requests.

    python benchmarks/bench_distributed.py [--articles 600] [--workers 1,2,3] [--queued 100000]

Each configuration gets a fresh redis-server (127.0.0.1, no persistence) and the generated site of
bench_resume.py (8-24 KB pages, real gold paragraphs); the workers run the same command
(``scrapy crawl profile -s MCE_REDIS_URL=...``, DOWNLOAD_DELAY 0).  Articles/s is over the whole
run (first worker started -> last worker ended) and in the steady middle (10 % -> 90 % of the
feed lines).  Round trips are counted in a separate 3-worker run under MONITOR (one per command a
client sent, one per MULTI/EXEC block; commands run inside Lua scripts are not round trips).
Memory: ``used_memory`` growth after pushing --queued article requests, encoded as scrapy-redis
queues them, plus their dupefilter fingerprints, scaled to one million.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # tests/ for the test helpers synthetic_site, redis_server
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_crawl import r2l_paragraphs  # noqa: E402

from mcecrawl.demo.crawl import read_jsonl, start_crawl  # noqa: E402
from mcecrawl.demo.server import FixtureServer  # noqa: E402
from mcecrawl.distributed import politeness, record, scheduler  # noqa: E402
from redis_server import RedisServer  # noqa: E402
from synthetic_site import SyntheticSite  # noqa: E402

SCRIPT_NAMES = {hashlib.sha1(src.encode()).hexdigest(): name for name, src in (
    ("pop+lease", scheduler.POP), ("heartbeat", scheduler.HEARTBEAT), ("dead?", scheduler.DEAD),
    ("reap", scheduler.REAP), ("busy?", scheduler.BUSY), ("claim", record.CLAIM), ("record", record.RECORD),
    ("politeness", politeness.RESERVE))}


def _lines(out: Path) -> int:
    return sum(p.read_bytes().count(b"\n") for p in out.rglob("*.jsonl"))


def crawl(site, profile, workers: int, tmp: Path, redis_url: str, timeout: float = 900) -> dict:
    out = tmp / "output"
    with FixtureServer(resolver=site.resolver) as srv:
        t0 = time.monotonic()
        procs = [start_crawl("profile", base_url=srv.url, args={"profile": str(profile)}, cwd=tmp,
                             log_path=tmp / f"w{n}.log",
                             settings={"MCE_REDIS_URL": redis_url, "CONCURRENT_REQUESTS_PER_DOMAIN": "8"})
                 for n in range(workers)]
        marks: dict[float, float] = {}
        while any(p.poll() is None for p in procs) and time.monotonic() - t0 < timeout:
            n = _lines(out)
            for frac in (1 / site.n, 0.1, 0.9, 1.0):
                if frac not in marks and n >= frac * site.n:
                    marks[frac] = time.monotonic()
            time.sleep(0.02)
        for p in procs:
            p.wait(timeout=60)
        wall = time.monotonic() - t0
    records = read_jsonl(sorted(out.rglob("*.jsonl")))
    urls = Counter(r["canonical_url"] for r in records)
    steady = 0.8 * site.n / (marks[0.9] - marks[0.1]) if marks.get(0.9, 0) > marks.get(0.1, 0) else float("nan")
    return {"workers": workers, "articles": len(urls), "twice": sum(1 for v in urls.values() if v > 1),
            "wall_s": wall, "per_s": len(urls) / wall, "steady_per_s": steady,
            "first_line_s": marks.get(1 / site.n, t0) - t0, "tail_s": t0 + wall - marks.get(1.0, t0 + wall)}


def count_round_trips(client, stop: threading.Event, counts: Counter) -> None:
    in_multi: set[str] = set()
    with client.monitor() as m:
        for cmd in m.listen():
            if stop.is_set():
                break
            if cmd.get("client_type") == "lua":
                continue
            who = f"{cmd.get('client_address')}:{cmd.get('client_port')}"
            words = cmd["command"].split(" ", 2)
            name = words[0].upper().strip('"')
            if name == "MULTI":
                in_multi.add(who)
                continue
            if who in in_multi:
                if name == "EXEC":
                    in_multi.discard(who)
                    counts["MULTI/EXEC pipeline"] += 1
                continue
            if name == "EVALSHA":
                name = "script " + SCRIPT_NAMES.get(words[1].strip('"'), words[1][:8])
            counts[name] += 1


def memory_per_million(redis_url: str, profile: Path, n: int) -> dict:
    import redis
    from scrapy import Request
    from scrapy_redis.dupefilter import RFPDupeFilter
    from scrapy_redis.queue import PriorityQueue

    from mcecrawl.spiders.base import ARTICLE_HTTP_STATUSES, PRIORITY_ARTICLE, ProfileSpider

    client = redis.Redis.from_url(redis_url)
    client.flushall()
    spider = ProfileSpider(profile=str(profile))
    queue = PriorityQueue(client, spider, "mce:bench:requests")
    df = RFPDupeFilter(client, "mce:bench:dupefilter")
    base = client.info("memory")["used_memory"]
    pipe = client.pipeline(transaction=False)
    fps = []
    for i in range(n):
        canon = f"https://news.example/news/{i}"
        req = Request(f"http://127.0.0.1:8765/news/{i}", callback=spider.parse_article, errback=spider.on_error,
                      priority=PRIORITY_ARTICLE, meta={"mce_canonical": canon, "mce_evidence": "veto",
                                                      "mce_listed_date": "2026-01-01T00:00:00Z",
                                                      "handle_httpstatus_list": ARTICLE_HTTP_STATUSES})
        pipe.execute_command("ZADD", queue.key, -req.priority, queue._encode_request(req))
        fps.append(df.request_fingerprint(req))
        if len(pipe) >= 5000:
            pipe.execute()
    pipe.execute()
    with_queue = client.info("memory")["used_memory"]
    for i in range(0, n, 5000):
        client.sadd(df.key, *fps[i:i + 5000])
    with_df = client.info("memory")["used_memory"]
    entry = len(client.zrange(queue.key, 0, 0)[0])
    return {"queue_mb_per_million": (with_queue - base) / n * 1e6 / 2**20,
            "dupefilter_mb_per_million": (with_df - with_queue) / n * 1e6 / 2**20, "entry_bytes": entry}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--articles", type=int, default=600)
    ap.add_argument("--workers", default="1,2,3")
    ap.add_argument("--queued", type=int, default=100_000)
    args = ap.parse_args(argv)
    site = SyntheticSite(args.articles, r2l_paragraphs(), size_kb=(8, 24), per_sitemap=200, per_listing=50)
    print(f"{os.cpu_count()} CPUs; site of {args.articles} articles (8-24 KB pages); DOWNLOAD_DELAY 0")
    results = []
    for workers in [int(w) for w in args.workers.split(",")]:
        with tempfile.TemporaryDirectory() as tmp, RedisServer(tmp) as redis_srv:
            tmp = Path(tmp)
            profile = site.write_profile(tmp / "p.json", algorithm="dana")
            r = crawl(site, profile, workers, tmp, redis_srv.url)
            results.append(r)
            print(f"{workers} worker(s): {r['articles']} articles ({r['twice']} twice) in {r['wall_s']:.1f} s: "
                  f"{r['per_s']:.1f} articles/s end to end, {r['steady_per_s']:.1f} articles/s steady (10-90 %); "
                  f"first line after {r['first_line_s']:.1f} s, last line -> all exited {r['tail_s']:.1f} s")
    with tempfile.TemporaryDirectory() as tmp, RedisServer(tmp) as redis_srv:
        tmp = Path(tmp)
        profile = site.write_profile(tmp / "p.json", algorithm="dana")
        counts: Counter = Counter()
        stop = threading.Event()
        import redis

        mon = threading.Thread(target=count_round_trips, args=(redis.Redis.from_url(redis_srv.url), stop, counts),
                               daemon=True)
        mon.start()
        time.sleep(0.3)
        base_memory = redis_srv.client.info("memory")["used_memory"]
        r = crawl(site, profile, 3, tmp, redis_srv.url)
        stop.set()
        redis_srv.client.ping()  # one more command wakes the monitor loop up
        mon.join(5)
        info = redis_srv.client.info("memory")
        print(f"Redis memory after the crawl (queue empty; dupefilter, written record, dedup store of "
              f"{r['articles']} articles): {info['used_memory'] / 2**20:.1f} MB, "
              f"{(info['used_memory'] - base_memory) / r['articles'] / 1024:.2f} KB per article")
        total = sum(counts.values())
        print(f"Round trips (3 workers, {r['articles']} articles): {total} = {total / r['articles']:.1f} per article")
        for name, n in counts.most_common(14):
            print(f"  {n / r['articles']:7.2f}  {name}")
        mem = memory_per_million(redis_srv.url, profile, args.queued)
        print(f"Memory per million queued article requests: queue {mem['queue_mb_per_million']:.0f} MB "
              f"(one entry {mem['entry_bytes']} bytes pickled) + dupefilter {mem['dupefilter_mb_per_million']:.0f} MB "
              f"(measured with {args.queued:,})")
    return 0 if all(r["articles"] == args.articles and not r["twice"] for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
