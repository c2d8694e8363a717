"""``mcecrawl merge``: one corpus from the per-worker feeds of a distributed crawl.

Reads the feeds (files or directories of ``*.jsonl``, in name order: ``<time>-<worker>.jsonl``),
keeps the first record of each canonical URL, and reports what it read: files, lines, records
per status, duplicate URLs dropped (0 after a correct distributed crawl) and lines that are not
JSON (a half-written last line of a killed worker that no other worker has repaired yet).
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HELP = "merge the per-worker feeds of a distributed crawl into one JSON-lines file, with counts"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("feeds", nargs="+", metavar="FEED", help="feed files or directories (output/<spider>/)")
    parser.add_argument("-o", "--output", required=True, metavar="MERGED.jsonl", help="the merged corpus")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")


def feed_files(paths: list[str]) -> list[Path]:
    """Files as given; a directory's ``.jsonl``/``.jsonl.gz`` files (from-warc shards included)."""
    from mcecrawl.corpus.files import corpus_files

    return list(dict.fromkeys(corpus_files(paths)))


def merge(files: list[Path], output: Path) -> dict:
    from mcecrawl.corpus.files import iter_lines
    from mcecrawl.exporters import dumps_line

    counts: dict[str, Any] = {"files": len(files), "lines": 0, "written": 0, "duplicates_dropped": 0,
                              "invalid_lines": 0, "status": Counter(), "per_file": {}}
    seen: set[str] = set()
    output.parent.mkdir(parents=True, exist_ok=True)
    with open(output, "w", encoding="utf-8", newline="") as out:
        for path in files:
            n = 0
            for line in iter_lines(path):
                if not line.strip():
                    continue
                counts["lines"] += 1
                try:
                    rec = json.loads(line)
                except ValueError:
                    counts["invalid_lines"] += 1
                    continue
                key = rec.get("canonical_url") or rec.get("url")
                if key in seen:
                    counts["duplicates_dropped"] += 1
                    continue
                seen.add(key)
                out.write(dumps_line(rec))
                counts["written"] += 1
                counts["status"][rec.get("status") or "?"] += 1
                n += 1
            counts["per_file"][str(path)] = n
    counts["status"] = dict(counts["status"])
    return counts


def run(args: argparse.Namespace) -> int:
    files = feed_files(args.feeds)
    missing = [p for p in files if not p.is_file()]
    if missing or not files:
        print(f"mcecrawl merge: no such feed: {', '.join(map(str, missing)) or args.feeds}", file=sys.stderr)
        return 2
    counts = merge(files, Path(args.output))
    if args.json:
        print(json.dumps(counts, ensure_ascii=False, indent=1))
        return 0
    print(f"{counts['files']} feeds, {counts['lines']} lines -> {counts['written']} records in {args.output}")
    print(f"  duplicates dropped: {counts['duplicates_dropped']}   invalid lines: {counts['invalid_lines']}")
    print("  status: " + ", ".join(f"{k} {v}" for k, v in sorted(counts["status"].items())))
    for path, n in counts["per_file"].items():
        print(f"  {n:8d}  {path}")
    return 0
