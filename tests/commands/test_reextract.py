"""``mcecrawl reextract`` on a WARC built here (the crawl-made WARC is tested in tests/corpus)."""
from __future__ import annotations

import json
from argparse import Namespace
from io import BytesIO

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from mcecrawl.commands import reextract

PARAS = ["وزارت امور خارجه ایران روز دوشنبه اعلام کرد که مذاکرات هسته\u200cای هفته آینده در وین ادامه خواهد یافت.",
         "سخنگوی این وزارتخانه گفت که طرف\u200cهای مقابل باید با اراده سیاسی لازم در گفت\u200cوگوها شرکت کنند.",
         "او افزود که ایران همواره به تعهدات خود پایبند بوده و اکنون نوبت کشورهای اروپایی است."]
PAGE = ("<html><head><title>مذاکرات</title><meta property='article:published_time' content='2023-11-06T08:00:00Z'>"
        "</head><body><ul>" + "".join(f"<li><a href='/{i}'>بخش {i}</a></li>" for i in range(8)) + "</ul><div>"
        + "".join(f"<p>{p}</p>" for p in PARAS) + "</div><footer>©</footer></body></html>")


def _warc(path, records):
    with open(path, "wb") as f:
        writer = WARCWriter(f, gzip=True)
        for url, status, ctype, body in records:
            headers = StatusAndHeaders(f"{status} X", [("Content-Type", ctype)], protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(url, "response", payload=BytesIO(body), http_headers=headers))


def test_reextract_without_items(tmp_path, capsys):
    warc = tmp_path / "a.warc.gz"
    _warc(warc, [("http://127.0.0.1/a", 200, "text/html; charset=utf-8", PAGE.encode("utf-8")),
                 ("http://127.0.0.1/b", 404, "text/html", b"gone"),
                 ("http://127.0.0.1/c.png", 200, "image/png", b"\x89PNG"),
                 ("http://127.0.0.1/d", 200, "text/html", PAGE.encode("utf-8"))])
    out = tmp_path / "c.jsonl"
    args = Namespace(warcs=[str(warc)], output=str(out), algorithm="dana", param=None, profile=None,
                     dedup_db=str(tmp_path / "d.sqlite"), items=None, all_pages=False)
    assert reextract.run(args) == 0
    recs = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert [r["url"] for r in recs] == ["http://127.0.0.1/a", "http://127.0.0.1/d"]
    a, d = recs
    assert a["status"] == "ok" and "هسته\u200cای" in a["text"] and a["lang_detected"] == "fa"
    assert a["published"] == "2023-11-06T08:00:00+00:00" and a["published_source"] == "meta"
    assert a["warc_record_id"].startswith("<urn:uuid:") and a["site"] == "127.0.0.1"
    assert d["duplicate_of"] == "http://127.0.0.1/a" and d["duplicate_kind"] == "exact"
    assert "http_status 1" in capsys.readouterr().out
    # the dedup store persists: a second run finds /a unchanged (not a copy of itself) and /d
    # still a copy of the first run's /a
    args.output = str(tmp_path / "c2.jsonl")
    assert reextract.run(args) == 0
    a2, d2 = [json.loads(x) for x in open(args.output, encoding="utf-8")]
    assert a2["duplicate_of"] is None and a2["unchanged_since"]
    assert d2["duplicate_of"] == "http://127.0.0.1/a" and d2["unchanged_since"]


def test_reextract_items_without_record_ids(tmp_path, capsys):
    warc = tmp_path / "a.warc.gz"
    _warc(warc, [("http://127.0.0.1/a", 200, "text/html", PAGE.encode("utf-8"))])
    items = tmp_path / "old.jsonl"
    items.write_text('{"url": "http://127.0.0.1/a"}\n', "utf-8")
    args = Namespace(warcs=[str(warc)], output=str(tmp_path / "c.jsonl"), algorithm=None, param=None, profile=None,
                     dedup_db=None, items=str(items), all_pages=False)
    assert reextract.run(args) == 2
    assert "no warc_record_id" in capsys.readouterr().err
