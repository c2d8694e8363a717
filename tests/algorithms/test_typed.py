"""Each page type's main content (mcecrawl.algorithms.typed) and its wiring into extract():
synthetic pages per type that the article extraction gets wrong, golden wcxb_dev pages per type
(skipped when the evaluation data is absent), R2L article pages unchanged."""
from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

import mcecrawl.algorithms as algorithms
from data_root import MISSING
from data_root import SHARED_DATA as DATA
from mcecrawl.algorithms import extract, typed
from mcecrawl.algorithms.scored_regions import scored_regions
from mcecrawl.algorithms.typed import TYPED_MIN_CONFIDENCE, extract_as

SHIPPED_GROWTH = typed.TYPED_MIN_GROWTH
SHIPPED_PROSE_GROWTH = typed.PROSE_MIN_GROWTH
SHIPPED_UNSURE_GROWTH = typed.PROSE_UNSURE_MIN_GROWTH

CHROME = """<header class="site-header"><a href="/">Daily Site</a><nav><ul>
<li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li>
<li><a href="/about">About us</a></li></ul></nav></header>"""
FOOTER = """<footer><p>Copyright 2026 Daily Site. All rights reserved.</p><ul><li><a href="/privacy">Privacy</a></li>
<li><a href="/terms">Terms</a></li></ul></footer>"""


def page(body: str, title: str = "Page") -> str:
    return f"<html><head><title>{title}</title></head><body>{CHROME}{body}{FOOTER}</body></html>"


def listing() -> str:
    items = "".join(
        f'<div class="teaser"><h2><a href="/story/{i}">Headline number {i} of the river valley</a></h2>'
        f'<p>Teaser {i}: the council met on Monday to discuss the bridge.</p></div>' for i in range(1, 21))
    return page(f'<main><h1>Latest news</h1><div class="list">{items}</div></main>', "Latest news")


def thread() -> str:
    posts = "".join(
        f'<div class="comment reply"><span class="author">user{i}</span>'
        f'<p>Post {i} says the telescope mount wobbles, and the fix in post {i} is tightening the clamp. '
        f'{"It took an hour. " * (3 if i == 1 else 1)}</p></div>' for i in range(1, 6))
    return page(f'<h1>Telescope mount wobbles</h1><div class="thread">{posts}</div>', "Telescope mount wobbles")


def product() -> str:
    rows = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in
                   [("Weight", "1.2 kg"), ("Material", "Aluminium"), ("Colour", "Graphite"), ("Warranty", "2 years")])
    also = "".join(f'<div class="card"><a href="/p/{i}"><img src="/i/{i}.jpg"><span>Camp Mug {i}</span></a>'
                   f'<span class="price">${i}.00</span></div>' for i in range(1, 13))
    return page('<main><h1>Trail Kettle 900</h1><p class="price">$49.00</p>'
                '<div class="description"><p>The Trail Kettle boils a litre of water in four minutes on any stove, '
                'and its folding handle locks the lid for the trip home. A whistle tells you when it is ready, '
                'and the base spreads the heat so nothing scorches. Its spout pours without dripping.</p></div>'
                f'<div class="grid"><h2>You may also like</h2>{also}</div>'
                f'<div class="tab"><h2>Specifications</h2><table class="specs">{rows}</table></div></main>',
                "Trail Kettle 900")


def documentation() -> str:
    toc = "".join(f'<li><a href="/docs/{i}">Chapter {i}</a></li>' for i in range(1, 9))
    return page(f'<div class="docs"><div class="toc"><ul>{toc}</ul></div><div class="doc-body">'
                '<h1>Reading a config file</h1><p>Call load_config with the path; it returns a mapping.</p>'
                '<pre><code>from app import load_config\ncfg = load_config("app.toml")\nprint(cfg["port"])</code></pre>'
                '<p>Missing keys raise KeyError.</p>'
                '<pre><code>try:\n    cfg["host"]\nexcept KeyError:\n    pass</code></pre></div></div>',
                "Reading a config file")


@dataclass(frozen=True)
class FakeJudgement:
    page_type: str
    reason: str
    confidence: float = 1.0


def judged_as(monkeypatch: pytest.MonkeyPatch, page_type: str, confidence: float = 1.0,
              guarded: bool = False) -> None:
    """extract()'s judgement replaced by one that says ``page_type`` (the judgement is another module's),
    and the typed reading's growth guards (list types' and prose types') as shipped when ``guarded``,
    else off (so a test sees the type's content)."""
    monkeypatch.setattr(algorithms, "_judge",
                        lambda: lambda html, url=None, **kw: FakeJudgement(page_type, "test", confidence))
    monkeypatch.setattr(typed, "TYPED_MIN_GROWTH", SHIPPED_GROWTH if guarded else 0.0)
    monkeypatch.setattr(typed, "PROSE_MIN_GROWTH", SHIPPED_PROSE_GROWTH if guarded else 0.0)
    monkeypatch.setattr(typed, "PROSE_UNSURE_MIN_GROWTH", SHIPPED_UNSURE_GROWTH if guarded else 0.0)


def test_a_sure_judgement_is_acted_on_only_when_its_reading_grows_past_the_article(monkeypatch):
    # the 20 teasers are the article extraction's region already: the listing reading adds their
    # headlines only (under 4 times the text), so the page is read as an article
    html = listing()
    judged_as(monkeypatch, "listing", 1.0, guarded=True)
    result = extract(html)
    assert result.text == scored_regions(html).text and result.page_type == "article"
    assert result.page_type_reason.startswith(
        f"listing judged at 1.00, but its reading is under {SHIPPED_GROWTH:g} times the article's text")
    # the article extraction keeps one post of the thread; the thread reading has all five
    judged_as(monkeypatch, "forum", 1.0, guarded=True)
    result = extract(thread())
    assert result.page_type == "forum" and all(f"Post {i} says" in result.text for i in range(1, 6))


def test_a_page_whose_head_declares_it_an_article_is_read_as_one(monkeypatch):
    # the shipped judgement (no fake): twenty teasers are a listing, read as one with the growth guard
    # off; the same page whose head declares it an article (og:type and JSON-LD) is its article reading
    monkeypatch.setattr(typed, "TYPED_MIN_GROWTH", 0.0)
    html = listing()
    assert extract(html).page_type == "listing"
    declared = html.replace("</head>", '<meta property="og:type" content="article"><script type="application/ld+json">'
                                       '{"@type": "BlogPosting"}</script></head>')
    result = extract(declared)
    assert (result.page_type, result.page_type_reason) == (
        "article", "declared in its head: og:type article, JSON-LD BlogPosting")
    assert result.text == scored_regions(declared).text


def test_prose_types_need_less_growth_than_list_types(monkeypatch):
    # a service or documentation reading is the article's text plus the rest of the page's copy:
    # here under 4 times the article's text, above PROSE_MIN_GROWTH times, so read as the type
    html = product()
    article = scored_regions(html)
    for page_type in ("service", "documentation"):
        reading = extract_as(html, page_type)
        assert SHIPPED_PROSE_GROWTH * len(article.text) < len(reading.text) < SHIPPED_GROWTH * len(article.text)
        judged_as(monkeypatch, page_type, 1.0, guarded=True)
        assert extract(html).page_type == page_type
    # a list type's reading is held to the list guard
    grown = replace(article, text=article.text * 2, page_type="listing")
    assert not typed.grown_enough(article, grown)
    assert typed.grown_enough(article, replace(grown, page_type="service"))
    # a prose reading hardly larger than the article's is not acted on: read as an article
    assert not typed.grown_enough(article, replace(article, text=article.text + " more", page_type="documentation"))


def test_a_collection_has_its_own_lower_growth_guard():
    # a category grid's article reading keeps a run of its densest cards: its collection reading is
    # held to COLLECTION_MIN_GROWTH, under the listing's and the thread's TYPED_MIN_GROWTH
    assert typed.min_growth("collection") == typed.COLLECTION_MIN_GROWTH < typed.TYPED_MIN_GROWTH
    assert typed.min_growth("listing") == typed.min_growth("forum") == typed.TYPED_MIN_GROWTH
    article = scored_regions(listing())
    twice = replace(article, text=" ".join([article.text] * 2))
    assert typed.grown_enough(article, replace(twice, page_type="collection"))
    assert not typed.grown_enough(article, replace(twice, page_type="listing"))
    assert not typed.grown_enough(article, replace(twice, page_type="forum"))


@pytest.mark.parametrize("page_type", ["listing", "collection", "forum", "other"])
def test_an_unsure_judgement_is_not_acted_on(monkeypatch, page_type):
    html = listing()
    bound = typed.min_confidence(page_type)
    unsure = bound - 0.01
    judged_as(monkeypatch, page_type, unsure)
    result = extract(html)
    assert result.text == scored_regions(html).text and result.page_type == "article"
    assert result.page_type_reason.startswith(
        f"{page_type} judged at {unsure:.2f}, under the {bound:.2f} needed: read as an article")
    judged_as(monkeypatch, page_type, bound)  # at the bound, acted on (growth guard off)
    assert extract(html).page_type == page_type


def test_an_unsure_prose_judgement_needs_its_reading_to_grow_more(monkeypatch):
    # a prose judgement under PROSE_MIN_CONFIDENCE is read as its type only when its reading holds
    # PROSE_UNSURE_MIN_GROWTH times the article's text (from the bound on, PROSE_MIN_GROWTH times);
    # a list type under TYPED_MIN_CONFIDENCE is not read as one at all
    assert typed.min_confidence("listing") == TYPED_MIN_CONFIDENCE > typed.min_confidence("service") == 0.0
    assert algorithms.acted_on("listing", TYPED_MIN_CONFIDENCE - 0.01, "model")[0] == "article"
    sure, unsure = typed.PROSE_MIN_CONFIDENCE, typed.PROSE_MIN_CONFIDENCE - 0.01
    for page_type in ("documentation", "product", "service"):
        assert algorithms.acted_on(page_type, 0.05, "model")[0] == page_type
        assert typed.min_growth(page_type, unsure) == SHIPPED_UNSURE_GROWTH > typed.min_growth(page_type, sure)
    html = product()  # its service reading holds 1.7 times the article's text: enough when sure, not when unsure
    judged_as(monkeypatch, "service", unsure, guarded=True)
    result = extract(html)
    assert result.page_type == "article" and result.text == scored_regions(html).text
    assert result.page_type_reason.startswith(
        f"service judged at {unsure:.2f}, but its reading is under {SHIPPED_UNSURE_GROWTH:g} times the article's text")
    judged_as(monkeypatch, "service", sure, guarded=True)
    assert extract(html).page_type == "service"
    article = scored_regions(html)
    thrice = replace(article, text=" ".join([article.text] * 3), page_type="service")
    assert typed.grown_enough(article, thrice, unsure)


def test_listing_of_20_teasers_gives_all_20_items_in_order(monkeypatch):
    html = listing()
    judged_as(monkeypatch, "listing")
    result = extract(html)
    assert result.page_type == "listing" and result.page_type_reason == "test"
    lines = result.paragraphs
    assert lines[0] == "Latest news"
    for i in range(1, 21):
        head = lines.index(f"Headline number {i} of the river valley")
        assert lines[head + 1] == f"Teaser {i}: the council met on Monday to discuss the bridge."
    heads = [lines.index(f"Headline number {i} of the river valley") for i in range(1, 21)]
    assert heads == sorted(heads)
    assert "News" not in lines and "Privacy" not in lines and "Daily Site" not in lines
    # the article extraction drops the items' headlines (link text)
    assert "Headline number 1 of the river valley" not in scored_regions(html).text


@pytest.mark.parametrize("before", [
    "<script>document.write('<h1>Notice<' + '/h1> Your browser is not supported')</script>",
    "<!-- <h1>Old layout</h1> -->",
    '<div class="logo"><h1>Daily Site</h1></div>',
])
def test_a_typed_reading_has_the_article_readings_headline(monkeypatch, before):
    # one headline a page: an <h1> in a script's string or a comment is none, and of two <h1> the
    # one agreeing with the title is the page's (not the logo's), whichever way the page is read
    html = listing().replace("<main>", before + "<main>")
    judged_as(monkeypatch, "listing")
    result = extract(html)
    assert result.page_type == "listing"
    assert result.title == scored_regions(html).title == "Latest news"
    assert result.paragraphs[0] == "Latest news"


def test_listing_keeps_each_items_own_header_and_footer(monkeypatch):
    # an item's <footer> (its author and date) belongs to the item (HTML's sectioning), not to the
    # page's chrome; the page's own <footer> still goes
    items = "".join(
        f'<article class="card"><h2><a href="/post/{i}">Release notes number {i} for the build tools</a></h2>'
        f'<p>Teaser {i}: what changed in the compiler and the linker this week.</p>'
        f'<footer><span>Author Name {i}</span>, <time>March {i}, 2026</time></footer></article>' for i in range(1, 13))
    html = page(f'<main><h1>Engineering blog</h1>{items}</main>', "Engineering blog")
    judged_as(monkeypatch, "listing")
    lines = extract(html).paragraphs
    for i in range(1, 13):
        assert f"Author Name {i}, March {i}, 2026" in lines
    assert not any("All rights reserved" in line for line in lines)


def test_thread_of_5_posts_gives_each_post_once(monkeypatch):
    html = thread()
    judged_as(monkeypatch, "forum")
    text = extract(html).text
    for i in range(1, 6):
        assert text.count(f"Post {i} says") == 1
    assert text.startswith("Telescope mount wobbles")
    assert "About us" not in text
    assert sum(f"Post {i} says" in scored_regions(html).text for i in range(1, 6)) < 5


def carousel_listing(copies: int) -> str:
    """A listing whose 12 items a carousel above it shows again, ``copies`` times (its clones)."""
    items = "".join(
        f'<div class="teaser"><h2><a href="/story/{i}">Headline number {i} of the river valley</a></h2>'
        f'<p>Teaser {i}: the council met on Monday to discuss the bridge.</p></div>' for i in range(1, 13))
    slides = "".join(f'<div class="slide"><a href="/story/{i}">Headline number {i} of the river valley</a></div>'
                     for i in range(1, 4)) * copies
    return page(f'<main><h1>Latest news</h1><div class="carousel">{slides}</div><div class="list">{items}</div>'
                '</main>', "Latest news")


def test_a_list_reading_holds_each_block_once(monkeypatch):
    html = carousel_listing(3)
    judged_as(monkeypatch, "listing")
    result = extract(html)
    assert result.page_type == "listing"
    assert len(set(result.paragraphs)) == len(result.paragraphs)
    assert result.text == "\n".join(result.paragraphs)
    lines = result.paragraphs
    assert lines.index("Headline number 1 of the river valley") < lines.index("Teaser 1: the council met on "
                                                                              "Monday to discuss the bridge.")
    # the reading before its repeats go holds the carousel's clones, in place
    raw = extract_as(html, "listing", once=False).paragraphs
    assert raw.count("Headline number 1 of the river valley") == 4
    assert typed.each_block_once(extract_as(html, "listing", once=False)).paragraphs == lines
    assert extract_as(html, "listing").paragraphs == lines


def test_documentation_keeps_its_repeated_lines_of_code(monkeypatch):
    html = page('<div class="doc-body"><h1>Loops</h1><p>Each loop ends the same way.</p>'
                '<pre><code>for x in a:\n    pass\nfor y in b:\n    pass</code></pre></div>', "Loops")
    judged_as(monkeypatch, "documentation")
    result = extract(html)
    assert result.page_type == "documentation" and result.paragraphs.count("pass") == 2


def test_the_growth_guard_reads_a_reading_before_its_repeats_go(monkeypatch):
    # with the carousel's clones the reading passes the guard; each block once, it would not
    html = carousel_listing(40)
    article = scored_regions(html)
    raw = extract_as(html, "listing", once=False)
    once = extract_as(html, "listing")
    assert typed.grown_enough(article, raw) and not typed.grown_enough(article, once)
    judged_as(monkeypatch, "listing", guarded=True)
    result = extract(html)
    assert result.page_type == "listing" and result.paragraphs == once.paragraphs


def test_product_gives_description_and_specification_table(monkeypatch):
    html = product()
    judged_as(monkeypatch, "product")
    lines = extract(html).paragraphs
    assert lines[0] == "Trail Kettle 900"
    assert any(line.startswith("The Trail Kettle boils a litre") for line in lines)
    for value in ("Weight", "1.2 kg", "Aluminium", "2 years"):
        assert any(value in line for line in lines)
    assert "1.2 kg" not in scored_regions(html).text


def test_documentation_keeps_code_blocks_and_drops_its_table_of_contents(monkeypatch):
    html = documentation()
    judged_as(monkeypatch, "documentation")
    text = extract(html).text
    assert text.startswith("Reading a config file")
    lines = text.split("\n")
    for code in ('from app import load_config', 'cfg = load_config("app.toml")', 'print(cfg["port"])', "try:",
                 "except KeyError:", "Missing keys raise KeyError."):
        assert code in lines  # each line of code on its own line
    assert "Chapter 3" not in text
    assert 'cfg = load_config("app.toml")' not in scored_regions(html).text.split("\n")


def test_documentation_keeps_the_code_of_every_hidden_tab_panel(monkeypatch):
    # a code sample in three languages: one tab shown, the other two hidden until chosen
    hidden = ' style="display:none"'
    panels = "".join(
        f'<div role="tabpanel" id="tab-{lang}"{"" if i == 0 else hidden}>'
        f'<pre><code>{lang}_client = connect("{lang}")\n{lang}_client.send("hello")</code></pre></div>'
        for i, lang in enumerate(("node", "php", "ruby")))
    html = page('<main><h1>Sending a message</h1><p>Create a client with your key, then send the message; '
                'every library has the same two calls.</p>'
                f'<div class="code-tabs"><div role="tablist"><button>Node</button><button>PHP</button>'
                f'<button>Ruby</button></div>{panels}</div><p>The call returns the message id.</p></main>',
                "Sending a message")
    judged_as(monkeypatch, "documentation")
    lines = extract(html).paragraphs
    for lang in ("node", "php", "ruby"):
        assert f'{lang}_client = connect("{lang}")' in lines
    # a hidden element that is not a tab panel is still dropped
    assert "Cookie settings" not in extract(html.replace("</main>", '<div style="display:none">'
                                                          "<p>Cookie settings saved.</p></div></main>")).text


def test_class_words_inside_main_are_content_not_chrome(monkeypatch):
    # the page's own "header" block (its title and notes) inside <main>, and a "sidebar-first"
    # column of copy there: the site's header and footer outside <main> still go
    html = page('<main><div class="layout__header"><h1>WebSocket</h1><p>Baseline: widely available since '
                'July 2015, in every current browser.</p></div><section class="col-9 sidebar-first-only">'
                '<p>The WebSocket object provides the API for creating and managing a connection to a '
                'server, and for sending and receiving data on it.</p></section></main>', "WebSocket")
    for page_type in ("documentation", "service"):
        judged_as(monkeypatch, page_type)
        text = extract(html).text
        assert "Baseline: widely available" in text and "provides the API for creating" in text, page_type
        assert "Daily Site" not in text and "All rights reserved" not in text


def test_service_page_drops_its_calls_to_action(monkeypatch):
    cards = "".join(
        f'<div class="card"><h3>Service {name}</h3><p>We plan, build and run {name} systems for mid-sized '
        f'firms, with one team from the first workshop to the support contract.</p>'
        f'<div class="cta"><a href="/{name}">Read the case study</a></div></div>'
        for name in ("cloud", "data", "security"))
    html = page(f'<main><h1>Our services</h1><p>Three practices, one contract.</p>{cards}'
                '<p><a class="button" href="/contact">Get a free audit</a></p>'
                '<p>Questions? <a href="/contact">Write to us</a> and we answer within a day.</p></main>',
                "Our services")
    for page_type in ("service", "product"):
        judged_as(monkeypatch, page_type)
        lines = extract(html).paragraphs
        assert "Read the case study" not in lines and "Get a free audit" not in lines, page_type
        assert "Service cloud" in lines and "Questions? Write to us and we answer within a day." in lines
    judged_as(monkeypatch, "documentation")  # documentation's lone links are its API's names: kept
    assert "Get a free audit" in extract(html).paragraphs


def test_product_leaves_out_its_customer_reviews():
    reviews = "".join(f'<div class="review-card"><span>Shopper {i}</span><p>Review {i}: it arrived quickly and '
                      f'boils water fast on our camping stove, five stars from the whole family.</p></div>'
                      for i in range(1, 5))
    html = product().replace("</main>", f'<section id="customer-reviews"><h2>Reviews</h2>{reviews}</section></main>')
    # an article extraction short beside the page's copy: the product reading is the copy, reviews aside
    text = "\n".join(typed.product_content(html, ["Trail Kettle 900"]))
    assert "The Trail Kettle boils a litre" in text and "1.2 kg" in text
    assert "Review 1: it arrived" not in text and "Shopper 2" not in text


def test_calls_to_action_are_found_in_one_pass_over_a_parent_of_thousands_of_links():
    # each parent measured once: 3,000 links in one <div> took 13 s when each link re-measured it
    import time

    links = "".join(f'<a href="/{i}">item {i}</a> ' for i in range(3000))
    html = page(f"<main><h1>Site map</h1><p>Every page of the site, by name.</p><div>{links}</div></main>")
    start = time.process_time()
    lines = typed.service_content(html)
    assert time.process_time() - start < 5
    assert "Every page of the site, by name." in lines and not any("item 17" in line for line in lines)


def test_article_and_other_are_the_article_extraction_unchanged(monkeypatch):
    html = listing()
    for page_type in ("article", "other"):
        judged_as(monkeypatch, page_type)
        result = extract(html)
        assert result.text == scored_regions(html).text and result.page_type == page_type


def test_caller_given_page_type_is_used_without_a_judgement(monkeypatch):
    monkeypatch.setattr(algorithms, "_judge", lambda: pytest.fail("judged"))
    result = extract(listing(), page_type="listing")
    assert result.page_type == "listing" and result.page_type_reason == "given by the caller"
    with pytest.raises(ValueError):
        extract(listing(), page_type="blog")


def test_no_judgement_installed_leaves_the_page_unjudged(monkeypatch):
    monkeypatch.setattr(algorithms, "_judge", lambda: None)
    result = extract(listing())
    assert result.page_type is None and result.text == scored_regions(listing()).text


def test_a_failing_judgement_is_a_reason_not_a_crash(monkeypatch):
    def boom(html, url=None, **kw):
        raise RuntimeError("model missing")
    monkeypatch.setattr(algorithms, "_judge", lambda: boom)
    result = extract(listing())
    assert result.ok and result.page_type is None and "model missing" in result.page_type_reason


def test_other_algorithms_are_not_judged(monkeypatch):
    monkeypatch.setattr(algorithms, "_judge", lambda: pytest.fail("judged"))
    assert extract(listing(), algorithm="danag").page_type is None


def test_a_page_over_the_typed_size_is_read_as_an_article(monkeypatch):
    html = listing()
    judged_as(monkeypatch, "listing")
    monkeypatch.setattr(typed, "TYPED_MAX_SIZE", len(html))
    assert extract(html).page_type == "listing"  # at the bound: read as its type
    monkeypatch.setattr(typed, "TYPED_MAX_SIZE", len(html) - 1)
    result = extract(html)
    assert result.page_type == "article" and result.text == scored_regions(html).text
    assert result.page_type_reason == (f"listing judged at 1.00, but the page's {len(html):,} characters are over "
                                       f"the {len(html) - 1:,} a typed reading parses: read as an article (test)")
    body = html.encode()
    monkeypatch.setattr(typed, "TYPED_MAX_SIZE", len(body) - 1)
    result = extract(body, page_type="listing")
    assert result.page_type == "article" and result.text == scored_regions(html).text
    assert result.page_type_reason.startswith(f"listing given by the caller, but the page's {len(body):,} bytes")
    assert extract(body, page_type="article").page_type_reason == "given by the caller"


def test_fresh_process_peak_of_a_big_listing_page_under_ten_times_the_page(tmp_path):
    """The default on a page of list items above typed.TYPED_MAX_SIZE (benchmarks/bench_memory.py's
    listing_items, --fresh): judged a listing, it is read as an article, without a tree of the whole page
    (17.8x the page when it was read as a listing, 4.8x as an article at 50 MB)."""
    from fresh_process import peak_over_page

    item = ('<li class="item"><h3><a href="/news/{0}">Heavy snow closes schools in the capital {0}</a></h3>'
            '<p>Offices shut across most districts and the city asked people to stay home.</p>'
            '<span class="date">2025-01-01</span></li>\n')
    path = tmp_path / "listing.html"
    size = typed.TYPED_MAX_SIZE + 2**20
    items = "".join(item.format(i) for i in range(size // len(item)))
    path.write_text(f"<html><body><ul>{items}</ul></body></html>")
    ratio = peak_over_page(path, "assert (ex.status, ex.page_type) == ('ok', 'article') and "
                                 "'a typed reading parses' in ex.page_type_reason, ex.page_type_reason")
    assert ratio < 10, f"{ratio:.2f}x"


@pytest.mark.parametrize("page_type", ["listing", "collection", "forum", "product", "documentation", "service"])
def test_bad_pages_give_a_status(page_type):
    for html in ("", "   ", "<html><body></body></html>", "<p>" * 5000 + "text", b"\xff\xfe<p>x</p>"):
        result = extract_as(html, page_type)
        assert result.status in ("ok", "empty") and result.page_type == page_type


# Golden wcxb_dev pages, one per type: WCXB's metric of the typed extraction (page read as its gold
# type) at the figure measured when chosen, less 0.05; the article extraction scores far below
# on all but the product page (its description is the article extraction's).
GOLDEN = {"collection": ("4264", 0.878), "documentation": ("4415", 0.947), "forum": ("4087", 0.959),
          "listing": ("4532", 1.0), "product": ("0593", 0.895), "service": ("0084", 0.984)}


@pytest.fixture(scope="module")
def wcxb():
    if not (DATA / "wcxb_dev").is_dir():
        pytest.skip(MISSING)
    from mcecrawl.evaluation.datasets import load_dataset

    return {p.id: p for p in load_dataset(DATA / "wcxb_dev")}


@pytest.mark.parametrize("page_type", sorted(GOLDEN))
def test_golden_wcxb_pages_per_type(wcxb, page_type):
    from mcecrawl.evaluation.metrics import wcxb_f1

    page_id, figure = GOLDEN[page_type]
    p = wcxb[page_id]
    assert p.page_type == page_type
    result = extract(p.body, url=p.url, content_type=p.content_type, page_type=page_type)
    assert wcxb_f1(result.text, p.gold_text()).f1 >= figure - 0.05


# Golden wcxb_dev pages through the default extraction (the shipped judgement and gates): what each
# block once and a collection's own guard made of them, the figure measured then less 0.05; on the
# code before, 4419 was read as an article (0.558) and 0552's thread repeated its posts (0.551).
GOLDEN_JUDGED = {"4419": ("collection", 0.897), "0552": ("forum", 0.879), "2908": ("listing", 0.926)}


@pytest.mark.parametrize("page_id", sorted(GOLDEN_JUDGED))
def test_golden_wcxb_pages_as_judged(wcxb, page_id):
    from mcecrawl.evaluation.metrics import wcxb_f1

    page_type, figure = GOLDEN_JUDGED[page_id]
    p = wcxb[page_id]
    result = extract(p.body, url=p.url, content_type=p.content_type)
    assert result.page_type == page_type == p.page_type, result.page_type_reason
    assert len(set(result.paragraphs)) == len(result.paragraphs)
    assert wcxb_f1(result.text, p.gold_text()).f1 >= figure - 0.05


def test_r2l_article_pages_unchanged(monkeypatch):
    if not (DATA / "r2l").is_dir():
        pytest.skip(MISSING)
    from mcecrawl.evaluation.datasets import load_dataset

    judged_as(monkeypatch, "article")
    for p in load_dataset(DATA / "r2l"):
        before = scored_regions(p.text).text
        assert extract(p.body, url=p.url, content_type=p.content_type).text == before, p.id


def test_r2l_article_pages_keep_their_text_with_the_real_judgement():
    # Every R2L dev page is a news article: the judgement, acted on only when sure, must leave each
    # one read as an article with today's text (one was read as a listing, its text lost, without the bound).
    if not (DATA / "r2l").is_dir():
        pytest.skip(MISSING)
    from mcecrawl.evaluation.datasets import load_dataset

    for p in load_dataset(DATA / "r2l"):
        result = extract(p.body, url=p.url, content_type=p.content_type)
        assert result.page_type == "article", (p.id, result.page_type_reason)
        assert result.text == scored_regions(p.text).text, p.id


def _reference_with_article(article, blocks):
    """with_article as it counted before its lower bound: every word of both sides."""
    from collections import Counter

    want = Counter(typed._WORD.findall(" ".join(article).lower()))
    total = sum(want.values())
    have = Counter(typed._WORD.findall(" ".join(blocks).lower()))
    if not total or sum((want & have).values()) >= typed.ARTICLE_MIN_COVER * total:
        return blocks
    seen = set(article)
    return article + [b for b in blocks if b not in seen]


def test_with_article_equals_its_reference_on_random_blocks():
    """The lower bound from the article's blocks found whole never changes the answer: blocks that
    repeat, overlap in part, differ in case or are empty, final sigma."""
    import random

    rng = random.Random(11)
    words = ["river", "River", "bridge", "council", "ΟΔΟΣ", "οδος", "x", "", "a b", "—", "متن", "خبر"]

    def block():
        return " ".join(rng.choice(words) for _ in range(rng.randint(0, 5)))

    for _ in range(3000):
        article = [block() for _ in range(rng.randint(0, 6))]
        blocks = [rng.choice(article) if article and rng.random() < 0.4 else block() for _ in range(rng.randint(0, 8))]
        assert typed.with_article(article, blocks) == _reference_with_article(article, blocks), (article, blocks)


def test_specifications_are_the_outermost_tables_and_lists_in_document_order():
    """``SPEC_XPATH``, one step, selects what the union ``descendant::table[not(ancestor::table)] |
    descendant::dl[not(ancestor::dl)]`` selects, in the same order (a union's node sets are merged in
    quadratic time by libxml2)."""
    from lxml import etree

    root = etree.fromstring("<div><dl><dt>a<table><tr><td>b</td></tr></table></dt></dl><table><tr><td><table>"
                            "<tr><td>c</td></tr></table><dl><dt>d</dt></dl></td></tr></table><dl><dd><dl><dt>e"
                            "</dt></dl></dd></dl></div>", etree.HTMLParser())
    union = "descendant::table[not(ancestor::table)] | descendant::dl[not(ancestor::dl)]"
    for el in root.iter(etree.Element):
        assert el.xpath(typed.SPEC_XPATH) == el.xpath(union)
    assert [e.tag for e in root.xpath(typed.SPEC_XPATH)] == ["dl", "table", "table", "dl", "dl"]


def test_a_product_reading_stays_linear_on_a_long_list():
    """A page of 40,000 linked items read as a product: its link lists' text, its specifications and
    its <main> were XPaths libxml2 answers in quadratic time (a 9.4 MB page took 16 s, now 2.6 s)."""
    from growth import grows_within

    def build(n: int) -> bytes:
        return ("<html><body><ul>" + "".join(f'<li class="item"><h3><a href="/a/{i}">Headline {i}</a></h3>'
                                             f"<p>Teaser {i} of the item.</p></li>" for i in range(n))
                + "</ul></body></html>").encode()

    linear, small, large = grows_within(lambda page: extract(page, page_type="product"), build, 5_000)
    assert linear, (small, large)


def test_the_article_words_a_reading_must_hold_are_counted_a_piece_at_a_time():
    """``with_article`` counts the words of the article reading and of the typed blocks: a list of every
    word of a 2.6 M-character article reading (unclosed markup read as a listing) was the reading's peak.
    Counted piece by piece, the counts are ``Counter(\\w+ words of the lowercased text)``'s (a final sigma
    included) and the traced peak stays small."""
    import random
    import re
    import tracemalloc
    from collections import Counter

    from mcecrawl.textpieces import PIECE_CHARS

    alphabet = [" ", "\n", "-", "_", "É", "x", "AB", "سلام", "\u200c", "٣", "İ", ".", "\u00a0", "ΑΣ", "\u0301", "Σ"]
    rnd = random.Random(11)
    lengths = (0, PIECE_CHARS, PIECE_CHARS + 1,
               *(rnd.randrange(1, 4 * PIECE_CHARS) for _ in range(20)))
    for n in lengths:
        text = "".join(rnd.choice(alphabet) for _ in range(n))
        assert typed._word_counts(text) == Counter(re.findall(r"\w+", text.lower())), n
    article = ["سلام دنیا " * 100_000]  # 1 M characters, 200,000 words, one block
    tracemalloc.start()
    try:
        kept = typed.with_article(article, ["another block"])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert kept == article + ["another block"]
    assert peak < 8_000_000, peak  # the code before: 20 MB (the whole text lowercased, then its words listed)
