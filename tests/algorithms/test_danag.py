"""DANAg: phases on synthetic input, the whole algorithm on the fixture page and English text."""
import numpy as np

from mcecrawl.algorithms.danag import (
    calculate_lengths,
    danag,
    find_first_paragraph,
    recognize_boundary,
    remove_scripts_styles_comments,
)
from mcecrawl.algorithms.lines import segment_lines
from tests.algorithms.conftest import ARTICLE, BOILERPLATE


def test_preprocessing_and_lengths():
    lines = segment_lines('<p>ab</p><script>var x="متن";</script><p>c</p>', split="tag")
    kept = remove_scripts_styles_comments(lines)
    assert kept.tolist() == [0, 1, 3, 4]
    content, code = calculate_lengths(lines, kept)
    assert content.tolist() == [2, 0, 1, 0] and code.tolist() == [3, 4, 3, 4]


def test_first_paragraph_is_the_region_with_most_characters():
    content = np.array([60, 0, 0, 0, 30, 30, 30, 0])
    code = np.array([10, 40, 40, 40, 5, 5, 5, 40])
    seed, smoothed = find_first_paragraph(content, code)
    assert seed == (4, 6)  # 90 characters beat the single 60-character line
    assert recognize_boundary(content, smoothed, *seed, gap=0) == (4, 6)


def test_danag_on_fixture_page(fa_page, fa_minified):
    for page in (fa_page.decode("utf-8"), fa_minified):
        result = danag(page)
        assert result.status == "ok"
        for sentence in ARTICLE:
            assert sentence in result.text
        for boiler in BOILERPLATE:
            assert boiler not in result.text


def test_danag_is_language_independent():
    body = "".join(f"<p>This is sentence number {i} of a long English article body.</p>\n" for i in range(12))
    page = ("<html><body><ul>" + "<li><a href='/section/x'>Menu</a></li>" * 10 + "</ul>"
            + body + "<div class='footer'><a href='/about'>About</a></div></body></html>")
    result = danag(page)
    assert result.status == "ok"
    assert result.paragraphs[0].startswith("This is sentence number 0") and len(result.paragraphs) == 12


def test_danag_on_markup_only_is_empty():
    assert danag("<div><span></span><script>var a = 1;</script></div>").status == "empty"
