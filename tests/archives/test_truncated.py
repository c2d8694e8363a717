"""A WARC payload cut short is rejected as ``truncated_record`` (not as a digest mismatch), and
``--keep-failed`` keeps it with that status.  The records are built here as warcio's own
``example-trunc.warc`` is: the HTTP ``Content-Length`` counts the whole page, the payload stops early
and the payload digest is of the whole page; or the record says ``WARC-Truncated``."""
from __future__ import annotations

import base64
import gzip
import hashlib
import json
from io import BytesIO

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter
from warcs import PARAS_FA, page, response

from mcecrawl.archives.pages import PageConfig
from mcecrawl.archives.reader import Record, Rejected, iter_records
from mcecrawl.archives.run import RunOptions, run
from mcecrawl.cli import main

WHOLE = page(PARAS_FA * 4).encode("utf-8")
CUT = WHOLE[: len(WHOLE) * 2 // 3]


def _sha1(data: bytes) -> str:
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode("ascii")


def _write(path, *, gz: bool = False) -> None:
    buf = BytesIO()
    w = WARCWriter(buf, gzip=False)
    # HTTP Content-Length of the whole page, the payload cut (the digest, of the whole page, is set below)
    http = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8"),
                                       ("Content-Length", str(len(WHOLE)))], protocol="HTTP/1.1")
    w.write_record(w.create_warc_record("http://x.ir/cut", "response", payload=BytesIO(CUT), http_headers=http))
    # a crawler's own cut (Common Crawl: payloads over 1 MiB), marked as such
    marked = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
    w.write_record(w.create_warc_record("http://x.ir/marked", "response", payload=BytesIO(CUT),
                                        http_headers=marked, warc_headers_dict={"WARC-Truncated": "length"}))
    response(w, "http://x.ir/whole", WHOLE, headers=[("Content-Length", str(len(WHOLE)))])
    data = buf.getvalue().replace(_sha1(CUT).encode(), _sha1(WHOLE).encode(), 1)  # warcio digests what it writes
    assert _sha1(WHOLE).encode() in data
    path.write_bytes(gzip.compress(data) if gz else data)


def test_cut_payload_is_a_truncated_record(tmp_path):
    for gz in (False, True):
        path = tmp_path / f"t{int(gz)}.warc"
        _write(path, gz=gz)
        items = list(iter_records(path))
        assert [(i.url, i.reason, i.detail) for i in items if isinstance(i, Rejected)] == [
            ("http://x.ir/cut", "truncated_record",
             f"{len(CUT)} of the HTTP Content-Length's {len(WHOLE)} bytes"),
            ("http://x.ir/marked", "truncated_record", "WARC-Truncated: length")]
        assert [i.url for i in items if isinstance(i, Record)] == ["http://x.ir/whole"]
        kept = [i for i in iter_records(path, keep_truncated=True) if isinstance(i, Record)]
        assert [(r.url, r.truncated is not None, r.body == WHOLE) for r in kept] == [
            ("http://x.ir/cut", True, False), ("http://x.ir/marked", True, False), ("http://x.ir/whole", False, True)]


def test_run_counts_it_and_keep_failed_keeps_it_with_that_status(tmp_path):
    path = tmp_path / "t.warc.gz"
    _write(path, gz=True)
    out = tmp_path / "o.jsonl"
    summary = run(RunOptions([str(path)], str(out), workers=1, config=PageConfig(langs=None)))
    assert summary.reasons["truncated_record"] == 2 and "digest_mismatch" not in summary.reasons
    assert [json.loads(line)["url"] for line in out.read_text().splitlines()] == ["http://x.ir/whole"]
    kept = tmp_path / "k.jsonl"
    assert main(["from-warc", str(path), "-o", str(kept), "--lang", "all", "--keep-failed", "--workers", "1"]) == 0
    items = {i["url"]: i for i in map(json.loads, kept.read_text().splitlines())}
    assert items["http://x.ir/cut"]["status"] == "truncated_record"
    assert items["http://x.ir/cut"]["reason"].startswith(f"{len(CUT)} of the HTTP Content-Length")
    assert items["http://x.ir/marked"]["status"] == "truncated_record" and items["http://x.ir/whole"]["status"] == "ok"
    assert PARAS_FA[0] in items["http://x.ir/cut"]["text"]  # the cut page's text is there, flagged
