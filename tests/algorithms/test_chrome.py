"""The page's chrome and content container (mcecrawl.algorithms.chrome): what the typed readings
build on (their content per type: test_typed.py)."""
from __future__ import annotations

import random

import pytest
from lxml import etree

from mcecrawl.algorithms import chrome, threads, typed

PAGE = ("<html><body><nav><a href='/'>Home</a></nav>\x0bafter the menu, a vertical tab\x0b"
        "<main><p>The body of the page, long enough to be the content of it.</p>"
        "<pre><code>x = 1\x0b\ny = 2</code></pre></main><footer>Copyright</footer>\x0c</body></html>")


@pytest.mark.parametrize("page", [PAGE, PAGE.encode()])
def test_control_characters_of_the_page_do_not_break_the_reading(page):
    """libxml2 keeps a page's vertical tabs and form feeds in text but refuses them set back: the
    chrome's tails moved and the code's lines rewritten must not raise."""
    root = chrome.content_root(page)
    assert root is not None
    text = "\n".join(chrome.text_blocks(root))
    assert "The body of the page" in text and "Home" not in text
    assert "y = 2" in "\n".join(typed.documentation_content(page))


def test_word_counts_count_text_and_child_tails_not_the_own_tail():
    root = chrome.page_tree("<html><body><div>one two<p>three</p>four five</div>six</body></html>")
    counts = chrome.word_counts(root)
    div = root.find(".//div")
    assert counts[div] == 5 and counts[div.find("p")] == 1 and counts[root] == 6
    assert all(chrome.words(el) == counts[el] for el in root.iter())


def test_strip_chrome_drops_chrome_and_keeps_the_page_layout():
    root = chrome.page_tree("<html><body><header class='site'><nav><a href='/'>Home</a></nav></header>"
                            "<div class='content'><p>" + "word " * 50 + "</p><aside>Related</aside></div>"
                            "<div id='footer'>Copyright</div></body></html>")
    chrome.strip_chrome(root)
    text = " ".join(root.itertext())
    assert "word" in text and not any(w in text for w in ("Home", "Related", "Copyright"))


# A thread of two short posts behind a cookie consent manager's preference centre that holds most of
# the page's words (a modal dialog), and a closed <dialog> of a newsletter form.
CONSENT = " ".join(["These technologies help us understand how our site is used and which pages are read."] * 12)
THREAD = ("<html><body><main><h1>New case: what are these two holes for?</h1>"
          "<div class='post'><p>Does anyone know what these two holes in the case are for?</p></div>"
          "<div class='post'><p>I heard the rear one is for an external link device.</p></div>"
          "<div class='post'><p>Not sure about the one on the bottom with the fans.</p></div></main>"
          "<dialog><p>Sign up for our newsletter and get the best deals of the week first.</p></dialog>"
          f"<div id='consent-sdk' role='dialog' aria-modal='true'><h2>Manage Consent Preferences</h2><p>{CONSENT}</p>"
          "</div></body></html>")


def test_a_modal_or_closed_dialog_is_chrome_at_any_size():
    """A modal dialog holding most of the page's words is still chrome (the share bound keeps a layout
    wrapper, never an overlay); so is a ``<dialog>`` not open; an open one and a non-modal dialog
    role are judged as any element."""
    text = "\n".join(threads.thread_content(THREAD))
    assert "external link device" in text and "bottom with the fans" in text
    assert "Consent" not in text and "technologies" not in text and "newsletter" not in text
    open_dialog = THREAD.replace("<dialog>", "<dialog open>").replace("aria-modal='true'", "aria-modal='false'")
    text = "\n".join(chrome.text_blocks(chrome.content_root(open_dialog)))
    assert "newsletter" in text and "technologies" in text


def test_the_parts_of_a_form_without_a_form_are_chrome():
    """A collection's filter panel built of fieldsets and labels with no <form> around them: its
    captions go with its (dropped) controls; the grid stays."""
    cards = "".join(f"<li><h3><a href='/p/{i}'>Oak bookcase number {i}, five shelves</a></h3><p>$ {90 + i}</p></li>"
                    for i in range(8))
    page = ("<html><body><main><h1>Bookcases</h1><div class='filters'><fieldset><legend>Price range</legend>"
            "<input type='checkbox' id='p1'><span>$50 to $100</span></fieldset>"
            "<label for='sort'>Sort by:</label><select id='sort'><option>Best match</option></select></div>"
            f"<ul class='grid'>{cards}</ul></main></body></html>")
    text = "\n".join(chrome.text_blocks(chrome.content_root(page)))
    assert "Oak bookcase number 7" in text and "Bookcases" in text
    assert not any(w in text for w in ("Price range", "$50 to $100", "Sort by"))


@pytest.mark.parametrize("tag, attributes, is_overlay", [
    ("div", {"role": "dialog", "aria-modal": "true"}, True),
    ("div", {"role": "alertdialog", "aria-modal": " TRUE "}, True),
    ("div", {"role": "dialog", "aria-modal": "false"}, False),  # a product's "Description" sheet
    ("div", {"role": "dialog"}, False),
    ("div", {"class": "dialog", "aria-modal": "true"}, False),  # a class word is no role
    ("dialog", {}, True),
    ("dialog", {"open": ""}, False),
])
def test_overlay(tag, attributes, is_overlay):
    assert chrome.overlay(tag, attributes.get("role"), attributes.get) is is_overlay


# --- the chrome walk against its reference ---------------------------------------------------------
# The walk (chrome._strip) judges each element once, memoised by the attributes is_chrome reads,
# walks the content landmarks' descendants where they stand and keeps the words left up to date
# through each removal.  The reference below is the plain walk it replaced (the landmarks'
# descendants collected first, every count made afresh); the two must give the same tree.

def _reference_strip(body, keep=None, *, item_parts=False):
    limit = chrome.CHROME_MAX_SHARE * max(chrome.words(body), 1)
    inside = {d for landmark in body.xpath(chrome.CONTENT_LANDMARKS) for d in landmark.iterdescendants()}
    found = []
    walk = etree.iterwalk(body, events=("start",))
    next(walk)
    for _, el in walk:
        if not (el.tag in chrome.CHROME_TAGS or el.tag == "dialog" or el.attrib):
            continue
        if item_parts and el.tag in ("header", "footer") and chrome._section_of(el) == "article":
            continue
        if chrome.overlay(el.tag, el.get("role"), el.get) or (
                chrome.is_chrome(el, keep, in_content=el in inside) and chrome.words(el) < limit):
            found.append(el)
            walk.skip_subtree()
    for el in found:
        chrome.remove(el)


def _reference_main(body):
    mains = body.xpath("descendant::main | descendant::*[@role='main']")
    if not mains:
        return body
    left = {m: chrome.words(m) for m in mains}
    best = max(mains, key=left.__getitem__)
    return best if left[best] > chrome.MAIN_MIN_SHARE * max(chrome.words(body), 1) else body


def _reference_root(text, keep=None, *, item_parts=False):
    body = chrome.page_tree(text)
    if body is None:
        return None
    _reference_strip(body, keep, item_parts=item_parts)
    return _reference_main(body)


def _serialised(root):
    return None if root is None else (root.tag, etree.tostring(root, encoding=str, with_tail=False))


# Markup the walk reacts to: chrome tags and roles, hidden elements and tab panels, boilerplate and
# post words, landmarks (nested too), an article's header, text glued to tags, control characters
# in tails (moved by remove), wrappers around everything.
_PIECES = (
    "<div>", "</div>", "<div class='sidebar'>", "<div class='page has-sidebar'>", "<div id='footer'>",
    "<div class='comment reply'>", "<div class='share newsletter'>", "<div class='content'>", "<div role='main'>",
    "<div role='Navigation'>", "<div role='tabpanel' hidden>", "<div class='tab-pane' style='display:none'>",
    "<div hidden>", "<div aria-hidden='true'>", "<div style='display: none'>", "<main>", "</main>",
    "<main class='related'>", "<article>", "</article>", "<article class='sidebar'>", "<header>", "</header>",
    "<header class='entry'>", "<footer>", "</footer>", "<nav>", "</nav>", "<aside>", "</aside>", "<form>",
    "</form>", "<section class='menu'>", "</section>", "<ul>", "<li>", "</ul>", "<p>", "</p>", "<span>",
    "</span>", "<a href='/x'>", "</a>", "<h1>", "</h1>", "<h3>", "</h3>",
    "<li><a href='/y'>go</a></li>", "<br>", "word ", "two words ", "glued", "\x0b", "\x01",
    " ", "\n", "\xa0", "many words in a row here for the share ", "<script>x = 1</script>", "<noscript>", "</noscript>",
    "<div role='dialog' aria-modal='true'>", "<div role='AlertDialog' aria-modal=' true '>", "<div role='dialog'>",
    "<dialog>", "</dialog>", "<dialog open>",
)


def _random_page(rng):
    body = "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 120)))
    return f"<html><head><title>t</title></head><body>{body}</body></html>"


@pytest.mark.parametrize("keep, item_parts", [(None, False), (None, True), (threads.POST_WORDS, False)])
def test_content_root_equals_the_reference_walk_on_random_pages(keep, item_parts):
    rng = random.Random(20261126)
    for _ in range(400):
        text = _random_page(rng)
        assert _serialised(chrome.content_root(text, keep, item_parts=item_parts)) == _serialised(
            _reference_root(text, keep, item_parts=item_parts)), text


def test_strip_chrome_equals_the_reference_walk():
    rng = random.Random(7)
    for _ in range(200):
        text = _random_page(rng)
        ours, theirs = chrome.page_tree(text), chrome.page_tree(text)
        chrome.strip_chrome(ours)
        _reference_strip(theirs)
        assert _serialised(ours) == _serialised(theirs), text


def test_content_root_equals_the_reference_walk_on_dev_pages():
    from data_root import MISSING
    from data_root import SHARED_DATA as DATA

    if not (DATA / "wcxb_dev").is_dir():
        pytest.skip(MISSING)
    from mcecrawl.evaluation import load_dataset

    pages = [p for p in load_dataset(DATA / "wcxb_dev") if p.page_type not in (None, "article")][::12]
    for p in pages:
        for keep, item_parts in ((None, False), (None, True), (threads.POST_WORDS, False)):
            assert _serialised(chrome.content_root(p.text, keep, item_parts=item_parts)) == _serialised(
                _reference_root(p.text, keep, item_parts=item_parts)), p.id


@pytest.fixture
def words_table_first(monkeypatch):
    """Both walks count every element's words from the first chrome element kept as layout on."""
    from mcecrawl.algorithms import profile_impl

    monkeypatch.setattr(chrome, "LAYOUT_COUNTS", 1)
    if profile_impl.cleaning is not None:
        monkeypatch.setattr(profile_impl.cleaning, "LAYOUT_COUNTS", 1)


def _nested_chrome_page(rng):
    """Chains of nested chrome around most of the page (each one layout), text at some levels."""
    opening = rng.choice(["<nav>", "<div class='sidebar'>", "<aside>", "<div role='navigation'>", "<div>"])
    closing = "</div>" if opening.startswith("<div") else "</" + opening[1:]
    levels = rng.randint(1, 40)
    inner = "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 30)))
    body = opening * levels + inner + "many words in a row here for the share " * rng.randint(1, 9)
    body += "".join(closing + rng.choice(("", "tail words ", "<p>a side paragraph</p>")) for _ in range(levels))
    return f"<html><body>{body}</body></html>"


def test_the_words_table_changes_no_decision(words_table_first):
    """Every element's words counted once (chrome.LAYOUT_COUNTS reached at once) give the walk the
    decisions of counting each kept element's subtree, on both walks: against the plain reference."""
    rng = random.Random(20261127)
    pages = [_random_page(rng) for _ in range(300)] + [_nested_chrome_page(rng) for _ in range(300)]
    for text in pages:
        for keep, item_parts in ((None, False), (None, True), (threads.POST_WORDS, False)):
            assert _serialised(chrome.content_root(text, keep, item_parts=item_parts)) == _serialised(
                _reference_root(text, keep, item_parts=item_parts)), text


def test_a_chain_of_nested_chrome_is_counted_once(monkeypatch):
    """1,000 nested chrome wrappers around a page's text: the walk counts their subtrees one by one
    only up to chrome.LAYOUT_COUNTS, then every element's words once (not once per level)."""
    joined = []
    real = chrome._joined_text
    monkeypatch.setattr(chrome, "_joined_text", lambda el: joined.append(el) or real(el))
    counted = []
    real_counts = chrome.word_counts
    monkeypatch.setattr(chrome, "word_counts", lambda root: counted.append(root) or real_counts(root))
    page = "<html><body>" + "<nav>" * 1000 + "<p>" + "word " * 3000 + "</p>" + "</nav>" * 1000 + "</body></html>"
    root = chrome.content_root(page)
    assert "word word" in " ".join(chrome.text_blocks(root))
    from mcecrawl.algorithms import profile_impl

    if profile_impl.current() == "reference":
        assert len(joined) == chrome.LAYOUT_COUNTS and len(counted) == 1
    else:
        assert profile_impl.cleaning.LAYOUT_COUNTS == chrome.LAYOUT_COUNTS


def test_least_words_is_a_lower_bound_of_words():
    rng = random.Random(3)
    for _ in range(100):
        root = chrome.page_tree(_random_page(rng))
        if root is not None:
            assert all(chrome.least_words(el) <= chrome.words(el) for el in root.iter())
    glued = chrome.page_tree("<html><body><p>one<b>two</b>three</p></body></html>")
    assert chrome.least_words(glued) == 1 and chrome.words(glued) == 3


def test_remove_returns_the_change_in_words_of_the_text_its_tail_joins():
    rng = random.Random(5)
    for _ in range(200):
        root = chrome.page_tree(_random_page(rng))
        if root is None:
            continue
        for el in list(root.iterdescendants())[::3]:
            if el.getparent() is None or any(a.getparent() is None and a is not root for a in el.iterancestors()):
                continue
            before, n = chrome.words(root), chrome.words(el)
            if not any(a is root for a in el.iterancestors()):
                continue
            assert chrome.remove(el) - n == chrome.words(root) - before


def test_main_of_glued_words_is_measured_exactly():
    """A <main> whose words are glued to its tags (one word to libxml2's joined text, ten to
    words()) is the content when its ten words pass the share, as the reference says."""
    glued = "".join(f"<b>w{i}</b>" for i in range(10))
    text = f"<html><body><main>{glued}</main><div>{'other ' * 15}</div></body></html>"
    root = chrome.content_root(text)
    assert chrome.least_words(root) == 1 and root.tag == "main"
    assert _serialised(root) == _serialised(_reference_root(text))


def _reference_drop_marked(root, marked):
    limit = chrome.CHROME_MAX_SHARE * max(chrome.words(root), 1)
    for el in list(root.iterdescendants()):
        if (isinstance(el.tag, str) and el.getparent() is not None
                and marked.search(" ".join(filter(None, (el.get("class"), el.get("id")))))
                and chrome.words(el) < limit):
            chrome.remove(el)


def test_drop_marked_equals_its_reference_on_random_pages():
    """drop_marked judges each element by its class/id once per page and does not enter what it drops:
    the same tree as removing every marked element in document order."""
    import re

    rng = random.Random(13)
    marked = re.compile(r"comment|sidebar|tab", re.I)
    for _ in range(300):
        text = _random_page(rng)
        ours, theirs = chrome.page_tree(text), chrome.page_tree(text)
        if ours is None:
            continue
        chrome.drop_marked(ours, marked)
        _reference_drop_marked(theirs, marked)
        assert _serialised(ours) == _serialised(theirs), text


def _asked_links(parent):
    """The links and buttons below ``parent`` with none between them and it, each link asked for its
    ancestors (``parent`` itself too when it is one, none above it): what ``chrome._outermost_links`` walks to."""
    def between(el):
        for a in el.iterancestors():
            if a is parent:
                return
            yield a
    return [x for x in parent.iter("a", "button") if not any(y.tag in ("a", "button") for y in between(x))]


def _reference_drop_link_buttons(root):
    by_parent = {}
    for a in root.iter("a", "button"):
        parent = a.getparent()
        if parent is not None:
            by_parent.setdefault(parent, []).append(a)
    for parent, links in by_parent.items():
        if parent.tag in chrome._HEADINGS or any(x.tag in chrome._HEADINGS for x in parent.iterancestors()):
            continue
        own = len("".join(parent.itertext()).split())
        linked = sum(len("".join(x.itertext()).split()) for x in _asked_links(parent))
        if own > linked:
            continue
        for a in links:
            if len("".join(a.itertext()).split()) <= chrome.CTA_MAX_WORDS:
                chrome.remove(a)


def test_drop_link_buttons_equals_its_reference_on_random_pages():
    """Each ancestor is looked at once for headings: the same tree as asking every parent's ancestors."""
    rng = random.Random(17)
    for _ in range(400):
        text = _random_page(rng)
        ours, theirs = chrome.page_tree(text), chrome.page_tree(text)
        if ours is None:
            continue
        chrome.drop_link_buttons(ours)
        _reference_drop_link_buttons(theirs)
        assert _serialised(ours) == _serialised(theirs), text


def test_main_elements_in_one_step_as_the_union_selects_them():
    """``chrome._MAINS`` selects the ``<main>`` and ``role=main`` elements as the union ``descendant::main |
    descendant::*[@role='main']`` does, in document order, each once (libxml2 merges a union's node
    sets in quadratic time: 40,000 of each took 6.6 s)."""
    from lxml import etree

    root = etree.fromstring('<div><main role="main"><div role="main">a</div></main><p>b</p><main>c</main>'
                            '<section role="main"><main>d</main></section></div>', etree.HTMLParser())
    for el in root.iter(etree.Element):
        assert chrome._MAINS(el) == el.xpath("descendant::main | descendant::*[@role='main']")
    assert [e.tag for e in chrome._MAINS(root)] == ["main", "div", "main", "section", "main"]


def test_outermost_links_are_those_no_link_or_button_stands_above_below_the_parent():
    """``chrome._outermost_links(parent)``: the links and buttons of the subtree not inside another one
    below ``parent`` (the parent too when it is one and nothing above it is), in document order, as
    asking each link for its ancestors found them."""
    from lxml import etree

    root = etree.fromstring("<div><a>1<span><a>2</a></span></a><p><button>3<span><a>4</a></span></button>x"
                            "<a>5</a></p><section><div><a>6</a></div></section></div>", etree.HTMLParser())
    for el in root.iter(etree.Element):
        assert list(chrome._outermost_links(el)) == _asked_links(el), etree.tostring(el)
    assert [x.text for x in chrome._outermost_links(root.find(".//div"))] == ["1", "3", "5", "6"]


def test_link_buttons_of_nested_boxes_cost_the_square_of_the_depth_not_its_cube():
    """A chain of nested boxes, each holding a link: every box asked each link below it for its
    ancestors, the cube of the depth (1,000 levels: 25 s). The walk that stops at a link leaves the
    square (each box still counts the words below it), which libxml2's depth limit bounds."""
    from growth import MAX_SQUARE_GROWTH, grows_within

    def build(depth: int) -> bytes:
        return ("<html><body><p>" + "words " * 50 + "</p>" + '<div><a href="/x">Buy</a>' * depth
                + "</div>" * depth + "</body></html>").encode()

    square, small, large = grows_within(lambda page: typed.extract_as(page, "product"), build, 125,
                                          max_growth=MAX_SQUARE_GROWTH)
    assert square, (small, large)


def test_link_lists_nested_in_each_other_cost_the_square_of_the_depth_not_its_cube():
    """Lists nested in lists, each with its links: each list's link text (``.//a//text()``, then a text
    node's count of its ancestors) cost the cube of the depth; one walk per list leaves the square
    (each list reads the text below it), which libxml2's depth limit bounds."""
    from growth import MAX_SQUARE_GROWTH, grows_within

    def build(depth: int) -> bytes:
        level = '<ul><li><a href="/x">a</a></li><li><a href="/y">b</a></li><li><a href="/z">c</a></li><li>'
        return ("<html><body><p>" + "words " * 50 + "</p>" + level * depth + "end" + "</li></ul>" * depth
                + "</body></html>").encode()

    # 100 and 800 levels: 73 times the time now, 256 times on the code before (079c8c3)
    square, small, large = grows_within(lambda page: typed.extract_as(page, "documentation"), build, 100,
                                          max_growth=MAX_SQUARE_GROWTH)
    assert square, (small, large)
