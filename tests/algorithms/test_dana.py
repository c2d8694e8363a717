"""DANA: phases on synthetic profiles, the whole algorithm on the project's fixture page."""
import numpy as np
import pytest

from mcecrawl.algorithms.dana import count_characters, dana, find_main_content_area
from mcecrawl.algorithms.lines import segment_lines
from tests.algorithms.conftest import ARTICLE, BOILERPLATE


def test_count_characters_non_ascii_is_content():
    non_ascii, ascii = count_characters(segment_lines("<p>سلام</p>", split="tag"))
    assert non_ascii.tolist() == [4, 0] and ascii.tolist() == [3, 4]


def test_find_main_content_area_on_a_plateau():
    non_ascii = np.array([5, 0, 0, 0, 90, 80, 0, 85, 0, 0, 0, 0, 0, 6])
    ascii = np.array([30, 40, 40, 40, 5, 5, 8, 5, 40, 40, 40, 40, 40, 30])
    first, last, smoothed = find_main_content_area(non_ascii, ascii, P=3)
    # diffs [-25,-40,-40,-40,85,75,-8,80,-40,...]: smoothed[3] = -40-40+85 = 5 > 0 joins,
    # smoothed[8] = 80-40-40 = 0 does not; the menu lines 0 and 13 stay out.
    assert (first, last) == (3, 7)
    assert smoothed[5] == 90 - 5 + 80 - 5 + 0 - 8


def test_find_main_content_area_literal_growth_joins_a_menu_item():
    non_ascii = np.array([90, 0, 0, 3, 0, 0, 3])
    ascii = np.array([5, 40, 40, 40, 40, 40, 40])
    assert find_main_content_area(non_ascii, ascii, P=2, growth="literal")[:2] == (0, 6)
    # smoothed: [45, 5, -117, ...]: only the spike and its neighbour lie above the axis
    assert find_main_content_area(non_ascii, ascii, P=2, growth="smoothed")[:2] == (0, 1)


@pytest.mark.parametrize("minified", [False, True])
def test_dana_on_fixture_page(fa_page, fa_minified, minified):
    result = dana(fa_minified if minified else fa_page.decode("utf-8"))
    assert result.status == "ok" and result.algorithm == "dana"
    for sentence in ARTICLE:
        assert sentence in result.text
    for boiler in BOILERPLATE:
        assert boiler not in result.text
    assert result.text.count(ARTICLE[0]) == 1  # the __NEXT_DATA__ copy in the script never wins
    assert "رفت\u200cوآمد" in result.text  # ZWNJ kept
    assert result.title == "بارش برف سنگین در تهران و تعطیلی مدارس"
    assert len(result.paragraphs) == 5
    r = result.region
    assert 0 <= r.first_line <= r.last_line < len(r.smoothed) == len(r.content) == len(r.code)
    assert dict(result.params) == {"P": 30, "radius": 1, "weight": "chars", "growth": "smoothed", "split": "tag"}


def test_dana_without_non_ascii_text_is_empty():
    result = dana("<html><body><p>only English here, nothing else</p></body></html>")
    assert result.status == "empty" and "non-ASCII" in result.reason


def test_dana_params_are_validated():
    from mcecrawl.algorithms.common import ParamError

    with pytest.raises(ParamError):
        dana("<p>x</p>", Q=3)
    with pytest.raises(ParamError):
        dana("<p>x</p>", growth="sideways")
    assert dana("<p>سلام دنیا</p>", P="4").params["P"] == 4  # CLI strings are converted
