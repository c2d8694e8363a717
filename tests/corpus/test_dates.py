"""Dates: JSON-LD/meta first, then text; Jalali, Umm al-Qura Hijri, Gregorian to ISO-8601."""
from __future__ import annotations

import pytest

from mcecrawl.corpus.dates import extract_published, find_date, parse_date, parse_page


@pytest.mark.parametrize("raw,lang,expected", [
    ("۱۴۰۲/۰۸/۱۵", "fa", ("2023-11-06", "jalali")),
    ("1402-08-15", "fa", ("2023-11-06", "jalali")),
    ("1402-08-15T10:30:00", "fa", ("2023-11-06T10:30:00", "jalali")),  # Jalali in an ISO-shaped meta
    ("شنبه ۱۵ آبان ۱۴۰۲ - ۱۰:۳۰", "fa", ("2023-11-06T10:30:00", "jalali")),
    ("۲۴ مهر ۱۴۰۲", "fa", ("2023-10-16", "jalali")),
    ("۱ فروردین ۱۴۰۳", "fa", ("2024-03-20", "jalali")),  # Nowruz
    ("۱۰ قوس ۱۳۹۹", "fa", ("2020-11-30", "jalali")),  # Afghan (Dari) month name
    ("۱۰ لیندۍ ۱۳۹۹", "ps", ("2020-11-30", "jalali")),  # Pashto month name
    ("1445/03/15", "ar", ("2023-09-30", "hijri")),  # bare year on an Arabic page: lunar
    ("1445/03/15 هـ", "fa", ("2023-09-30", "hijri")),  # explicit marker beats the language
    ("الجمعة 15 ربيع الأول 1445 هـ", "ar", ("2023-09-30", "hijri")),
    ("1 رمضان 1445", "ar", ("2024-03-11", "hijri")),  # Umm al-Qura
    ("الإثنين، 13 مايو 2024 03:00 م", "ar", ("2024-05-13T15:00:00", "gregorian")),
    ("13 أيار 2024", "ar", ("2024-05-13", "gregorian")),
    ("١٣ يونيو ٢٠٢٤", "ar", ("2024-06-13", "gregorian")),
    ("13 مئی 2024", "ur", ("2024-05-13", "gregorian")),
    ("۱۳ ژوئن ۲۰۲۴", "fa", ("2024-06-13", "gregorian")),
    ("13/05/2024", "ar", ("2024-05-13", "gregorian")),
    ("2020-11-29T11:57:59Z", None, ("2020-11-29T11:57:59+00:00", "gregorian")),
    ("Sun, 29 Nov 2020 11:57:59 GMT", None, ("2020-11-29T11:57:59+00:00", "gregorian")),
])
def test_parse_date(raw, lang, expected):
    assert parse_date(raw, lang) == expected


@pytest.mark.parametrize("raw", ["", "garbage", "1402/13/40", "۳۵ آبان ۱۴۰۲", "0850/01/01", "15 ربيع الأول 1200"])
def test_parse_date_rejects(raw):
    assert parse_date(raw, "fa") is None


def test_jsonld_before_meta_before_text():
    html = """<html><head>
    <script type="application/ld+json">
    {"@graph": [{"@type": "NewsArticle", "datePublished": "2023-11-06T08:00:00+03:30"}]}</script>
    <meta property="article:published_time" content="2020-01-01T00:00:00Z"></head>
    <body><p>امروز ۱ دی ۱۴۰۲</p></body></html>"""
    got = extract_published(html, lang="fa")
    assert got.published == "2023-11-06T08:00:00+03:30" and got.source == "jsonld" and got.calendar == "gregorian"


def test_jalali_meta():
    html = '<html><head><meta name="date" content="۱۴۰۲/۰۸/۱۵ - ۱۰:۳۰"></head><body>x</body></html>'
    got = extract_published(html, lang="fa")
    assert (got.published, got.calendar, got.source, got.published_raw) == \
        ("2023-11-06T10:30:00", "jalali", "meta", "۱۴۰۲/۰۸/۱۵ - ۱۰:۳۰")


def test_visible_text_last_and_extracted_text_first():
    html = "<html><body><div>شنبه ۱ دی ۱۴۰۲</div><script>var d='1999/01/01'</script></body></html>"
    assert extract_published(html, lang="fa").published == "2023-12-22"
    got = extract_published(html, text="کد خبر ۱۲۳ - ۱۵ آبان ۱۴۰۲", lang="fa")
    assert (got.published, got.source) == ("2023-11-06", "text")


def test_raw_from_spider_used_when_no_html():
    got = extract_published(None, raw="۱۴۰۲/۰۸/۱۵", lang="fa")
    assert (got.published, got.source) == ("2023-11-06", "raw")
    assert extract_published(None, text="بدون تاریخ", lang="fa") is None


def test_find_date_picks_first():
    got = find_date("منتشر شده در ۲۴ مهر ۱۴۰۲ و به‌روز شده در ۱۴۰۲/۰۸/۱۵", "fa")
    assert got.published == "2023-10-16" and got.published_raw == "۲۴ مهر ۱۴۰۲"


def test_nastooh_meta():
    html = '<html><head><meta name="nastooh:publishDate" content="2026-02-26"></head><body>x</body></html>'
    assert extract_published(html, lang="fa").published == "2026-02-26"


def test_visible_text_can_be_skipped():
    html = "<html><body><div>شنبه ۱ دی ۱۴۰۲</div></body></html>"
    assert extract_published(html, lang="fa", visible=False) is None


def test_visible_text_of_a_page_with_control_characters():
    """A real page may hold C0 controls; reading its visible text must not edit the lxml tree
    (drop_tree re-set the parent's text and lxml refused the control character: ValueError)."""
    from mcecrawl.corpus.quality import CorpusQuality

    html = "<html><body><p>خبر\x01 امروز<script>var x = 1;</script> منتشر شد ۱۴۰۲/۰۸/۱۵</p></body></html>"
    found = extract_published(html, lang="fa")
    assert found is not None and found.calendar == "jalali" and found.source == "text"
    record = CorpusQuality(store=None).apply({"text": "", "title": "خبر", "url": "http://x.ir/1"}, html=html)
    assert record["published"] == found.published


@pytest.mark.parametrize("html", [
    '<html><head><meta name="date" content="۱۴۰۲/۰۸/۱۵"></head><body>x</body></html>',
    "<html><body><div>شنبه ۱ دی ۱۴۰۲</div></body></html>", "<html><body>بدون تاریخ</body></html>", "", "<"])
def test_a_parsed_page_gives_what_its_html_gives(html):
    """``doc=parse_page(html)``, reused across calls, reads the same dates as ``html`` parsed each time."""
    doc = parse_page(html)
    for kwargs in ({"visible": False}, {"text": "کد خبر ۱۵ آبان ۱۴۰۲"}, {"raw": "۱۴۰۲/۰۸/۱۶"}, {}):
        assert extract_published(lang="fa", doc=doc, **kwargs) == extract_published(html, lang="fa", **kwargs)


def test_a_page_with_an_xml_declaration_is_parsed():
    """lxml refuses a ``str`` that declares its encoding; the page is read as its UTF-8 bytes (as
    parsel reads one), NUL characters dropped."""
    html = ('<?xml version="1.0" encoding="windows-1256"?>\n<html><head><meta name="date" content="2023-11-05">'
            "</head><body>\x00متن</body></html>")
    doc = parse_page(html)
    assert doc is not None and doc.xpath("string(//body)") == "متن"
    assert extract_published(lang="fa", doc=doc, visible=False).published.startswith("2023-11-05")


def test_the_visible_text_searched_last_is_the_text_outside_scripts_styles_and_noscript():
    """The date written last in the page's visible text is found there; what scripts, styles and
    ``<noscript>`` hold is not read (the nodes ``//text()[not(ancestor::script or ...)]`` selects)."""
    from mcecrawl.corpus.dates import _VISIBLE_TEXT, _visible_text

    doc = parse_page("<html><head><style>p{}</style></head><body><p>Posted <b>on</b></p>"
                     "<script>var d = '2001-01-01';</script><noscript>2002-02-02</noscript>"
                     "<div>2024-05-13 <i>by</i> us</div></body></html>")
    old = "//text()[not(ancestor::script or ancestor::style or ancestor::noscript)]"
    assert doc.xpath(_VISIBLE_TEXT) == doc.xpath(old)
    assert _visible_text(doc) == "Posted on 2024-05-13 by us"
    assert extract_published(text="no date", doc=doc).published == "2024-05-13"


def test_the_visible_text_stays_linear_on_a_page_of_many_formatted_blocks():
    """The last look-up, the page's visible text: ``//text()[...]`` merged its node sets in quadratic
    time (a 0.8 MB page of 15,000 formatted blocks without a date took 33 s in ``from-warc``)."""
    from growth import grows_within

    def build(n: int):
        return parse_page("<html><body>" + "".join(f"<div>w {i} <b>x</b> y</div><p>a</p>" for i in range(n))
                          + "</body></html>")

    linear, small, large = grows_within(lambda doc: extract_published(text="no date", doc=doc), build, 2_000)
    assert linear, (small, large)
