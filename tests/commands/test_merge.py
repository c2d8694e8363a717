"""``mcecrawl merge``: per-worker feeds -> one corpus, with counts."""
from __future__ import annotations

import json

from mcecrawl.cli import main
from mcecrawl.demo.crawl import read_jsonl


def _write(path, records, tail=""):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records) + tail, encoding="utf-8")


def test_merge_keeps_each_article_once_and_counts(tmp_path, capsys):
    feeds = tmp_path / "output" / "site"
    feeds.mkdir(parents=True)
    _write(feeds / "t-w1.jsonl", [{"canonical_url": "a", "status": "ok", "text": "متن"},
                                  {"canonical_url": "b", "status": "empty"}])
    _write(feeds / "t-w2.jsonl", [{"canonical_url": "c", "status": "ok"}, {"canonical_url": "a", "status": "ok"}],
           tail='{"canonical_url": "d", "sta')  # a killed worker's half-written last line
    out = tmp_path / "merged.jsonl"
    assert main(["merge", str(feeds), "-o", str(out), "--json"]) == 0
    counts = json.loads(capsys.readouterr().out)
    assert [r["canonical_url"] for r in read_jsonl(out)] == ["a", "b", "c"]
    assert read_jsonl(out)[0]["text"] == "متن"
    assert (counts["files"], counts["lines"], counts["written"]) == (2, 5, 3)
    assert (counts["duplicates_dropped"], counts["invalid_lines"]) == (1, 1)
    assert counts["status"] == {"ok": 2, "empty": 1}
    assert main(["merge", str(tmp_path / "nope.jsonl"), "-o", str(out)]) == 2
