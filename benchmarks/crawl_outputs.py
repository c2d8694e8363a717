"""Item outputs of two crawls, compared: a change to the crawl's per-item work must not change a record.

    python benchmarks/crawl_outputs.py record DIR     # crawl both sites, write their records to DIR
    python benchmarks/crawl_outputs.py compare A B    # exit 1 and show the differences if any

Two crawls (``scrapy crawl`` subprocesses of this checkout):

* ``synthetic``: the generated site of ``bench_crawl.py`` (``--articles``, 100-500 KB pages built
  from the gold texts of ``../shared/data/r2l``), its generated profile;
* ``real``: every page of every dataset in ``../shared/data`` that has pages (r2l, scrapinghub_aeb,
  readability_mozilla, chinese_wce, trafilatura_eval, encodings: Arabic-script, Hebrew, English,
  CJK, legacy encodings served with their manifest charset) as article URLs of a local mirror
  crawled with the ``bbc_persian`` profile (as ``tests/test_crawl_real_pages.py`` does with r2l).

Each crawl runs with one request and one extraction worker at a time and ``PYTHONHASHSEED=0``, so "the first copy" of a
duplicate is the same in both runs; the local server's address becomes :data:`SERVER`.  Records are
written sorted by canonical URL, without the fields that measure time
(:data:`TIMING_FIELDS`), one JSON object per line in the feed's field order: ``compare`` diffs them
field by field and the order of the fields.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "benchmarks")]

from bench_crawl import r2l_paragraphs  # noqa: E402

from mcecrawl.demo.crawl import read_jsonl, run_crawl  # noqa: E402
from mcecrawl.demo.server import FixtureServer  # noqa: E402
from mcecrawl.profile import load_profile  # noqa: E402
from synthetic_site import SyntheticSite  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
# Fields that differ between two runs of the same crawl: when, and how long.
TIMING_FIELDS = ("fetched_at", "extraction_ms")
# One request and one extraction worker at a time: with two workers, items reach the dedup store in
# the order their extractions finish, and which copy is "the first" would change from run to run.
# Requests first in, first out (Scrapy's memory queue is LIFO: the order discovered URLs are fetched
# in would follow how the spider's callbacks and the pipelines interleave).
ONE_AT_A_TIME = {"CONCURRENT_REQUESTS": "1", "CONCURRENT_REQUESTS_PER_DOMAIN": "1", "MCE_EXTRACTION_WORKERS": "1",
                 "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.FifoMemoryQueue"}
# The local server's address (a free port per run) in the records, e.g. ``url``.
SERVER = "http://server.invalid"


def real_mirror(root: Path) -> int:
    """Every dataset page at a BBC-style article URL, with its charset header; returns the count."""
    (root / "persian" / "articles").mkdir(parents=True)
    headers, urls = {}, []
    for manifest in sorted(DATA.glob("*/manifest.jsonl")):
        for line in manifest.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line) if line.strip() else None
            page = manifest.parent / "pages" / f"{rec['id']}.html" if rec else None
            if page is None or not page.is_file():
                continue
            path = f"/persian/articles/c{len(urls):04d}mirror" + "o"
            (root / (path.lstrip("/") + ".html")).write_bytes(page.read_bytes())
            charset = rec.get("http_charset") or rec.get("encoding")
            if charset:
                headers[path] = {"headers": {"Content-Type": f"text/html; charset={charset}"}}
            urls.append("https://www.bbc.com" + path)
    (root / "_headers.json").write_text(json.dumps(headers), encoding="utf-8")
    (root / "robots.txt").write_text("User-agent: *\nDisallow: /persian/send/\n", encoding="utf-8")
    (root / "persian" / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        + "".join(f"<url><loc>{u}</loc></url>" for u in urls) + "</urlset>\n", encoding="utf-8")
    return len(urls)


def _crawl(spider: str, srv_url: str, tmp: Path, name: str, args: dict[str, str]) -> list[dict]:
    out = tmp / f"{name}.jsonl"
    # String hashing fixed: which of several near copies a duplicate is matched to follows set order
    # in the dedup store (mcecrawl/corpus/dedup.py), which would differ from run to run.
    os.environ["PYTHONHASHSEED"] = "0"
    proc = run_crawl(spider, base_url=srv_url, output=out, cwd=tmp, timeout=1800, args=args,
                     settings={**ONE_AT_A_TIME, "MCE_DEDUP_DB": str(tmp / f"{name}-dedup.sqlite")})
    if proc.returncode != 0:
        raise SystemExit(f"{name} crawl failed:\n{proc.stderr[-3000:]}")
    return [json.loads(json.dumps(r, ensure_ascii=False).replace(srv_url, SERVER)) for r in read_jsonl(out)]


def record(out_dir: Path, articles: int) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        site = SyntheticSite(articles, r2l_paragraphs())
        profile = site.write_profile(tmp / "synthetic.json")
        with FixtureServer(resolver=site.resolver) as srv:
            crawls = {"synthetic": _crawl("profile", srv.url, tmp, "synthetic", {"profile": str(profile)})}
        n = real_mirror(tmp / "site")
        raw = json.loads(json.dumps(load_profile("bbc_persian").raw))
        (tmp / "real.json").write_text(json.dumps(raw), encoding="utf-8")
        with FixtureServer(tmp / "site") as srv:
            crawls["real"] = _crawl("bbc_persian", srv.url, tmp, "real", {"profile": str(tmp / "real.json")})
        for name, records in crawls.items():
            rows = sorted(({k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in records),
                          key=lambda r: (r.get("canonical_url") or "", r.get("url") or ""))
            (out_dir / f"{name}.jsonl").write_text(
                "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
            print(f"{name}: {len(rows)} records" + (f" of {n} pages" if name == "real" else ""))


def compare(a: Path, b: Path) -> int:
    bad = 0
    for name in ("synthetic", "real"):
        ra = [json.loads(x) for x in (a / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]
        rb = [json.loads(x) for x in (b / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]
        diffs = 0
        if len(ra) != len(rb):
            print(f"{name}: {len(ra)} records vs {len(rb)}")
            diffs += 1
        for x, y in zip(ra, rb):
            if list(x) != list(y):  # the feed's field order
                diffs += 1
                print(f"{name} {x.get('canonical_url')}: field order {list(x)} vs {list(y)}")
            for key in sorted(set(x) | set(y)):
                if (key in x) != (key in y) or x.get(key) != y.get(key):
                    diffs += 1
                    if diffs <= 20:
                        print(f"{name} {x.get('canonical_url')}: {key}: {str(x.get(key, '<absent>'))[:80]!r} "
                              f"vs {str(y.get(key, '<absent>'))[:80]!r}")
        print(f"{name}: {len(ra)} records, {diffs} differences")
        bad += diffs
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("out_dir", type=Path)
    rec.add_argument("--articles", type=int, default=300)
    cmp_ = sub.add_parser("compare")
    cmp_.add_argument("a", type=Path)
    cmp_.add_argument("b", type=Path)
    args = ap.parse_args(argv)
    if args.cmd == "record":
        record(args.out_dir, args.articles)
        return 0
    return compare(args.a, args.b)


if __name__ == "__main__":
    raise SystemExit(main())
