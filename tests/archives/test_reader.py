"""Reading WARCs with bad input: every bad record is a counted reason, the good ones after it survive."""
from __future__ import annotations

import gzip
import zlib
from io import BytesIO

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter
from warcs import PARAS_FA, metadata, page, response, write_warc

from mcecrawl.archives.reader import (
    CORRUPT_REASONS,
    Record,
    Rejected,
    iter_records,
    undo_chunking,
    undo_content_encoding,
)

GOOD = page(PARAS_FA).encode("utf-8")


def _read(path):
    items = list(iter_records(path))
    return [i for i in items if isinstance(i, Record)], [i for i in items if isinstance(i, Rejected)]


@pytest.mark.parametrize("gz", [True, False])
def test_good_records_and_kinds(tmp_path, gz):
    path = tmp_path / ("a.warc.gz" if gz else "a.warc")
    with open(path, "wb") as f:
        w = WARCWriter(f, gzip=gz)
        rid = response(w, "http://x.ir/a", GOOD, ctype="text/html")
        metadata(w, "http://x.ir/a", rid, b"fetchTimeMs: 12\r\ncharset-detected: windows-1256\r\n")
        response(w, "http://x.ir/404", b"gone", status="404 Not Found")
        response(w, "http://x.ir/img", b"\x89PNG....", ctype="image/png")
        response(w, "http://x.ir/empty", b"")
        w.write_record(w.create_warc_record(
            "http://x.ir/pdf", "response", payload=BytesIO(b"%PDF-1.4 ..."),
            http_headers=StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1"),
            warc_headers_dict={"WARC-Identified-Payload-Type": "application/pdf"}))
        w.write_record(w.create_revisit_record("http://x.ir/a", "sha1:XYZ", "http://x.ir/a", "2020-01-01T00:00:00Z"))
        response(w, "http://x.ir/b", GOOD)
    recs, rej = _read(path)
    assert [r.url for r in recs] == ["http://x.ir/a", "http://x.ir/b"]
    assert recs[0].charset_detected == "windows-1256" and recs[1].charset_detected is None
    assert recs[0].body == GOOD and recs[0].record_id.startswith("<urn:uuid:") and recs[0].date
    assert sorted(r.reason for r in rej) == ["empty_payload", "http_status", "not_html", "not_html", "not_response",
                                             "revisit"]


@pytest.mark.parametrize("share", [0.1, 0.3, 0.5, 0.7, 0.9, 0.99])
def test_truncated_gzip_member_skipped_next_kept(tmp_path, share):
    path = tmp_path / "a.warc.gz"
    offsets = write_warc(path, [(f"http://x.ir/{i}", GOOD) for i in range(4)])
    data = path.read_bytes()
    cut = data[:offsets[1] + int((offsets[2] - offsets[1]) * share)] + data[offsets[2]:]  # member 1 cut short
    path.write_bytes(cut)
    recs, rej = _read(path)
    assert [r.url for r in recs] == ["http://x.ir/0", "http://x.ir/2", "http://x.ir/3"]
    assert all(r.body == GOOD for r in recs)
    # the cut member fails to parse, or inflates on into the next member: a record of garbage
    # whose payload digest or HTTP head tells
    assert rej and {r.reason for r in rej} <= CORRUPT_REASONS


def test_a_cut_member_inflated_into_the_next_ones_loses_none_of_their_records():
    """A gzip member cut short can inflate on into the members after it as the cut record's payload
    (here a garbage HTTP head: 7 of 400 random WARCs cut at 30 %): the records of those members are
    read again from the first member the stream skipped, not lost.  The fixture is such a WARC: four
    records, the second cut at 30 % of its member."""
    from pathlib import Path

    recs, rej = _read(Path(__file__).parent / "data" / "cut_member_inflated_on.warc.gz")
    assert [r.url for r in recs] == ["http://x.ir/0", "http://x.ir/2", "http://x.ir/3"]
    assert all(r.body == GOOD for r in recs)
    assert [(r.reason, r.offset) for r in rej] == [("bad_http_headers", 783)]


def test_truncated_file_end(tmp_path):
    path = tmp_path / "a.warc.gz"
    write_warc(path, [(f"http://x.ir/{i}", GOOD) for i in range(3)])
    path.write_bytes(path.read_bytes()[:-200])
    recs, rej = _read(path)
    assert [r.url for r in recs] == ["http://x.ir/0", "http://x.ir/1"]
    assert [r.reason for r in rej] == ["truncated_record"]


@pytest.mark.parametrize("delta", [+300, -300])
def test_lying_content_length(tmp_path, delta):
    path = tmp_path / "a.warc"
    write_warc(path, [(f"http://x.ir/{i}", GOOD) for i in range(4)], gzip_records=False)
    data = path.read_bytes()
    start = data.index(b"http://x.ir/1")
    i = data.index(b"Content-Length: ", start) + len(b"Content-Length: ")
    j = data.index(b"\r\n", i)
    data = data[:i] + str(int(data[i:j]) + delta).encode() + data[j:]
    path.write_bytes(data)
    recs, rej = _read(path)
    urls = [r.url for r in recs]
    assert "http://x.ir/0" in urls and "http://x.ir/2" in urls and "http://x.ir/3" in urls
    assert any(r.reason == "bad_record" for r in rej)


def test_garbage_http_headers_and_garbage_between_records(tmp_path):
    path = tmp_path / "a.warc"
    with open(path, "wb") as f:
        w = WARCWriter(f, gzip=False)
        response(w, "http://x.ir/0", GOOD)
        f.write(b"\x00\xffgarbage that is no record\r\n\r\n" * 3)
        block = b"\x01\x02 no http here\r\n\r\n"
        f.write(b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:1>\r\n"
                b"WARC-Target-URI: http://x.ir/1\r\nWARC-Date: 2020-01-01T00:00:00Z\r\n"
                b"Content-Type: application/http; msgtype=response\r\nContent-Length: "
                + str(len(block)).encode() + b"\r\n\r\n" + block + b"\r\n\r\n")
        response(w, "http://x.ir/2", GOOD)
    recs, rej = _read(path)
    assert [r.url for r in recs] == ["http://x.ir/0", "http://x.ir/2"]
    assert {r.reason for r in rej} <= {"bad_record", "bad_http_headers"} and rej


def test_big_body_and_gzip_bomb(tmp_path):
    path = tmp_path / "a.warc.gz"
    bomb = gzip.compress(b"<p>" + b"a" * (40 << 20))  # 40 MB of HTML in ~40 KB
    with open(path, "wb") as f:
        w = WARCWriter(f, gzip=True)
        response(w, "http://x.ir/big", b"<html>" + b"x" * (50 << 20))
        response(w, "http://x.ir/bomb", bomb, headers=[("Content-Encoding", "gzip")])
        response(w, "http://x.ir/bad-gzip", b"\x1f\x8b\x08\x00garbage", headers=[("Content-Encoding", "gzip")])
        response(w, "http://x.ir/ok", gzip.compress(GOOD), headers=[("Content-Encoding", "gzip")])
    recs, rej = _read(path)
    assert [r.url for r in recs] == ["http://x.ir/ok"] and recs[0].body == GOOD
    assert [r.reason for r in rej] == ["too_large", "decompression_bomb", "bad_content_encoding"]


def test_not_a_warc_and_missing_file(tmp_path):
    arc = tmp_path / "a.arc"
    arc.write_bytes(b"filedesc://a.arc 0.0.0.0 20140101000000 text/plain 75\n1 0 Internet Archive\n")
    assert [(r.reason) for r in iter_records(arc)] == ["not_warc"]
    html = tmp_path / "page.warc"
    html.write_bytes(GOOD)
    assert [r.reason for r in iter_records(html)] == ["not_warc"]
    assert [r.reason for r in iter_records(tmp_path / "missing.warc")] == ["unreadable_file"]


def test_whole_file_gzip(tmp_path):
    plain = tmp_path / "a.warc"
    write_warc(plain, [(f"http://x.ir/{i}", GOOD) for i in range(3)], gzip_records=False)
    whole = tmp_path / "b.warc.gz"
    whole.write_bytes(gzip.compress(plain.read_bytes()))
    recs, rej = _read(whole)
    assert [r.url for r in recs] == [f"http://x.ir/{i}" for i in range(3)] and not rej


def test_content_encodings():
    import brotli

    assert undo_content_encoding(zlib.compress(GOOD), "deflate") == GOOD
    assert undo_content_encoding(brotli.compress(GOOD), "br") == GOOD
    assert undo_content_encoding(GOOD, "gzip") == GOOD  # labelled, stored inflated
    assert undo_chunking(b"5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n") == b"hello world"
    assert undo_chunking(GOOD) == GOOD  # labelled chunked, stored de-chunked


# warcio's test archives (third-party files, not in this repository): the folder named here, e.g.
# `git clone https://github.com/webrecorder/warcio && export MCE_WARCIO_TEST_DATA=$PWD/warcio/test/data`.
# Their cases the reader must handle are also built by the tests above and tests/archives/test_truncated.py.
WARCIO_TEST_DATA_ENV = "MCE_WARCIO_TEST_DATA"


def test_warcio_test_archives(tmp_path):
    """warcio's own test archives (chunked, truncated, wrong chunks, bad gzip, ARC): no exception,
    every response page of the WARCs read."""
    import os
    import shutil
    from pathlib import Path

    folder = os.environ.get(WARCIO_TEST_DATA_ENV)
    if not folder or not Path(folder).is_dir():
        pytest.skip(f"warcio's test archives are third-party files: set {WARCIO_TEST_DATA_ENV} to the test/data "
                    "folder of a warcio checkout (https://github.com/webrecorder/warcio) to run this test")
    names = sorted(p.name for p in Path(folder).iterdir() if p.is_file())
    assert len(names) >= 16
    pages, reasons = {}, {}
    for name in names:
        target = tmp_path / name
        shutil.copyfile(Path(folder) / name, target)
        items = list(iter_records(target))
        pages[target.name] = [i for i in items if isinstance(i, Record)]
        reasons[target.name] = [i.reason for i in items if isinstance(i, Rejected) and i.reason != "not_response"]
        if target.name.endswith((".arc", ".arc.gz")):
            assert [i.reason for i in items] == ["not_warc"]
    assert len(pages["example-iana.org-chunked.warc"][0].body) < 7238  # de-chunked
    assert pages["example-wrong-chunks.warc.gz"] and pages["example.warc"] and pages["example.warc.gz"]
    assert reasons["example-trunc.warc"] == ["truncated_record", "bad_record"]  # its page is cut short
    # the whole run over all 16: no exception, the ARC files each one clear line
    from mcecrawl.archives.pages import PageConfig
    from mcecrawl.archives.run import RunOptions, run

    files = sorted(str(p) for p in tmp_path.iterdir() if p.is_file())
    summary = run(RunOptions(files, str(tmp_path / "out.jsonl"), workers=1,
                             config=PageConfig(langs=None, keep_failed=True)))
    assert summary.reasons["not_warc"] == 4 and len(summary.unreadable) == 4
    assert summary.kept >= 6  # example.com / iana.org pages of the readable WARCs
    assert pages["example-bad.warc.gz.bad"] and pages["example-wget-bad-target-uri.warc.gz"]
