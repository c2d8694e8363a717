"""``mcecrawl reextract``: rebuild a crawl's corpus from its own WARC archives, offline.

The same run as ``mcecrawl from-warc`` (one implementation, :mod:`mcecrawl.archives`) with a crawl's
defaults: every language, no script prefilter, and pages whose extraction is empty or failed
written too (with status and reason), as the crawl writes them.  ``--items`` rebuilds only the
crawl's own records, keeping what the spider read with the site's rules.
"""
from __future__ import annotations

import argparse

HELP = ("re-run decoding and extraction offline on WARC archives written by a crawl (MCE_WARC_ENABLED); "
        "from-warc with every language, no prefilter and failed pages kept")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("warcs", nargs="+", metavar="WARC", help="WARC files (.warc, .warc.gz)")
    parser.add_argument("-o", "--output", required=True, metavar="CORPUS.jsonl",
                        help="a .jsonl or .jsonl.gz file, or a directory of per-WARC shards")
    parser.add_argument("--algorithm", "-a", default=None,
                        help="extraction algorithm for every page (default: the site profile's, else the package "
                             "default)")
    parser.add_argument("--param", action="append", metavar="NAME=VALUE", help="algorithm parameter (repeatable)")
    parser.add_argument("--profile", default=None,
                        help="site profile for every record (default: the profile whose URL rules match)")
    parser.add_argument("--dedup-db", default=None, metavar="PATH",
                        help="dedup store to check against and fill: a SQLite file, or redis://HOST:PORT/DB "
                             "(default: a fresh in-memory store)")
    parser.add_argument("--items", default=None, metavar="OLD.jsonl",
                        help="the crawl's own corpus: only its records (by warc_record_id) are rebuilt, keeping their "
                             "url/site/lang/title/authors/dates from the crawl")
    parser.add_argument("--all-pages", action="store_true",
                        help="also pages no profile's article rules match (default: only articles when profiles match)")
    parser.add_argument("--workers", "-j", type=int, default=1, help="worker processes (default: 1)")


def run(args: argparse.Namespace) -> int:
    from mcecrawl.commands import from_warc

    full = argparse.Namespace(
        warcs=args.warcs, output=args.output, lang="all", workers=getattr(args, "workers", 1),
        algorithm=args.algorithm, param=args.param, hosts=None, since=None, until=None, profile=args.profile,
        all_pages=args.all_pages, no_prefilter=True, keep_failed=True, items=args.items, dedup_db=args.dedup_db,
        json=False, progress=False, repeats_are_copies=False)  # a crawl's corpus: re-visits are unchanged_since
    return from_warc.run(full)
