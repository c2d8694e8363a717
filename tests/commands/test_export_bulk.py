"""``mcecrawl export-bulk``: NDJSON to a file or stdout, and the template."""
from __future__ import annotations

import argparse
import json

from test_index import CORPUS, write_corpus

from mcecrawl.commands import export_bulk
from mcecrawl.search.documents import doc_id


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    export_bulk.add_arguments(parser)
    return export_bulk.run(parser.parse_args(argv))


def test_export_bulk_ndjson(tmp_path, capsys):
    corpus = write_corpus(tmp_path / "c.jsonl", CORPUS)
    out = tmp_path / "bulk.ndjson"
    assert run([str(corpus), "--index", "news", "-o", str(out)]) == 0
    assert "2 documents, 1 skipped" in capsys.readouterr().err
    raw = out.read_bytes()
    assert raw.endswith(b"\n")  # _bulk requires the final newline
    lines = raw.decode("utf-8").split("\n")[:-1]
    assert len(lines) == 4
    assert json.loads(lines[0]) == {"index": {"_index": "news", "_id": doc_id(CORPUS[0])}}
    assert json.loads(lines[1])["title"] == CORPUS[0]["title"]
    assert run([str(corpus), "--index", "news"]) == 0  # stdout
    assert capsys.readouterr().out.encode() == raw


def test_export_template_and_usage_errors(tmp_path, capsys):
    assert run(["--index", "news", "--template"]) == 0
    template = json.loads(capsys.readouterr().out)
    assert template["index_patterns"] == ["news", "news-*"]
    assert run(["--index", "news"]) == 2
    assert run([str(tmp_path / "missing.jsonl"), "--index", "news"]) == 2
    assert "cannot read corpus" in capsys.readouterr().err
