"""``from-warc`` runs end to end: encodings, language and script filters, duplicates across WARCs,
workers, outputs, resume after kill -9."""
from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest
from warcio.warcwriter import WARCWriter
from warcs import PARAS_AR, PARAS_EN, PARAS_FA, kill_half_way, metadata, page, response, write_warc

from mcecrawl.archives.pages import PageConfig
from mcecrawl.archives.run import RunOptions, run
from mcecrawl.corpus.files import iter_items

ROOT = Path(__file__).resolve().parents[2]


def _variant(paras, i):
    """``paras`` with a paragraph of words only this variant has (no near-duplicate of the others)."""
    import random

    rnd = random.Random(str(i))
    letters = "ابپتثجچحخدذرزژسشصطعغفقکگلمنوهی" if paras is not PARAS_EN else "abcdefghijklmnopqrstuvwxyz"
    words = ["".join(rnd.choice(letters) for _ in range(rnd.randint(3, 7))) for _ in range(80)]
    return [*paras, " ".join(words) + "."]


def _items(path):
    return list(iter_items([path]))


def test_encodings_languages_and_provenance(tmp_path):
    fa_1256 = page(PARAS_FA, meta_charset="utf-8").replace("ی", "ي").encode("cp1256")  # a lying <meta>
    ar_iso = page(PARAS_AR, title="خبر").encode("iso8859-6")
    path = tmp_path / "a.warc.gz"
    with open(path, "wb") as f:
        w = WARCWriter(f, gzip=True)
        response(w, "http://news.ir/fa/1", fa_1256, ctype="text/html; charset=utf-8")  # lying header too
        rid = response(w, "http://news.eg/ar/1", ar_iso, ctype="text/html")  # no label at all
        metadata(w, "http://news.eg/ar/1", rid, b"charset-detected: ISO-8859-6\r\n")
        response(w, "http://news.com/en/1", page(PARAS_EN, title="News").encode())
        response(w, "http://news.ir/fa/2", page(_variant(PARAS_FA, 2)).encode("utf-16"), ctype="text/html")
    out = tmp_path / "c.jsonl"
    s = run(RunOptions([str(path)], str(out), workers=1))
    items = {i["url"]: i for i in _items(out)}
    assert set(items) == {"http://news.ir/fa/1", "http://news.eg/ar/1", "http://news.ir/fa/2"}
    fa = items["http://news.ir/fa/1"]
    assert fa["encoding_original"] == "cp1256" and "هسته\u200cاي" in fa["text"] and fa["lang"] == "fa"
    assert fa["encoding_declared_header"] == "utf-8" and fa["encoding_replacements"] == 0
    assert items["http://news.eg/ar/1"]["encoding_original"] == "iso8859-6"
    assert items["http://news.eg/ar/1"]["lang"] == "ar" and "مستشفى" in items["http://news.eg/ar/1"]["text"]
    assert items["http://news.ir/fa/2"]["encoding_source"] == "bom"
    assert fa["warc_file"] == str(path) and fa["warc_offset"] == 0 and fa["warc_record_id"].startswith("<urn:")
    assert fa["fetched_at"] and fa["schema_version"] and fa["site"] == "news.ir"
    assert s.reasons == {"prefilter": 1} and s.records == 4 and s.kept == 3


def test_titles_and_dates_read_from_one_parse_of_the_page(tmp_path, monkeypatch):
    """The item's title (og:title, else the <h1>s, else <title>) and its dates come from one parse of
    the page; an XHTML page that declares its encoding in an XML declaration is read as HTML, as a
    crawl's selectors read it: its <title> and its JSON-LD date are found (parsel read it as XML,
    where the namespaced <title> is no "title", and lxml refused the string for the dates)."""
    from mcecrawl.corpus import dates

    calls = []
    parse = dates.parse_page
    monkeypatch.setattr(dates, "parse_page", lambda html: calls.append(1) or parse(html))
    body = "".join(f"<p>{p}</p>" for p in PARAS_FA)
    xhtml = ('<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml" lang="fa"><head>'
             '<title>عنوان صفحه</title><script type="application/ld+json">{"@type": "NewsArticle", '
             '"datePublished": "2024-03-05T10:00:00Z"}</script></head><body><article>'
             f"{body}</article></body></html>")
    og_title = '<head><meta property="og:title" content=" سرخط  خبر ">'
    og = page(_variant(PARAS_FA, 3), title="خبر").replace("<head>", og_title)
    path = tmp_path / "a.warc.gz"
    write_warc(path, [("http://a.ir/x", xhtml.encode()), ("http://a.ir/og", og.encode())])
    out = tmp_path / "c.jsonl"
    run(RunOptions([str(path)], str(out), workers=1))
    items = {i["url"]: i for i in _items(out)}
    assert items["http://a.ir/x"]["title"] == "عنوان صفحه"
    assert items["http://a.ir/x"]["published"].startswith("2024-03-05")
    assert items["http://a.ir/og"]["title"] == "سرخط خبر"
    assert len(calls) == 2  # one parse per record


def test_items_follow_the_item_schema(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "mcecrawl" / "schema" / "item.schema.json").read_text("utf-8"))
    path = tmp_path / "a.warc.gz"
    write_warc(path, [("http://a.ir/1", page(PARAS_FA).encode()), ("http://b.eg/1", page(PARAS_AR).encode())])
    out = tmp_path / "c.jsonl.gz"
    run(RunOptions([str(path)], str(out), workers=1, config=PageConfig(langs=None)))
    items = _items(out)
    assert len(items) == 2
    for item in items:
        errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(item)]
        assert not errors and item["lang"] in ("fa", "ar") and item["algorithm"] == "scored_regions"


def test_binary_payloads_labelled_html(tmp_path):
    path = tmp_path / "a.warc.gz"
    write_warc(path, [("http://a.ir/doc", b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj" + bytes(range(256)) * 40),
                      ("http://a.ir/img", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40),
                      ("http://a.ir/1", page(PARAS_FA).encode())])
    s = run(RunOptions([str(path)], str(tmp_path / "c.jsonl"), workers=1, config=PageConfig(prefilter=False)))
    assert s.kept == 1 and s.reasons == {"binary_payload": 2}


def test_filters_hosts_dates_and_lang_he(tmp_path):
    from mcecrawl.archives.pages import host_matches

    assert host_matches("www.bbc.co.uk", ("bbc.co.uk",)) and host_matches("a.b.ir", (".ir",))
    assert not host_matches("notbbc.co.uk", ("bbc.co.uk",))
    path = tmp_path / "a.warc.gz"
    write_warc(path, [("http://a.ir/1", page(PARAS_FA).encode()), ("http://b.eg/1", page(PARAS_AR).encode())])
    out = tmp_path / "c.jsonl"
    s = run(RunOptions([str(path)], str(out), workers=1, config=PageConfig(hosts=(".ir",))))
    assert [i["url"] for i in _items(out)] == ["http://a.ir/1"] and s.reasons == {"host": 1}
    s = run(RunOptions([str(path)], str(tmp_path / "d.jsonl"), workers=1, config=PageConfig(since="2024-01-01")))
    assert s.kept == 0 and s.reasons == {"date": 2}  # published 2023-11-06
    s = run(RunOptions([str(path)], str(tmp_path / "e.jsonl"), workers=1, config=PageConfig(langs=("he",))))
    assert s.kept == 0 and s.reasons == {"prefilter": 2}


def _corpus_warcs(tmp_path, n_files=4, per_file=6):
    warcs = []
    for k in range(n_files):
        pages = []
        for i in range(per_file):
            pages.append((f"http://site{k}.ir/{i}", page(_variant(PARAS_FA, f"{k}-{i}")).encode()))
            pages.append((f"http://site{k}.com/{i}", page(_variant(PARAS_EN, f"{k}-{i}"), title="x").encode()))
        pages.append((f"http://copy{k}.ir/0", page(_variant(PARAS_FA, "0-0")).encode()))  # copy of site0.ir/0
        path = tmp_path / f"w{k}.warc.gz"
        write_warc(path, pages)
        warcs.append(str(path))
    return warcs


def test_duplicates_across_warcs_and_workers_agree(tmp_path):
    warcs = _corpus_warcs(tmp_path)
    one = run(RunOptions(warcs, str(tmp_path / "one"), workers=1))
    two = run(RunOptions(warcs, str(tmp_path / "two"), workers=2))
    a = {i["url"]: i for i in _items(tmp_path / "one")}
    b = {i["url"]: i for i in _items(tmp_path / "two")}
    assert set(a) == set(b) and len(a) == 4 * 7
    assert [a[u]["text"] for u in sorted(a)] == [b[u]["text"] for u in sorted(b)]
    dups = sorted(u for u, i in a.items() if i["duplicate_of"])
    assert dups == [f"http://copy{k}.ir/0" for k in range(4)]  # 5 copies of one text: 4 duplicates
    assert {a[u]["duplicate_of"] for u in dups} == {"http://site0.ir/0"}
    assert sum(1 for i in b.values() if i["duplicate_of"]) == 4  # any WARC may finish first
    assert one.kept == two.kept == 28 and one.reasons == two.reasons == {"prefilter": 24}
    shards = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert shards == ["_state.json"] + [f"w{k}.jsonl.gz" for k in range(4)]


def test_rerun_skips_done_warcs(tmp_path):
    warcs = _corpus_warcs(tmp_path, n_files=2)
    out = tmp_path / "c.jsonl.gz"
    run(RunOptions(warcs, str(out), workers=1))
    first = out.read_bytes()
    s = run(RunOptions(warcs, str(out), workers=1))
    assert s.files_skipped == 2 and s.records == 0 and out.read_bytes() == first


@pytest.mark.parametrize("suffix", [".jsonl.gz", ".jsonl", ""])
def test_resume_after_kill_9(tmp_path, suffix):
    warcs = _corpus_warcs(tmp_path, n_files=6, per_file=8)
    out = tmp_path / f"killed{suffix}"
    state = Path(str(out) + ".state.json") if suffix else out / "_state.json"
    cmd = [sys.executable, "-m", "mcecrawl", "from-warc", *warcs, "-o", str(out), "--workers", "1"]
    env = kill_half_way(cmd, state, 6)
    if suffix == ".jsonl.gz":  # a member cut while written
        with open(out, "ab") as f:
            f.write(gzip.compress(b'{"url": "half"}\n' * 50)[:40])
    elif suffix == ".jsonl":
        with open(out, "ab") as f:
            f.write(b'{"url": "ha')
    assert subprocess.run(cmd, env=env, capture_output=True).returncode == 0
    resumed = _items(out)
    full = tmp_path / f"full{suffix}"
    run(RunOptions(warcs, str(full), workers=1))
    expected = _items(full)
    key = lambda i: i["url"]  # noqa: E731
    assert sorted(map(key, resumed)) == sorted(map(key, expected))  # each once, none lost
    assert len(resumed) == 6 * 9
    got = {i["url"]: (i["duplicate_of"], i["unchanged_since"], i["text"]) for i in resumed}
    want = {i["url"]: (i["duplicate_of"], i["unchanged_since"], i["text"]) for i in expected}
    assert got == want  # not duplicates of themselves
