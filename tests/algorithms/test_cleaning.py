"""The cleaning walk's boundary: what a caller can hand the compiled walk without harming the process.

The compiled walk holds raw libxml2 pointers while it calls back into Python, so these run in a
subprocess: a memory error there is a failed test here, not a crashed test run.
"""
from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from mcecrawl.algorithms import profile_impl

compiled_walk = pytest.mark.skipif(profile_impl.cleaning is None,
                                   reason="the compiled walk (_cleaning) is not built here")


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=120)


_MUTATING = """
    import math
    from lxml import html
    from mcecrawl.algorithms import _cleaning

    PAGE = "<div><section class=a><div class=b><p>x<span class=c>y</span></p></div></section><p>tail</p></div>"

    def callback(el, second):
        if el.get("class") == "c":
            {statement}
        return False

    for _ in range(200):  # freed memory is reused soon: repeat so a use after free shows
        root = html.fromstring(PAGE)
        try:
            {walk}
        except RuntimeError as e:
            assert "changed the tree" in str(e), e
        else:
            raise SystemExit("a mutating callback went unnoticed")
    print("refused")
"""
# The compiled walks that call back into Python: the cleaning walk's is_clutter(el, tag), the chrome
# walk's judge(el, in_content).
_WALKS = {
    "blocks": '_cleaning.blocks(root, callback, ("class",), frozenset({"p", "div"}), frozenset(), frozenset(), '
              'math.inf)',
    "chrome_walk": "_cleaning.chrome_walk(root, callback, 10.0, False)",
}


@compiled_walk
@pytest.mark.parametrize("walk", sorted(_WALKS))
@pytest.mark.parametrize("statement", [
    "el.getparent().remove(el)",
    "a = el.getparent().getparent().getparent(); a.getparent().remove(a)",
    "root.clear()",
    "root.append(el)",
], ids=["itself", "ancestor", "by_clear", "by_move"])
def test_a_callback_that_changes_the_tree_is_refused_not_a_crash(walk, statement):
    """A callback that removes or moves the element it is given, or an ancestor, would free or
    move a node the walk is standing on: the walk stops with RuntimeError instead."""
    done = _run(_MUTATING.replace("{statement}", statement).replace("{walk}", _WALKS[walk]))
    assert done.returncode == 0 and done.stdout.strip() == "refused", (done.returncode, done.stderr[-2000:])


@compiled_walk
def test_a_reading_callback_still_works():
    done = _run("""
        import math
        from lxml import html
        from mcecrawl.algorithms import _cleaning
        root = html.fromstring("<div><p class=a>one</p><p class=b>two <a href=x>link</a></p></div>")
        print(_cleaning.blocks(root, lambda el, tag: el.get("class") == "a", ("class",), frozenset({"p", "div"}),
                               frozenset(), frozenset(), math.inf))
    """)
    assert done.returncode == 0 and done.stdout.strip() == "['two link']", done.stderr[-2000:]


@compiled_walk
def test_an_element_without_a_node_is_a_value_error_not_a_crash():
    """``_Element.__new__`` makes a proxy whose libxml2 node is NULL."""
    done = _run("""
        import math
        from lxml import etree
        from mcecrawl.algorithms import _cleaning
        try:
            _cleaning.blocks(etree._Element.__new__(etree._Element), None, (), frozenset(), frozenset(), frozenset(),
                             math.inf)
        except ValueError as e:
            print("refused:", e)
    """)
    assert done.returncode == 0 and done.stdout.startswith("refused: blocks: the element has no libxml2 node"), (
        done.returncode, done.stderr[-2000:])


def test_word_tests_by_token_equal_the_patterns_over_the_whole_value():
    """The per-token answers (each distinct token tested once) equal the word lists' regexes run
    over the whole joined value, on random values built from the lists' own words, their parts,
    separators (spaces, tabs, newlines, dashes) and letters that fold onto ASCII under re.I."""
    import random

    from mcecrawl.algorithms import cleaning

    pieces = ["ad", "ads", "advert", "adverts", "hid", "hidden", "HID", "-ad-", "related", "content", "main",
              "footer", "nav", "navigation", "NaVigation", "dialog", "comment", "byline", "credit", "subscribe",
              "post", "entry", "body", "x", "ſidebar", "\u212aeywords", "\u0130d", "caption", "media", "mathjax",
              "row", "col-md-6", "js_ad-slot", "address", "head", "header", "widget", "page", "text", ""]
    seps = [" ", " ", " ", "  ", "-", "_", "\t", "\n", "\u00a0"]
    rng = random.Random(20261126)
    for _ in range(20_000):
        value = "".join(rng.choice(pieces) + rng.choice(seps) for _ in range(rng.randint(1, 5)))
        value = value[:-1] if rng.random() < 0.5 else value
        assert cleaning.word_bits(value) == cleaning.whole_value_word_bits(value), repr(value)


WORD_PIECES = ["ad", "ads", "advert", "adverts", "advert_x", "advert.x", "adVERTising-", "advert9_", "AD", "Ads_",
               "_ad", "a", "d", "hid", "hidden", "HID", "-ad-", "related", "content", "main", "footer", "nav",
               "navigation", "NaVigation", "dialog", "comment", "byline", "credit", "subscribe", "post", "entry",
               "body", "x", "ſidebar", "\u212aeywords", "\u0130d", "caption", "media", "mathjax", "row", "col-md-6",
               "js_ad-slot", "address", "head", "header", "widget", "page", "text", "menubar", "contentinfo", ""]


@compiled_walk
def test_compiled_word_tests_equal_the_patterns():
    """The compiled matcher (an automaton over ASCII values; the reference for the others) answers
    as the word lists' regexes over the whole value: random values of the lists' words, their parts,
    the ad-slot rule's edges and every separator kind, ASCII and not."""
    import random

    from mcecrawl.algorithms import cleaning

    assert profile_impl._word_bits is not None  # the shipped word lists are all readable by the matcher
    seps = [" ", " ", " ", "  ", "-", "_", ".", "", "\t", "\n", "\x1c", "\u00a0"]
    rng = random.Random(20261127)
    for _ in range(50_000):
        value = "".join(rng.choice(WORD_PIECES) + rng.choice(seps) for _ in range(rng.randint(1, 5)))
        value = value[:-1] if rng.random() < 0.5 else value
        assert profile_impl._word_bits(value) == cleaning.whole_value_word_bits(value), repr(value)


def test_token_rules_refuse_an_alternative_they_cannot_read(monkeypatch):
    """A word list edited with a regex construct the compiled matcher does not know is refused (the
    reference then answers), not read wrongly."""
    import re

    from mcecrawl.algorithms import cleaning

    inside, whole, ad_bit = cleaning.token_rules()
    assert ("sidebar", cleaning.WORD_BITS["negative"]) in inside and ("hid", cleaning.WORD_BITS["negative"]) in whole
    assert ad_bit == cleaning.WORD_BITS["notice"]
    lists = list(cleaning._LOWER_WORD_LISTS)
    lists[0] = (lists[0][0], re.compile(lists[0][1].pattern + "|foot(er)?s"))
    monkeypatch.setattr(cleaning, "_LOWER_WORD_LISTS", tuple(lists))
    with pytest.raises(ValueError, match="cannot read"):
        cleaning.token_rules()


@compiled_walk
def test_compiled_walk_equals_the_reference_on_odd_trees():
    """Whole trees the region parser never makes: 20,000-deep nesting built through lxml's API
    (ten times libxml2's parser limit; lxml's API itself slows with depth past that), comments,
    processing instructions, entity references and namespaced elements left in the tree (the
    compiled walk hands those back to the reference)."""
    from lxml import etree

    from fuzz_pages import walk_differences
    from mcecrawl.algorithms import cleaning

    root = etree.Element("div")
    el = root
    for i in range(20_000):
        el = etree.SubElement(el, "span" if i % 100 else "p", {"class": "related"} if i == 10_000 else {})
        el.text, el.tail = "word, ", " tail. "
    assert profile_impl.cleaning_blocks(root) == cleaning.blocks(root)
    assert profile_impl.tree_paragraphs(root) == cleaning.paragraphs(root)
    odd = (b"<div><!-- c --><p>a<?pi x?>b</p><![CDATA[x]]>&amp;&nbsp;&unknown;<svg:g xmlns:svg='urn:x'>"
           b"<svg:t>t</svg:t></svg:g><o:p>o</o:p><p class='byline'>By A</p></div>")
    assert walk_differences(odd) == []


# One element per rule of cleaning.is_clutter (kept: "keep"; dropped: "drop"), each inside a kept
# paragraph so that its fate shows in the blocks; `asks` marks the rules that read the element's text
# (a caption, a byline), the only ones the compiled walk hands back to the reference.
RULE_CASES = [
    ("marked article", '<div data-mce-article="" class="related"><p>kept: marked</p></div>', False),
    ("hidden", "<div hidden><p>dropped: hidden</p></div>", False),
    ("aria-hidden", '<div aria-hidden="true"><p>dropped: aria</p></div>', False),
    ("aria-hidden false", '<div aria-hidden="false"><p>kept: aria false</p></div>', False),
    ("style hides", '<div style="display: none"><p>dropped: style</p></div>', False),
    ("style shows", '<div style="color: red"><p>kept: style</p></div>', False),
    ("notice", '<div class="newsletter-signup"><p>dropped: notice</p></div>', False),
    ("boilerplate tag with words", '<nav class="x"><p>dropped: nav</p></nav>', False),
    ("boilerplate word", '<div id="footer"><p>dropped: footer</p></div>', False),
    ("unlikely redeemed", '<div class="sidebar article"><p>kept: redeemed</p></div>', False),
    ("link box", '<ul><li><a href="/a">dropped: one</a></li><li><a href="/b">link box</a></li></ul>', False),
    ("content box", '<div class="story"><p>kept: a story with <a href="/a">one link</a> in it.</p></div>', False),
    ("negative links", '<div class="comment"><a href="/a">dropped: negative</a> x</div>', False),
    ("caption", '<div class="caption"><p>dropped: caption</p></div>', True),
    ("metadata", '<span itemprop="datePublished">dropped: metadata</span>', False),
    ("byline", '<div class="byline">dropped: byline</div>', True),
    ("plain", '<div class="layout-grid"><p>kept: plain</p></div>', False),
    ("highlighted code",
     '<pre><code class="sh"><span class="token comment"># kept: a comment</span>\ngit init</code></pre>', False),
    ("sponsored link",
     '<p>Bring home a <a href="/x" rel="nofollow sponsored">kept: laptop</a> for just $429.99 now.</p>', False),
    ("link with negative words",
     '<p>Read <a class="comment-link" href="/c">kept: it</a> where readers argue at length.</p>', False),
    ("hidden link", '<p>Text that goes on <a hidden href="/x">dropped: hidden link</a> after it.</p>', False),
    ("streamed segment", '<div hidden id="S:1f"><p>kept: shown by the renderer\'s script</p></div>', False),
    ("hidden other id", '<div hidden id="S:1f-x"><p>dropped: not a segment id</p></div>', False),
    ("hidden code", '<pre class="raw" hidden><code>dropped: a hidden copy</code></pre>', False),
    ("inside code",
     '<code class="related"><span class="comment"><a href="/a">a</a> kept: inside code</span></code>', False),
]


@compiled_walk
@pytest.mark.parametrize("name, markup, asks", RULE_CASES, ids=[c[0] for c in RULE_CASES])
def test_the_walk_answers_each_rule_as_the_reference_and_asks_only_for_text_rules(name, markup, asks):
    from mcecrawl.algorithms import cleaning
    from mcecrawl.algorithms.cleaning_words import (
        BLOCK_TAGS,
        CLUTTER_ATTRIBUTES,
        LINK_BOX_TAGS,
        SKIPPED_TAGS,
    )
    from mcecrawl.algorithms.parse import parse_tree

    root = parse_tree(f"<div><p>before.</p>{markup}<p>after.</p></div>".encode())
    asked: list[str] = []

    def is_clutter(el, tag):
        asked.append(tag)
        return profile_impl.compiled_is_clutter(el, tag)

    want = cleaning.blocks(root)
    got = profile_impl.cleaning.blocks(root, is_clutter, CLUTTER_ATTRIBUTES, BLOCK_TAGS, SKIPPED_TAGS, LINK_BOX_TAGS,
                                       cleaning.TEXT_BLOCK_MAX_LINK_SHARE, True)
    assert got == want
    assert any("kept:" in b for b in want) == ("kept:" in markup)  # the case tests the rule it names
    assert bool(asked) == asks, asked


# --- the chrome walk (_cleaning.chrome_walk) and its word count ------------------------------------

@compiled_walk
def test_the_chrome_walk_and_words_refuse_an_element_without_a_node_and_decline_odd_nodes():
    done = _run("""
        from lxml import etree
        from mcecrawl.algorithms import _cleaning
        for call in (lambda e: _cleaning.chrome_walk(e, lambda el, c: False, 1.0, False), _cleaning.text_words):
            try:
                call(etree._Element.__new__(etree._Element))
            except ValueError as e:
                print("refused:", str(e).split(":")[0])
        odd = etree.fromstring("<body><nav>menu<!-- a comment --></nav><p>text</p></body>")
        print(_cleaning.text_words(odd), _cleaning.chrome_walk(odd, lambda el, c: el.tag == "nav", 5.0, False))
        plain = etree.fromstring("<body><nav>a menu</nav><main><p>one<b>two</b> three</p></main></body>")
        found, mains = _cleaning.chrome_walk(plain, lambda el, c: el.tag == "nav", 10.0, False)
        print(_cleaning.text_words(plain), [(r[0].tag, r[1], r[2]) for r in found], [m.tag for m in mains])
    """)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines() == ["refused: chrome_walk", "refused: text_words", "None None",
                                        "5 [('nav', None, 2)] ['main']"], done.stdout


_ODD_LINKS = ("<div>a<a href=1>b<b>c</b>d<!--e-->f</a>g<p>h<a>i<a>j</a>k</a></p>l"
              "<a><p>m</p>n<span>o<a>p</a></span></a>q</div>")


@pytest.mark.parametrize("tag", ["a", "p"])
def test_texts_under_selects_what_the_xpath_selects(tag):
    """``cleaning.texts_under(el, tag)`` is ``.//tag//text()`` on every element of an odd tree: links
    in links, an element that is itself a link or paragraph or sits inside one, comments among the text."""
    from lxml import etree

    from mcecrawl.algorithms import cleaning

    root = etree.fromstring(_ODD_LINKS, etree.HTMLParser())
    xpath = etree.XPath(f".//{tag}//text()", smart_strings=False)
    for el in root.iter(etree.Element):
        assert cleaning.texts_under(el, tag) == xpath(el), etree.tostring(el)
    # libxml2 closes a link where the next one opens, but keeps one nested in a <span>: "p" once
    assert cleaning.link_texts(root.find(".//div")) == ["b", "c", "d", "f", "i", "j", "m", "n", "o", "p"]


def test_link_and_paragraph_texts_stay_linear_on_a_long_list():
    """A list of many linked items: libxml2 merged ``.//a//text()``'s node sets in quadratic time (40,000
    items took 31 s; the product, documentation and service readings ask it of every list)."""
    from lxml import etree

    from growth import grows_within
    from mcecrawl.algorithms import cleaning

    def build(n: int):
        items = "".join(f'<li><h3><a href="/{i}">Headline <b>{i}</b></a></h3><p>Teaser <i>{i}</i> text</p></li>'
                        for i in range(n))
        return etree.fromstring(f"<ul>{items}</ul>", etree.HTMLParser(huge_tree=True)).find(".//ul")

    for tag in ("a", "p"):
        linear, small, large = grows_within(lambda ul: cleaning.texts_under(ul, tag), build, 4_000)
        assert linear, (tag, small, large)
