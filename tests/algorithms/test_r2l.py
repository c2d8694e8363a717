"""R2L: the paper's character output, the parse mode, Hebrew and non-R2L pages."""
import numpy as np

from mcecrawl.algorithms.lines import segment_lines
from mcecrawl.algorithms.r2l import find_region, r2l, separate_characters
from tests.algorithms.conftest import ARTICLE


def test_separate_characters_s1_and_s2():
    nepl, epl = separate_characters(segment_lines("<p>سلام abc é</p>", split="tag"))
    assert nepl.tolist() == [4, 0] and epl.tolist() == [6, 4]  # é is in neither S1 nor S2


def test_find_region_with_paper_P():
    nepl = np.array([60, 100] + [0] * 9 + [40])
    epl = np.array([2, 2] + [9] * 9 + [2])
    # smoothed [156, 147, 80, -27, ...]: seed 0; 9 lines without S1 before line 11
    assert find_region(nepl, epl, P=8, growth="literal")[:2] == (0, 1)
    assert find_region(nepl, epl, P=9, growth="literal")[:2] == (0, 11)


def test_r2l_chars_output_is_the_r2l_text(fa_page):
    result = r2l(fa_page.decode("utf-8"))
    assert result.status == "ok" and result.params["output"] == "chars"
    assert "بارش برف سنگین از بامداد امروز در تهران باعث شد" in result.text
    assert "." not in result.text and "<" not in result.text  # only S1 characters and spaces


def test_r2l_parse_output(fa_page):
    result = r2l(fa_page.decode("utf-8"), output="parse")
    for sentence in ARTICLE:
        assert sentence in result.text
    assert "انجام شود." in result.text  # punctuation kept by the parser


def test_r2l_without_r2l_text_is_empty():
    result = r2l("<html><body><p>Hello world, this is an English page.</p></body></html>")
    assert result.status == "empty" and "R2L" in result.reason


def test_r2l_hebrew_is_an_option():
    page = "<html><body><p>" + "שלום עולם זהו טקסט בעברית " * 5 + "</p></body></html>"
    assert r2l(page).status == "empty"
    assert "שלום עולם" in r2l(page, hebrew=True).text


def test_r2l_chars_output_keeps_a_paragraph_with_an_inline_link_whole():
    para = ("بارش برف سنگین از بامداد امروز در تهران باعث شد مدارس تعطیل شوند و "
            '<a href="/news/1">شهرداری تهران</a> از شهروندان خواست از خانه بیرون نروند.')
    page = f"<html><body><div><p>{para}</p><p>{para}</p></div></body></html>"
    result = r2l(page)
    assert result.status == "ok"
    assert len(result.paragraphs) == 2
    assert "مدارس تعطیل شوند و شهرداری تهران از شهروندان" in result.paragraphs[0]
