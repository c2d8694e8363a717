"""``mcecrawl new-site URL -o profile.json``: probe a site and write a starter site profile.

A short crawl of the generic news spider (``scrapy crawl news -a site=URL -a limit=N``, its learned
state kept in a temporary ``JOBDIR``) finds the entry points that answer (sitemaps, news sitemaps,
feeds) and learns the site's URL shapes; this turns them into a profile (``profile.schema.json``) for
a user who wants to pin and edit the rules: article rules from the shapes that yielded articles
(``required`` page evidence where the same shape also held non-articles, ``evidence`` instead when the
probe recognised articles without markup by their own content), pagination from the shapes
that led to articles, exclusions from the sampled shapes that led nowhere, the home page as listing,
and the learned shapes with counts and samples under ``learned``.  ``mcecrawl check-site PROFILE``
runs on it (with ``--base-url`` for a site on a non-default port: profile URLs are ``https://host``).
"""
from __future__ import annotations

HELP = "probe a news site with the generic spider and write a starter site profile (entry points, learned URL rules)"

# Articles the probe writes before it stops: enough pages per shape to learn the usual handful of shapes
# (MIN_SAMPLES each) and see article shapes several times, few enough for a polite probe.
PROBE_ARTICLES = 30


def add_arguments(parser) -> None:
    parser.add_argument("url", help="the site: https://www.example.ir (scheme, host and port)")
    parser.add_argument("-o", "--output", required=True, help="profile JSON to write")
    parser.add_argument("--name", default=None, help="profile/spider name (default: from the host)")
    parser.add_argument("--lang", default=None, help="declared language (default: the pages' <html lang>)")
    parser.add_argument("--limit", type=int, default=PROBE_ARTICLES,
                        help=f"articles the probe fetches at most (default {PROBE_ARTICLES})")
    parser.add_argument("-s", "--set", action="append", default=[], metavar="NAME=VALUE",
                        help="extra Scrapy setting for the probe crawl")
    parser.add_argument("--timeout", type=float, default=600, help="seconds before the probe is stopped")


def _live(url: str, host: str) -> str:
    from urllib.parse import urlsplit, urlunsplit

    p = urlsplit(url)
    return urlunsplit(("https", host, p.path or "/", p.query, ""))


def starter_profile(site_url: str, state: dict, records: list[dict], *, name: str | None = None,
                    lang: str | None = None, probed: str = "") -> dict:
    """The profile of a probe: ``state`` is the news spider's ``spider.state``, ``records`` its items."""
    import re
    from collections import Counter

    from mcecrawl.algorithms import DEFAULT_ALGORITHM
    from mcecrawl.spiders.urlshapes import SHAPE_SAMPLES, VARIANT_SEGMENTS, ShapeLearner, Site, in_use, shape_pattern

    site = Site(site_url)
    host = site.host
    prefix = "^https://" + re.escape(host)
    learner = ShapeLearner(state.get("urlshapes", {}).get(site.key, {}))
    found = state.get("entry_points", {}).get(site.key, {})
    recognised = state.get("recognised", {}).get(site.key, {})
    home = state.get("home", {}).get(site.key, {})
    # Articles recognised by their own content (no markup): a rule must accept that evidence.
    unmarked = any(how.startswith("own content") for how in recognised)
    articles, pagination, exclude, learned, ambiguous = [], [], [], [], []
    for shape, rec in sorted(learner.shapes.items()):
        if not in_use(rec):
            continue
        coarse = "{w}" in shape
        first = shape.strip("/").split("/")[0].split("?")[0]
        kind = learner.kind((shape, shape))  # the shape's own record, fine or coarse
        learned.append({"shape": shape, "kind": kind, "requested": rec["requested"], "articles": rec["articles"],
                        "other": rec["other"], "led_to": rec["led_to"],
                        "samples": (rec["article_samples"] + rec["other_samples"])[:SHAPE_SAMPLES]})
        pattern = prefix + shape_pattern(shape)
        if first in VARIANT_SEGMENTS:  # AMP/print twins: the pages they render are found under their own URL
            exclude.append(pattern)
        elif kind == "article" and not coarse:
            needed = ("evidence" if unmarked else "required") if rec["other"] else "veto"
            articles.append({"pattern": pattern, "evidence": needed})
            if rec["other"] and rec["led_to"]:  # listings at article URLs
                ambiguous.append(pattern)
        elif kind == "listing":
            pagination.append(pattern)
        elif kind == "other" and shape != "/":
            exclude.append(pattern)
    # The site's language: the majority of its articles' (the home page's on a tie or with none).
    # An exclusion never covers an article the probe saw (a slug shape sampled by links that failed can
    # also be the shape of the articles' own URLs).
    # (AMP/print twins stay excluded: their pages are found under their own URLs.)
    seen = [_live(u, host) for shape, rec in learner.shapes.items() for u in rec["article_samples"]
            if shape.strip("/").split("/")[0].split("?")[0] not in VARIANT_SEGMENTS]
    exclude = [p for p in exclude if not any(re.search(p, u) for u in seen)]
    langs = Counter(r.get("lang") for r in records if r.get("status") == "ok" and r.get("lang") not in (None, "und"))
    top = langs.most_common(2)
    tie = len(top) == 2 and top[0][1] == top[1][1]
    declared = lang or (home.get("lang") if (tie or not top) and home.get("lang") else top[0][0] if top else "und")
    if not re.fullmatch(r"[a-z]{2,3}", declared or ""):
        declared = "und"
    slug = re.sub(r"[^a-z0-9]+", "_", host.lower()).strip("_")
    names = Counter(r.get("site_name") for r in records if r.get("status") == "ok" and r.get("site_name"))
    profile: dict = {
        "$comment": f"Starter profile written by `mcecrawl new-site {site_url}`: check and edit the rules.",
        "name": name or (slug if slug[:1].isalpha() else f"site_{slug}"),
        # The site's name: its home page's (og:site_name, else its title), else the majority of its articles'.
        "site": home.get("site_name") or (names.most_common(1)[0][0] if names else host),
        "lang": declared,
        "live_hosts": sorted({n.split(":")[0] for n in site.netlocs}),
        "entry_points": {kind: [_live(u, host) for u in found.get(kind, [])]
                         for kind in ("sitemaps", "news_sitemaps", "feeds") if found.get(kind)}
        | {"listings": [f"https://{host}/"]},
        "articles": articles,
        "pagination": {"pattern": "|".join(f"(?:{p})" for p in [prefix + "/?$", *pagination]), "max_pages": 200},
        "exclude": exclude,
        "canonical": {"scheme": "https", "host": host},
        "extraction": {"algorithm": DEFAULT_ALGORITHM, "params": {}},
        "politeness": {"download_delay": 1.0, "concurrency": 1},
        "terms": {"forbids": [], "note": "Written by mcecrawl new-site, which reads no terms: check the site's "
                                         "terms of use and robots.txt before crawling it."},
        "learned": {"version": 1, "by": "mcecrawl new-site", "site": site_url, "probed": probed, "shapes": learned},
    }
    if ambiguous:
        profile["notes"] = ("Pages of the same URL shape are articles and listings here (" + ", ".join(ambiguous)
                            + "): a profile crawl reads no links from a page that its article rules match, so it "
                            "finds only the articles other entry points list; `scrapy crawl news` reads both.")
    return profile


def run(args) -> int:
    import json
    import pickle
    import sys
    import tempfile
    from datetime import date
    from pathlib import Path
    from urllib.parse import urlsplit

    from mcecrawl.demo.crawl import read_jsonl, run_crawl
    from mcecrawl.profile import validate_profile
    from mcecrawl.spiders.urlshapes import Site

    try:
        Site(args.url)
    except ValueError as e:
        print(e, file=sys.stderr)
        return 2
    spider_args = {"site": args.url, "limit": str(args.limit)}
    if args.lang:
        spider_args["lang"] = args.lang
    local = urlsplit(args.url).hostname in ("127.0.0.1", "localhost", "::1")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "probe.jsonl"
        settings = {"JOBDIR": str(Path(tmp) / "job"), "MCE_DEDUP_DB": "",
                    **dict(s.split("=", 1) for s in args.set if "=" in s)}
        print(f"Probing {args.url}: up to {args.limit} articles", flush=True)
        proc = run_crawl("news", output=out, args=spider_args, settings=settings, local=local, cwd=tmp,
                         timeout=args.timeout)
        state_path = Path(tmp) / "job" / "spider.state"
        if proc.returncode != 0 or not state_path.exists():
            print(proc.stderr[-3000:], file=sys.stderr)
            print(f"the probe crawl of {args.url} failed", file=sys.stderr)
            return 1
        state = pickle.loads(state_path.read_bytes())
        records = read_jsonl(out) if out.exists() else []
    profile = starter_profile(args.url, state, records, name=args.name, lang=args.lang,
                              probed=date.today().isoformat())
    validate_profile(profile)
    Path(args.output).write_text(json.dumps(profile, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    ok = sum(r.get("status") == "ok" for r in records)
    print(f"Wrote {args.output}: {len(profile['articles'])} article rules, "
          f"{sum(len(v) for v in profile['entry_points'].values())} entry points, "
          f"{len(profile['exclude'])} exclusions, from {ok} articles of the probe")
    if not profile["articles"]:
        print("No article shape was learned: the probe found no page with article evidence.", file=sys.stderr)
        return 1
    return 0
