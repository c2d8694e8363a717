"""The page-type judgement's pass over a page's bytes (mcecrawl.algorithms.pagescan): what it
counts, and its compiled twin (_pagescan) equal to it on every dev page (the bounded fuzz of
test_profile_impl.py compares both too; the full runs are benchmarks/fuzz_core.py and
benchmarks/fuzz_hardened.py)."""
from __future__ import annotations

import pytest

from data_root import MISSING
from data_root import SHARED_DATA as DATA
from mcecrawl.algorithms import pagescan, profile_impl
from mcecrawl.algorithms.pagescan import CLASS_WORDS, MARKS, TAGS, PageScan, scan

compiled = pytest.mark.skipif(profile_impl.pagescan is None,
                              reason="_pagescan is not built here; `pip install -e .` with Cython and a C compiler")
DEV_SETS = ("r2l", "scrapinghub_aeb", "readability_mozilla", "chinese_wce", "trafilatura_eval", "wcxb_dev")


def both(body: bytes) -> list[PageScan]:
    out = [scan(body)]
    if profile_impl.pagescan is not None:
        out.append(PageScan(*profile_impl.pagescan.scan(body)))
    return out


def test_counts_of_a_small_listing():
    teaser = "<h2><a href='/s'>{}</a></h2><p class='teaser card'>{}</p>"
    body = "".join(teaser.format(f"Headline number {i} of the river valley", "A teaser of the story. " * 5)
                   for i in range(3))
    page = f"<html><body><nav><a href='/'>Home</a></nav>{body}</body></html>".encode()
    for s in both(page):
        assert s.tags[TAGS.index("h2")] == 3 and s.tags[TAGS.index("a")] == 4 and s.tags[TAGS.index("nav")] == 1
        assert s.linked_headlines == 3 and s.headline_links == 3 and s.short_links == 1
        assert s.long_p == 3 and s.p_text == 3 * len(("A teaser of the story. " * 5).strip())
        assert s.class_words[CLASS_WORDS.index("teaser")] == 3 and s.class_words[CLASS_WORDS.index("card")] == 3
        assert s.top_class_repeat == 3 and s.fifth_class_repeat == 0 and s.classes_repeated == 0
        assert s.runs == 3 and s.regions == 1 and s.best_region == s.run_chars


def test_lengths_are_characters_windows_are_bytes():
    persian = "متن خبر " * 30  # 240 characters, 420 bytes
    for s in both(f"<p>{persian}</p>".encode()):
        assert s.p_text == len(persian.strip()) and s.longest_run == len(persian) and s.long_runs == 1
    long_text = "x" * (pagescan.TEXT_AFTER + 50)
    for s in both(f"<p>{long_text}</p>".encode()):
        assert s.p_text == pagescan.TEXT_AFTER


def test_class_words_once_per_attribute_and_ascii_case():
    for s in both(b"<li class='Post post-reply post'>x</li><li class=\"comment\">y</li><a class=''>z</a>"):
        assert s.class_words[CLASS_WORDS.index("post")] == 1 and s.class_words[CLASS_WORDS.index("reply")] == 1
        assert s.class_words[CLASS_WORDS.index("comment")] == 1 and s.top_class_repeat == 1


def test_many_distinct_class_values_counted_as_the_reference():
    # The compiled scan counts class values in a table of its own that grows as values come: 3,000
    # distinct ones (some told apart by case or a last byte only), the first hundred eight times each.
    values = [f"card item-{i} {'Post' if i % 2 else 'post'}{'x' if i % 3 else ''}" for i in range(3000)]
    values += values[:100] * 7
    page = "".join(f"<li class='{v}'>text {i}</li>" for i, v in enumerate(values)).encode()
    for s in both(page):
        assert s.top_class_repeat == 8 and s.classes_repeated == 100 and s.fifth_class_repeat == 8
        assert s.class_words[CLASS_WORDS.index("card")] == len(values)
        assert s.class_words[CLASS_WORDS.index("post")] == sum(1 for v in values if v.split()[2] in ("post", "Post"))
        assert s.class_words[CLASS_WORDS.index("item")] == len(values)


def test_prices_marks_and_anchors():
    page = ("<p>Now $ 19 or 25kr2, 10 USD and €5</p><p>5€ no</p>datePublishedatePublished author byline"
            '<script>{"@type": "Product"}</script><meta property="og:type" content="product">'
            '<script>{"@type": "Offer"}</script>').encode()
    for s in both(page):
        # "$ 1", "0 USD", "€5"; not "5kr2" (no word boundary after "kr") nor "5€ " (none after "€")
        assert s.prices == 3
        assert s.marks == tuple(page.count(m.encode()) for m in MARKS) and s.marks[MARKS.index("datePublished")] == 1
        assert s.anchors == (pagescan.offsets(page, b'"@type"'), (), (page.find(b"og:type"),))
        assert len(s.anchors[0]) == 2 and s.anchors[0][0] == page.find(b'"@type"')


def test_marks_found_by_a_pair_inside_them_at_the_page_edges():
    # The compiled scan finds each mark by a rare pair of bytes inside it ("Pu", "@t", "mt"): a pair
    # at the page's start with the mark's head cut off, or a mark cut at the page's end, is no mark.
    for page in (b'@type" Published itemtype', b'ePublished"@type', b'datePublished"@type"itemtype=',
                 b'xdatePublishedatePublishedx"@type""@type"@type"', b"author<timeout<time>byline byline"):
        for s in both(page):
            assert s.marks == tuple(page.count(m.encode()) for m in MARKS), page
            assert s.anchors == tuple(pagescan.offsets(page, a.encode()) for a in pagescan.ANCHORS), page


def test_tags_need_a_delimiter_and_an_end():
    for s in both(b"<abbr>x</abbr><a\tclass='x'>y</a><p/><table"):
        assert s.tags[TAGS.index("a")] == 1 and s.tags[TAGS.index("p")] == 1 and s.tags[TAGS.index("table")] == 0
    for s in both(b""):
        assert s == scan(b"") and s.runs == 0 and s.anchors == ((), (), ())


@compiled
def test_compiled_takes_any_buffer():
    page = b"<p class='a'>text after a paragraph</p>"
    assert profile_impl.pagescan.scan(memoryview(page)) == profile_impl.pagescan.scan(page)
    with pytest.raises(TypeError):
        profile_impl.pagescan.scan("not bytes")


@compiled
def test_compiled_equals_reference_on_every_dev_page():
    if not DATA.exists():
        pytest.skip(MISSING)
    from mcecrawl.evaluation import load_dataset

    checked = 0
    for name in DEV_SETS:
        if not (DATA / name).exists():
            continue
        for page in load_dataset(DATA / name):
            body = page.text.encode("utf-8", "surrogatepass")
            assert PageScan(*profile_impl.pagescan.scan(body)) == scan(body), (name, page.id)
            checked += 1
    assert checked > 2000
