"""``mcecrawl demo``: crawl the bundled BBC Persian fixture site for real, offline, and summarize."""
from __future__ import annotations

HELP = "serve a bundled fixture site on 127.0.0.1, run a real `scrapy crawl` against it, summarize the JSONL"


def add_arguments(parser) -> None:
    parser.add_argument("--spider", default="bbc_persian",
                        help="spider whose bundled fixture site is crawled (default: bbc_persian)")
    parser.add_argument("-o", "--output", default=None,
                        help="JSONL file to write (default: output/<spider>/demo-<UTC time>.jsonl)")
    parser.add_argument("--port", type=int, default=0, help="port of the fixture server (default: any free port)")
    parser.add_argument("--log", default=None, help="also write the crawl log to this file")


def run(args) -> int:
    import sys
    from datetime import datetime, timezone
    from pathlib import Path

    from mcecrawl.demo.crawl import read_jsonl, run_crawl, summarize_crawl
    from mcecrawl.demo.server import FixtureServer, site_dir

    root = site_dir(args.spider)
    if not root.is_dir():
        print(f"no bundled fixture site for {args.spider!r} (looked in {root})", file=sys.stderr)
        return 2
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H-%M-%S")
    out = Path(args.output or f"output/{args.spider}/demo-{stamp}.jsonl").resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    with FixtureServer(root, port=args.port) as srv:
        print(f"Fixture site {root.name} served at {srv.url}", flush=True)
        print(f"Running: scrapy crawl {args.spider} -a base_url={srv.url} -O {out}", flush=True)
        proc = run_crawl(args.spider, base_url=srv.url, output=out)
    if args.log:
        Path(args.log).write_text(proc.stderr, encoding="utf-8")
    if proc.returncode != 0 or not out.exists():
        print(proc.stderr[-4000:], file=sys.stderr)
        print(f"crawl failed (exit {proc.returncode})", file=sys.stderr)
        return 1
    s = summarize_crawl(read_jsonl(out))
    statuses = ", ".join(f"{k} {v}" for k, v in sorted(s["statuses"].items())) or "none"
    print(f"\nWrote {s['items']} items to {out}")
    print(f"Statuses: {statuses}")
    if s["sample_title"]:
        text = " / ".join(line for line in s["sample_text"].splitlines() if line.strip())
        print(f"Sample: {s['sample_title']}\n        {s['sample_url']}\n        {text}…")
    return 0 if s["items"] else 1
