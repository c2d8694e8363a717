"""``_bulk`` NDJSON validated line by line, and the index template's structure."""
from __future__ import annotations

import json

from mcecrawl.search.bulk import ANALYZER, bulk_lines, index_template
from mcecrawl.search.documents import doc_id


def test_bulk_lines_are_action_source_pairs_with_stable_ids(r2l_corpus):
    skipped = []
    items = [*r2l_corpus, {"url": "http://x/empty", "text": "", "status": "empty"}]
    lines = list(bulk_lines(items, "news", skipped=skipped))
    assert len(lines) == 2 * len(r2l_corpus) and len(skipped) == 1
    for n, (action_line, source_line) in enumerate(zip(lines[::2], lines[1::2])):
        for line in (action_line, source_line):
            assert "\n" not in line and "\r" not in line and "\u2028" not in line
        action, source = json.loads(action_line), json.loads(source_line)
        assert list(action) == ["index"]  # index = create or replace: re-runs update
        assert action["index"] == {"_index": "news", "_id": doc_id(r2l_corpus[n])}
        assert source["text"] == r2l_corpus[n]["text"]  # faithful text, ZWNJ kept, not escaped
        assert source["url"] == r2l_corpus[n]["url"] and source["lang"] == r2l_corpus[n]["lang"]
        assert "id_" not in source  # only the mapped fields are exported
    assert any("\u200c" in line for line in lines)


def test_ids_are_stable_across_runs_and_follow_the_canonical_url(r2l_corpus):
    first = [json.loads(ln) for ln in bulk_lines(r2l_corpus, "news")][::2]
    edited = [dict(i, text=i["text"] + " ویرایش") for i in r2l_corpus]
    again = [json.loads(ln) for ln in bulk_lines(edited, "news")][::2]
    assert first == again
    item = {"url": "https://site/a?utm=1", "canonical_url": "https://site/a", "text": "متن"}
    assert doc_id(item) == doc_id({"url": "https://site/a", "text": "دیگر"})


def test_line_separators_inside_text_stay_escaped():
    lines = list(bulk_lines([{"url": "http://x/1", "text": "یک\u2028دو\u0085سه\nچهار"}], "news"))
    assert len(lines) == 2 and "\u2028" not in lines[1] and "\u0085" not in lines[1]
    assert json.loads(lines[1])["text"] == "یک\u2028دو\u0085سه\nچهار"


def test_index_template_mappings_and_analyzers():
    template = index_template("news")
    assert template["index_patterns"] == ["news", "news-*"]
    settings, mappings = template["template"]["settings"], template["template"]["mappings"]
    analysis = settings["analysis"]
    custom = analysis["analyzer"][ANALYZER]
    assert custom["type"] == "custom" and custom["tokenizer"] == "standard"
    assert all(name in analysis["char_filter"] for name in custom["char_filter"])
    for m in analysis["char_filter"]["mce_letters"]["mappings"]:
        key, value = m.split(" => ")
        assert len(key) == 1 and len(value) == 1
    props = mappings["properties"]
    for field in ("title", "text"):
        assert props[field]["analyzer"] == ANALYZER
        assert props[field]["fields"]["fa"]["analyzer"] == "persian"
        assert props[field]["fields"]["ar"]["analyzer"] == "arabic"
    assert {props[k]["type"] for k in ("url", "site", "lang", "content_sha1")} == {"keyword"}
    assert props["published"]["type"] == "date" and mappings["dynamic"] is False
    json.dumps(template)  # serialisable as the PUT body
