"""kill -9 in the middle of a JOBDIR crawl, resume, count lost / duplicated / invalid records.

    python benchmarks/bench_resume.py [--articles 600] [--kills 2]

The site is the generated one of bench_crawl.py (small pages, 20 ms per response so the crawl can
be killed in the middle); the crawl is ``scrapy crawl profile`` with ``-s JOBDIR``, killed with
SIGKILL after about 1/(kills+1) of the articles each time, then run to the end.  Each run writes
its own JSONL file; the figures are over their union.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # tests/ for the test helper synthetic_site
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_crawl import r2l_paragraphs  # noqa: E402

from mcecrawl.demo.crawl import run_crawl, start_crawl  # noqa: E402
from mcecrawl.demo.server import FixtureServer  # noqa: E402
from synthetic_site import SyntheticSite  # noqa: E402


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--articles", type=int, default=600)
    ap.add_argument("--kills", type=int, default=2)
    args = ap.parse_args(argv)
    site = SyntheticSite(args.articles, r2l_paragraphs(), size_kb=(8, 24), per_sitemap=200, per_listing=50)
    with tempfile.TemporaryDirectory() as tmp, FixtureServer(resolver=site.resolver, delay=0.02) as srv:
        tmp = Path(tmp)
        profile = site.write_profile(tmp / "p.json", algorithm="dana")
        settings = {"JOBDIR": str(tmp / "job"), "CONCURRENT_REQUESTS_PER_DOMAIN": "4"}
        feeds, killed_at = [], []
        for k in range(args.kills):
            out = tmp / f"run{k}.jsonl"
            feeds.append(out)
            proc = start_crawl("profile", base_url=srv.url, output=out, args={"profile": str(profile)},
                               settings=settings, cwd=tmp)
            target = _lines(out) + args.articles // (args.kills + 1)
            while _lines(out) < target and proc.poll() is None:
                time.sleep(0.02)
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            killed_at.append(_lines(out))
        out = tmp / "final.jsonl"
        feeds.append(out)
        done = run_crawl("profile", base_url=srv.url, output=out, args={"profile": str(profile)}, settings=settings,
                         cwd=tmp)
        urls, invalid = [], 0
        for f in feeds:
            for line in f.read_bytes().split(b"\n"):
                if line.strip():
                    try:
                        urls.append(json.loads(line)["canonical_url"])
                    except ValueError:
                        invalid += 1
        expected = {f"https://news.example/news/{i}" for i in range(args.articles)}
        print(f"{args.articles} articles; killed (SIGKILL) {args.kills}x after {killed_at} lines; "
              f"final run exit {done.returncode}")
        print(f"records {len(urls)}, distinct {len(set(urls))}, missing {len(expected - set(urls))}, "
              f"written twice {len(urls) - len(set(urls))}, invalid lines {invalid}")
    return 0 if not (expected - set(urls)) and len(urls) == len(set(urls)) and not invalid else 1


if __name__ == "__main__":
    raise SystemExit(main())
