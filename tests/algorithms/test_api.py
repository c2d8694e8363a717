"""The public API: registry, decoding, and bad input (never an exception, always a reason)."""
import gzip
import time

import pytest

import mcecrawl
from mcecrawl.algorithms import ALGORITHMS, ParamError, get_algorithm, sniff_binary
from tests.algorithms.conftest import ARTICLE

LINE_BASED = ("scored_regions", "dana", "danag", "r2l")
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4


def test_registry_resolves_lazily_by_module():
    assert {"dana", "danag", "r2l"} <= set(ALGORITHMS)
    assert ALGORITHMS["dana"].__name__ == "dana"
    with pytest.raises(ValueError, match="unknown algorithm 'nope'; available: scored_regions, dana"):
        get_algorithm("nope")
    with pytest.raises(ValueError):
        mcecrawl.extract(b"<p>x</p>", algorithm="nope")


def test_unknown_parameter_is_a_usage_error():
    with pytest.raises(ParamError, match="unknown parameter"):
        mcecrawl.extract("<p>سلام</p>", algorithm="dana", gap=3)


@pytest.mark.parametrize("algorithm", LINE_BASED)
def test_extract_bytes_records_encoding(fa_page, algorithm):
    result = mcecrawl.extract(fa_page, algorithm=algorithm, url="https://example.ir/news/1")
    assert result.status == "ok" and result.encoding == "utf-8" and result.encoding_source == "utf-8"
    assert ARTICLE[1] in result.text


def test_extract_legacy_encoding_through_decode(fa_page):
    body = (fa_page.decode("utf-8").replace("\u200c", " ").replace("ک", "ك").replace("ی", "ي")
            .encode("cp1256", errors="xmlcharrefreplace"))
    result = mcecrawl.extract(body, content_type="text/html; charset=windows-1256")
    assert result.status == "ok" and result.encoding == "cp1256"
    assert "سازمان هواشناسي" in result.text


@pytest.mark.parametrize("algorithm", LINE_BASED)
@pytest.mark.parametrize("body, status, reason", [
    (b"", "empty", "empty page"),
    (b"   \n\t ", "empty", "empty page"),
    (PNG, "error", "PNG"),
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj <<>> endobj", "error", "PDF"),
    (gzip.compress(b"<html><p>hello</p></html>"), "error", "gzip"),
    (bytes(range(32)) * 100, "error", "binary"),
])
def test_bad_bytes(algorithm, body, status, reason):
    result = mcecrawl.extract(body, algorithm=algorithm)
    assert result.status == status and reason in result.reason and result.text == ""


@pytest.mark.parametrize("algorithm", LINE_BASED)
def test_a_page_of_unicode_spaces_is_empty(algorithm):
    """A str page is blank by str's whitespace (U+3000, U+2003 included), as ``str.strip`` has it."""
    result = mcecrawl.extract(" \u3000\u2003\n", algorithm=algorithm)
    assert (result.status, result.reason) == ("empty", "empty page")


@pytest.mark.parametrize("algorithm", LINE_BASED)
def test_invalid_utf8_is_decoded_not_raised(algorithm, fa_page):
    body = fa_page.replace("سازمان".encode(), "سازمان".encode()[:-1] + b"\xff", 1)
    result = mcecrawl.extract(body, algorithm=algorithm)
    assert result.status in ("ok", "empty") and result.encoding


@pytest.mark.parametrize("algorithm", LINE_BASED)
def test_scripts_only_page_is_empty(algorithm):
    page = ('<html><head><script>var a = "سلام دنیا، این متن در اسکریپت است";</script></head><body>'
            '<script>window.__NEXT_DATA__ = {"body": "' + "متن خبر در داده‌های صفحه " * 50 + '"}</script>'
            "</body></html>")
    result = mcecrawl.extract(page.encode(), algorithm=algorithm)
    assert result.status == "empty" and result.reason


def test_page_without_r2l_text_given_to_r2l():
    result = mcecrawl.extract(b"<html><body><p>" + b"English text only. " * 50 + b"</p></body></html>",
                              algorithm="r2l")
    assert result.status == "empty" and "R2L" in result.reason


@pytest.mark.parametrize("algorithm", LINE_BASED)
def test_unclosed_and_deeply_nested_markup(algorithm):
    unclosed = "<html><body><div><p>" + "متن فارسی بسیار طولانی " * 30 + '<div><span><a href="x'
    assert "متن فارسی" in mcecrawl.extract(unclosed, algorithm=algorithm).text
    deep = "<div>" * 100_000 + "<p>" + "متن عمیق در لایه‌های تودرتو " * 20 + "</p>"
    result = mcecrawl.extract(deep, algorithm=algorithm)
    assert result.status == "ok" and "متن عمیق" in result.text


def test_non_html_argument_type():
    result = mcecrawl.extract(12345)
    assert result.status == "error" and "bytes or str" in result.reason


@pytest.mark.parametrize("algorithm", ["scored_regions", "dana", "danag"])
def test_50_mb_page_finishes_in_linear_time(algorithm, fa_page):
    body = fa_page * (50_000_000 // len(fa_page) + 1)
    started = time.perf_counter()
    result = mcecrawl.extract(body, algorithm=algorithm)
    elapsed = time.perf_counter() - started
    assert result.status == "ok" and ARTICLE[0] in result.text
    # ~1-2 s on the 2-core box; a quadratic loop over 700k lines would take hours.
    assert elapsed < 60


def test_sniff_binary_leaves_text_alone(fa_page):
    assert sniff_binary(fa_page) is None
    assert sniff_binary("<p>سلام</p>".encode("utf-16")) is None
    assert sniff_binary(PNG) == "PNG image"


def test_a_failing_typed_reading_leaves_the_article_reading(monkeypatch, fa_page):
    """A page judged another type whose typed reading raises (lxml refuses a control character a
    mutated page carried, say) is the article reading with the failure as its reason, not an error."""
    import mcecrawl.algorithms as algorithms
    from mcecrawl.algorithms import typed
    from mcecrawl.algorithms.pagetype import Judgement

    expected = mcecrawl.extract(fa_page, page_type="article").text
    monkeypatch.setattr(algorithms, "_judge", lambda: lambda html, url=None: Judgement("documentation", "test", 0.9))

    def boom(*args, **kwargs):
        raise ValueError("All strings must be XML compatible")

    monkeypatch.setattr(typed, "extract_as", boom)
    result = mcecrawl.extract(fa_page)
    assert result.ok and result.page_type == "article" and ARTICLE[0] in result.text
    assert "documentation" in result.page_type_reason and "XML compatible" in result.page_type_reason
    assert result.text == expected


@pytest.mark.parametrize("page_type, acted", [("documentation", True), ("service", True), ("listing", False),
                                              ("forum", False)])
def test_a_copy_reading_needs_the_article_text_a_list_reading_many_times_it(monkeypatch, fa_page, page_type, acted):
    """A reading of the page's copy (product, documentation, service) a little longer than the article
    reading is acted on; a list reading (listing, collection, forum) of that size is not (the items of
    a list are many times the one teaser an article reading keeps)."""
    import mcecrawl.algorithms as algorithms
    from mcecrawl.algorithms import typed
    from mcecrawl.algorithms.pagetype import Judgement

    article = mcecrawl.extract(fa_page, page_type="article")
    grown = list(article.paragraphs) + [f"{p} ({ARTICLE[1]})" for p in article.paragraphs]  # ~2.2x the article
    monkeypatch.setattr(algorithms, "_judge", lambda: lambda html, url=None: Judgement(page_type, "test", 0.9))
    monkeypatch.setitem(typed.CONTENT, page_type, lambda text: grown)
    result = mcecrawl.extract(fa_page)
    assert result.page_type == (page_type if acted else "article")
    assert (result.text != article.text) == acted


def test_line_counts_read_as_the_tuple_of_their_numbers_only_when_read():
    import pickle

    import numpy as np

    from mcecrawl.algorithms.result import LineCounts

    counts = LineCounts(np.array([0, 7, 3], dtype=np.int32))
    assert counts._numbers is None and len(counts) == 3  # not converted by its length
    assert counts == (0, 7, 3) and counts[1] == 7 and counts[1:] == (7, 3) and list(counts) == [0, 7, 3]
    assert isinstance(counts[1], int) and counts == LineCounts(np.array([0, 7, 3])) and hash(counts) == hash((0, 7, 3))
    assert pickle.loads(pickle.dumps(counts)) == (0, 7, 3) and not LineCounts(np.array([], dtype=np.int32))
    assert np.asarray(counts, dtype=float).tolist() == [0.0, 7.0, 3.0]


def test_the_region_of_a_line_profile_algorithm_holds_its_line_counts(fa_page):
    result = mcecrawl.extract(fa_page, algorithm="danag")
    region = result.region
    assert region is not None and len(region.content) == len(region.code) == len(region.smoothed) > 0
    assert all(isinstance(v, int) for v in region.smoothed) and max(region.content) > 0
