"""``mcecrawl reextract``: rebuild a corpus from WARC archives, offline.

Every HTML response record is decoded from its original bytes with
:func:`mcecrawl.encoding.decode` (using the archived Content-Type), extracted with the site
profile's algorithm (or ``--algorithm``), and passed through the same corpus-quality step as the
crawl (:class:`mcecrawl.corpus.quality.CorpusQuality`), so the records carry the crawl's fields.
"""
from __future__ import annotations

import argparse
import sys

HELP = "re-run decoding and extraction offline on WARC archives written by a crawl (MCE_WARC_ENABLED)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("warcs", nargs="+", metavar="WARC", help="WARC files (.warc, .warc.gz)")
    parser.add_argument("-o", "--output", required=True, metavar="CORPUS.jsonl", help="JSON-lines file to write")
    parser.add_argument("--algorithm", "-a", default=None,
                        help="extraction algorithm for every page (default: the matching site profile's, else dana)")
    parser.add_argument("--param", action="append", metavar="NAME=VALUE", help="algorithm parameter (repeatable)")
    parser.add_argument("--profile", default=None,
                        help="site profile for every record (default: the profile whose URL rules match)")
    parser.add_argument("--dedup-db", default=None, metavar="PATH",
                        help="SQLite dedup store to check against and fill (default: a fresh in-memory store)")
    parser.add_argument("--items", default=None, metavar="OLD.jsonl",
                        help="the crawl's own corpus: only its records (by warc_record_id) are rebuilt, keeping their "
                             "url/site/lang/title/authors/dates from the crawl")
    parser.add_argument("--all-pages", action="store_true",
                        help="also pages no profile's article rules match (default: only articles when profiles match)")


class _ProfileMatcher:
    """Site profile of a URL: the first bundled profile whose article rules match it (the bundled
    profiles are loaded once, in ``all``)."""

    def __init__(self, forced: str | None):
        from mcecrawl.profile import PROFILES_DIR, load_profile

        self.forced = load_profile(forced) if forced else None
        self.all = [] if forced else [load_profile(p) for p in sorted(PROFILES_DIR.glob("*.json"))]

    def match(self, url: str):
        if self.forced:
            return self.forced
        for profile in self.all:
            try:
                if profile.is_live(url) and profile.article_rule(profile.canonicalize(url)):
                    return profile
            except (ValueError, AttributeError):
                continue
        return None


def _title(html: str) -> str | None:
    import parsel

    sel = parsel.Selector(text=html)
    title = sel.css('meta[property="og:title"]::attr(content)').get() or " ".join(sel.css("h1 ::text").getall()) \
        or sel.css("title::text").get()
    return " ".join(title.split()) or None if title else None


# Fields a crawl's item knows better than the WARC (the spider read them with the site's rules).
CARRIED_FIELDS = ("url", "canonical_url", "site", "site_name", "lang", "title", "authors", "published_raw")


def record_for(resp, profile, algorithm: str | None, params: dict, quality, old: dict | None = None) -> dict:
    """One corpus record (the crawl's item fields) from a WARC response (``old``: the crawl's item)."""
    import hashlib
    import time
    from urllib.parse import urlsplit

    import mcecrawl
    from mcecrawl.encoding import decode
    from mcecrawl.exporters import sanitize
    from mcecrawl.items import SCHEMA_VERSION

    decoded = decode(resp.body, resp.content_type)
    if old and old.get("algorithm") and not algorithm:  # reproduce the crawl's choice
        algo, algo_params = old["algorithm"], {**(old.get("params") or {}), **params}
    elif profile is not None:
        algo = algorithm or profile.extraction.get("algorithm") or "dana"
        algo_params = {**(profile.extraction.get("params") or {}), **params} if not algorithm else dict(params)
    else:
        algo, algo_params = algorithm or "dana", dict(params)
    t0 = time.perf_counter()
    try:
        result = mcecrawl.extract(decoded.text, algorithm=algo, url=resp.url, **algo_params)
        status, reason, text, paragraphs = result.status, result.reason, result.text, result.paragraphs
        used_params, title = dict(result.params), result.title
    except ValueError as exc:  # unknown algorithm/parameter
        status, reason, text, paragraphs = "error", f"configuration: {exc}", "", ()
        used_params, title = algo_params, None
    ms = (time.perf_counter() - t0) * 1000
    text = sanitize(text or "")
    record = {
        "url": resp.url,
        "canonical_url": profile.canonicalize(resp.url) if profile is not None else resp.url,
        "site": profile.name if profile is not None else urlsplit(resp.url).hostname,
        "site_name": profile.site if profile is not None else urlsplit(resp.url).hostname,
        "lang": profile.lang if profile is not None else None,
        "title": _title(decoded.text) or title,
        "authors": [],
        "text": text,
        "paragraphs": [sanitize(p) for p in paragraphs],
        "algorithm": algo,
        "params": used_params,
        "status": status,
        "reason": reason or "",
        **decoded.provenance(),
        "content_sha1": hashlib.sha1(text.encode("utf-8")).hexdigest() if text else None,
        "fetched_at": resp.date,
        "extraction_ms": round(ms, 2),
        "schema_version": SCHEMA_VERSION,
        "warc_record_id": resp.record_id,
    }
    if old:
        record.update({k: old[k] for k in CARRIED_FIELDS if old.get(k) is not None})
    return dict(quality.apply(record, html=decoded.text))


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from mcecrawl.commands import parse_params
    from mcecrawl.corpus.dedup import DedupStore
    from mcecrawl.corpus.quality import CorpusQuality
    from mcecrawl.corpus.warc import iter_responses
    from mcecrawl.exporters import dumps_line

    try:
        params = parse_params(args.param)
        profiles = _ProfileMatcher(args.profile)
    except (argparse.ArgumentTypeError, OSError, ValueError) as exc:
        print(f"mcecrawl reextract: {exc}", file=sys.stderr)
        return 2
    missing = [w for w in args.warcs if not Path(w).is_file()]
    if missing:
        print(f"mcecrawl reextract: no such file: {', '.join(missing)}", file=sys.stderr)
        return 2
    old_items: dict[str, dict] = {}
    if args.items:
        import json

        try:
            with open(args.items, encoding="utf-8") as f:
                for line in f:
                    if line.strip():
                        item = json.loads(line)
                        if item.get("warc_record_id"):
                            old_items[item["warc_record_id"]] = item
        except (OSError, ValueError) as exc:
            print(f"mcecrawl reextract: cannot read {args.items}: {exc}", file=sys.stderr)
            return 2
        if not old_items:
            print(f"mcecrawl reextract: {args.items} has no warc_record_id (crawl without MCE_WARC_ENABLED?)",
                  file=sys.stderr)
            return 2
    counts: dict[str, int] = {}
    out_path = Path(args.output)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = out_path.with_name(out_path.name + ".part")
    with DedupStore(args.dedup_db or ":memory:") as store, open(tmp, "w", encoding="utf-8", newline="\n") as out:
        quality = CorpusQuality(store=store)
        for resp in iter_responses(args.warcs):
            old = old_items.get(resp.record_id)
            if args.items and old is None:
                counts["skipped_not_in_items"] = counts.get("skipped_not_in_items", 0) + 1
                continue
            if resp.status != 200:
                counts["skipped_http_status"] = counts.get("skipped_http_status", 0) + 1
                continue
            profile = profiles.match(old.get("canonical_url") or resp.url) if old else profiles.match(resp.url)
            if old is None and profile is None and profiles.all and not args.all_pages and not args.profile:
                # URLs no profile claims as articles (listings, sitemaps, feeds)
                if any(p.is_live(resp.url) for p in profiles.all):
                    counts["skipped_not_article"] = counts.get("skipped_not_article", 0) + 1
                    continue
            rec = record_for(resp, profile, args.algorithm, params, quality, old)
            out.write(dumps_line(rec))
            counts[rec["status"]] = counts.get(rec["status"], 0) + 1
            if rec.get("duplicate_of"):
                counts["duplicates"] = counts.get("duplicates", 0) + 1
    tmp.replace(out_path)
    summary = ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "no HTML response records"
    print(f"{out_path}: {summary}")
    return 0
