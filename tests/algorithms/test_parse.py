"""Region parsing: paragraphs, dropped elements, deep nesting, R2L character output, title."""
import re

import pytest

from mcecrawl.algorithms.lines import segment_lines
from mcecrawl.algorithms.parse import (
    _og_title,
    find_title,
    h1_headings,
    matches_at,
    page_titles,
    parse_lines,
    parse_region,
    r2l_characters,
)


def test_block_boundaries_become_paragraphs():
    src = "<div><p>یک <b>دو</b> سه</p><p>چهار<br>پنج</p><ul><li>شش</li></ul></div>"
    assert parse_region(src) == ["یک دو سه", "چهار", "پنج", "شش"]


def test_cut_out_region_with_unbalanced_tags():
    assert parse_region("</div></span><p>متن اول</p><p>متن دوم") == ["متن اول", "متن دوم"]


def test_scripts_styles_widgets_and_comments_are_dropped():
    src = "<p>متن<script>var x='کد';</script><!-- یادداشت --><style>p{}</style></p><button>دکمه</button>"
    assert parse_region(src) == ["متن"]


def test_zwnj_and_letters_are_kept_entities_decoded():
    assert parse_region("<p>می\u200cخواهم &amp; &#1587;</p>") == ["می\u200cخواهم & س"]


def test_separator_only_lines_and_stray_bom_are_dropped():
    assert parse_region("<p>|</p><p>\ufeff</p><p>۱۲</p>") == ["۱۲"]


def test_deeply_nested_markup_loses_no_text():
    src = "<div>" * 5000 + "<p>متن عمیق</p>" + "</div>" * 10
    assert parse_region(src) == ["متن عمیق"]


def test_big_regions_are_parsed_in_pieces(monkeypatch):
    import mcecrawl.algorithms.parse as P

    src = "".join(f"<p>بند {i}</p>\n" for i in range(200))
    lines = segment_lines(src, split="tag")
    whole = parse_lines(lines, 0, len(lines) - 1)
    monkeypatch.setattr(P, "PARSE_CHUNK_BYTES", 100)
    assert parse_lines(lines, 0, len(lines) - 1) == whole == [f"بند {i}" for i in range(200)]


def test_r2l_characters_keep_words_apart():
    assert r2l_characters(['<p class="x">سلام، دنیا! hello 2024 جهان</p>']) == ["سلام، دنیا جهان"]
    assert r2l_characters(["<p>שלום עולם</p>"], hebrew=True) == ["שלום עולם"]


def test_title_prefers_og_title_then_h1_then_title():
    assert find_title('<title>عنوان | سایت</title><meta property="og:title" content="عنوان اصلی">') == "عنوان اصلی"
    assert find_title("<title>عنوان | سایت</title><h1>سرخط <b>خبر</b></h1>") == "سرخط خبر"
    assert find_title("<title>عنوان &amp; سایت</title>") == "عنوان & سایت"
    assert find_title("<p>بدون عنوان</p>") is None


@pytest.mark.parametrize("head", [
    '<meta charset="utf-8"><meta name="x" content="og:title"><meta property="og:title" content="Real">',
    '<META NAME="TWITTER:TITLE" CONTENT="Upper">',
    "<meta content='First' property='og:title'><meta property=og:title content=Second>",
    '<meta-data og:title><meta name="description" content="d"><meta name=twitter:title content="Later">',
    '<meta property="og:type" content="article"><link rel="x"><p>no title meta at all</p>',
    '<meta property="og:title"><meta property="og:title" content="After an empty one">',
    "<meta <meta property=og:title content=Nested>",
])
def test_og_title_of_bytes_starts_where_a_title_meta_can(head):
    # bytes are searched from the first <meta> that can be one (lines.title_meta_at): the same answer
    # as the whole search, which a str page still gets
    page = f"<html><head>{head}<title>T</title></head><body><p>x</p></body></html>"
    assert _og_title(page.encode()) == _og_title(page)
    assert page_titles(page.encode()) == page_titles(page)


def test_source_newlines_inside_text_are_whitespace():
    assert parse_region("<p>یک\nدو <a href='x'>\n  سه</a>\n</p>\n<p>چهار</p>") == ["یک دو سه", "چهار"]


def test_every_kind_of_whitespace_collapses_but_zwnj_stays():
    assert parse_region("<p> یک\u00a0\u00a0دو\t\n سه\u2003چهار\u200cپنج </p>") == ["یک دو سه چهار\u200cپنج"]


def test_r2l_characters_keep_extended_b_and_hebrew_presentation_forms():
    assert r2l_characters(["<p>\u0870\u0880\u089f\u08a0 \ufeff</p>"]) == ["\u0870\u0880\u089f\u08a0"]
    assert r2l_characters(["<p>\ufb2a\ufb4f שלום</p>"], hebrew=True) == ["\ufb2a\ufb4f שלום"]


def test_r2l_characters_bidi_marks_do_not_split_words():
    assert r2l_characters(["کتاب\u200fخانه و \u200eدانشگاه\u202bتهران\u202c"]) == ["کتابخانه و دانشگاهتهران"]



def test_title_window_of_utf8_bytes_is_the_same_characters_as_of_the_text():
    import random

    from mcecrawl.algorithms.parse import TITLE_WINDOW_CHARS, _title_window

    rng = random.Random(5)
    alphabet = "aé€𝄞س "  # one to four bytes per character
    for length in (TITLE_WINDOW_CHARS - 3, TITLE_WINDOW_CHARS, TITLE_WINDOW_CHARS + 1, 2 * TITLE_WINDOW_CHARS):
        text = "".join(rng.choice(alphabet) for _ in range(length))
        assert _title_window(text.encode()) == text[:TITLE_WINDOW_CHARS].encode()
    # a window ending inside a four-byte character keeps it whole
    text = "é" * (TITLE_WINDOW_CHARS - 1) + "𝄞" + "x" * 10
    assert _title_window(text.encode()).decode() == text[:TITLE_WINDOW_CHARS]


def test_matches_at_every_start_is_finditer():
    """Offsets covering every place a match can start give finditer's matches, overlapping starts
    skipped as the regex engine skips them."""
    page = b"<h1>a</h1><H1 class=x>b<h1>c</h1></h1><h1>d</H1 ><h1x>e</h1><h1>"
    pattern = re.compile(rb"<h1\b[^>]*>(.*?)</h1\s*>", re.I | re.S)
    starts = [m.start() for m in re.finditer(rb"<", page)]
    assert [m.span() for m in matches_at(pattern, page, starts)] == [m.span() for m in pattern.finditer(page)]
    assert h1_headings(page, starts) == h1_headings(page)
    assert h1_headings(page, []) == []
