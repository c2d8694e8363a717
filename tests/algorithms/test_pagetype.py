"""The page-type judgement: synthetic pages of each type, the page's markup as evidence, our article
sets staying articles, and a golden sample of WCXB's development pages."""
from __future__ import annotations

import json

import numpy as np
import pytest

from mcecrawl.algorithms import pagetype
from mcecrawl.algorithms.pagetype import Judgement, judge
from mcecrawl.algorithms.result import PAGE_TYPES
from mcecrawl.evaluation.datasets import load_dataset

# Persian filler: the judgement reads structure, not a language.
WORDS = ("خبرگزاری گزارش داد که نشست امروز مجلس درباره بودجه سال آینده با حضور نمایندگان و وزیران "
         "برگزار شد و پس از بحث‌های طولانی درباره مالیات و یارانه‌ها به پایان رسید").split()


@pytest.fixture(autouse=True)
def implementation():
    """The judgement has no compiled core: run once, not once per extraction core."""
    yield


def sentence(i: int, n: int = 18) -> str:
    return " ".join(WORDS[(i + k) % len(WORDS)] for k in range(n)) + "."


def page(body: str, head: str = "", title: str = "عنوان") -> str:
    nav = "".join(f'<li><a href="/section/{i}">بخش {i}</a></li>' for i in range(8))
    return (f"<!DOCTYPE html><html lang=fa dir=rtl><head><meta charset=utf-8><title>{title}</title>{head}</head>"
            f'<body><header><nav><ul class="menu">{nav}</ul></nav></header><main>{body}</main>'
            f'<footer><p>© خبرگزاری</p><a href="/about">درباره ما</a></footer></body></html>')


def article_page() -> str:
    paras = "".join(f"<p>{sentence(i, 45)}</p>" for i in range(9))
    return page(f'<article><h1>{sentence(3, 9)}</h1><div class="byline">نویسنده</div>'
                f'<time datetime="2024-05-01">۱۴۰۳</time>{paras}</article>')


def listing_page() -> str:
    items = "".join(
        f'<li class="news-item"><h3><a href="/news/{i}/story-{i}">{sentence(i, 9)}</a></h3>'
        f'<p class="teaser">{sentence(i + 5, 22)}</p><time datetime="2024-05-0{i % 9 + 1}">۱۴۰۳</time></li>'
        for i in range(20))
    return page(f'<h1>آخرین اخبار</h1><ul class="news-list">{items}</ul>'
                '<div class="pagination"><a href="?page=2">۲</a><a href="?page=3">۳</a></div>')


def thread_page() -> str:
    posts = "".join(
        f'<div class="post" id="post-{i}"><div class="post-author"><img class="avatar" src="/u/{i}.png">'
        f'<a class="username" href="/members/{i}">کاربر{i}</a></div><div class="post-body message">'
        f"<p>{sentence(i * 3, 30)}</p></div><div class=\"post-footer\"><a class=\"reply\" href=\"#\">پاسخ</a>"
        f'<span class="votes">{i}</span></div></div>' for i in range(5))
    return page(f'<h1>{sentence(1, 8)}</h1><div class="thread">{posts}</div>')


def product_page() -> str:
    specs = "".join(f"<tr><th>ویژگی {i}</th><td>{i * 7} میلی‌متر</td></tr>" for i in range(12))
    return page('<div class="product"><h1 class="product-title">گوشی هوشمند مدل ۱۲</h1>'
                '<div class="product-price price">$249.99</div><form class="cart"><select name="color">'
                '<option>سیاه</option></select><input class="qty" type="number" value="1">'
                '<button class="add-to-cart btn">افزودن به سبد</button></form>'
                f'<div class="description"><p>{sentence(2, 40)}</p></div>'
                f'<table class="specs">{specs}</table></div>')


def doc_page() -> str:
    toc = "".join(f'<li><a href="/docs/ch{i}">فصل {i}</a></li>' for i in range(10))
    code = ('<pre><code class="language-python">import mcecrawl\nresult = mcecrawl.extract(page)\n'
            "print(result.text)\n</code></pre>")
    body = "".join(f"<h2>بخش {i}</h2><p>{sentence(i, 30)} <code>extract()</code></p>{code}" for i in range(5))
    return page(f'<aside class="sidebar toc"><ul>{toc}</ul></aside><div class="docs-content markdown">'
                f"<h1>راهنمای استفاده</h1>{body}</div>")


SYNTHETIC = {"article": article_page, "listing": listing_page, "forum": thread_page, "product": product_page,
             "documentation": doc_page}
URLS = {"article": "https://example.org/1403/02/12/budget-debate-in-parliament",
        "listing": "https://example.org/category/politics/", "forum": "https://example.org/forum/threads/budget.123",
        "product": "https://example.org/products/phone-model-12", "documentation": "https://example.org/docs/usage"}


@pytest.mark.parametrize("expected", sorted(SYNTHETIC))
def test_synthetic_pages_at_their_urls_are_judged_right(expected):
    judgement = judge(SYNTHETIC[expected](), URLS[expected])
    assert judgement.page_type == expected, judgement
    assert 0 < judgement.confidence <= 1 and judgement.reason


@pytest.mark.parametrize("expected", ["article", "listing", "documentation"])
def test_structure_alone_decides_without_a_url(expected):
    """Twenty teasers, a body of paragraphs, code blocks: judged right with no URL at all."""
    judgement = judge(SYNTHETIC[expected]())
    assert judgement.page_type == expected, judgement


def test_twenty_teasers_are_a_listing_whatever_the_model_says():
    judgement = judge(listing_page(), "https://example.org/1403/02/12/budget-debate-in-parliament")
    assert judgement.page_type == "listing"
    assert judgement.reason.startswith("20 linked headlines")


NEWS_ARTICLE = '<script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle"}</script>'
OG_ARTICLE = '<meta property="og:type" content="article">'


def test_a_page_whose_head_declares_it_an_article_is_one():
    """og:type "article" and a JSON-LD article type, both in the head: the page's own word, taken before
    the model and the listing rule (twenty teasers here)."""
    listing = listing_page()
    declared = listing.replace("</head>", OG_ARTICLE + NEWS_ARTICLE + "</head>")
    judgement = judge(declared, "https://example.org/news/")
    assert judgement == Judgement("article", "declared in its head: og:type article, JSON-LD NewsArticle", 1.0)
    assert judge(declared.encode()) == judgement
    assert pagetype.declaration(declared) == judgement.reason


@pytest.mark.parametrize("where", ["og:type alone", "JSON-LD alone", "og:type website", "JSON-LD in the body",
                                   "both in the body", "an ItemList of articles"])
def test_half_a_declaration_or_one_in_the_body_leaves_the_judgement_to_the_page(where):
    """Markup in the body describes what the page holds (a forum's posts as Articles), not the page."""
    listing = listing_page()
    head, body = {
        "og:type alone": (OG_ARTICLE, ""),
        "JSON-LD alone": (NEWS_ARTICLE, ""),
        "og:type website": ('<meta property="og:type" content="website">' + NEWS_ARTICLE, ""),
        "JSON-LD in the body": (OG_ARTICLE, NEWS_ARTICLE),
        "both in the body": ("", OG_ARTICLE + NEWS_ARTICLE),
        "an ItemList of articles": (OG_ARTICLE + '<script type="application/ld+json">{"@type":"ItemList",'
                                    '"itemListElement":[]}</script>', NEWS_ARTICLE * 3),
    }[where]
    page = listing.replace("</head>", head + "</head>").replace("</main>", "</main>" + body)
    assert pagetype.declaration(page) is None
    judgement = judge(page, "https://example.org/news/")
    assert judgement.page_type == "listing" and not judgement.reason.startswith("declared")


def test_the_contract():
    judgement = judge(article_page(), "https://example.org/a", tree=None)
    assert isinstance(judgement, Judgement) and judgement.page_type in PAGE_TYPES
    with pytest.raises(ValueError):
        Judgement("homepage", "", 0.5)
    assert judge("") == Judgement("other", "empty page", 1.0)
    assert judge("  \n").page_type == "other"
    assert judge(b" \x0b\x0c\r\n\t") == judge("\u3000\u2003") == Judgement("other", "empty page", 1.0)


def test_utf8_bytes_are_judged_as_their_text():
    html = listing_page()
    assert judge(html.encode()) == judge(html)
    assert judge(b"\xff\xfe<p>broken</p>").page_type in PAGE_TYPES


def test_bad_input_gives_a_type_never_a_crash():
    for html in ("<", "<<<>>>", "<p" * 1000, "\x00\x01" * 50, "<script>{" + "x" * 5000, "plain text, no markup"):
        assert judge(html, "not a url").page_type in PAGE_TYPES
    for url in ("http://[bad", "http://x:99999999/a", "", "ftp://", "/relative/path"):
        assert judge(article_page(), url).page_type in PAGE_TYPES


def test_the_page_markup_is_evidence():
    """JSON-LD ``@type`` and ``og:type`` move the judgement; the same page without them is judged by
    its structure alone."""
    plain = thread_page()
    marked = plain.replace("</head>", '<script type="application/ld+json">{"@context":"https://schema.org",'
                           '"@type":"Product","offers":{"@type":"Offer","price":"12"}}</script>'
                           '<meta property="og:type" content="product"></head>')
    x_plain, x_marked = pagetype.features(plain), pagetype.features(marked)
    assert pagetype.probabilities(x_marked)["product"] > pagetype.probabilities(x_plain)["product"]
    news = listing_page()
    as_article = news.replace("</head>", '<meta property="og:type" content="article"></head>')
    assert (pagetype.probabilities(pagetype.features(as_article))["article"]
            > pagetype.probabilities(pagetype.features(news))["article"])


def test_the_markup_is_read_where_the_page_scan_found_it():
    """The markup's patterns are matched at the scan's offsets of their literals: every type once,
    a ``"@type"`` inside a matched list not again, a literal with no type after it skipped."""
    from mcecrawl.algorithms.pagescan import ANCHORS, scan

    assert [p.pattern[:len(a)] for p, a in zip((pagetype._JSONLD_TYPE, pagetype._ITEMTYPE), ANCHORS)] == \
        [a.encode() for a in ANCHORS[:2]]
    page = ('<b itemtype="https://schema.org/Product">"@type" nothing here "@type": ["Offer", "@type"] '
            '<i itemtype=x> "@type":"Comment" <meta content="article" property="og:type">').encode()
    markup = pagetype._markup(page, scan(page).anchors)
    assert markup == {"product": 2, "forum": 1, "og:article": 1}


def test_the_url_shape_is_a_feature_not_a_rule():
    html = thread_page()
    on_forum = pagetype.probabilities(pagetype.features(html, "https://example.org/forum/threads/budget.123"))
    on_blog = pagetype.probabilities(pagetype.features(html, "https://example.org/2024/05/budget-debate"))
    assert on_forum["forum"] > on_blog["forum"]


def test_the_shipped_model_matches_the_features():
    model = json.loads(pagetype.MODEL_PATH.read_text(encoding="utf-8"))
    assert tuple(model["features"]) == pagetype.FEATURE_NAMES
    assert set(model["classes"]) <= set(PAGE_TYPES)
    assert np.asarray(model["coef"]).shape == (len(model["classes"]), len(pagetype.FEATURE_NAMES))


def test_a_model_being_trained_decides_without_the_shipped_one(monkeypatch, tmp_path):
    # after a change of the features the shipped pagetype.json no longer fits them: the training
    # script's held-out judgement must read the model it is fitting, not the stale file
    stale = tmp_path / "pagetype.json"
    stale.write_text(json.dumps({"features": ["gone"]}), encoding="utf-8")
    monkeypatch.setattr(pagetype, "MODEL_PATH", stale)
    pagetype._model.cache_clear()
    try:
        n = len(pagetype.FEATURE_NAMES)
        coef = np.zeros((2, n))
        coef[1, pagetype.FEATURE_NAMES.index("link_text_share")] = 1.0
        model = pagetype.as_arrays({"classes": ["article", "listing"], "mean": [0.0] * n, "scale": [1.0] * n,
                                    "coef": coef.tolist(), "intercept": [0.0, 0.0]})
        x = pagetype.features(article_page())
        page_type, reason = pagetype.decide(x, {"article": 0.2, "listing": 0.8}, model)
        assert page_type == "listing" and reason.startswith("model p=0.80: link_text_share=")
        with pytest.raises(RuntimeError, match="trained on other features"):
            pagetype.decide(x, {"article": 0.2, "listing": 0.8})
    finally:
        pagetype._model.cache_clear()


# Pages of our article dev sets (never trained on) judged something else, as measured when the model
# was trained (benchmarks/train_pagetype.py): the goal is none; these bounds stop it getting worse.
ARTICLE_SET_MISSES = {"r2l": 1, "scrapinghub_aeb": 5}


@pytest.mark.parametrize("name", sorted(ARTICLE_SET_MISSES))
def test_our_article_sets_stay_articles(shared_data, name):
    pages = load_dataset(shared_data / name)
    misses = [(p.id, j) for p in pages if (j := judge(p.text, p.url)).page_type != "article"]
    assert len(misses) <= ARTICLE_SET_MISSES[name], misses


# WCXB development pages, a few per type, from different domains (the shipped model was fitted on
# them: this pins its behaviour, the held-out figures are in BENCHMARKS.md).
GOLDEN = {
    "article": ("0008", "0010"),
    "listing": ("0077", "0082"),
    "forum": ("0525", "0526"),
    "product": ("0185", "0581"),
    "collection": ("0632", "0634"),
    "documentation": ("0239", "0498"),
    "service": ("0021", "0025"),
}


def test_a_golden_sample_of_wcxb_pages(shared_data):
    pages = {p.id: p for p in load_dataset(shared_data / "wcxb_dev")}
    wrong = []
    for expected, ids in GOLDEN.items():
        for pid in ids:
            p = pages[pid]
            assert p.page_type == expected
            judgement = judge(p.text, p.url)
            if judgement.page_type != expected:
                wrong.append((pid, expected, judgement))
    assert not wrong


def test_the_page_is_judged_alike_as_str_bytes_or_bytearray():
    html = ("<html><body><h1>Title</h1>" + "<p class='entry'>A paragraph of running text, long enough. </p>" * 8
            + "<p>price 19,99 €</p></body></html>")
    as_str = judge(html, "https://example.org/2024/05/a-long-article-slug")
    for page in (html.encode(), bytearray(html.encode())):
        assert judge(page, "https://example.org/2024/05/a-long-article-slug") == as_str
