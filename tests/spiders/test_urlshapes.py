"""URL identity and learned URL shapes of the generic news spider (mcecrawl/spiders/urlshapes.py)."""
from __future__ import annotations

import pytest

from mcecrawl.spiders.urlshapes import MIN_SAMPLES, ShapeLearner, Site, url_shapes


def test_a_site_is_scheme_host_and_port():
    a, b = Site("http://127.0.0.1:8001"), Site("http://127.0.0.1:8002")
    assert a.owns("http://127.0.0.1:8001/x") and not a.owns("http://127.0.0.1:8002/x")
    assert a.canonical("http://127.0.0.1:8002/x") is None and b.key == "127.0.0.1:8002"
    live = Site("https://www.example.ir")
    for twin in ("https://example.ir/n/1", "http://m.example.ir/n/1", "https://amp.example.ir/n/1"):
        assert live.canonical(twin) == "https://www.example.ir/n/1"
    assert not live.owns("https://cdn.other.ir/n/1")
    with pytest.raises(ValueError):
        Site("ftp://example.ir")


@pytest.mark.parametrize("url, canonical", [
    ("https://www.example.ir/news/5?utm_source=x&b=2&a=1#top", "https://www.example.ir/news/5?a=1&b=2"),
    ("https://www.example.ir/amp/1074101/", "https://www.example.ir/1074101/"),
    ("https://www.example.ir/news/1074101/amp", "https://www.example.ir/news/1074101"),
    ("https://www.example.ir/print/77", "https://www.example.ir/77"),
    ("https://www.example.ir/a/c1n5k2xw8e4o.amp.html", "https://www.example.ir/a/c1n5k2xw8e4o.html"),
    ("https://www.example.ir/x?amp=1&fbclid=z", "https://www.example.ir/x"),
    ("https://www.example.ir/x?outputType=amp&id=3", "https://www.example.ir/x?id=3"),
    ("https://www.example.ir/خبر/۱", "https://www.example.ir/%D8%AE%D8%A8%D8%B1/%DB%B1"),
])
def test_canonical_folds_tracking_and_variants(url, canonical):
    assert Site("https://www.example.ir").canonical(url) == canonical


def test_clean_keeps_the_variant_to_fetch():
    site = Site("https://www.example.ir")
    assert site.clean("https://example.ir/amp/12/?utm_medium=rss") == "https://www.example.ir/amp/12/"


@pytest.mark.parametrize("url", [
    "https://example.ir/amp/12/?utm_medium=rss&amp=1", "https://www.example.ir/amp/amp/x", "https://m.example.ir/a.amp.html",
    "https://www.example.ir/%%41a?b=%zz&a=1#f", "https://www.example.ir/خبر/۱?print=1", "https://www.example.ir",
])
def test_canonical_is_fold_of_clean(url):
    site = Site("https://www.example.ir")
    cleaned = site.clean(url)
    assert cleaned is not None and site.canonical(url) == site.fold(cleaned)


@pytest.mark.parametrize("url", [
    "https://www.example.ir/%%41a", "https://www.example.ir/a%", "https://www.example.ir/%zz%4?q=%%41",
    "https://www.example.ir/%E2%82/x", "https://www.example.ir/%41%25%2541",
])
def test_clean_is_idempotent_on_broken_escapes(url):
    """A page has one identity: cleaning a cleaned URL changes nothing, so canonical(clean(u)) == canonical(u)."""
    site = Site("https://www.example.ir")
    cleaned = site.clean(url)
    assert cleaned is not None and site.clean(cleaned) == cleaned
    assert site.canonical(cleaned) == site.canonical(url)


@pytest.mark.parametrize("path, fine, coarse", [
    ("/news/1074101", "/news/{n}", "/news/{n}"),
    ("/2024/05/some-title/", "/{yyyy}/{n}/{slug}", "/{yyyy}/{n}/{slug}"),
    ("/?p=123", "/?p={n}", "/?p={n}"),
    ("/category/sport/", "/category/sport", "/category/{w}"),
    ("/tag/some-tag/page/2/", "/tag/{slug}/page/{n}", "/tag/{slug}/{w}/{n}"),
    ("/persian/articles/c1n5k2xw8e4o", "/persian/articles/{id}", "/persian/{w}/{id}"),
    ("/News/5801001.aspx", "/news/{n}.aspx", "/news/{n}.aspx"),
    ("/archive?pi=2&tp=1", "/archive?pi={n}&tp={n}", "/archive?pi={n}&tp={n}"),
])
def test_shapes(path, fine, coarse):
    assert url_shapes("https://x.ir" + path) == (fine, coarse)


def test_learner_holds_back_shapes_that_lead_nowhere():
    learner = ShapeLearner()
    tag = url_shapes("https://x.ir/tag/a-b")
    for i in range(MIN_SAMPLES):
        assert learner.admits(tag) and learner.kind(tag) == "unknown"
        learner.requested(tag)
        learner.judged(tag, f"https://x.ir/tag/t-{i}", article=False)
    assert not learner.admits(tag) and learner.kind(tag) == "other"
    learner.led_to_article(tag)  # a tag page that led to a new article earns one more page
    assert learner.admits(tag) and learner.kind(tag) == "listing"


def test_a_shape_that_yielded_an_article_is_never_held_back():
    learner = ShapeLearner()
    slug = url_shapes("https://x.ir/some-title")
    for i in range(10):  # listings first, all at the same shape as the articles
        learner.requested(slug)
        learner.judged(slug, f"https://x.ir/s-{i}", article=False)
    assert not learner.admits(slug)
    learner.judged(slug, "https://x.ir/an-article", article=True)
    assert learner.admits(slug) and learner.kind(slug) == "article"
    for i in range(100):
        learner.judged(slug, f"https://x.ir/s-{i}", article=False)
    assert learner.admits(slug)


def test_a_sampled_coarse_shape_speaks_for_its_unseen_siblings():
    learner = ShapeLearner()
    for name in ("sport", "art", "world"):
        shapes = url_shapes(f"https://x.ir/category/{name}")
        learner.requested(shapes)
        learner.judged(shapes, f"https://x.ir/category/{name}", article=False)
    assert not learner.admits(url_shapes("https://x.ir/category/science"))
    # ... but not for a sibling under a coarse shape that has articles
    art = url_shapes("https://x.ir/fa/articles/c1abc")
    learner.judged(art, "https://x.ir/fa/articles/c1abc", article=True)
    assert learner.admits(url_shapes("https://x.ir/fa/topics/c2def"))


def test_learner_state_is_plain_data():
    import json

    state: dict = {}
    learner = ShapeLearner(state)
    shapes = url_shapes("https://x.ir/news/1")
    learner.requested(shapes)
    learner.judged(shapes, "https://x.ir/news/1", article=True)
    again = ShapeLearner(json.loads(json.dumps(state)))
    assert again.kind(url_shapes("https://x.ir/news/2")) == "article"
    assert again.summary()[0].startswith("/news/{n}: 1 requested, 1 articles")


@pytest.mark.parametrize("url", ["https://x.ir/news/1074101", "https://x.ir/2024/05/some-title/", "https://x.ir/?p=1",
                                 "https://x.ir/archive?pi=2&tp=1", "https://x.ir/News/5801001.aspx", "https://x.ir/"])
def test_shape_pattern_matches_its_urls(url):
    import re

    from mcecrawl.spiders.urlshapes import shape_pattern

    pattern = re.compile(r"^https://x\.ir" + shape_pattern(url_shapes(url)[0]))
    assert pattern.search(url) and pattern.search(url.rstrip("/"))
    assert not pattern.search(url + "x/y/z")
