"""Golden tests on real pages of ../shared/data/r2l (outputs reviewed by hand).

Each case names sentences of the article that must be extracted and boilerplate (menus, app
banners, tags) that must not, plus a word-LCS F1 floor a little under the measured score
(BENCHMARKS.md), so that a regression fails but measurement noise does not.
"""
import pytest

import mcecrawl
from mcecrawl.evaluation import lcs_f1, load_dataset

CASES = {
    # id: (present, absent, F1 floor for dana and danag)
    "fundus-lbcgroup-2026-01-08": (
        ["أثار ظهور دونالد ترامب بشعرٍ مائل إلى اللون الوردي", "وسرعان ما ضجّت منصات التواصل بتعليقات ساخرة"],
        [], 0.97),
    "magichtml-youm7-f1e9572d": (
        ["وأوضح وزير العمل حسن شحاتة، أن وزارة العمل كجهة منوط بها"], ["حوادث", "محافظات"], 0.95),
    "magichtml-varzesh3-153c5ed5": (
        ["پس از اعتراض باشگاه استقلال به محرومیت هاشمی\u200cنسب", "لازم به ذکر است که زمان محرومیت تعلیقی"],
        ["کد خبر"], 0.85),
    "magichtml-urdupoint-eee73319": (
        ["دریائے راوی پر ”شاہ پورکانڈی“ ڈیم کی تعمیر"], ["مرکزی صفحہ", "آج کا اخبار"], 0.97),
    # the article is cut in two by a 29-line "continue reading" ad block: P = 30 bridges it
    "magichtml-urdupoint-cf92f427": (
        ["ڈبلن (اردو پوائنٹ تازہ ترین اخبار", "پاکستانی ٹیم میں بابر اعظم (کپتان)"], ["مرکزی صفحہ"], 0.95),
    "newspaper-cnnarabic-2013-syria-clashes": (
        ["دمشق، سوريا (CNN) -- أكدت جهات سورية معارضة", "ضرورة الابتعاد عن الأعمال الاستفزازية"], [], 0.85),
}


@pytest.fixture(scope="module")
def r2l_pages(shared_data):
    return {p.id: p for p in load_dataset(shared_data / "r2l")}


@pytest.mark.parametrize("algorithm", ["dana", "danag"])
@pytest.mark.parametrize("page_id", sorted(CASES))
def test_golden_page(r2l_pages, page_id, algorithm):
    present, absent, floor = CASES[page_id]
    page = r2l_pages[page_id]
    result = mcecrawl.extract(page.body, algorithm=algorithm, content_type=page.content_type)
    assert result.status == "ok"
    for sentence in present:
        assert sentence in result.text
    for boiler in absent:
        assert boiler not in result.text
    assert lcs_f1(result.text, page.gold_text("gold_in_page")).f1 >= floor


@pytest.mark.parametrize("page_id", ["magichtml-youm7-f1e9572d", "magichtml-varzesh3-153c5ed5"])
def test_minified_real_page_gives_the_same_text(r2l_pages, page_id):
    page = r2l_pages[page_id]
    minified = "".join(line.strip() for line in page.text.splitlines())
    # Stripping every line also drops the spaces between inline elements: compare the letters.
    assert "".join(mcecrawl.extract(minified).text.split()) == "".join(mcecrawl.extract(page.text).text.split())


def test_script_page_data_never_wins(r2l_pages):
    # youm7 pages carry their article text again inside scripts; the extracted text has it once.
    page = r2l_pages["magichtml-youm7-f1e9572d"]
    text = mcecrawl.extract(page.body).text
    assert text.count("وأوضح وزير العمل حسن شحاتة") == 1
    assert "function(" not in text and "{" not in text
