"""``mcecrawl stats``: counts, totals, date range and the self-contained HTML picture."""
from __future__ import annotations

import json
from argparse import Namespace

from mcecrawl.commands import stats

RECORDS = [
    {"url": "u1", "site": "a", "lang": "fa", "lang_detected": "fa", "status": "ok", "text": "یک دو سه",
     "published": "2023-11-06T10:30:00", "calendar": "jalali", "warc_record_id": "<urn:uuid:1>"},
    {"url": "u2", "site": "b", "lang": "fa", "lang_detected": "fa", "status": "ok", "text": "یک دو سه چهار",
     "duplicate_of": "u1", "duplicate_kind": "near", "duplicate_cross_site": True, "published": "2023-12-01"},
    {"url": "u3", "site": "a", "lang": "fa", "lang_detected": "ar", "lang_mismatch": True, "status": "ok",
     "text": "واحد اثنان", "published": "2023-09-30", "calendar": "hijri"},
    {"url": "u4", "site": "a", "lang": "fa", "status": "empty", "text": "", "published": None},
    {"url": "u5", "site": "a", "lang": "fa", "status": "not_article", "text": "", "published": None},
]


def _write(tmp_path):
    path = tmp_path / "c.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in RECORDS) + "not json\n", "utf-8")
    return path


def test_summary_counts(tmp_path):
    s = stats.summarize_corpus(stats._read([_write(tmp_path)]))
    assert s["records"] == 5 and s["sites"] == {"a": 4, "b": 1}
    assert s["status"] == {"ok": 3, "empty": 1, "not_article": 1}
    assert s["lang_detected"] == {"fa": 2, "ar": 1} and s["lang_mismatch"] == 1
    assert s["duplicates"] == {"near": 1} and s["duplicates_cross_site"] == 1
    assert s["tokens"] == 3 + 4 + 2 and s["chars"] == sum(len(r["text"]) for r in RECORDS)
    assert (s["date_min"], s["date_max"], s["with_date"]) == ("2023-09-30", "2023-12-01", 3)
    assert s["months"] == {"2023-09": 1, "2023-11": 1, "2023-12": 1}
    assert s["calendar"] == {"jalali": 1, "hijri": 1, "gregorian": 1}
    assert s["warc_record_ids"] == 1
    assert s["unchanged"] == 0 and s["updated"] == 0


def test_recrawled_records_are_counted_apart_from_duplicates():
    s = stats.summarize_corpus([
        {"url": "u1", "status": "ok", "text": "x", "unchanged_since": "2026-01-01T00:00:00+00:00"},
        {"url": "u2", "status": "ok", "text": "y", "previous_content_sha1": "0" * 40}])
    assert (s["unchanged"], s["updated"], sum(s["duplicates"].values())) == (1, 1, 0)


def test_run_text_json_and_html(tmp_path, capsys):
    path = _write(tmp_path)
    html = tmp_path / "s.html"
    assert stats.run(Namespace(corpus=[str(path)], html=str(html), json=False)) == 0
    out = capsys.readouterr()
    assert "records: 5" in out.out and "language mismatches: 1" in out.out and "not JSON" in out.err
    assert "re-crawled: 0 unchanged, 0 updated" in out.out
    page = html.read_text("utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") == 6 and "<script" not in page
    assert "Articles per month" in page and "2023-11" in page
    assert stats.run(Namespace(corpus=[str(path)], html=None, json=True)) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["records"] == 5 and data["length_histogram"]["1–499"] == 3


def test_missing_file(tmp_path, capsys):
    assert stats.run(Namespace(corpus=[str(tmp_path / "nope.jsonl")], html=None, json=False)) == 2
