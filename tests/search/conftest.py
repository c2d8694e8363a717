"""A small real R2L corpus (JSONL records as the crawler writes them) from ../shared/data/r2l."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from lxml import html as lxml_html

from mcecrawl.encoding import decode

# Dates assigned to the gold pages (taken from their URLs where they carry one) so that the
# ``since`` filter has something to filter.
PUBLISHED = {
    "newspaper-cnnarabic-2013-syria-clashes": "2013-08-03",
    "fundus-lbcgroup-2026-01-08": "2026-01-08T09:00:00+02:00",
    "magichtml-youm7-4571254b": "2024-05-13",
    "magichtml-youm7-f1e9572d": "2024-05-20",
    "magichtml-urdupoint-cf92f427": "2024-05-12",
}


def r2l_items(shared_data: Path) -> list[dict]:
    """Arabic-script pages with full gold: text = gold, title = the page's <title>."""
    dataset = shared_data / "r2l"
    items = []
    with open(dataset / "manifest.jsonl", encoding="utf-8") as f:
        manifest = [json.loads(line) for line in f if line.strip()]
    for m in manifest:
        if m["lang"] == "he" or m["gold_kind"] != "full":
            continue
        page = decode((dataset / "pages" / f"{m['id']}.html").read_bytes(), m.get("http_charset"))
        title = lxml_html.fromstring(page.text).findtext(".//title") or ""
        items.append({
            "url": m["url"], "canonical_url": m["url"], "site": m.get("site"), "lang": m["lang"],
            "title": " ".join(title.split()), "published": PUBLISHED.get(m["id"]),
            "text": (dataset / "gold" / f"{m['id']}.txt").read_text(encoding="utf-8"),
            "status": "ok", "id_": m["id"],
        })
    return items


@pytest.fixture(scope="session")
def r2l_corpus(shared_data) -> list[dict]:
    return r2l_items(shared_data)


@pytest.fixture()
def corpus_file(tmp_path, r2l_corpus) -> Path:
    path = tmp_path / "corpus.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        for item in r2l_corpus:
            f.write(json.dumps(item, ensure_ascii=False) + "\n")
    return path
