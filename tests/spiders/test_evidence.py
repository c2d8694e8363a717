"""Page evidence helpers of mcecrawl/spiders/evidence.py used by the generic news spider (the rest of the
module is tested through the profile spider in test_profile_spider.py and test_hooks.py)."""
from __future__ import annotations

from mcecrawl.spiders.evidence import (
    H1_TEXT,
    MIN_PROSE_CHARS,
    iso_before,
    microdata_evidence,
    page_metadata,
    prose_chars,
    signals_selector,
    too_old,
)


def test_microdata_evidence():
    assert microdata_evidence(b'<div itemscope itemtype="https://schema.org/NewsArticle">') == \
        "microdata itemtype NewsArticle"
    assert microdata_evidence(b"<div itemprop='articleBody'>") == "microdata itemprop articleBody"
    assert microdata_evidence(b'<div itemscope itemtype="http://schema.org/WebPage"><p>x</p>') is None
    assert microdata_evidence(b"<article><h1>x</h1></article>") is None


def test_prose_chars_counts_lines_that_end_sentences():
    text = "خبر فوری\nاین یک جمله است. و این هم جمله‌ای دیگر؟\nسرخط\nهذه جملة عربية؛ تنتهي هنا.\nیہ اردو جملہ ہے۔"
    assert prose_chars(text) == sum(len(x) for x in text.split("\n")[1::2]) + len(text.split("\n")[4])
    assert prose_chars("سرخط یک\nسرخط دو\nسرخط سه") == 0
    assert MIN_PROSE_CHARS > prose_chars("یک جمله کوتاه.")


def test_page_metadata_function():
    sel = signals_selector(b'<html><head><script type="application/ld+json">{"@type": "NewsArticle", '
                           b'"headline": "H", "datePublished": "2024-05-01T10:00:00Z", "author": {"@type": "Person", '
                           b'"name": "A"}}</script></head></html>')
    assert page_metadata(sel) == {"title": "H", "published_raw": "2024-05-01T10:00:00Z",
                                  "published": "2024-05-01T10:00:00+00:00", "authors": ["A"]}


def test_too_old_reads_listed_dates_and_iso_before_published():
    assert too_old("2020-11-29", "2021-01-01") and too_old("Sun, 29 Nov 2020 11:57:59 GMT", "2021-01-01")
    assert not too_old("2021-01-01T00:00:00Z", "2021-01-01") and not too_old("2020-11-29", None)
    assert not too_old("۱۴۰۳/۰۱/۰۱", "2021-01-01") and not too_old(None, "2021-01-01")
    assert iso_before("2020-11-29T11:57:59+00:00", "2021-01-01") and not iso_before("2021-01-01", "2021-01-01")
    assert not iso_before(None, "2021-01-01") and not iso_before("2020-11-29", None)


def test_article_verdict_of_pages_without_markup():
    """A page without markup: an article's prose at a URL naming one page; never a list of teasers (however
    long), a page of two paragraphs at a URL of words, a list of links; a page type decides first."""
    from mcecrawl.spiders.discovery import page_links
    from mcecrawl.spiders.evidence import BY_CONTENT, BY_MARKUP, article_verdict

    sentence = "این جمله‌ای کامل از یک خبر تازه است که ادامه دارد. "
    body = "".join(f"<p>{sentence * 3}</p>" for _ in range(5))
    article = f"<html><body><h1>سرخط خبر</h1>{body}</body></html>".encode()
    text = "سرخط خبر\n" + "\n".join([(sentence * 3).strip()] * 5)
    assert article_verdict(BY_CONTENT, text, body=article, headlines=page_links(article).headlines,
                           shape="/news/{n}") is None
    assert "URL of words" in article_verdict(BY_CONTENT, text, body=article, shape="/about")
    about = "درباره ما\n" + "\n".join([(sentence * 3).strip()] * 2)
    assert "no article yet" in article_verdict(BY_CONTENT, about, body=b"", shape="/{slug}")
    items = "".join(f'<article><h2><a href="/n/{i}">سرخط خبر شماره {i} امروز</a></h2><p>{i} {sentence * 3}</p>'
                    f"</article>" for i in range(8))
    listing = f"<html><body><h1>خبرها</h1>{items}</body></html>".encode()
    teasers = "خبرها\n" + "\n".join(f"{i} {(sentence * 3).strip()}" for i in range(8))
    assert "a list" in article_verdict(BY_CONTENT, teasers, body=listing, headlines=page_links(listing).headlines,
                                       shape="/{slug}", shape_articles=5)
    links = "".join(f'<li><a href="/n/{i}">سرخط خبر شماره {i} امروز</a></li>' for i in range(8))
    menu = f"<html><body><h1>خبرها</h1><ul>{links}</ul></body></html>".encode()
    lines = "خبرها\n" + "\n".join(f"سرخط خبر شماره {i} امروز" for i in range(8))
    assert "list of links" in article_verdict(BY_CONTENT, lines, body=menu, shape="/{slug}", shape_articles=5)
    assert article_verdict(BY_MARKUP, "x", page_type="service").startswith("page type service")
    # "article" is the extraction's reading when it judged nothing else: no evidence, the content decides
    assert "characters of punctuated prose" in article_verdict(BY_CONTENT, "x", page_type="article", shape="/{n}")


def test_waits_for_its_shape_is_the_verdict_one_article_of_the_shape_would_change():
    from mcecrawl.spiders.evidence import BY_CONTENT, article_verdict, waits_for_its_shape

    flash = "A storm closed the northern pier on Monday, the harbour authority said."
    for text in (flash, "Pier closed", ""):
        reason = article_verdict(BY_CONTENT, text, body=b"", shape="/{yyyy}/{slug}")
        with_one = article_verdict(BY_CONTENT, text, body=b"", shape="/{yyyy}/{slug}", shape_articles=1)
        assert (reason is not None and waits_for_its_shape(reason, text)) == (reason is not None and with_one is None)
    assert waits_for_its_shape(article_verdict(BY_CONTENT, flash, body=b"", shape="/{slug}"), flash)


def test_the_title_without_og_title_is_every_headline_text():
    """``H1_TEXT`` selects the nodes ``h1 ::text`` does; the title joins them."""
    sel = signals_selector("<html><head><title>Site</title></head><body><h1>Rain <b>in</b> Tehran</h1>"
                           "<p>x</p><h1>Second</h1></body></html>".encode())
    assert sel.xpath(H1_TEXT).getall() == sel.css("h1 ::text").getall()
    assert page_metadata(sel)["title"] == "Rain  in  Tehran Second"


def test_the_page_metadata_stays_linear_on_a_page_of_many_headlines():
    """``h1 ::text`` (``descendant-or-self::h1/descendant-or-self::text()``) merged its node sets in
    quadratic time: a page of 40,000 headlines held a crawl's spider for 33 s."""
    from growth import grows_within

    def build(n: int):
        return signals_selector(("<html><body>" + "".join(f"<h1>Title <b>{i}</b> x</h1><p>x</p>" for i in range(n))
                                 + "</body></html>").encode())

    linear, small, large = grows_within(page_metadata, build, 2_000)
    assert linear, (small, large)
