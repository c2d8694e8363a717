"""``mcecrawl from-cc-index``: Common Crawl's columnar index -> the records worth reading, fetched by
byte range -> a corpus of the crawl's item schema (the same page path and items as ``from-warc``).

Only the command line; the work is :mod:`mcecrawl.archives.ccindex` and :mod:`mcecrawl.archives.run`.
"""
from __future__ import annotations

import argparse
import json
import sys

HELP = ("Common Crawl's columnar index (Parquet) to a clean corpus: select R2L HTML records, fetch each by "
        "range, decode, extract, language, duplicates; resumable")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from mcecrawl.commands import from_warc

    parser.add_argument("indexes", nargs="+", metavar="INDEX",
                        help="index Parquet files (cc-index/table/cc-main/warc/...), globs, directories or URLs")
    parser.add_argument("--base-url", default=None, metavar="URL",
                        help="where the index's warc_filename paths live (default: https://data.commoncrawl.org/)")
    parser.add_argument("--concurrency", type=int, default=None, metavar="N",
                        help=f"range requests in flight per host, all workers together (default: {CONCURRENCY})")
    from_warc.add_page_arguments(parser)
    parser.set_defaults(warcs=[], paths=None, shard=None)


# Range requests in flight per host when not told: Common Crawl answers bursts with 503 ("slow down");
# its guidance is a few parallel requests per client.
CONCURRENCY = 4


def _error(msg: str) -> int:
    print(f"mcecrawl from-cc-index: {msg}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    import os

    from mcecrawl.archives.ccindex import expand_index, select
    from mcecrawl.archives.remote import COMMON_CRAWL, FetchOptions, RemoteError
    from mcecrawl.archives.run import RunOptions
    from mcecrawl.archives.run import run as run_archives
    from mcecrawl.commands.from_warc import config_from_args

    indexes, missing = expand_index(args.indexes)
    if missing:
        return _error(f"no such index file: {', '.join(missing)}")
    try:
        config = config_from_args(args)
    except (argparse.ArgumentTypeError, OSError, ValueError) as exc:
        return _error(str(exc))
    workers = args.workers or os.cpu_count() or 1
    total = args.concurrency or CONCURRENCY
    fetch = FetchOptions(concurrency=max(1, total // workers))
    try:
        selection = select(indexes, langs=config.langs, hosts=config.hosts, since=config.since,
                           base_url=args.base_url or COMMON_CRAWL, fetch=fetch)
    except ImportError:
        return _error("reading the index needs pyarrow: pip install pyarrow (or mcecrawl[ccindex])")
    except (OSError, ValueError, RemoteError) as exc:
        return _error(f"cannot read the index: {exc}")
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    summary = run_archives(RunOptions(warcs=list(selection.sets), output=args.output, config=config,
                                      workers=args.workers, dedup_db=args.dedup_db,
                                      drop_duplicates=args.drop_duplicates, progress=progress, fetch=fetch))
    summary.selected, summary.index_bytes = selection.records, selection.index_bytes
    if args.json:
        print(json.dumps(summary.as_dict(), ensure_ascii=False))
    else:
        print(f"{args.output}:\n{summary.text()}")
    return 0
