"""``mcecrawl search``: ranked hits as text or JSON lines, filters, clear errors."""
from __future__ import annotations

import argparse
import json
import sqlite3

from test_index import CORPUS

from mcecrawl.commands import search as search_command
from mcecrawl.search.index import SearchIndex


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    search_command.add_arguments(parser)
    return search_command.run(parser.parse_args(argv))


def build(tmp_path):
    db = tmp_path / "c.sqlite"
    with SearchIndex(db) as ix:
        ix.add(CORPUS)
    return str(db)


def test_search_json_hits_with_faithful_snippets(tmp_path, capsys):
    db = build(tmp_path)
    assert run(["كتابهاي تازه", "--db", db, "--json"]) == 0  # Arabic kaf/yeh, no ZWNJ
    hits = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [h["url"] for h in hits] == ["https://www.bbc.com/persian/1"]
    assert set(hits[0]) >= {"rank", "url", "title", "site", "published", "score", "snippet"}
    assert "**کتاب‌های**" in hits[0]["snippet"]  # highlighted as the site wrote it


def test_search_filters_and_text_output(tmp_path, capsys):
    db = build(tmp_path)
    assert run(["معرض", "--db", db, "--lang", "fa", "--json"]) == 0
    assert capsys.readouterr().out == ""
    assert run(["120", "--db", db, "--site", "bbc_arabic", "--since", "2024-05-15"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1. معرض الكتاب") and "bbc_arabic · ar · 2024-06-01" in out and "**۱۲۰**" in out
    assert run(["120", "--db", db, "--since", "2024-07-01"]) == 0
    assert "no hits" in capsys.readouterr().err


def test_search_errors_are_messages_not_tracebacks(tmp_path, capsys):
    assert run(["x", "--db", str(tmp_path / "none.sqlite")]) == 2
    assert "no such search index" in capsys.readouterr().err
    db = build(tmp_path)
    assert run(["x", "--db", db, "--since", "last week"]) == 2
    assert "ISO-8601" in capsys.readouterr().err
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("INSERT INTO meta VALUES('lock', 'held')")
    try:
        assert run(["کتاب", "--db", db, "--timeout", "0.1"]) == 2
        assert "locked by another writer" in capsys.readouterr().err
    finally:
        holder.execute("ROLLBACK")
        holder.close()
