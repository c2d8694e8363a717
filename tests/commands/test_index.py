"""``mcecrawl index``: builds/updates the SQLite index from JSONL; clear errors, never a traceback."""
from __future__ import annotations

import argparse
import json

from mcecrawl.commands import index as index_command
from mcecrawl.search.index import SearchIndex

CORPUS = [
    {"url": "https://www.bbc.com/persian/1", "site": "bbc_persian", "lang": "fa", "published": "2024-05-01",
     "title": "کتاب‌های تازه در نمایشگاه", "text": "ناشران می‌خواهند کتاب‌های تازه را در نمایشگاه عرضه کنند.",
     "status": "ok"},
    {"url": "https://www.bbc.com/arabic/2", "site": "bbc_arabic", "lang": "ar", "published": "2024-06-01",
     "title": "معرض الكتاب", "text": "افتتح معرض الكتاب في القاهرة بمشاركة ۱۲۰ دار نشر.", "status": "ok"},
    {"url": "https://www.bbc.com/urdu/3", "site": "bbc_urdu", "lang": "ur", "title": "", "text": "", "status": "empty"},
]


def write_corpus(path, items, extra_lines=()):
    with open(path, "w", encoding="utf-8") as f:
        for item in items:
            f.write(json.dumps(item, ensure_ascii=False) + "\n")
        for line in extra_lines:
            f.write(line + "\n")
    return path


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    index_command.add_arguments(parser)
    return index_command.run(parser.parse_args(argv))


def test_index_builds_and_updates(tmp_path, capsys):
    corpus = write_corpus(tmp_path / "c.jsonl", CORPUS, extra_lines=["{not json"])
    db = tmp_path / "c.sqlite"
    assert run([str(corpus), "--db", str(db)]) == 0
    err = capsys.readouterr().err
    assert "2 added, 0 updated, 0 unchanged, 1 skipped" in err and "1 bad lines" in err
    assert run([str(corpus), "--db", str(db), "--optimize"]) == 0
    assert "0 added, 0 updated, 2 unchanged" in capsys.readouterr().err
    with SearchIndex(db, readonly=True) as ix:
        assert len(ix) == 2


def test_index_errors_are_messages_not_tracebacks(tmp_path, capsys):
    corpus = write_corpus(tmp_path / "c.jsonl", CORPUS)
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"\x00garbage" * 512)
    assert run([str(corpus), "--db", str(bad)]) == 2
    assert "not a usable mcecrawl search index" in capsys.readouterr().err
    assert run([str(tmp_path / "missing.jsonl"), "--db", str(tmp_path / "ok.sqlite")]) == 2
    assert "cannot read corpus" in capsys.readouterr().err


def test_index_reads_gzipped_corpus_files(tmp_path, capsys):
    import gzip

    plain = write_corpus(tmp_path / "c.jsonl", CORPUS)
    packed = tmp_path / "c.jsonl.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    assert run([str(packed), "--db", str(tmp_path / "g.sqlite")]) == 0
    assert "2 added" in capsys.readouterr().err
    packed.write_bytes(gzip.compress(plain.read_bytes())[:-20])  # truncated
    assert run([str(packed), "--db", str(tmp_path / "g2.sqlite")]) == 2
    assert "cannot read corpus" in capsys.readouterr().err
