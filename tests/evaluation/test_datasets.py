"""Dataset loader on a tmp dataset in the ../shared/data format, plus a smoke test on the real one."""
from __future__ import annotations

import gzip
import json

import pytest

from mcecrawl.evaluation.datasets import dataset_sha256, load_dataset, site_of, strip_markup

ARABIC = "\u0627\u0644\u0639\u0631\u0628\u064a\u0629"  # العربية


def make_dataset(root):
    (root / "pages").mkdir(parents=True)
    (root / "gold").mkdir()
    (root / "gold_in_page").mkdir()
    rows = [
        {"id": "full1", "url": "https://www.example.com/a", "lang": "ar", "gold_kind": "full"},
        {"id": "cp", "site": "legacy.example", "lang": "ar", "gold_kind": "full", "http_charset": "windows-1256"},
        {"id": "snip", "url": "http://news.example.org/x", "lang": "fa", "gold_kind": "snippets",
         "with": ["a b"], "without": ["c"]},
        {"id": "gz", "lang": "he", "gold_kind": "full", "stored_gzip": True},
        {"id": "nogold", "lang": "en", "gold_kind": "full"},
    ]
    (root / "manifest.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n\n", encoding="utf-8")
    (root / "pages" / "full1.html").write_bytes(f"<p>{ARABIC}</p>".encode())
    (root / "gold" / "full1.txt").write_text(ARABIC + "\nheadline", encoding="utf-8")
    (root / "gold_in_page" / "full1.txt").write_text(ARABIC, encoding="utf-8")
    # windows-1256 bytes that are not valid UTF-8: only the Content-Type says what they are
    (root / "pages" / "cp.html").write_bytes(f"<p>{ARABIC}</p>".encode("cp1256"))
    (root / "gold" / "cp.txt").write_text(ARABIC, encoding="utf-8")
    (root / "pages" / "snip.html").write_bytes(b"<p>a b</p>")
    (root / "pages" / "gz.html").write_bytes(gzip.compress("<p>שלום</p>".encode()))
    (root / "gold" / "gz.txt").write_text("שלום", encoding="utf-8")
    (root / "pages" / "nogold.html").write_bytes(b"<p>x</p>")
    return root


def test_loader_reads_manifest_pages_and_gold(tmp_path):
    ds = load_dataset(make_dataset(tmp_path / "mini"))
    assert ds.name == "mini" and len(ds) == 5
    pages = {p.id: p for p in ds}
    full = pages["full1"]
    assert full.site == "example.com" and full.lang == "ar" and full.gold_kind == "full"
    assert full.gold == ARABIC + "\nheadline"
    assert full.gold_text("gold_in_page") == ARABIC and full.gold_text() == full.gold
    assert ARABIC in full.text and full.decoded.encoding == "utf-8"
    cp = pages["cp"]
    assert cp.site == "legacy.example" and cp.content_type == "text/html; charset=windows-1256"
    assert ARABIC in cp.text and cp.decoded.source == "header"
    assert cp.gold_text("gold_in_page") == ARABIC  # falls back to the full gold
    snip = pages["snip"]
    assert snip.gold_kind == "snippets" and snip.with_ == ("a b",) and snip.without == ("c",) and snip.gold is None
    assert snip.site == "news.example.org"
    assert "שלום" in pages["gz"].text
    assert pages["nogold"].gold_kind == "none"
    assert {p.id for p in ds.scored()} == {"full1", "cp", "snip", "gz"}
    assert [p.id for p in ds.filter(lang="ar")] == ["full1", "cp"]
    with pytest.raises(ValueError):
        full.gold_text("silver")


def test_loader_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="manifest"):
        load_dataset(tmp_path)
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "a.html").write_bytes(b"<p>a</p>")
    (tmp_path / "manifest.jsonl").write_text('{"id": "a"}\nnot json\n', encoding="utf-8")
    with pytest.raises(ValueError, match=":2:"):
        load_dataset(tmp_path)
    (tmp_path / "manifest.jsonl").write_text('{"id": "a"}\n{"id": "b"}\n', encoding="utf-8")
    with pytest.raises(FileNotFoundError, match="pages/b.html"):
        load_dataset(tmp_path)


def test_site_of():
    assert site_of({"site": "bbc.com/persian"}) == "bbc.com/persian"
    assert site_of({"url": "https://www.bbc.com/persian/x"}) == "bbc.com"
    assert site_of({"url": None}) == "unknown"


def test_sha256_changes_with_any_file(tmp_path):
    root = make_dataset(tmp_path / "mini")
    before = dataset_sha256(root)
    assert before == dataset_sha256(root)
    (root / "gold" / "cp.txt").write_text("changed", encoding="utf-8")
    assert dataset_sha256(root) != before


def test_shared_r2l_loads(shared_data):
    ds = load_dataset(shared_data / "r2l")
    assert len(ds) == 18
    assert {p.gold_kind for p in ds} == {"full", "snippets"}
    assert all(p.text for p in ds)


def test_loader_reads_gzipped_pages_as_wcxb_ships_them(tmp_path):
    """pages/<id>.html.gz, named by the manifest's page_file or found by the id; page_type kept."""
    root = tmp_path / "wcxb"
    (root / "pages").mkdir(parents=True)
    (root / "gold").mkdir()
    rows = [{"id": "0001", "page_file": "pages/0001.html.gz", "page_type": "listing", "gold_kind": "full"},
            {"id": "0002", "page_type": "forum", "gold_kind": "full"}]
    (root / "manifest.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    for pid in ("0001", "0002"):
        (root / "pages" / f"{pid}.html.gz").write_bytes(gzip.compress(f"<p>page {pid}</p>".encode()))
        (root / "gold" / f"{pid}.txt").write_text(f"page {pid}", encoding="utf-8")
    pages = {p.id: p for p in load_dataset(root)}
    assert pages["0001"].body == b"<p>page 0001</p>" and "page 0002" in pages["0002"].text
    assert [pages[i].page_type for i in ("0001", "0002")] == ["listing", "forum"]
    rows[0]["page_file"] = "pages/missing.html.gz"
    (root / "manifest.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    with pytest.raises(FileNotFoundError, match="pages/missing.html.gz"):
        load_dataset(root)


def test_strip_markup_removes_page_type_markup_and_keeps_the_rest():
    """JSON-LD scripts, og:type metas and microdata attributes go (the page as a site without them would
    serve it); other scripts, metas and attributes stay."""
    page = ('<html><head><meta property="og:type" content="article"><meta property="og:title" content="T">'
            '<script type="application/ld+json">{"@type": "NewsArticle"}</script><script>var x = 1;</script>'
            '</head><body><article itemscope itemtype="https://schema.org/Article" class="post">'
            '<h1 itemprop=headline>T</h1><p itemprop="articleBody">Body.</p></article></body></html>')
    stripped = strip_markup(page)
    for gone in ("og:type", "ld+json", "NewsArticle", "itemscope", "itemtype", "itemprop"):
        assert gone not in stripped
    for kept in ('og:title', "var x = 1;", '<article class="post">', "<h1>T</h1>", "<p>Body.</p>"):
        assert kept in stripped
