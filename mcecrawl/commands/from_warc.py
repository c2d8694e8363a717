"""``mcecrawl from-warc``: WARC files (Common Crawl's included) to a corpus of the crawl's item schema.

Only the command line; the work is :mod:`mcecrawl.archives`.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcecrawl.archives.pages import PageConfig

HELP = ("WARC files (Common Crawl's too) to a clean corpus: prefilter by script, decode, extract, "
        "language, duplicates; every core; resumable")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("warcs", nargs="*", metavar="WARC",
                        help="WARC files (.warc, .warc.gz), globs or directories of them, or http(s) URLs "
                             "(streamed, retried, resumed by range)")
    parser.add_argument("--paths", default=None, metavar="FILE",
                        help="a warc.paths(.gz) file (local or URL): its WARCs, read over HTTP(S) below --base-url")
    parser.add_argument("--base-url", default=None, metavar="URL",
                        help="where --paths' paths live (default: https://data.commoncrawl.org/)")
    parser.add_argument("--shard", default=None, metavar="K/N",
                        help="only every N-th WARC from the K-th (0 <= K < N): N machines, one list")
    add_page_arguments(parser)


def add_page_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of the page path and the output, shared with ``from-cc-index``."""
    parser.add_argument("-o", "--output", required=True, metavar="OUT",
                        help="a .jsonl or .jsonl.gz file, or a directory of per-WARC shards (re-run the same "
                             "command to resume a killed run)")
    parser.add_argument("--lang", default="fa,ar,ur,ps",
                        help="languages to keep, comma-separated (default: fa,ar,ur,ps; he for Hebrew; all)")
    parser.add_argument("--workers", "-j", type=int, default=0, help="worker processes (default: one per core)")
    parser.add_argument("--algorithm", "-a", default=None,
                        help="extraction algorithm (default: the site profile's, else the package default)")
    parser.add_argument("--param", action="append", metavar="NAME=VALUE", help="algorithm parameter (repeatable)")
    parser.add_argument("--hosts", default=None, metavar="HOSTS",
                        help="only these hosts, comma-separated names (subdomains included) or suffixes such "
                             "as .ir, or a file with one per line (FILE or @FILE)")
    parser.add_argument("--since", default=None, metavar="YYYY-MM-DD",
                        help="only pages published (else fetched) on or after this day")
    parser.add_argument("--until", default=None, metavar="YYYY-MM-DD", help="... on or before this day")
    parser.add_argument("--page-types", default=None, metavar="TYPES",
                        help="keep only these page types, comma-separated (article, listing, forum, product, "
                             "collection, documentation, service, other; unjudged: pages the judgement did not "
                             "type); default: all")
    parser.add_argument("--profile", default=None, help="one site profile for every record")
    parser.add_argument("--all-pages", action="store_true",
                        help="also pages at a known site's non-article URLs")
    parser.add_argument("--no-prefilter", action="store_true",
                        help="decode and extract every HTML page (no script test on the raw bytes)")
    parser.add_argument("--keep-failed", action="store_true",
                        help="also write pages whose extraction is empty or failed (status, reason), and pages "
                             "whose payload is cut short (status truncated_record)")
    parser.add_argument("--items", default=None, metavar="OLD.jsonl",
                        help="a crawl's own corpus: rebuild only its records (by warc_record_id), keeping "
                             "their url/site/lang/title/authors/dates (implies --lang all --keep-failed)")
    parser.add_argument("--dedup-db", default=None, metavar="PATH|redis://HOST:PORT/DB",
                        help="dedup store to check against and fill: a SQLite file, or a Redis database shared by "
                             "runs on many machines (default: one in memory for the run)")
    dups = parser.add_mutually_exclusive_group()
    dups.add_argument("--keep-duplicates", dest="drop_duplicates", action="store_false", default=False,
                      help="write copies marked duplicate_of (default; `status == \"ok\" and not duplicate_of` "
                           "counts each text once)")
    dups.add_argument("--drop-duplicates", dest="drop_duplicates", action="store_true",
                      help="count copies in the summary, write only each text's first copy")
    parser.add_argument("--json", action="store_true", help="print the end summary as JSON")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="progress line on stderr (default: when stderr is a terminal)")


def _error(msg: str) -> int:
    print(f"mcecrawl from-warc: {msg}", file=sys.stderr)
    return 2


def _hosts(value: str | None) -> tuple[str, ...] | None:
    if not value:
        return None
    path = Path(value[1:] if value.startswith("@") else value)
    if value.startswith("@") or path.is_file():
        lines = path.read_text("utf-8").splitlines()
        return tuple(h.strip() for h in lines if h.strip() and not h.startswith("#"))
    return tuple(h.strip() for h in value.split(",") if h.strip())


def _day(value: str | None) -> str | None:
    if value is None:
        return None
    from datetime import date

    return date.fromisoformat(value[:10]).isoformat()


def _old_items(path: str) -> dict[str, dict]:
    from mcecrawl.corpus.files import iter_items

    return {item["warc_record_id"]: item for item in iter_items([path]) if item.get("warc_record_id")}


def config_from_args(args: argparse.Namespace) -> PageConfig:
    """The run's :class:`~mcecrawl.archives.pages.PageConfig`; raises ValueError/OSError on bad options."""
    from mcecrawl.algorithms import get_algorithm
    from mcecrawl.archives.pages import PageConfig
    from mcecrawl.commands import parse_params
    from mcecrawl.extraction import ExtractionJob, run_job

    params = parse_params(args.param)
    if args.algorithm:  # a wrong name or parameter stops here, not as a reason on every page
        get_algorithm(args.algorithm)
        probe = run_job(ExtractionJob(b"<html><body><p>x</p></body></html>", args.algorithm, params))
        if probe.config_error:
            raise ValueError(probe.reason)
    if args.profile:
        from mcecrawl.profile import load_profile

        load_profile(args.profile)
    items = None
    if args.items:
        items = _old_items(args.items)
        if not items:
            raise ValueError(f"{args.items} has no warc_record_id (crawl without MCE_WARC_ENABLED?)")
    langs = None if args.items or args.lang.strip().lower() == "all" else \
        tuple(x.strip().lower() for x in args.lang.split(",") if x.strip())
    if langs:
        from mcecrawl.corpus.langid import LANGUAGES

        unknown = [lang for lang in langs if lang not in LANGUAGES]
        if unknown:
            raise ValueError(f"--lang {','.join(unknown)}: language identification knows {', '.join(LANGUAGES)} "
                             "(or all)")
    page_types = None
    if getattr(args, "page_types", None):
        from mcecrawl.algorithms.result import PAGE_TYPES
        from mcecrawl.archives.pages import UNJUDGED

        page_types = tuple(t.strip().lower() for t in args.page_types.split(",") if t.strip())
        unknown = [t for t in page_types if t not in PAGE_TYPES and t != UNJUDGED]
        if unknown:
            raise ValueError(f"--page-types {','.join(unknown)}: page types are {', '.join(PAGE_TYPES)} "
                             f"(or {UNJUDGED})")
    return PageConfig(langs=langs, algorithm=args.algorithm, params=params, profile=args.profile,
                      page_types=page_types,
                      all_pages=args.all_pages, hosts=_hosts(args.hosts), since=_day(args.since),
                      until=_day(args.until), prefilter=not args.no_prefilter,
                      keep_failed=args.keep_failed or bool(args.items), items=items)


def _sources(args: argparse.Namespace) -> list[str]:
    """The WARCs to read: the arguments, then ``--paths``' URLs, sharded; ValueError/OSError when none."""
    from mcecrawl.archives.remote import COMMON_CRAWL, read_paths, shard
    from mcecrawl.archives.run import expand_inputs

    warcs, missing = expand_inputs(args.warcs)
    if missing:
        raise ValueError(f"no such file: {', '.join(missing)}")
    paths = getattr(args, "paths", None)  # reextract's namespace has none of these
    if paths:
        warcs += [u for u in read_paths(paths, getattr(args, "base_url", None) or COMMON_CRAWL) if u not in warcs]
    if not warcs:
        raise ValueError("no WARC given (files, URLs or --paths FILE)")
    return shard(warcs, getattr(args, "shard", None))


def run(args: argparse.Namespace) -> int:
    from mcecrawl.archives.remote import FetchOptions, RemoteError
    from mcecrawl.archives.run import RunOptions
    from mcecrawl.archives.run import run as run_archives

    try:
        warcs = _sources(args)
        config = config_from_args(args)
    except (argparse.ArgumentTypeError, OSError, ValueError, RemoteError) as exc:
        return _error(str(exc))
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    summary = run_archives(RunOptions(warcs=warcs, output=args.output, config=config,
                                      workers=args.workers, dedup_db=args.dedup_db,
                                      drop_duplicates=getattr(args, "drop_duplicates", False),
                                      repeats_are_copies=getattr(args, "repeats_are_copies", True), progress=progress,
                                      fetch=FetchOptions()))
    if args.json:
        print(json.dumps(summary.as_dict(), ensure_ascii=False))
    else:
        print(f"{args.output}:\n{summary.text()}")
    return 0
