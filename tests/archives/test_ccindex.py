"""from-cc-index: a Common Crawl columnar index (built here from the test WARCs, Common Crawl's column
names and types) selects records, each fetched by one range request from a server on 127.0.0.1; the
items are from-warc's on the same records."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")

from ccfixture import build_index  # noqa: E402
from httpserver import Server  # noqa: E402
from test_remote import _items, _server_process, kill_half_way, stable  # noqa: E402
from warcio.warcwriter import WARCWriter  # noqa: E402
from warcs import PARAS_AR, PARAS_EN, PARAS_FA, make_warcs, metadata, page, response, variant  # noqa: E402

from mcecrawl.archives.ccindex import cc_languages, expand_index, select  # noqa: E402
from mcecrawl.archives.run import RunOptions, run  # noqa: E402


def mixed_warc(root: Path) -> Path:
    """Records the selection must tell apart: a cp1256 page whose charset only Common Crawl's detector
    knows, an Arabic page, an English one, a 404, a PDF, an old capture."""
    path = root / "crawl" / "mixed.warc.gz"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        w = WARCWriter(f, gzip=True)
        fa_1256 = page(variant(PARAS_FA, "m1")).replace("ی", "ي").encode("cp1256")
        rid = response(w, "http://news.ir/fa/1", fa_1256, ctype="text/html")
        metadata(w, "http://news.ir/fa/1", rid, b"charset-detected: windows-1256\r\n")
        response(w, "http://news.eg/ar/1", page(variant(PARAS_AR, "m2")).encode())
        response(w, "http://news.com/en/1", page(PARAS_EN, title="x").encode())
        response(w, "http://news.ir/fa/gone", page(variant(PARAS_FA, "m3")).encode(), status="404 Not Found")
        response(w, "http://news.ir/fa/doc.pdf", b"%PDF-1.4 " + "خبر".encode() * 50, ctype="application/pdf")
        response(w, "http://old.ir/fa/1", page(variant(PARAS_FA, "m4")).encode(), date="2019-03-01T00:00:00Z")
    return path


def _setup(tmp_path, n_files=3, per_file=6):
    warcs = make_warcs(tmp_path, n_files, per_file) + [mixed_warc(tmp_path)]
    index = tmp_path / "cc-index" / "subset=warc" / "part-00000.parquet"
    build_index(warcs, tmp_path, index)
    return warcs, index


def test_select_filters_language_type_status_host_date(tmp_path):
    _, index = _setup(tmp_path, n_files=1)
    files, missing = expand_index([str(tmp_path / "cc-index"), str(tmp_path / "nothing*.parquet")])
    assert files == [str(index)] and missing == [str(tmp_path / "nothing*.parquet")]

    def urls(**kw):
        sel = select(files, base_url="http://h/", **kw)
        return sorted(u for s in sel.sets for u in s.urls)

    fa = urls(langs=("fa",))
    assert "http://news.ir/fa/1" in fa and "http://old.ir/fa/1" in fa and len(fa) == 6 + 1 + 2
    assert "http://news.ir/fa/gone" not in fa and "http://news.ir/fa/doc.pdf" not in fa  # 404, not HTML
    assert urls(langs=("ar",)) == ["http://news.eg/ar/1"]
    assert urls(langs=("fa", "ar"), hosts=("news.ir", ".eg")) == ["http://news.eg/ar/1", "http://news.ir/fa/1"]
    assert "http://old.ir/fa/1" not in urls(langs=("fa",), since="2020-01-01")
    assert len(urls(langs=None)) == 6 * 2 + 1 + 3 + 1  # every HTML 200 capture
    import pyarrow as pa
    import pyarrow.parquet as pq

    spark = tmp_path / "spark" / "part.parquet"  # fetch_time as Spark writes it: INT96, no time zone
    spark.parent.mkdir()
    table = pq.read_table(index)
    naive = table.column("fetch_time").cast(pa.timestamp("us")).cast(pa.timestamp("ns"))
    pq.write_table(table.set_column(table.schema.get_field_index("fetch_time"), "fetch_time", naive), spark,
                   use_deprecated_int96_timestamps=True)
    assert pq.read_schema(spark).field("fetch_time").type == pa.timestamp("ns")
    since = select([str(spark)], langs=("fa",), since="2020-01-01", base_url="http://h/")
    assert sorted(u for s in since.sets for u in s.urls) == [u for u in fa if u != "http://old.ir/fa/1"]
    sel = select(files, langs=("fa",), base_url="http://h/base")
    assert sel.sets[0].warc == "http://h/base/crawl/mixed.warc.gz" and sel.sets[0].charsets[0] == "windows-1256"
    assert list(sel.sets[0].offsets) == sorted(sel.sets[0].offsets)
    assert cc_languages(("fa", "ur", "ps")) == ("fas", "urd", "pus")
    with pytest.raises(ValueError):
        cc_languages(("xx",))


def test_items_equal_from_warc_on_the_selected_records(tmp_path, capsys):
    from mcecrawl.cli import main

    warcs, index = _setup(tmp_path)
    with Server(tmp_path) as srv:
        out = tmp_path / "cc.jsonl"
        assert main(["from-cc-index", f"{srv.url}/cc-index/subset=warc/part-00000.parquet", "--base-url", srv.url,
                     "-o", str(out), "--workers", "1", "--json"]) == 0
        summary = json.loads(capsys.readouterr().out)
        index_sent = srv.state.sent["/cc-index/subset=warc/part-00000.parquet"]
        warc_sent = srv.bytes_sent() - index_sent
        sel = select([str(index)], langs=("fa", "ar", "ur", "ps"), base_url=srv.url)
        assert summary["selected"] == sel.records == 3 * 7 + 3 and summary["fetched"] == sel.records
        assert summary["bytes"] == warc_sent <= 1.1 * sel.record_bytes  # only the selected records
        assert 0 < summary["index_bytes"] == index_sent
        whole = tmp_path / "whole.jsonl"
        run(RunOptions(sorted(f"{srv.url}/crawl/{w.name}" for w in warcs), str(whole), workers=1))
    selected = {u for s in sel.sets for u in s.urls}
    want = [i for i in _items(whole) if i["url"] in selected]
    got = _items(out)
    strip = lambda items: sorted(({k: v for k, v in i.items() if k != "extraction_ms"} for i in items),  # noqa: E731
                                 key=lambda i: i["url"])
    assert len(got) == 3 * 7 + 3  # the old capture is kept: no --since
    assert strip(got) == strip(want)
    fa = {i["url"]: i for i in got}["http://news.ir/fa/1"]
    assert fa["encoding_original"] == "cp1256" and "هسته\u200cاي" in fa["text"]  # content_charset was evidence
    assert summary["kept"] == len(got) and summary["duplicates"] == 3


def test_faults_and_bad_rows_are_counted(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    warcs, index = _setup(tmp_path, n_files=2)
    table = pq.read_table(index)
    rows = [r for r in table.to_pylist() if r["content_languages"].startswith("fas")][:2]
    rows[0]["warc_record_offset"] += 5  # inside a record: no gzip member starts there
    rows[1]["warc_record_offset"] = 10 ** 8  # past the end of the file
    rows[1]["url"] = "http://site0.ir/far"
    bad = tmp_path / "bad-index" / "part.parquet"
    bad.parent.mkdir()
    pq.write_table(pa.concat_tables([table, pa.Table.from_pylist(rows, schema=table.schema)]), bad)
    with Server(tmp_path) as srv:
        sel = select([str(index)], langs=("fa", "ar"), base_url=srv.url)
        ref = run(RunOptions(sel.sets, str(tmp_path / "ref.jsonl"), workers=1))
        f = srv.state.faults
        f.busy, f.retry_after, f.cut_after = 3, "0", 300  # 503 thrice, then one record cut mid-body
        from mcecrawl.archives.remote import FetchOptions, Retry

        s = run(RunOptions(sel.sets, str(tmp_path / "faulty.jsonl"), workers=1,
                           fetch=FetchOptions(retry=Retry(base=0.01), concurrency=3)))
        assert stable(_items(tmp_path / "faulty.jsonl")) == stable(_items(tmp_path / "ref.jsonl"))
        assert s.retries >= 4 and s.kept == ref.kept and not s.unreadable and srv.state.statuses[503] == 3
        bad_sel = select([str(bad)], langs=("fa", "ar"), base_url=srv.url)
        s = run(RunOptions(bad_sel.sets, str(tmp_path / "bad.jsonl"), workers=1))
    assert s.kept == ref.kept and s.reasons["bad_range"] == 1 and s.reasons["bad_record"] == 1
    assert stable(_items(tmp_path / "bad.jsonl")) == stable(_items(tmp_path / "ref.jsonl"))


def test_resume_after_kill_9(tmp_path):
    warcs, index = _setup(tmp_path, n_files=6, per_file=8)
    server, url = _server_process(tmp_path, tmp_path)
    try:
        out = tmp_path / "killed"
        cmd = [sys.executable, "-m", "mcecrawl", "from-cc-index", str(index), "--base-url", url, "-o", str(out),
               "--workers", "1"]
        kill_half_way(cmd, out / "_state.json", 7)
        full = tmp_path / "full.jsonl"
        run(RunOptions(select([str(index)], langs=("fa", "ar", "ur", "ps"), base_url=url).sets, str(full),
                       workers=1))
    finally:
        server.kill()
        server.wait()
    resumed = _items(out)
    assert len(resumed) == 6 * 9 + 3 and stable(resumed) == stable(_items(full))


def test_remote_and_index_modules_import_no_scrapy():
    import subprocess

    from test_remote import ROOT

    code = ("import sys, json, mcecrawl.archives.remote, mcecrawl.archives.ccindex, mcecrawl.commands.from_cc_index\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'scrapy')))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert json.loads(out.stdout) == []
