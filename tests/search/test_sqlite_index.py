"""The embedded SQLite FTS5 index end to end on real R2L texts (../shared/data/r2l gold)."""
from __future__ import annotations

import re
import sqlite3

import pytest

from mcecrawl.search.analysis import WORD_RE, fold_for_search
from mcecrawl.search.documents import SearchIndexError, doc_id
from mcecrawl.search.index import SearchIndex

ZWNJ = "\u200c"
TO_ARABIC = str.maketrans({"ی": "ي", "ک": "ك"})
TO_PERSIAN = str.maketrans({"ي": "ی", "ك": "ک", "ى": "ی"})
DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
FATHA, SHADDA = "\u064e", "\u0651"


@pytest.fixture()
def index(tmp_path, r2l_corpus):
    with SearchIndex(tmp_path / "corpus.sqlite") as ix:
        ix.add(r2l_corpus)
        yield ix


def ids(hits):
    return [h.id for h in hits]


def spelling_variants(word: str) -> set[str]:
    """How else a user or another site may write ``word`` (the issue's variant classes)."""
    out = {word, word.translate(TO_ARABIC), word.translate(TO_PERSIAN), word.translate(DIGITS)}
    if ZWNJ in word:
        out |= {word.replace(ZWNJ, " "), word.replace(ZWNJ, "")}
    letters = [i for i, c in enumerate(word) if c.isalpha()]
    if len(letters) >= 2:  # harakat on the first letter, shadda on the second
        a, b = letters[0], letters[1]
        out.add(word[:a + 1] + FATHA + word[a + 1:b + 1] + SHADDA + word[b + 1:])
    return out


def test_indexing_is_idempotent_and_incremental(tmp_path, r2l_corpus):
    with SearchIndex(tmp_path / "x.sqlite") as ix:
        first = ix.add(r2l_corpus)
        assert (first.added, first.updated) == (len(r2l_corpus), 0)
        again = ix.add(r2l_corpus)
        assert (again.added, again.updated, again.unchanged) == (0, 0, len(r2l_corpus))
        changed = dict(r2l_corpus[0], text="نسخه‌ی تازه‌ی متن خبر زلزله‌شناسی")
        report = ix.add([changed])
        assert (report.added, report.updated) == (0, 1)
        assert len(ix) == len(r2l_corpus)
        assert ids(ix.search("زلزله‌شناسی")) == [doc_id(changed)]
        old_word = re.findall(r"\w{6,}", r2l_corpus[0]["text"])[0]
        assert doc_id(changed) not in ids(ix.search(old_word, limit=50))


def test_unsearchable_items_are_skipped(tmp_path):
    with SearchIndex(tmp_path / "x.sqlite") as ix:
        report = ix.add([{"url": "http://a/1", "text": "", "status": "empty"},
                         {"url": "http://a/2", "text": "متن", "status": "error"},
                         {"text": "بدون نشانی"}])
        assert report.skipped == 3 and len(ix) == 0


def test_every_variant_query_finds_its_document(index, r2l_corpus):
    """Words with ZWNJ, digits or kaf/yeh from each real text, searched in every variant spelling."""
    tried = found = 0
    missed = []
    for item in r2l_corpus:
        words = WORD_RE.findall(item["text"])
        picked = [w for w in words if ZWNJ in w][:5] + [w for w in words if re.search("[یکيك]", w) and len(w) > 4][:3]
        picked += [w for w in words if w.isdigit()][:2]
        for word in picked:
            for variant in spelling_variants(word):
                tried += 1
                if doc_id(item) in ids(index.search(variant, limit=len(r2l_corpus))):
                    found += 1
                else:
                    missed.append((word, variant))
    assert tried > 100
    assert found == tried, missed


def test_documents_written_in_variant_spellings_are_found(tmp_path, r2l_corpus):
    """The reverse direction: the site wrote Arabic kaf/yeh, harakat or spaces for ZWNJ."""
    varied = []
    for item in r2l_corpus:
        text = item["text"].translate(TO_ARABIC if item["lang"] != "ar" else TO_PERSIAN).replace(ZWNJ, " ")
        varied.append(dict(item, text=re.sub(r"(\w)(\w)", rf"\1{FATHA}\2", text, count=50)))
    with SearchIndex(tmp_path / "v.sqlite") as ix:
        ix.add(varied)
        for original in r2l_corpus:
            for word in [w for w in WORD_RE.findall(original["text"]) if len(w) > 4][:20]:
                query = word if ZWNJ in word else word.translate(TO_PERSIAN)
                assert doc_id(original) in ids(ix.search(query, limit=len(r2l_corpus))), word


def test_exact_title_match_ranks_first(index, r2l_corpus):
    for item in r2l_corpus:
        if not item["title"]:
            continue
        for query in (item["title"], item["title"].replace(ZWNJ, " ").translate(TO_ARABIC)):
            hits = index.search(query)
            assert hits and hits[0].id == doc_id(item) and hits[0].exact_title, query


def test_filters_site_lang_since(index, r2l_corpus):
    query = "بعد"  # an Arabic, Persian and Urdu word; the expected sets are computed, not assumed
    having = [i for i in r2l_corpus if query in fold_for_search(i["text"]).split()]
    assert len({i["lang"] for i in having}) == 3 and len({i["site"] for i in having}) >= 3

    def expected(keep):
        return sorted(doc_id(i) for i in having if keep(i))

    assert sorted(ids(index.search(query, limit=100))) == expected(lambda i: True)
    for site in {i["site"] for i in r2l_corpus}:
        assert sorted(ids(index.search(query, site=site, limit=100))) == expected(lambda i: i["site"] == site)
    for lang in ("fa", "ar", "ur"):
        assert sorted(ids(index.search(query, lang=lang, limit=100))) == expected(lambda i: i["lang"] == lang)
    since = "2024-05-13"
    assert sorted(ids(index.search(query, since=since, limit=100))) == expected(
        lambda i: (i["published"] or "") >= since)
    assert sorted(ids(index.search(query, lang="ar", since=since, limit=100))) == expected(
        lambda i: i["lang"] == "ar" and (i["published"] or "") >= since)
    with pytest.raises(SearchIndexError, match="ISO-8601"):
        index.search(query, since="yesterday")


def test_snippet_highlights_the_faithful_word(tmp_path):
    text = "در این گزارش مُحَمَّد گفت که می خواهم به خانه بروم و کتاب‌ها را بیاورم."
    with SearchIndex(tmp_path / "s.sqlite") as ix:
        ix.add([{"url": "http://x/1", "title": "گزارش", "lang": "fa", "text": text}])
        assert "**مُحَمَّد**" in ix.search("محمد")[0].snippet
        assert "**می** **خواهم**" in ix.search("می‌خواهم")[0].snippet
        assert "**کتاب‌ها**" in ix.search("كتابها")[0].snippet
        assert "**کتاب‌ها**" in ix.search("کتاب")[0].snippet  # a stem highlights its compound


def test_a_corrupt_database_is_a_clear_error(tmp_path):
    path = tmp_path / "bad.sqlite"
    path.write_bytes(b"this is not SQLite at all" * 100)
    for readonly in (True, False):
        with pytest.raises(SearchIndexError, match="not a usable mcecrawl search index"):
            SearchIndex(path, readonly=readonly)


def test_a_foreign_sqlite_file_is_a_clear_error(tmp_path):
    path = tmp_path / "other.sqlite"
    sqlite3.connect(path).execute("CREATE TABLE t(x)").connection.commit()
    with pytest.raises(SearchIndexError, match="not a usable mcecrawl search index"):
        SearchIndex(path, readonly=True)


def test_a_missing_database_is_a_clear_error(tmp_path):
    with pytest.raises(SearchIndexError, match="no such search index"):
        SearchIndex(tmp_path / "nope.sqlite", readonly=True)


def test_a_locked_database_is_a_clear_error(tmp_path, r2l_corpus):
    path = tmp_path / "locked.sqlite"
    SearchIndex(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(SearchIndexError, match="locked by another writer"):
            with SearchIndex(path, timeout=0.05) as ix:
                ix.add(r2l_corpus[:1])
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_delete_removes_documents_from_the_full_text_index(tmp_path, r2l_corpus):
    with SearchIndex(tmp_path / "d.sqlite") as ix:
        ix.add(r2l_corpus)
        gone = r2l_corpus[0]
        assert ix.delete([doc_id(gone), "no-such-id"]) == 1
        assert len(ix) == len(r2l_corpus) - 1
        assert doc_id(gone) not in ids(ix.search(gone["title"], limit=50))
        ix.add([gone])  # and it can come back
        assert ix.search(gone["title"])[0].id == doc_id(gone)


def test_terms_in_most_documents_do_not_cost_a_full_ranking(tmp_path):
    docs = [{"url": f"http://x/{i}", "title": f"عنوان {i}",
             "text": f"این خبر شماره {i} است" + (" زلزله" if i == 3 else "")} for i in range(6)]
    with SearchIndex(tmp_path / "c.sqlite") as ix:
        ix.add(docs)
        assert ix.common_terms == frozenset()  # no statistics yet: plain BM25 everywhere
        assert ix.refresh_statistics() > 0
        assert {"این", "خبر", "است"} <= ix.common_terms and "زلزله" not in ix.common_terms
        # A common term next to a rare one is left out of the match: it could not change BM25.
        assert ids(ix.search("این زلزله")) == ids(ix.search("زلزله")) == [doc_id(docs[3])]
        # Only common terms: every matching document, newest first.
        assert ids(ix.search("این خبر", limit=10)) == [doc_id(d) for d in reversed(docs)]
    with SearchIndex(tmp_path / "c.sqlite", readonly=True) as ix:
        assert "این" in ix.common_terms  # persisted


def test_bm25_ranks_title_and_frequent_matches_higher(tmp_path):
    docs = [{"url": "http://x/body", "title": "خبر ورزشی", "text": "در این خبر از زلزله یاد شد. " + "متن دیگر. " * 20},
            {"url": "http://x/title", "title": "زلزله در کرمان", "text": "گزارش کوتاه از زلزله در کرمان."},
            {"url": "http://x/none", "title": "باران", "text": "باران آمد."}]
    with SearchIndex(tmp_path / "r.sqlite") as ix:
        ix.add(docs)
        hits = ix.search("زلزله")
        assert [h.url for h in hits] == ["http://x/title", "http://x/body"]
        assert hits[0].score > hits[1].score > 0


def test_bare_stems_find_joined_forms(tmp_path):
    docs = [{"url": "http://x/zwnj", "text": "او می‌خواهد برود و کتاب‌ها را بیاورد"},
            {"url": "http://x/space", "text": "او می خواهد برود و کتاب ها را بیاورد"},
            {"url": "http://x/joined", "text": "او میخواهد برود و کتابها را بیاورد"}]
    with SearchIndex(tmp_path / "b.sqlite") as ix:
        ix.add(docs)
        everything = ["http://x/joined", "http://x/space", "http://x/zwnj"]
        for query in ("می‌خواهد", "میخواهد", "می خواهد", "کتاب‌ها", "کتابها", "کتاب ها"):
            assert sorted(h.url for h in ix.search(query)) == everything, query
        # Stems: found where the document separated them (ZWNJ or space), as Lucene's ZWNJ->space does.
        assert sorted(h.url for h in ix.search("خواهد")) == ["http://x/space", "http://x/zwnj"]
        assert sorted(h.url for h in ix.search("کتاب")) == ["http://x/space", "http://x/zwnj"]
