"""``mcecrawl push``: stream corpus JSONL to an Elasticsearch/OpenSearch cluster through ``_bulk``."""
from __future__ import annotations

import argparse
import json
import os
import sys

HELP = "push corpus JSONL to Elasticsearch/OpenSearch in _bulk batches (retries, 429 back-off)"
API_KEY_ENV = "MCECRAWL_ES_API_KEY"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("corpus", nargs="+", metavar="CORPUS.jsonl", help="corpus files")
    parser.add_argument("--url", required=True, help="cluster URL, e.g. http://user:pass@localhost:9200")
    parser.add_argument("--index", required=True, help="target index")
    parser.add_argument("--batch-docs", type=int, help="documents per request (default 500)")
    parser.add_argument("--batch-bytes", type=int, help="bytes per request at most (default 5 MiB)")
    parser.add_argument("--max-retries", type=int, help="retries per batch (default 5)")
    parser.add_argument("--put-template", action="store_true",
                        help="first install the index template (as `export-bulk --template`) under the index name")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args: argparse.Namespace) -> int:
    from mcecrawl.search.documents import SearchIndexError, read_jsonl
    from mcecrawl.search.push import BulkPusher, PushError

    def progress(r) -> None:
        print(f"\rbatches {r.batches} · indexed {r.indexed} · failed {r.failed} · retries {r.retries}",
              end="", file=sys.stderr)

    try:
        limits = {k: v for k, v in (("batch_docs", args.batch_docs), ("batch_bytes", args.batch_bytes),
                                    ("max_retries", args.max_retries)) if v is not None}
        pusher = BulkPusher(args.url, args.index, api_key=os.environ.get(API_KEY_ENV), **limits)
        if args.put_template:
            from mcecrawl.search.bulk import index_template

            pusher.put_template(index_template(args.index))
        report = pusher.push(read_jsonl(args.corpus), progress=progress)
    except (PushError, SearchIndexError) as e:
        print(f"\nmcecrawl push: error: {e}", file=sys.stderr)
        return 2
    print(file=sys.stderr)
    if args.json:
        print(json.dumps(report.__dict__, ensure_ascii=False))
    else:
        print(f"{report.indexed} indexed, {report.failed} failed, {report.skipped} skipped (no text) "
              f"in {report.batches} batches ({report.requests} requests, {report.retries} retries)")
        for error in report.errors[:10]:
            print(f"  {error['_id']}: HTTP {error['status']} {error['reason']}")
    return 1 if report.failed else 0
