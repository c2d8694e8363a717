"""``mcecrawl search``: ranked hits from the embedded index, snippets of the faithful text."""
from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import asdict

HELP = "search an index built by `mcecrawl index` (harakat, kaf/yeh, digit and ZWNJ/space variants fold alike)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("query", help="words to find (all must occur, except words found in over half of the "
                                      "documents); an exact title match ranks first")
    parser.add_argument("--db", required=True, help="the index file")
    parser.add_argument("--site", help="only this site (the item's `site`)")
    parser.add_argument("--lang", help="only this language (fa, ar, ur, ps)")
    parser.add_argument("--page-type", metavar="TYPE",
                        help="only pages of this kind: article, listing, forum, product, collection, documentation, "
                             "service, other (the item's `page_type`)")
    parser.add_argument("--since", metavar="DATE", help="only documents published on or after DATE (YYYY-MM-DD)")
    parser.add_argument("-n", "--limit", type=int, default=10, help="number of hits (default 10)")
    parser.add_argument("--json", action="store_true", help="one JSON object per hit (JSON lines)")
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds to wait while a writer holds an exclusive lock (default 5)")


def run(args: argparse.Namespace) -> int:
    from mcecrawl.search.documents import SearchIndexError
    from mcecrawl.search.index import LOCK_TIMEOUT, SearchIndex

    try:
        with SearchIndex(args.db, readonly=True, timeout=args.timeout or LOCK_TIMEOUT) as index:
            hits = index.search(args.query, site=args.site, lang=args.lang, since=args.since,
                                page_type=args.page_type, limit=args.limit)
    except SearchIndexError as e:
        print(f"mcecrawl search: error: {e}", file=sys.stderr)
        return 2
    try:
        for rank, hit in enumerate(hits, 1):
            if args.json:
                print(json.dumps({"rank": rank, **asdict(hit)}, ensure_ascii=False))
            else:
                meta = " · ".join(x for x in (hit.site, hit.lang, hit.published) if x)
                print(f"{rank}. {hit.title or '(no title)'}\n   {hit.url}\n   {meta} · score {hit.score:.2f}"
                      f"{' · exact title' if hit.exact_title else ''}\n   {hit.snippet}\n")
        sys.stdout.flush()
    except BrokenPipeError:  # `| head`: the reader is gone, that is not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    if not hits and not args.json:
        print("no hits", file=sys.stderr)
    return 0
