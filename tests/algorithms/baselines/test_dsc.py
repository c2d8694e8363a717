import pytest

from mcecrawl.algorithms import ParamError
from mcecrawl.algorithms.baselines.dsc import dsc


def test_dsc_keeps_words_where_the_slope_curve_is_flat():
    # Tokens: <p> a b c d </p> <i> x </i> <i> y </i>.  With one token each side, a and d see one
    # tag in three (slope 1/3 < 0.5), b and c none; x and y see two tags in three: 2/3.
    html = "<p>a b c d</p><i>x</i><i>y</i>"
    assert dsc(html, window=1).paragraphs == ("a b c d",)
    # A slope threshold above 2/3 lets x and y in too (one paragraph after </p>: <i> is inline, and
    # no whitespace separates them in the source).
    assert dsc(html, window=1, slope=0.7).paragraphs == ("a b c d", "xy")


def test_dsc_keeps_several_regions_unlike_bte():
    text = " ".join(["word"] * 30)
    # Menu items are 1 word in 5 tokens: any window of 21 tokens reaching into the menu by a word
    # holds at least 11 tags (slope > 0.5), so no menu word is kept.
    html = f"<p>{text}</p><ul>" + '<li><a href="/">n</a></li>' * 20 + f"</ul><p>{text}</p>"
    assert dsc(html).paragraphs == (text, text)


def test_dsc_parameters():
    assert dsc("<p>a b</p>", window="3").params["window"] == 3
    with pytest.raises(ParamError):
        dsc("<p>a b</p>", width=3)
