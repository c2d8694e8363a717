"""``mcecrawl export-bulk``: corpus JSONL -> Elasticsearch/OpenSearch ``_bulk`` NDJSON, or the index template."""
from __future__ import annotations

import argparse
import json
import os
import sys

HELP = "write corpus JSONL as Elasticsearch/OpenSearch _bulk NDJSON (stable ids), or --template"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("corpus", nargs="*", metavar="CORPUS.jsonl", help="corpus files (not with --template)")
    parser.add_argument("--index", required=True, help="target index name (the template matches NAME and NAME-*)")
    parser.add_argument("--template", action="store_true",
                        help="write the index template instead (PUT _index_template/NAME body)")
    parser.add_argument("-o", "--output", default="-", help="output file (default: stdout)")


def run(args: argparse.Namespace) -> int:
    from mcecrawl.search.bulk import bulk_lines, index_template
    from mcecrawl.search.documents import SearchIndexError, read_jsonl

    if args.template == bool(args.corpus):
        print("mcecrawl export-bulk: error: give CORPUS files or --template (not both)", file=sys.stderr)
        return 2
    out = sys.stdout if args.output == "-" else open(args.output, "w", encoding="utf-8", newline="\n")
    try:
        if args.template:
            json.dump(index_template(args.index), out, ensure_ascii=False, indent=2)
            out.write("\n")
            return 0
        skipped: list = []
        n = 0
        for n, line in enumerate(bulk_lines(read_jsonl(args.corpus), args.index, skipped=skipped), 1):
            out.write(line + "\n")
        print(f"{n // 2} documents, {len(skipped)} skipped (no text)", file=sys.stderr)
        return 0
    except SearchIndexError as e:
        print(f"mcecrawl export-bulk: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `| head`: the reader is gone, that is not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    finally:
        if out is not sys.stdout:
            out.close()
