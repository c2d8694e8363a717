"""Line segmentation and per-line counts on small synthetic sources (hand-computed)."""
import numpy as np
import pytest

from mcecrawl.algorithms.lines import (
    count_ascii,
    count_content_code,
    count_non_ascii,
    count_r2l,
    count_total,
    protected_spans,
    segment_lines,
)


def sources(lines):
    return [lines.source(i, i) for i in range(len(lines))]


def test_every_tag_on_its_own_line():
    lines = segment_lines("<p>a<b>b</b></p>", split="tag")
    assert sources(lines) == ["<p>a", "<b>b", "</b>", "</p>"]


def test_block_split_keeps_inline_tags_in_the_paragraph():
    lines = segment_lines("<div><p>a <a href='x'>b</a> c</p><p>d</p></div>", split="block")
    assert sources(lines) == ["<div>", "<p>a <a href='x'>b</a> c", "</p>", "<p>d", "</p>", "</div>"]


def test_newlines_end_lines():
    assert sources(segment_lines("ab\ncd\n", split="tag")) == ["ab\n", "cd\n"]


def test_no_split_inside_attribute_values():
    lines = segment_lines('<a title="x<y">t</a>', split="tag")
    assert sources(lines) == ['<a title="x<y">t', "</a>"]


def test_no_split_inside_comments_scripts_styles():
    src = '<p>a<!-- <p>x --><script>if (a<b) s="<p>";</script><style>p>a{}</style></p>'
    lines = segment_lines(src, split="tag")
    assert sources(lines) == ["<p>a", "<!-- <p>x -->", '<script>if (a<b) s="<p>";</script>',
                              "<style>p>a{}</style>", "</p>"]
    assert lines.protected.tolist() == [False, True, True, True, False]


def test_unclosed_script_runs_to_the_end():
    lines = segment_lines("<p>a</p><script>var s = '<p>متن</p>';", split="tag")
    assert lines.protected.tolist() == [False, False, True]


def test_head_is_protected_only_when_closed():
    assert segment_lines("<head><title>ت</title></head><p>x", split="tag").protected.tolist() == [
        True, False]
    assert segment_lines("<head><title>ت</title><p>x", split="tag").protected.tolist() == [
        True, False, False, False]


def test_script_opening_inside_comment_opens_nothing():
    spans = protected_spans(b"<!-- <script> --><p>x</p>")
    assert spans.tolist() == [[0, 17]]


def test_whitespace_only_lines_merge_into_the_line_before():
    lines = segment_lines("<p>a\n   \n\n<p>b", split="tag")
    assert sources(lines) == ["<p>a\n   \n\n", "<p>b"]
    unmerged = segment_lines("<p>a\n   \n\n<p>b", split="tag", merge_blank=False)
    assert len(unmerged) == 4


def test_minified_and_pretty_printed_pages_give_the_same_lines():
    pretty = "<div>\n  <p>سلام</p>\n  <p>دنیا</p>\n</div>\n"
    minified = "<div><p>سلام</p><p>دنیا</p></div>"
    a, b = segment_lines(pretty, split="tag"), segment_lines(minified, split="tag")
    assert [s.strip() for s in sources(a)] == sources(b)
    assert count_non_ascii(a).tolist() == count_non_ascii(b).tolist()


def test_line_offsets_are_contiguous_and_cover_the_page():
    src = "<html><body>\n<p>متن <b>پررنگ</b></p>\n<!-- c -->\n</body></html>"
    lines = segment_lines(src, split="tag")
    assert lines.starts[0] == 0 and lines.ends[-1] == len(src.encode())
    assert (lines.ends[:-1] == lines.starts[1:]).all()


def test_counts_characters_and_bytes():
    lines = segment_lines("<p>سلام ab</p>", split="tag")  # 4 Persian letters = 8 UTF-8 bytes
    assert count_non_ascii(lines).tolist() == [4, 0]
    assert count_non_ascii(lines, weight="bytes").tolist() == [8, 0]
    assert count_ascii(lines).tolist() == [5, 4]  # "<p>" + "ab" (space not counted); "</p>"
    assert count_total(lines).tolist() == [9, 4]


def test_protected_lines_count_as_code_only():
    lines = segment_lines('<script>var t="سلام";</script><p>سلام</p>', split="tag")
    assert count_non_ascii(lines).tolist() == [0, 4, 0]
    # '<script>var' 11 + 't="' 3 + '";' 2 + '</script>' 9 visible ASCII + 4 Persian letters
    assert count_ascii(lines).tolist() == [25 + 4, 3, 4]
    assert count_r2l(lines).tolist() == [0, 4, 0]


def test_r2l_set_and_zwnj():
    # Arabic, Persian with ZWNJ (U+200C), a Presentation Form (U+FEFB), Hebrew and Latin-1.
    lines = segment_lines("<p>می\u200cروم</p><p>\ufefb</p><p>שלום</p><p>é</p>", split="tag")
    assert count_r2l(lines).tolist() == [6, 0, 1, 0, 0, 0, 0, 0]
    assert count_r2l(lines, hebrew=True).tolist() == [6, 0, 1, 0, 4, 0, 0, 0]
    assert count_r2l(lines, weight="bytes").tolist() == [13, 0, 3, 0, 0, 0, 0, 0]


def test_content_code_of_danag():
    lines = segment_lines('<p class="x">ab c</p><!-- zz -->', split="tag")
    content, code = count_content_code(lines)
    assert content.tolist() == [3, 0, 0]
    assert code.tolist() == [12, 4, 0]  # '<p class="x">' without its space; '</p>'; comment removed


def test_empty_and_text_only_input():
    assert len(segment_lines("")) == 0
    lines = segment_lines("no tags at all")
    assert len(lines) == 1 and count_ascii(lines).tolist() == [11]


@pytest.mark.parametrize("split", ["tag", "block"])
def test_big_page_is_chunked_consistently(split, monkeypatch):
    import mcecrawl.algorithms.lines as L

    src = ("<div><p>سلام <a href='/x'>دنیا</a></p>\n<script>var a='<p>';</script>" * 500)
    ref = segment_lines(src, split=split)
    ref_counts = (count_ascii(ref), count_non_ascii(ref), *count_content_code(ref))
    monkeypatch.setattr(L, "CHUNK_BYTES", 97)  # many chunks, odd size
    small = segment_lines(src, split=split)
    assert np.array_equal(ref.starts, small.starts)
    for a, b in zip(ref_counts, (count_ascii(small), count_non_ascii(small), *count_content_code(small))):
        assert np.array_equal(a, b)


def test_unknown_split_mode():
    with pytest.raises(ValueError):
        segment_lines("<p>", split="word")


def test_script_end_tag_runs_to_its_greater_than_sign():
    """"</script" followed by whitespace is an end tag up to the next ">" (WHATWG tokenizer), so
    the text after it is not swallowed into the script."""
    from mcecrawl.algorithms.lines import protected_spans

    page = b"<body><script src=x></script\n\n <!--c--><p>text</p></body>"
    spans = protected_spans(page)
    assert spans[0].tolist() == [6, page.index(b"-->") + 3]
    assert all(page.index(b"text") >= end for _, end in spans.tolist())


def test_a_newline_inside_a_text_run_still_ends_a_line():
    """docs/algorithms.md: pretty-printing between tags changes nothing, a wrapped text run does."""
    wrapped = segment_lines("<p>سلام\nدنیا</p>", split="tag")
    minified = segment_lines("<p>سلام دنیا</p>", split="tag")
    assert len(wrapped) == len(minified) + 1
    assert count_non_ascii(wrapped).sum() == count_non_ascii(minified).sum()


def test_arabic_extended_b_is_r2l():
    # U+0870-089F (Arabic Extended-B): 0870 is E0 A1 B0 in UTF-8, 0880/089F E0 A2 80/9F.
    lines = segment_lines("<p>\u0870\u0880\u089f\u08a0</p>", split="tag")
    assert count_r2l(lines).tolist() == [4, 0]
    assert count_r2l(lines, weight="bytes").tolist() == [12, 0]
    # the first character before the block and the one after Extended-A are not Arabic
    assert count_r2l(segment_lines("<p>\u086f\u0900</p>", split="tag")).tolist() == [0, 0]


def test_byte_order_mark_is_not_r2l():
    lines = segment_lines("<p>\ufeff\ufefe</p>", split="tag")
    assert count_r2l(lines).tolist() == [1, 0]  # U+FEFE counts, U+FEFF does not


def test_hebrew_presentation_forms_count_with_hebrew():
    lines = segment_lines("<p>\ufb1d\ufb2a\ufb4f</p><p>\ufb1c\ufb50</p>", split="tag")
    assert count_r2l(lines, hebrew=True).tolist() == [3, 0, 1, 0]  # FB50 is Arabic
    assert count_r2l(lines).tolist() == [0, 0, 1, 0]


def test_unclosed_heads_are_searched_for_their_closing_tag_once(monkeypatch):
    import mcecrawl.algorithms.lines as lines_module

    searches = []
    real = lines_module._head_end

    def counting(data, pos):
        searches.append(pos)
        return real(data, pos)

    monkeypatch.setattr(lines_module, "_head_end", counting)
    spans = protected_spans(b"<head><p>x</p>" * 1000)
    assert len(spans) == 1000 and (spans[:, 1] - spans[:, 0] == 6).all()  # only the tags
    assert len(searches) == 1


# A head script that writes a popup document: its string holds "</HEAD>".
POPUP_HEAD = (b"<html><head><title>t</title><script>var w = '<HTML><HEAD><TITLE>x</TITLE></HEAD><BODY>';\n"
              + b"function f(a) { return a < 2 && a > 0; }\n" * 50
              + b"</script><style>p:after{content:'</head>'}</style><!-- </head> --></head>"
              + "<body><p>متن خبر</p></body></html>".encode())


@pytest.mark.parametrize("segment", ["reference", "current"])
def test_head_ends_after_the_scripts_styles_and_comments_inside_it(segment):
    """A "</head>" in a script string, a style or a comment inside the head ends nothing: the
    head's end is searched as the tokenizer reads it, on both cores (WHATWG HTML §13.2.6.4.4)."""
    from mcecrawl.algorithms import profile_impl

    head_end = POPUP_HEAD.index(b"</head><body>") + len(b"</head>")
    assert protected_spans(POPUP_HEAD).tolist() == [[6, head_end]]
    lines = (segment_lines if segment == "reference" else profile_impl.segment_lines)(POPUP_HEAD, split="tag")
    unprotected = [lines.source(i, i) for i in range(len(lines)) if not lines.protected[i]]
    assert unprotected == ["<html>", "<body>", "<p>متن خبر", "</p>", "</body>", "</html>"]


def test_head_with_an_unclosed_script_protects_only_its_tag():
    page = b"<head><script>var a = '</head>';<p>x</p>"
    assert protected_spans(page).tolist() == [[0, 6], [6, len(page)]]


def test_golden_head_holding_a_commented_out_head_end(shared_data):
    """A real page (trafilatura_eval gdp.de) comments out "</head>\\n<body ...>" inside its head:
    the head runs to its real end tag, on both cores."""
    from mcecrawl.algorithms import profile_impl

    data = (shared_data / "trafilatura_eval" / "pages" / "gdp.de-Wertschatzung.html").read_bytes()
    real_end = data.index(b"--></head>") + len(b"--></head>")
    head = data.index(b"<head")
    assert [head, real_end] in protected_spans(data).tolist()
    lines = profile_impl.segment_lines(data, split="tag")
    assert lines.protected[np.searchsorted(lines.starts, real_end) - 1]
    assert not lines.protected[np.searchsorted(lines.starts, real_end)]


@pytest.mark.parametrize("page, tags", [
    # markup in a quoted attribute value (JSON page data, a caption for a lightbox) is part of its tag
    (b"<div data-p='{\"h\":\"<p>x<\\/p>\"}' b=c>T</div>", [b"<div data-p='{\"h\":\"<p>x<\\/p>\"}' b=c>", b"</div>"]),
    (b"<a href=\"x>y\">L</a>", [b"<a href=\"x>y\">", b"</a>"]),
    (b"<a b = 'c>d' e=\"f>\"g>x<i>", [b"<a b = 'c>d' e=\"f>\"g>", b"<i>"]),
    (b"</p class=\"a>b\">x<br/>", [b"</p class=\"a>b\">", b"<br/>"]),
    # quotes that open no value: in a name, after a name without "=", in an unquoted value
    (b"<a\"b>x<i>", [b"<a\"b>", b"<i>"]),
    (b"<a =\" >x\">", [b"<a =\" >"]),
    (b"<a b c=d\"e>x<i>", [b"<a b c=d\"e>", b"<i>"]),
    (b"<!DOCTYPE html \"x>y\"><p>", [b"<!DOCTYPE html \"x>", b"<p>"]),
    # an unclosed quote runs to the end of the page, as an unclosed tag does
    (b"<a href=\"x>y<p>z", [b"<a href=\"x>y<p>z"]),
])
def test_tag_ends_skip_quoted_attribute_values(page, tags):
    """A ">" or "<" inside a quoted attribute value ends or opens nothing (WHATWG HTML
    §13.2.5.32-39), on both cores."""
    from mcecrawl.algorithms import profile_impl

    lines = profile_impl.segment_lines(page, split="tag")
    found = [page[s:e + 1] for s, e in zip(lines.tag_starts.tolist(), lines.tag_ends.tolist())]
    assert found == tags


@pytest.mark.parametrize("script, text", [
    # an old page writes a script tag from a script hidden in a comment: "</script>" inside the
    # double escaped part ends nothing (WHATWG HTML §13.2.5.20-31)
    (b'<script><!--\ndocument.write("<script src=a.js></script>");\n//--></script>', []),
    (b"<script><!-- <SCRIPT/> </SCRIPT x>--->a</script >", []),
    (b"<script>a<!--></script>", []),  # "<!-->" is escaped and ended at once
    # without "<!--" the first end tag ends the script, as before
    (b'<script>document.write("<script src=a.js></script>");</script>', [b'");', b"</script>"]),
])
def test_script_end_is_searched_through_escaped_script_data(script, text):
    from mcecrawl.algorithms import profile_impl

    page = script + "<p>متن</p>".encode()
    lines = profile_impl.segment_lines(page, split="tag")
    unprotected = [lines.source(i, i).encode() for i in range(len(lines)) if not lines.protected[i]]
    assert unprotected == text + ["<p>متن".encode(), b"</p>"]


@pytest.mark.parametrize("tag", [b"template", b"TEXTAREA"])
def test_template_and_textarea_bodies_are_protected(tag):
    """A client-side template's markup ("{{ post.title }}") and a text field's value are never
    rendered as text (parse.DROPPED_TAGS drops them): protected, on both cores."""
    from mcecrawl.algorithms import profile_impl

    page = b"<" + tag + b" id=t><div class=x><p>{{ post.title }}</p></div></" + tag + b"><p>t</p>"
    assert protected_spans(page).tolist() == [[0, page.index(b"<p>t")]]
    lines = profile_impl.segment_lines(page, split="tag")
    assert [lines.source(i, i) for i in range(len(lines)) if not lines.protected[i]] == ["<p>t", "</p>"]


def test_reference_segmentation_stays_linear_with_gt_in_quoted_values(implementation):
    """Tags whose quoted values hold a ">" are read by the tokenizer one by one: the reference's
    time grows with the page, not with its square (8x the page within 20x the time; a numpy call
    per such tag against the whole tag array made it ~35x)."""
    import time

    from mcecrawl.algorithms import lines

    if implementation != "reference":
        pytest.skip("times the reference segmentation alone (the compiled one is C over the bytes)")

    unit = b'<a title="x > y" href="/p">t</a>\n'

    def best(size: int) -> float:
        page = unit * (size // len(unit))
        times = []
        for _ in range(2):  # best of two: the machine's load
            t0 = time.process_time()
            lines.segment_lines(page)
            times.append(time.process_time() - t0)
        return min(times)

    small, large = best(500_000), best(4_000_000)
    assert large < 20 * small, (small, large)
