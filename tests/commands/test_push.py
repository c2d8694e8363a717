"""``mcecrawl push`` against a local ``_bulk`` endpoint (tests/search/bulk_endpoint.py)."""
from __future__ import annotations

import argparse
import importlib.util
import json
from pathlib import Path

from test_index import CORPUS, write_corpus

from mcecrawl.commands import push as push_command
from mcecrawl.search.documents import doc_id

_spec = importlib.util.spec_from_file_location(
    "bulk_endpoint", Path(__file__).resolve().parent.parent / "search" / "bulk_endpoint.py")
bulk_endpoint = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bulk_endpoint)


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    push_command.add_arguments(parser)
    return push_command.run(parser.parse_args(argv))


def test_push_reports_and_exit_codes(tmp_path, capsys):
    corpus = write_corpus(tmp_path / "c.jsonl", CORPUS)
    with bulk_endpoint.BulkEndpoint() as es:
        assert run([str(corpus), "--url", es.url, "--index", "news", "--batch-docs", "1", "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
        assert (report["indexed"], report["skipped"], report["batches"]) == (2, 1, 2)
    with bulk_endpoint.BulkEndpoint(reject={doc_id(CORPUS[1]): "mapper_parsing_exception"}) as es:
        assert run([str(corpus), "--url", es.url, "--index", "news"]) == 1
        out = capsys.readouterr().out
        assert "1 indexed, 1 failed" in out and "mapper_parsing_exception" in out


def test_push_configuration_errors(tmp_path, capsys):
    corpus = write_corpus(tmp_path / "c.jsonl", CORPUS)
    with bulk_endpoint.BulkEndpoint(status=404) as es:
        assert run([str(corpus), "--url", es.url, "--index", "news"]) == 2
        assert "HTTP 404" in capsys.readouterr().err
    assert run([str(corpus), "--url", "not-a-url", "--index", "news"]) == 2
    assert "http(s) URL" in capsys.readouterr().err


def test_push_installs_the_template_first(tmp_path, capsys):
    corpus = write_corpus(tmp_path / "c.jsonl", CORPUS)
    with bulk_endpoint.BulkEndpoint() as es:
        assert run([str(corpus), "--url", es.url, "--index", "news", "--put-template"]) == 0
        template = es.templates["/_index_template/news"]
        assert template["index_patterns"] == ["news", "news-*"] and len(es.documents) == 2
    with bulk_endpoint.BulkEndpoint(status=403) as es:
        assert run([str(corpus), "--url", es.url, "--index", "news", "--put-template"]) == 2
        assert "_index_template/news: HTTP 403" in capsys.readouterr().err
        assert es.requests == []  # nothing pushed after a refused template
