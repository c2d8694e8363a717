"""Target: zero ZWNJ lost between a page and the extracted ``text`` (real r2l pages)."""
from __future__ import annotations

import json
import re

import pytest

import mcecrawl
from mcecrawl.encoding import decode

ZW = "\u200c"
ALGORITHMS = ("dana", "danag", "r2l", "xpath_blocks")
_ZW_WORD = re.compile(r"\w+(?:\u200c\w+)+")
_WORD = re.compile(r"\w+")


def _zwnj_pages(shared):
    root = shared / "r2l"
    with open(root / "manifest.jsonl", encoding="utf-8") as f:
        for rec in map(json.loads, filter(str.strip, f)):
            body = (root / "pages" / f"{rec['id']}.html").read_bytes()
            if ZW in decode(body, None).text:
                yield rec, body


def zwnj_losses(page: str, text: str) -> list[str]:
    """Words written with ZWNJ on the page that appear in ``text`` without it (joined or spaced),
    where the page itself never writes them that way."""
    page_words, text_words = set(_WORD.findall(page)), set(_WORD.findall(text))
    lost = []
    for word in set(_ZW_WORD.findall(page)):
        joined, spaced = word.replace(ZW, ""), word.replace(ZW, " ")
        if (joined in text_words and joined not in page_words) or (spaced in text and spaced not in page):
            lost.append(word)
    return lost


def test_loss_detector_detects_losses():
    page = "<p>او می\u200cخواهد برود و خبرگزاری\u200cها</p>"
    assert zwnj_losses(page, "او میخواهد برود") == ["می\u200cخواهد"]
    assert zwnj_losses(page, "خبرگزاری ها") == ["خبرگزاری\u200cها"]
    assert zwnj_losses(page, "او می\u200cخواهد برود") == []


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_no_zwnj_lost_on_r2l_pages(shared_data, algorithm):
    pages = list(_zwnj_pages(shared_data))
    assert pages, "the r2l set has Persian pages with ZWNJ"
    for rec, body in pages:
        page = decode(body, None).text
        result = mcecrawl.extract(body, algorithm=algorithm)
        assert result.status == "ok", (rec["id"], result.reason)
        assert ZW in result.text, rec["id"]
        assert zwnj_losses(page, result.text) == [], rec["id"]
        # and none invented: every ZWNJ word of the text is written so on the page
        assert set(_ZW_WORD.findall(result.text)) <= set(_ZW_WORD.findall(page)), rec["id"]
