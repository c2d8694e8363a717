"""``mcecrawl check-site PROFILE``: does discovery, article recognition and extraction still work?

Runs a short real crawl (``-a limit=N``) of the profile's site — live, a mirror or a local fixture
(``--base-url``) — and reports each stage from the crawl's own stats and records.  BBC's hashed CSS
classes change with every deploy, so the profiles rely on sitemaps, JSON-LD, og: and page-type
signals; this command is how an operator notices when a site changes anyway.
"""
from __future__ import annotations

HELP = "short real crawl of a site profile: report whether discovery, article recognition and extraction work"

# Share of written pages that must extract "ok" for the extraction stage to pass.
MIN_OK_SHARE = 0.8


def add_arguments(parser) -> None:
    parser.add_argument("profile", help="spider/profile name (bbc_persian) or a profile JSON file")
    parser.add_argument("--base-url", default=None, help="crawl this mirror/local server instead of the live host")
    parser.add_argument("--fixture", action="store_true",
                        help="serve the bundled fixture site of this spider on 127.0.0.1 and check against it")
    parser.add_argument("--limit", type=int, default=5, help="articles to fetch at most (default 5)")
    parser.add_argument("-s", "--set", action="append", default=[], metavar="NAME=VALUE",
                        help="extra Scrapy setting, e.g. -s MCE_PERMISSION_GRANTED=bbc.com")
    parser.add_argument("--timeout", type=float, default=600, help="seconds before the crawl is stopped")


def _spider_for(profile: str) -> tuple[str, dict[str, str]]:
    """(spider name, spider args): a registered spider of that name, else the generic one."""
    from pathlib import Path

    if Path(profile).suffix == ".json":
        return "profile", {"profile": str(Path(profile).resolve())}
    import os

    from scrapy.spiderloader import SpiderLoader
    from scrapy.utils.project import get_project_settings

    os.environ.setdefault("SCRAPY_SETTINGS_MODULE", "mcecrawl.settings")
    if profile in SpiderLoader.from_settings(get_project_settings()).list():
        return profile, {}
    from mcecrawl.profile import profile_path

    return "profile", {"profile": str(profile_path(profile))}


def run(args) -> int:
    import sys
    import tempfile
    from pathlib import Path
    from urllib.parse import urlsplit

    from mcecrawl.demo.crawl import read_jsonl, run_crawl, stats_from_log
    from mcecrawl.profile import load_profile

    try:
        profile = load_profile(args.profile)
    except (OSError, ValueError) as e:
        print(f"cannot load profile {args.profile}: {e}", file=sys.stderr)
        return 2
    if args.fixture:
        from mcecrawl.demo.server import FixtureServer, site_dir

        with FixtureServer(site_dir(profile.name)) as srv:
            args.base_url, args.fixture = srv.url, False
            return run(args)
    spider, spider_args = _spider_for(args.profile)
    spider_args["limit"] = str(args.limit)
    settings = dict(s.split("=", 1) for s in args.set if "=" in s)
    local = bool(args.base_url) and urlsplit(args.base_url).hostname in ("127.0.0.1", "localhost", "::1")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "check.jsonl"
        target = args.base_url or f"https://{profile.canonical_host}"
        print(f"Checking {profile.name} ({profile.site}) at {target}: up to {args.limit} articles", flush=True)
        proc = run_crawl(spider, base_url=args.base_url, output=out, args=spider_args, settings=settings,
                         local=local, cwd=tmp, timeout=args.timeout)
        records = read_jsonl(out) if out.exists() else []
    not_articles = [r for r in records if r.get("status") == "not_article"]
    records = [r for r in records if r.get("status") != "not_article"]
    stats = stats_from_log(proc.stderr)
    num = lambda k: int(float(stats.get(k, "0").strip("'")))  # noqa: E731
    reason = stats.get("finish_reason", "?").strip("'")
    if reason == "permission_required":
        print("REFUSED  the profile's terms forbid crawling this live host; see the message below.")
        print("\n".join(ln for ln in proc.stderr.splitlines() if "forbids" in ln))
        return 3
    robots = {k.rsplit("/", 1)[-1]: num(k) for k in stats if k.startswith("mcecrawl/robotstxt/forbidden/")}
    blocked = sum(num(k) for k in stats if k.startswith("mcecrawl/blocked/"))
    sitemaps = sum(num(k) for k in stats if k.startswith("mcecrawl/discovery/sitemaps/"))
    discovered = num("mcecrawl/discovery/articles")
    ok = [r for r in records if r.get("status") == "ok"]
    rows = [
        ("discovery", discovered > 0,
         f"{discovered} article URLs from {sitemaps} sitemaps, {num('mcecrawl/discovery/listing_pages')} listing pages"
         f" (+ feeds/entry listings); failed fetches: "
         f"{sum(num(k) for k in stats if k.startswith('mcecrawl/failed/'))}"),
        ("recognition", bool(records),
         f"{len(records)} pages kept as articles, {len(not_articles)} rejected by page evidence,"
         f" {blocked} anti-bot pages"),
        ("extraction", bool(records) and len(ok) >= MIN_OK_SHARE * len(records),
         f"{len(ok)}/{len(records)} ok with {profile.extraction.get('algorithm')}; "
         f"titles {sum(bool(r.get('title')) for r in ok)}, ISO dates {sum(bool(r.get('published')) for r in ok)}, "
         f"mean text {sum(len(r.get('text') or '') for r in ok) // max(1, len(ok))} chars"),
    ]
    for name, passed, detail in rows:
        print(f"{'PASS' if passed else 'FAIL':5} {name:12} {detail}")
    if robots:
        print("NOTE  robots.txt forbade " + ", ".join(f"{n} requests on {h}" for h, n in robots.items()))
    if ok:
        print(f"Sample: {ok[0].get('title')!r} {ok[0].get('canonical_url')}")
    for r in not_articles[:3]:
        print(f"NOTE  {r.get('reason')}: {r.get('canonical_url')}")
    if proc.returncode != 0:
        print(proc.stderr[-2000:], file=sys.stderr)
    return 0 if all(p for _, p, _ in rows) else 1
