import numpy as np
import pytest

from mcecrawl.algorithms.baselines.ccb import accb, ccb, content_code_ratio, gaussian, tccb

LINK = '<a href="https://example.org/news/2024/some-long-article-path.html">'


def test_content_code_ratio_is_a_normalised_gaussian_blur():
    # K=2 (sigma 1): weights e^-2, e^-0.5, 1, e^-0.5, e^-2 at offsets -2..2.
    w = gaussian(2)
    assert np.allclose(w, np.exp(-0.5 * np.arange(-2, 3) ** 2))
    ccv = np.array([0.0, 0, 1, 1, 1, 1, 0, 0])
    ccr = content_code_ratio(ccv, 2)
    # First element: only offsets 0..2 fall inside the page, content at offset 2 only.
    assert ccr[0] == pytest.approx(w[4] / (w[2] + w[3] + w[4]))
    # Third element (index 2): neighbours 0..4, content at 2, 3, 4.
    assert ccr[2] == pytest.approx((w[2] + w[3] + w[4]) / w.sum())
    # K=18 (sigma 9): the middle of 1 0 1 sees content at offsets -1 and +1, each weighing e^(-1/162).
    near = np.exp(-0.5 / 81)
    assert content_code_ratio(np.array([1.0, 0, 1]), 18)[1] == pytest.approx(2 * near / (2 * near + 1))


def test_tccb_with_no_blur_keeps_every_word():
    # K=0: the CCR is the CCV itself, every word token has ratio 1.
    assert tccb("<div><p>a b</p><span>c</span></div>", K=0).paragraphs == ("a b", "c")


def test_tccb_drops_a_short_text_lost_in_markup():
    # Two words amid twenty tags each side: their Gaussian neighbourhood (K=18) is mostly code.
    html = "<i></i>" * 10 + "<p>lost words</p>" + "<i></i>" * 10 + "<p>" + " ".join(["text"] * 40) + "</p>"
    assert tccb(html).paragraphs == (" ".join(["text"] * 40),)


def test_accb_ignores_anchor_tags_ccb_does_not():
    sentence = " ".join(f"word {LINK}linked</a>" for _ in range(8))
    html = f"<p>{sentence}</p>"
    assert ccb(html).status == "empty"  # the links' markup outweighs the text around it
    assert accb(html).paragraphs == (" ".join(["word linked"] * 8),)
    assert accb(html, K=40).params == {"K": 40, "t": 0.5}
