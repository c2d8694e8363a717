"""The cleaning rules: which parts of a region's tree are not the article, and the walk that drops them.

The Python reference of the cleaning walk; ``_cleaning.pyx`` is its compiled twin, and
:mod:`mcecrawl.algorithms.profile_impl` gives both one interface (``cleaning_blocks(root)``,
``tree_paragraphs(root)``) as msgpack-python pairs its ``_cmsgpack`` with its ``fallback``.  The words
and tag sets the rules read are in :mod:`mcecrawl.algorithms.cleaning_words`.

Two attribute readers, one per side:

- bytes: :func:`attributes` reads an opening tag as the HTML tokenizer does (the region's container
  labels, :func:`label`, before any tree exists);
- tree: :func:`element_words` reads an lxml element's class, id, role, itemprop and rel.

The rules, each a small named function in Readability's style, asked in this order by
:func:`is_clutter` for an element that carries one of :data:`CLUTTER_ATTRIBUTES` or is a link-box
container: :func:`invisible` (the visibility test, for elements and opening tags alike),
:func:`notice_or_boilerplate`, :func:`link_box`, :func:`negative_links`, :func:`caption`,
:func:`metadata`, :func:`short_byline`.  Thresholds and their sources: the constants below and
``docs/algorithms.md``.
"""
from __future__ import annotations

import functools
import re
from typing import Any, Callable, Iterable, Iterator

from lxml import etree

from mcecrawl.algorithms.cleaning_words import (
    AD_SLOT,
    ARTICLE_MARK,
    BLOCK_TAGS,
    BOILERPLATE_TAGS,
    BYLINE,
    CLUTTER_ATTRIBUTES,
    CODE_TAGS,
    INVISIBLE_STYLE,
    LABEL_ATTRIBUTES,
    LINK_BOX_TAGS,
    MAYBE_CANDIDATE,
    MEDIA,
    METADATA_ITEMPROPS,
    MODAL_ROLES,
    NEGATIVE,
    NOTICES,
    POSITIVE,
    SKIPPED_TAGS,
    STREAMED_ID,
    UNLIKELY,
    UNLIKELY_ROLES,
    UNRELATED,
    WORD_ATTRIBUTES,
    WORDLESS_TAGS,
)
from mcecrawl.algorithms.lines import SENTENCE_ENDS
from mcecrawl.textpieces import count_chars, count_words

# A text block whose characters are mostly link text is navigation (Readability's link density
# threshold for a node of weight < 25 is 0.2, for others 0.5; jusText's 0.2 for "bad").
TEXT_BLOCK_MAX_LINK_SHARE = 0.5
# A container with a negative class/id word and no positive one goes when more of its text is
# link text than this (Readability's conditional cleaning; the same bound as a text block's).
NEGATIVE_BOX_MAX_LINK_SHARE = 0.5
# Link boxes (:data:`LINK_BOX_TAGS`) go whole above this link share (Readability.js
# _cleanConditionally: 0.2 for a node of class weight < 25) ...
LINK_BOX_MAX_LINK_SHARE = 0.2
# ... or above this one when their class/id carries a positive word (its 0.5 for such a node) ...
CONTENT_BOX_MAX_LINK_SHARE = 0.5
# ... with at least this many links (a box of one link goes when no sentence ends outside it) ...
LINK_BOX_MIN_LINKS = 2
# ... unless they hold this many commas: prose with many links (Readability's "commas < 10" guard;
# Arabic and CJK commas counted too).
LINK_BOX_MAX_COMMAS = 10
_COMMAS = re.compile("[,\u060c\uff0c\u3001]")
# A caption, credit or gallery container is kept when it holds running text: more than this many
# characters, most of them in paragraphs (a listicle's slides, an article body in a "media
# object").  200-500 are flat on four dev sets, 200 is scrapinghub_aeb +0.0005; 100 cuts credits
# into the text, 1,000 drops slides (BENCHMARKS.md).
MEDIA_MAX_CHARS = 200
# A byline or dateline is a short block; long ones are kept (they can hold the lead).
BYLINE_MAX_CHARS = 100


# --- text ----------------------------------------------------------------------------------------

# Whitespace (str.isspace's set) becomes a plain space by one translate, then only runs of 2+
# spaces are replaced: a regex over every run (or " ".join(s.split())) would hold one object
# per word, about 8x the text of a huge paragraph.  ZWNJ (U+200C) is not whitespace: kept.
_WS_TABLE = {c: " " for c in range(0x3001) if chr(c).isspace()}
_MULTI_SPACE = re.compile(" {2,}")
# Below this length the split-and-join (the same result: str.split splits at exactly the
# characters of _WS_TABLE) is several times faster, and its word list stays small.
SPLIT_JOIN_MAX_CHARS = 4096


def collapse_whitespace(text: str) -> str:
    """Whitespace runs to one space, stripped (ZWNJ kept)."""
    if len(text) < SPLIT_JOIN_MAX_CHARS:
        return " ".join(text.split())
    return _MULTI_SPACE.sub(" ", text.translate(_WS_TABLE)).strip()


def is_blank(page: str | bytes) -> bool:
    """Whether ``page`` is empty or whitespace only (ASCII whitespace for bytes, ``str.isspace``'s for
    text: what ``strip()`` removes).  Read, not copied: ``not page.strip()`` copies a whole page that
    starts or ends with whitespace (half of wcxb_dev's pages, ~10 us each)."""
    return not page or page.isspace()


def collapse(text: str) -> str:
    """Whitespace runs to one space, stripped (ZWNJ kept; stray U+FEFF removed)."""
    return collapse_whitespace(text.replace("\ufeff", "") if "\ufeff" in text else text)


# --- the two attribute readers -------------------------------------------------------------------

_TAG_NAME = re.compile(rb"<([A-Za-z][A-Za-z0-9]*)")
_NAME_END = re.compile(rb"<[^\s/>]*")
_ATTRIBUTE = re.compile(rb"""([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?""")


@functools.lru_cache(maxsize=4096)
def attributes(tag: bytes) -> dict[str, str]:
    """An opening tag's attributes as the HTML tokenizer reads them (lower-case names; the first of
    a repeated name; a ``data-role`` is its own name, a word inside a quoted value is no name)."""
    out: dict[str, str] = {}
    name_end = _NAME_END.match(tag)
    for name, v2, v3, v4 in _ATTRIBUTE.findall(tag, name_end.end() if name_end else 0):
        key = name.decode("utf-8", "replace").lower()
        if key not in out:
            out[key] = (v2 or v3 or v4).decode("utf-8", "replace")
    return out


def element_words(el: Any) -> str:
    """The tree's reader: an element's class, id, role, itemprop and rel values joined by spaces."""
    get = el.get
    return " ".join(filter(None, [get(name) for name in WORD_ATTRIBUTES]))


# --- word tests ----------------------------------------------------------------------------------

# Bits of one class/id/role/itemprop/rel token: which word lists it matches.  Every word of the
# lists is a run without whitespace, and the patterns that look past a word (NEGATIVE's "^hid$| hid
# |...", NOTICES' "(?:^|[\s_-])ad...") look for a whitespace boundary: so on a value whose only
# whitespace is plain spaces, a pattern matches the value exactly when it matches one of its tokens
# alone, and a value's answer is the OR of its tokens' bits.  Tokens repeat across a page's elements
# and a site's pages far more than whole values do (measured: BENCHMARKS.md), so each distinct token
# is tested once per process.
_POSITIVE, _NEGATIVE, _MEDIA, _NOTICE, _BYLINE, _UNRELATED, _UNLIKELY, _CANDIDATE, _ROLE_OR_TAG, _OTHER_SPACE = (
    1 << k for k in range(10))


# The bits by name, for the compiled walk's own answers (``_cleaning.set_rules``): "boilerplate" is
# what :func:`is_boilerplate` drops on the words alone (an unlikely role, a tag word, "related").
WORD_BITS = {"positive": _POSITIVE, "negative": _NEGATIVE, "media": _MEDIA, "notice": _NOTICE, "byline": _BYLINE,
             "boilerplate": _ROLE_OR_TAG | _UNRELATED, "unlikely": _UNLIKELY, "candidate": _CANDIDATE}

_WORD_LISTS = ((_POSITIVE, POSITIVE), (_NEGATIVE, NEGATIVE), (_MEDIA, MEDIA), (_NOTICE, NOTICES), (_BYLINE, BYLINE),
               (_UNRELATED, UNRELATED), (_UNLIKELY, UNLIKELY), (_CANDIDATE, MAYBE_CANDIDATE))
# The same lists without re.IGNORECASE, for ASCII tokens lower-cased first: on ASCII text the two
# match alike (the lists are written in lower case), and the case-sensitive search is ~3x faster
# (93,690 class/id tokens of wcxb_dev: 1.38 s against 0.46 s).  Other tokens keep the patterns as
# written (re.IGNORECASE folds some letters, "İ" or the Kelvin sign, unlike str.lower).
_LOWER_WORD_LISTS = tuple((bit, re.compile(pattern.pattern)) for bit, pattern in _WORD_LISTS)
if any(p.pattern != p.pattern.lower() for _, p in _WORD_LISTS):
    raise ImportError("cleaning_words' word lists must be written in lower case (see _LOWER_WORD_LISTS)")


@functools.lru_cache(maxsize=1 << 16)
def _token_bits(token: str) -> int:
    """The word lists a token (a run of a value between plain spaces) matches, as bits."""
    if not token:
        return 0
    bits = 0
    text, lists = (token.lower(), _LOWER_WORD_LISTS) if token.isascii() else (token, _WORD_LISTS)
    for bit, pattern in lists:
        if pattern.search(text):
            bits |= bit
    lowered = token.lower()
    if lowered in UNLIKELY_ROLES or lowered in BOILERPLATE_TAGS:
        bits |= _ROLE_OR_TAG
    if len(token.split()) != 1 or token.split()[0] != token:
        bits |= _OTHER_SPACE  # a tab, newline or other whitespace: the token rule does not hold
    return bits


def _words_bits(words: str) -> int:
    bits = 0
    for token in words.split(" "):
        bits |= _token_bits(token)
    return bits


def _whole_value_bits(words: str) -> int:
    """The same bits from the patterns over the whole value (a value with other whitespace)."""
    bits = 0
    for bit, pattern in _WORD_LISTS:
        if pattern.search(words):
            bits |= bit
    tokens = set(words.lower().split())
    if tokens & UNLIKELY_ROLES or tokens & BOILERPLATE_TAGS:
        bits |= _ROLE_OR_TAG
    return bits


@functools.lru_cache(maxsize=16384)  # whole values repeat across a page's elements and a site's pages
def word_bits(words: str) -> int:
    """Which word lists a class/id/role/itemprop/rel value matches (bits, see :func:`_token_bits`),
    answered per distinct token (each tested once per process) and memoised per value.

    Measured against the same memo answered from the whole value (:func:`whole_value_word_bits`),
    CPU time, rounds interleaved, on a loaded machine: per token 3-8 % faster on r2l,
    scrapinghub_aeb and wcxb_dev (BENCHMARKS.md); the two are equal by construction and checked
    equal in the tests."""
    bits = _words_bits(words)
    return _whole_value_bits(words) if bits & _OTHER_SPACE else bits


def whole_value_word_bits(words: str) -> int:
    """:func:`word_bits` from the patterns over the whole value."""
    return _whole_value_bits(words)


# An alternative of the word lists that is a plain run of letters, digits and dashes: found inside a token.
_LITERAL = re.compile(r"[a-z0-9-]+")
# One that is a whole token: "^hid$".
_WHOLE_TOKEN = re.compile(r"\^([a-z0-9-]+)\$")


def token_rules() -> tuple[list[tuple[str, int]], list[tuple[str, int]], int]:
    """The word lists as a compiled matcher of ASCII tokens reads them: (words found inside a token,
    each with its bit; whole tokens, each with its bit; the bit of :data:`AD_SLOT`'s rule), from
    the patterns themselves.  An alternative with a space never matches a token; any other kind
    raises ValueError (the matcher would not know it: the reference is then used)."""
    inside: list[tuple[str, int]] = []
    whole = [(w, _ROLE_OR_TAG) for w in sorted(UNLIKELY_ROLES | BOILERPLATE_TAGS)]
    ad_bit = 0
    for bit, pattern in _LOWER_WORD_LISTS:
        source = pattern.pattern
        if AD_SLOT in source:
            source, ad_bit = source.replace(AD_SLOT, ""), ad_bit | bit
        for alternative in filter(None, source.split("|")):
            if _LITERAL.fullmatch(alternative):
                inside.append((alternative, bit))
            elif m := _WHOLE_TOKEN.fullmatch(alternative):
                whole.append((m.group(1), bit))
            elif " " not in alternative:
                raise ValueError(f"a word-list alternative the token matcher cannot read: {alternative!r}")
    if any(not w.isascii() or w != w.lower() for w, _ in inside + whole):
        raise ValueError("the token matcher reads lower-case ASCII words")
    return inside, whole, ad_bit


def word_tests(words: str) -> tuple[bool, bool, bool, bool, bool]:
    """Whether the words match POSITIVE, NEGATIVE, MEDIA, NOTICES and BYLINE."""
    bits = word_bits(words) if words else 0
    return (bool(bits & _POSITIVE), bool(bits & _NEGATIVE), bool(bits & _MEDIA), bool(bits & _NOTICE),
            bool(bits & _BYLINE))


def is_boilerplate(name: str, words: str, bits: int | None = None) -> bool:
    """Readability's test (``_grabArticle``): an unlikely word not redeemed by a candidate word
    (:data:`UNRELATED` never is), or an unlikely ARIA role; plus HTML's nav/aside/footer, as
    elements or as a whole class/id word (``<div id="footer">``, the idiom those elements
    replaced: a candidate word elsewhere in the attribute, as in ``class="footer
    footer-content"``, does not redeem it).  ``bits``: the words' :func:`word_bits`, when the caller
    has them."""
    if name in BOILERPLATE_TAGS:
        return True
    if name == "body" or not words:
        return False
    if bits is None:
        bits = word_bits(words)
    if bits & (_ROLE_OR_TAG | _UNRELATED):
        return True  # an unlikely ARIA role, a class/id that is exactly "footer", "nav", "aside"; "related"
    return bool(bits & _UNLIKELY) and not bits & _CANDIDATE


@functools.lru_cache(maxsize=4096)
def is_labelled(name: str, words: str) -> bool:
    """A container the page itself labels as its article: <article>, <main>, articleBody."""
    return name in ("article", "main") or "articlebody" in words.lower() or "main" in words.lower().split()


def reads_as_content(name: str, words: str) -> bool:
    """A container whose class/id carries one of Readability's positive words (post, story…)."""
    return name != "body" and word_tests(words)[0]


# --- opening tags (bytes) ------------------------------------------------------------------------

_LABEL_NAMES = frozenset(name.encode() for name in LABEL_ATTRIBUTES)


@functools.lru_cache(maxsize=4096)  # a page's regions share most of their ancestors
def label(tag: bytes) -> tuple[str, str]:
    """(tag name, "class id role itemprop" words) of an opening tag: :func:`attributes`' reading,
    decoding only the four values it needs."""
    m = _TAG_NAME.match(tag)
    name = m.group(1).lower().decode() if m else ""
    name_end = _NAME_END.match(tag)
    found: dict[bytes, bytes] = {}
    for key, v2, v3, v4 in _ATTRIBUTE.findall(tag, name_end.end() if name_end else 0):
        key = key.lower()
        if key in _LABEL_NAMES and key not in found:
            found[key] = v2 or v3 or v4
    return name, " ".join(found[k].decode("utf-8", "replace") for k in _LABEL_KEYS if k in found)


_LABEL_KEYS = tuple(name.encode() for name in LABEL_ATTRIBUTES)


# Opening tags that can hide their element (every test of :func:`invisible` needs one of these).
_MAYBE_HIDDEN = re.compile(rb"hidden|none", re.I)


@functools.lru_cache(maxsize=4096)
def hidden_tag(tag: bytes) -> bool:
    """Whether an opening tag hides its element (:func:`invisible` on its attributes)."""
    return bool(_MAYBE_HIDDEN.search(tag)) and invisible(attributes(tag).get)


# Opening tags that can open a modal dialog (every test of :func:`modal_tag` needs this).
_MAYBE_MODAL = re.compile(rb"dialog", re.I)


@functools.lru_cache(maxsize=4096)
def modal_tag(tag: bytes) -> bool:
    """Whether an opening tag opens a modal dialog: an ARIA dialog role (:data:`MODAL_ROLES`) with
    ``aria-modal="true"``.  (A ``<dialog>`` element is no container of the line profile, so only its
    ARIA form is met here.)"""
    if not _MAYBE_MODAL.search(tag):
        return False
    get = attributes(tag).get
    return is_modal(get("role"), get("aria-modal"))


def is_modal(role: str | None, aria_modal: str | None) -> bool:
    """Whether an element's ``role`` and ``aria-modal`` values make it a modal dialog: an ARIA
    dialog role (:data:`MODAL_ROLES`) with ``aria-modal="true"``."""
    return role is not None and bool(MODAL_ROLES.intersection(role.lower().split())) \
        and (aria_modal or "").strip().lower() == "true"


# --- the rules (tree) ----------------------------------------------------------------------------

def invisible(get: Callable[[str], str | None]) -> bool:
    """Readability's _isProbablyVisible negated: not rendered, so not the article's text
    (``get`` reads an attribute of an element or of an opening tag); a streamed segment
    (:data:`STREAMED_ID`) is not hidden by its ``hidden`` attribute."""
    style = get("style")
    return ((get("hidden") is not None and not STREAMED_ID.match(get("id") or "")) or get("aria-hidden") == "true"
            or bool(style and INVISIBLE_STYLE.search(style)))


def notice_or_boilerplate(tag: str, words: str, notice: bool) -> bool:
    """A notice (newsletter, disclaimer, ad slot…) or a boilerplate container by its words alone."""
    return notice or bool(words and tag not in ("body", "html") and is_boilerplate(tag, words))


def link_box(stats: LinkStats, positive: bool) -> bool:
    """Whether a container with links (``stats``: :func:`link_stats`) is a related / most-read box.

    The box goes whole, its heading with its links: Readability's _cleanConditionally link
    density, :data:`LINK_BOX_MAX_LINK_SHARE` unless the class/id reads as content.  A box of one
    link goes too when no sentence punctuation lies outside it ("Explore further", "Read more:"
    and their link); one linked sentence is prose."""
    links, _, _, commas, ends, linked_ends = stats
    limit = CONTENT_BOX_MAX_LINK_SHARE if positive else LINK_BOX_MAX_LINK_SHARE
    return _stats_share(stats) > limit and commas < LINK_BOX_MAX_COMMAS and (
        links >= LINK_BOX_MIN_LINKS or not ends > linked_ends)


def negative_links(stats: LinkStats) -> bool:
    """Readability's conditional cleaning: a container with a negative class and mostly links."""
    return _stats_share(stats) > NEGATIVE_BOX_MAX_LINK_SHARE


def caption(el: Any) -> bool:
    """A caption, credit or gallery; the slides of a listicle, or prose, are not (:func:`running_text`)."""
    return not running_text(el)


def metadata(itemprop: str | None) -> bool:
    """schema.org metadata written out as text (keywords, dates, names)."""
    return (itemprop or "").strip() in METADATA_ITEMPROPS


def short_byline(el: Any, tag: str) -> bool:
    """A byline or dateline block of at most :data:`BYLINE_MAX_CHARS`; an inline dateline the
    sentence goes on after ("KOBE – A total of …") is not."""
    if tag not in BLOCK_TAGS and (el.tail or "").strip():
        return False
    return len(collapse("".join(el.itertext()))) <= BYLINE_MAX_CHARS


def is_clutter(el: Any, tag: str, measure: Callable[[Any], LinkStats] | None = None) -> bool:
    """Whether the walk drops ``el`` (whose tag name is ``tag``) with its subtree: the rules in order.

    ``measure`` reads an element's links (:func:`link_stats`, the default; the compiled walk passes
    its twin).  Reads the element and never changes the tree (the compiled walk's contract)."""
    get = el.get
    if get(ARTICLE_MARK) is not None:
        return False
    if invisible(get):
        return True
    words = element_words(el)
    positive, negative, media, notice, byline = word_tests(words)
    wordless = tag in WORDLESS_TAGS
    if not wordless and notice_or_boilerplate(tag, words, notice):
        return True  # words alone decide: asked first, so that no link is counted for them
    stats = None  # the element's links, read at most once, by either test below
    if tag in LINK_BOX_TAGS:
        stats = (measure or link_stats)(el)
        if stats[0] and link_box(stats, positive):
            return True
    if not words:
        return False
    if negative and not positive and not wordless and negative_links(stats or (measure or link_stats)(el)):
        return True
    if media and caption(el):
        return True
    if metadata(get("itemprop")):
        return True
    return byline and short_byline(el, tag)


# --- the walks -----------------------------------------------------------------------------------

_CLUTTER_CANDIDATES = etree.XPath(
    "descendant-or-self::*[" + " or ".join([f"@{a}" for a in CLUTTER_ATTRIBUTES]
                                           + [f"self::{t}" for t in sorted(LINK_BOX_TAGS)]) + "]")


def blocks(root: Any) -> list[str]:
    """Blocks of a region's tree, one per line, without boilerplate subtrees, captions, bylines or
    link-dense blocks (:func:`is_clutter`, :data:`SKIPPED_TAGS`, :data:`TEXT_BLOCK_MAX_LINK_SHARE`).

    One iterwalk over the tree; :func:`is_clutter` is asked only about the elements one XPath
    call found able to be clutter (:data:`_CLUTTER_CANDIDATES`; code, :data:`CODE_TAGS`, and what
    it holds only go when hidden), so most elements cost one event
    and a set lookup.  A skipped element still gets its end event (lxml's ``skip_subtree``): its
    tail is text of the block around it."""
    out: list[str] = []
    parts: list[str] = []
    linked = in_link = 0
    candidates = set(_CLUTTER_CANDIDATES(root))
    code = {el for top in root.iter(*CODE_TAGS) for el in top.iter()} & candidates
    candidates -= code

    def flush() -> None:
        nonlocal linked
        if parts:
            text = collapse("".join(parts))
            chars = len(text)
            if chars and linked <= TEXT_BLOCK_MAX_LINK_SHARE * chars and any(ch.isalnum() for ch in text):
                out.append(text)
            parts.clear()
        linked = 0

    walker = etree.iterwalk(root, events=("start", "end"))
    for event, el in walker:
        tag = el.tag
        if tag.__class__ is not str:
            tag = ""
        block = tag in BLOCK_TAGS
        if event == "start":
            if block:
                flush()
            if tag in SKIPPED_TAGS or (el in candidates and is_clutter(el, tag)) or (el in code and invisible(el.get)):
                walker.skip_subtree()
                continue
            if tag == "a" and _counts_as_link(el):
                in_link += 1
            text = el.text
            if text:
                parts.append(text)
                if in_link:
                    linked += len(text.strip())
        else:
            if tag == "a" and in_link and _counts_as_link(el):
                in_link -= 1
            if block:
                flush()
            text = el.tail
            if text:
                parts.append(text)
                if in_link:
                    linked += len(text.strip())
    flush()
    return out


def paragraphs(root: Any) -> list[str]:
    """Text of an lxml tree, one paragraph per block, nothing dropped: block elements and ``<br>``
    break it, source newlines inside text are plain whitespace (as a browser renders them).
    ``iterwalk`` keeps this iterative, whatever the depth."""
    out: list[str] = []
    current: list[str] = []

    def flush() -> None:
        line = collapse("".join(current))
        current.clear()
        if any(c.isalnum() for c in line):  # a lone "|" or "-" separator is not a paragraph
            out.append(line)

    for event, el in etree.iterwalk(root, events=("start", "end")):
        element = isinstance(el.tag, str)  # not a leftover comment/PI, whose tail still counts
        block = element and el.tag in BLOCK_TAGS
        if event == "start":
            if block:
                flush()
            if element and el.text:
                current.append(el.text)
        else:
            if block:
                flush()
            if el.tail:
                current.append(el.tail)
    flush()
    return out


def _counts_as_link(el: Any) -> bool:
    """A javascript: "link" is a script handler around text, not a link (Readability)."""
    return not (el.get("href") or "").lower().startswith("javascript:")


# --- measurements the rules read -----------------------------------------------------------------

# The marks that end a sentence (:data:`mcecrawl.algorithms.lines.SENTENCE_ENDS`): a heading or a
# "Read more:" ends without one.
_SENTENCE_END = re.compile("[" + "".join(re.escape(m.decode()) for m in SENTENCE_ENDS) + "]")
# Compiled once: an element's links, read for every container of a region.
_COUNT_LINKS = etree.XPath("count(.//a)")
_DESCENDANT_TEXT = etree.XPath("descendant::text()", smart_strings=False)


def outermost(el: Any, tags: str | tuple[str, ...]) -> Iterator[Any]:
    """``el``'s descendants named one of ``tags`` that no other such element below ``el`` holds, in
    document order: one walk that does not enter what it finds."""
    walk = etree.iterwalk(el, events=("start",), tag=tags)
    for _, found in walk:
        if found is not el:
            yield found
            walk.skip_subtree()


def texts_under(el: Any, tag: str) -> list[str]:
    """The text nodes inside ``el``'s descendants named ``tag``, in document order: what the XPath
    ``.//tag//text()`` selects, each :func:`outermost` one read by one step (its text nodes as libxml2
    keeps them).  libxml2 merges the node sets of ``.//tag//text()``'s steps in quadratic time: a list
    of 40,000 linked items took 31 s (0.17 s so), and a text node's ``count(ancestor::a)`` made nested
    lists cost the cube of their depth."""
    return [text for found in outermost(el, tag) for text in _DESCENDANT_TEXT(found)]


def running_text(el: Any) -> bool:
    """Whether an element holds running text: longer than :data:`MEDIA_MAX_CHARS` and mostly in
    paragraphs (``<p>``), as a listicle's slides or an article body in a "media object" are; a
    caption, a credit line or a slideshow's captions and controls are not."""
    text = "".join(el.itertext())
    if len(text) <= MEDIA_MAX_CHARS or len(collapse(text)) <= MEDIA_MAX_CHARS:  # collapsing only shortens
        return False
    return 2 * _chars(texts_under(el, "p")) > _chars((text,))


def _chars(texts: Iterable[str]) -> int:
    """Non-whitespace characters of text nodes."""
    return count_chars("".join(texts))


def words(el: Any) -> int:
    """Whitespace-separated words of an element's text (its own tail not)."""
    return count_words(" ".join(el.itertext()))  # joined by a space, no word spans two pieces


def link_count(el: Any) -> int:
    """The element's links (``<a>`` descendants)."""
    return int(_COUNT_LINKS(el))


def link_texts(el: Any) -> list[str]:
    """The text nodes inside the element's links."""
    return texts_under(el, "a")


def link_share(el: Any) -> float:
    """Share of an element's (non-whitespace) characters that lie inside its links."""
    return _share("".join(el.itertext()), texts_under(el, "a"))


def _share(text: str, linked: list[str]) -> float:
    total = _chars((text,))
    return _chars(linked) / total if total else 0.0


# (links, non-whitespace characters, those inside links, commas, sentence ends, those inside links)
LinkStats = tuple[int, int, int, int, int, int]
_NO_LINKS: LinkStats = (0, 0, 0, 0, 0, 0)


def link_stats(el: Any) -> LinkStats:
    """What the link rules read of an element's subtree (its own text, its descendants' text and
    tails): its ``<a>`` elements and, when there is one, the characters, commas and sentence ends
    of its text and of its links' text.  Without a link every count is 0 (its link share is 0)."""
    links = int(_COUNT_LINKS(el))
    if not links:
        return _NO_LINKS
    text, linked = "".join(el.itertext()), texts_under(el, "a")
    return (links, _chars((text,)), _chars(linked), len(_COMMAS.findall(text)), len(_SENTENCE_END.findall(text)),
            sum(len(_SENTENCE_END.findall(t)) for t in linked))


def _stats_share(stats: LinkStats) -> float:
    return stats[2] / stats[1] if stats[1] else 0.0


# The marks link_stats counts, as characters (the compiled twin is given the same ones).
SENTENCE_END_MARKS = "".join(m.decode() for m in SENTENCE_ENDS)
COMMA_MARKS = "".join(_COMMAS.pattern[1:-1])
