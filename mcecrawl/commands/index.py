"""``mcecrawl index``: build or update the embedded SQLite FTS5 search index from corpus JSONL."""
from __future__ import annotations

import argparse
import sys
import time

HELP = "index corpus JSONL files into an SQLite FTS5 search index (incremental, idempotent)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("corpus", nargs="+", metavar="CORPUS.jsonl", help="corpus files written by the crawl")
    parser.add_argument("--db", required=True, help="the index file (created if absent)")
    parser.add_argument("--optimize", action="store_true",
                        help="merge the FTS5 segments afterwards (faster searches after a large load)")
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds to wait while another writer holds the index (default 5)")


def run(args: argparse.Namespace) -> int:
    from mcecrawl.search.documents import SearchIndexError, read_jsonl
    from mcecrawl.search.index import LOCK_TIMEOUT, SearchIndex

    started = time.perf_counter()
    bad_lines: list[str] = []
    try:
        with SearchIndex(args.db, timeout=args.timeout or LOCK_TIMEOUT) as index:
            report = index.add(read_jsonl(args.corpus, errors=bad_lines))
            if args.optimize:
                index.optimize()  # also refreshes the statistics
            else:
                index.refresh_statistics()
            total = len(index)
    except SearchIndexError as e:
        print(f"mcecrawl index: error: {e}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - started
    seen = report.added + report.updated + report.unchanged + report.skipped
    print(f"{args.db}: {report.added} added, {report.updated} updated, {report.unchanged} unchanged, "
          f"{report.skipped} skipped (no text), {len(bad_lines)} bad lines; {total} documents; "
          f"{seen / seconds if seconds else 0:.0f} items/s", file=sys.stderr)
    return 0
