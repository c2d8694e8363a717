"""Scored regions: the project's own main-content method, built on the DANAg line profile.

DANA and DANAg [1]_ [2]_ keep one region of the smoothed content-minus-code line profile: the longest
column or the region with most characters.  On pages they were not fitted to that single choice
is where they fail: a long "about this site" footer paragraph, or a "most read" list, can be the
densest run, and an article split by in-article promo blocks loses its first part.  This method
keeps the papers' line profile as its cheap first pass and decides among *all* its regions with
page-independent evidence, parsing only the chosen lines.  Phases, one function each:

1. :func:`line_profile` — DANAg §3.1-3.2: lines (tag per line, R2L paper §4.1), content and code
   characters per line after removing scripts, styles and comments, smoothed by formula (1); plus,
   per line, the content characters inside links and the sentence punctuation outside tags.
2. :func:`candidate_regions` — every run above the axis is a candidate, and runs at most
   ``gap`` lines apart form one region (DANAg §3.3 applied from every run, not only the largest).
3. :func:`score_regions` — each region's non-link text, weighted by its sentence punctuation,
   by the boilerplate or article labels of its enclosing containers (Readability's published
   class/id lists; ``<article>``, ``itemprop=articleBody``, ``<main>``), and by its distance to the
   page's headline.
4. :func:`join_regions` — neighbouring regions that read as article text and sit in the same
   container as the chosen one, or in a sibling post of one template (:func:`sibling_post`), are
   joined (an article split by a figure, a quote or a promo block; the posts of a blog's home page);
   the region's end closes its container and its start opens its block (:func:`block_start`).
5. :func:`clean_region` — the chosen lines are parsed (lxml) inside their containers' opening
   tags and, within them, boilerplate containers, link boxes, hidden elements, captions,
   notices (newsletter, disclaimer, ad slots), metadata, bylines and link-dense blocks are
   dropped (Readability's cleaning rules; the rules added since, measured per rule, in ``docs/algorithms.md``).
6. Text policy: the headline (:func:`find_headline`) first, then one block per line; a short
   breadcrumb or kicker above the headline inside the region is dropped.

A safety net (:func:`sanity_check`) rejects a choice that is mostly links, has no sentence
punctuation, or holds a tiny share of the page's text; the next region outside boilerplate boxes
is tried, else the article container around the best one (:func:`labelled_container`), and
``reason`` says when one was.  A page with text but no line above the axis is
cleaned whole.  Decisions and their measurements: ``docs/algorithms.md``.

References
----------
.. [1] H. Mohammadzadeh, T. Gottron, F. Schweiggert, G. Nakhaeizadeh (2011). Extracting the main
   content of web documents based on a naive smoothing method. KDIR 2011, pp. 470-475.
.. [2] H. Mohammadzadeh, T. Gottron, F. Schweiggert, G. Nakhaeizadeh (2011). A fast and accurate
   approach for main content extraction based on character encoding. TIR 2011 (slides).
.. [3] Mozilla Readability (Readability.js), ``REGEXPS`` and ``_grabArticle``: class/id word lists.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from mcecrawl.algorithms import common
from mcecrawl.algorithms import profile_impl as profile

# Names other modules read from here (the rules live in cleaning, the words in cleaning_words).
from mcecrawl.algorithms.cleaning import (
    BYLINE_MAX_CHARS as BYLINE_MAX_CHARS,
)
from mcecrawl.algorithms.cleaning import (
    MEDIA_MAX_CHARS as MEDIA_MAX_CHARS,
)
from mcecrawl.algorithms.cleaning import (
    attributes as attributes,
)
from mcecrawl.algorithms.cleaning import (
    collapse as collapse,
)
from mcecrawl.algorithms.cleaning import (
    hidden_tag as hidden_tag,
)
from mcecrawl.algorithms.cleaning import (
    is_boilerplate as is_boilerplate,
)
from mcecrawl.algorithms.cleaning import (
    is_labelled as is_labelled,
)
from mcecrawl.algorithms.cleaning import (
    label as label,
)
from mcecrawl.algorithms.cleaning import (
    link_share as link_share,
)
from mcecrawl.algorithms.cleaning import (
    modal_tag as modal_tag,
)
from mcecrawl.algorithms.cleaning import (
    reads_as_content as reads_as_content,
)
from mcecrawl.algorithms.cleaning import (
    word_tests as word_tests,
)
from mcecrawl.algorithms.cleaning_words import (
    ARTICLE_MARK as ARTICLE_MARK,
)
from mcecrawl.algorithms.cleaning_words import (
    BLOCK_TAGS as BLOCK_TAGS,
)
from mcecrawl.algorithms.cleaning_words import (
    BOILERPLATE_TAGS as BOILERPLATE_TAGS,
)
from mcecrawl.algorithms.cleaning_words import (
    LINK_BOX_TAGS as LINK_BOX_TAGS,
)
from mcecrawl.algorithms.cleaning_words import (
    MEDIA as MEDIA,
)
from mcecrawl.algorithms.cleaning_words import (
    NOTICES as NOTICES,
)
from mcecrawl.algorithms.cleaning_words import (
    POSITIVE as POSITIVE,
)
from mcecrawl.algorithms.cleaning_words import (
    UNLIKELY as UNLIKELY,
)
from mcecrawl.algorithms.cleaning_words import (
    UNRELATED as UNRELATED,
)
from mcecrawl.algorithms.danag import calculate_lengths, remove_scripts_styles_comments
from mcecrawl.algorithms.lines import Lines, name_key
from mcecrawl.algorithms.parse import PARSE_CHUNK_BYTES, h1_headings, page_titles, parse_region, parse_tree
from mcecrawl.algorithms.region import SMOOTHING_RADIUS, positive_runs, smooth
from mcecrawl.algorithms.result import Extraction

NAME = "scored_regions"

# Phase 2: lines between two runs of one region; DANAg's gap as re-tuned for tag-per-line
# segmentation (mcecrawl.algorithms.danag.GAP_DEFAULT, docs/algorithms.md).
GAP_DEFAULT = 30

# Phase 3.  Sentence punctuation per 100 content characters at which a region reads fully as
# prose; below it the score falls linearly.  Prose has ~2-6 (a sentence end and commas every
# ~100 Latin or Arabic characters, more in CJK); menus and link lists ~0.
PUNCT_PER_100_FULL = 1.0
# ... but never below this weight: a list or table without punctuation (a calendar, results)
# can still be the article when the page labels it or it follows the headline.
PUNCT_FLOOR = 0.1
# Weight of a region whose enclosing container carries a boilerplate word (Readability's
# unlikelyCandidates / negative lists) or is <nav>, <aside>, <footer>.
BOILERPLATE_WEIGHT = 0.2
# Regions whose container labels are read, best first by their other evidence: labels weigh at
# most LABELLED_WEIGHT / BOILERPLATE_WEIGHT = 20x, and pages rarely have more than a few regions
# within that factor of the best.
LABELLED_REGIONS = 8
# Weight of a region inside a container the page labels as the article.
LABELLED_WEIGHT = 4.0
# Weight of the region holding the headline or following it most closely.
HEADLINE_WEIGHT = 2.0

# Non-link characters above the headline inside the region that are dropped as breadcrumbs,
# kickers and section names; more than this is article text placed before the <h1> in the source.
ABOVE_HEADLINE_MAX_CHARS = 200

# The byte-level label of a container (tag name, class/id/role/itemprop words): cleaning.label.
_label = label

# Phase 4: a neighbour is joined when it reads as prose (at most this share of link text) ...
JOIN_REGION_MAX_LINK_SHARE = 0.5
# ... and when the two share a container at most this many levels above the chosen region's
# innermost one (or a container labelled as the article).
JOIN_MAX_LEVELS = 2

# Phase 5: lines the region's end may move to close the container it ends in (and its start, to open
# the block it starts in: :func:`block_start`).  Flat on the dev sets
# between 30 (DANAg's gap) and 100 (BENCHMARKS.md); 100 closes a five-item "most read" box.
CLOSE_LINES = 100
# Containers read around a line, innermost first: labels and joins look a few levels up, and a
# page nested 100,000 deep must not cost 100,000 lookups per region.
MAX_CONTAINERS = 64
# Regions above this size are parsed piece by piece, each inside its own containers, so that the
# lxml tree never holds more than this (as mcecrawl.algorithms.parse.PARSE_CHUNK_BYTES).
CLEAN_CHUNK_BYTES = PARSE_CHUNK_BYTES
# Characters below which a cleaning that dropped a boilerplate container around the article is
# redone without dropping it: Readability.js retries without stripping unlikely candidates under
# its DEFAULT_CHAR_THRESHOLD, 500.
RETRY_CHARS = 500
# The article's own containers are parsed as this tag, exempt from cleaning (they hold it).
ARTICLE_TAG = b"<div " + ARTICLE_MARK.encode() + b">"
# Safety net: a choice below this share of the page's content characters, or above the link
# share, or with no punctuation where other regions have some, is replaced by the next region.
MIN_TEXT_SHARE = 0.05
SAFETY_NET_MAX_LINK_SHARE = 0.6

DEFAULTS = {"gap": GAP_DEFAULT, "radius": SMOOTHING_RADIUS, "headline": True}
CHOICES: dict[str, tuple[Any, ...]] = {}

@dataclass
class LineProfile:
    """Phase 1 arrays over the kept lines (scripts, styles and comments removed): the line profile."""

    lines: Lines
    kept: np.ndarray  # index into lines of each kept line
    content: np.ndarray
    code: np.ndarray
    smoothed: np.ndarray
    link: np.ndarray  # content characters inside <a>
    punct: np.ndarray  # sentence punctuation outside tags
    depth: np.ndarray  # container depth at the line's start
    opens: np.ndarray  # sorted depth << 32 | byte offset of every container opening
    tags: tuple[np.ndarray, np.ndarray]  # lines.tag_keys of lines.tag_starts: each tag's name key, whether it closes
    # what each container's opening tag says (tag_labels), read once per page: the page's regions
    # share most of their ancestors
    labels: dict[bytes, tuple[bool, bool, bool]] = field(default_factory=dict)

    @functools.cached_property
    def text_before(self) -> np.ndarray:
        """Non-link characters before each kept line: any region's middle is one binary search."""
        return np.concatenate(([0], np.cumsum(np.clip(self.content - self.link, 0, None), dtype=np.int64)))

    def openings(self, name: bytes) -> list[int]:
        """Byte offsets where the page's ``<name>`` tags open, in order: tags as the line profile reads
        them, outside the head, scripts, styles, comments and attribute values."""
        keys, closing = self.tags
        starts: list[int] = self.lines.tag_starts[(keys == np.uint64(name_key(name))) & ~closing].tolist()
        return starts


@dataclass
class Candidate:
    first: int  # kept-line indices, inclusive
    last: int
    chars: int
    link: int
    punct: int
    middle: int  # the line at the middle of the region's text: its containers stand for the region
    score: float = 0.0
    boilerplate: bool | None = None  # None: containers not read yet (label_region)
    labelled: bool | None = None
    modal: bool = False  # inside a modal dialog (cleaning.modal_tag): never the article
    containers: list[tuple[int, bytes]] = field(default_factory=list)  # (offset, opening tag), innermost first

    @property
    def link_share(self) -> float:
        return self.link / self.chars if self.chars else 1.0

    @property
    def punct_per_100(self) -> float:
        return 100.0 * self.punct / self.chars if self.chars else 0.0


def line_profile(text: str | bytes, *, radius: int = SMOOTHING_RADIUS) -> LineProfile:
    """Phase 1: DANAg's per-line content and code (§3.1) and smoothing (§3.2), plus link text,
    punctuation and container depth per line (all numpy passes over the bytes)."""
    lines = profile.segment_lines(text, split="tag")
    kept = remove_scripts_styles_comments(lines)
    content, code = calculate_lengths(lines, kept)
    smoothed = smooth(content, code, radius=radius)
    tags = profile.tag_keys(lines)
    link, depth, opens = profile.links_and_depth(lines, kept, content, tags)
    punct = profile.count_punctuation(lines, kept, content)
    return LineProfile(lines, kept, content, code, smoothed.astype(np.int32), link, punct, depth, opens, tags)


def candidate_regions(lp: LineProfile, *, gap: int = GAP_DEFAULT) -> list[Candidate]:
    """Phase 2: runs above the axis, grouped into regions where at most ``gap`` lines apart."""
    firsts, lasts = positive_runs(lp.smoothed)
    if not len(firsts):
        return []
    breaks = np.flatnonzero(firsts[1:] - lasts[:-1] - 1 > gap)
    a = firsts[np.concatenate(([0], breaks + 1))].astype(np.int64)
    b = lasts[np.concatenate((breaks, [len(firsts) - 1]))].astype(np.int64)
    # Every region's counts at once: a page has tens of regions, and a numpy step per region and count
    # was most of this phase.
    csum = {name: np.concatenate(([0], np.cumsum(getattr(lp, name), dtype=np.int64)))
            for name in ("content", "link", "punct")}
    chars, link, punct = (csum[n][b + 1] - csum[n][a] for n in ("content", "link", "punct"))
    keep = chars != 0
    a, b = a[keep], b[keep]
    rows = zip(a.tolist(), b.tolist(), chars[keep].tolist(), link[keep].tolist(), punct[keep].tolist(),
               median_lines(lp, a, b).tolist())
    return [Candidate(*row) for row in rows]


def median_line(lp: LineProfile, first: int, last: int) -> int:
    """The line holding the middle character of the region's non-link text: its containers
    stand for the region (a long footer paragraph at one end cannot, as the densest line can)."""
    return first if last < first else int(median_lines(lp, np.array([first]), np.array([last]))[0])


def median_lines(lp: LineProfile, first: np.ndarray, last: np.ndarray) -> np.ndarray:
    """:func:`median_line` of many regions (``last >= first``), as one search."""
    before = lp.text_before
    total = before[last + 1] - before[first]
    return np.where(total == 0, first, np.searchsorted(before, before[first] + total / 2) - 1)


def region_of(lp: LineProfile, first: int, last: int) -> Candidate:
    """Kept lines ``first..last`` as one region, with its counts."""
    span = slice(first, last + 1)
    return Candidate(first, last, int(lp.content[span].sum()), int(lp.link[span].sum()), int(lp.punct[span].sum()),
                     median_line(lp, first, last))


def whole_page(lp: LineProfile) -> Candidate:
    """All kept lines as one region (the safety net for pages without a dense line)."""
    return region_of(lp, 0, len(lp.kept) - 1)


def line_at(lp: LineProfile, offset: int) -> int:
    """The kept line holding byte ``offset``."""
    return max(int(np.searchsorted(lp.lines.starts[lp.kept], offset, side="right")) - 1, 0)


def closing_line(lp: LineProfile, line: int, level: int, stop: int | None = None) -> int | None:
    """The first kept line after ``line`` (up to ``stop``) whose container depth is below ``level``:
    where the container at that level closes; None if it does not close by then."""
    end = len(lp.depth) - 1 if stop is None else stop
    below = np.flatnonzero(lp.depth[line + 1:end + 1] < level)
    return line + 1 + int(below[0]) if len(below) else None


def containers(lp: LineProfile, line: int) -> list[tuple[int, bytes]]:
    """(byte offset, opening tag) of the containers enclosing kept line ``line``, innermost first;
    at most :data:`MAX_CONTAINERS` of them."""
    data = lp.lines.data
    return [(s, data[s:e + 1]) for s, e in profile.enclosing_tags(
        lp.lines, lp.opens, int(lp.depth[line]), int(lp.lines.starts[lp.kept[line]]), MAX_CONTAINERS)]


def _boilerplate(tag: bytes) -> bool:
    """Whether an opening tag's container is boilerplate (:func:`is_boilerplate` of its label)."""
    name, words = _label(tag)
    return is_boilerplate(name, words, profile.word_bits(words))


def tag_labels(lp: LineProfile, tag: bytes) -> tuple[bool, bool, bool]:
    """(boilerplate, labels the article, opens a modal dialog) of a container's opening tag, read
    once per page (``lp.labels``).  An <article> that is a comment ("comment comment-9495") labels a
    comment, not the article."""
    known = lp.labels.get(tag)
    if known is None:
        boilerplate = _boilerplate(tag)
        known = lp.labels[tag] = (boilerplate, is_labelled(*_label(tag)) and not boilerplate, modal_tag(tag))
    return known


def label_region(lp: LineProfile, c: Candidate) -> Candidate:
    """Containers of the region's middle line and what their labels say (computed once)."""
    if c.boilerplate is None:
        c.containers = containers(lp, c.middle)
        labels = [tag_labels(lp, t) for _, t in c.containers]
        c.boilerplate = any(b for b, _, _ in labels)
        c.labelled = any(labelled for _, labelled, _ in labels)
        c.modal = any(modal for _, _, modal in labels)
    return c


def score_regions(lp: LineProfile, candidates: list[Candidate], headline_line: int | None) -> None:
    """Phase 3: score = non-link characters x punctuation x container labels x headline.

    Container labels are read for the :data:`LABELLED_REGIONS` regions of highest score without
    them; the others keep that score (labels only matter for the regions that can win).  A region in
    a modal dialog (a consent banner, a legal text shown over the page) scores 0: such a dialog
    holds no main content, however long its text."""
    nearest = None
    if headline_line is not None:
        after = [c for c in candidates if c.last >= headline_line and c.chars - c.link > 0]
        nearest = after[0] if after else None
    for c in candidates:
        c.score = float(c.chars - c.link) * max(PUNCT_FLOOR, min(1.0, c.punct_per_100 / PUNCT_PER_100_FULL))
        if c is nearest:
            c.score *= HEADLINE_WEIGHT
    for c in sorted(candidates, key=lambda c: -c.score)[:LABELLED_REGIONS]:
        label_region(lp, c)
        if c.modal:
            c.score = 0.0
            continue
        if c.boilerplate:
            c.score *= BOILERPLATE_WEIGHT
        if c.labelled:
            c.score *= LABELLED_WEIGHT


def sanity_check(c: Candidate, total_chars: int, any_punct: bool) -> str:
    """Why the chosen region is not an article ("" if it passes): the safety net's tests."""
    if c.link_share > SAFETY_NET_MAX_LINK_SHARE:
        return f"mostly link text ({c.link_share:.0%})"
    if any_punct and not c.punct:
        return "no sentence punctuation"
    if total_chars and (c.chars - c.link) < MIN_TEXT_SHARE * total_chars:
        return f"{(c.chars - c.link) / total_chars:.1%} of the page's text"
    return ""


def same_article(a: Candidate, b: Candidate) -> bool:
    """Whether region ``b`` belongs to the article of region ``a``: inside the container the page
    labels as its article when ``a`` has one, else sharing a container at most
    :data:`JOIN_MAX_LEVELS` levels above ``a``'s innermost one; or inside a sibling post of
    ``a``'s (:func:`sibling_post`)."""
    b_offsets = {off for off, _ in b.containers}
    for off, tag in a.containers:
        if is_labelled(*_label(tag)):
            return off in b_offsets or sibling_post(a, b)
    for level, (off, tag) in enumerate(a.containers):
        if off in b_offsets:
            return level <= JOIN_MAX_LEVELS or _reads_as_content(tag) or sibling_post(a, b)
    return False


def sibling_post(a: Candidate, b: Candidate) -> bool:
    """Whether ``b`` lies in a sibling of one of ``a``'s post containers: a container labelled as
    an article or reading as content (:func:`_reads_as_content`), or one around such a container,
    and a sibling of it (the same parent) made from the same template (:func:`_same_template`).
    The posts of a blog's home page or of a thread, an article the page splits into several
    ``<article>`` elements, and the sections of a page builder (Elementor's
    ``elementor-top-section``, whose text widget is the part that reads as content) are one main
    content; their neighbours joined one by one, each read as prose by the caller."""
    b_index = {off: k for k, (off, _) in enumerate(b.containers)}
    content = False
    for i in range(len(a.containers) - 1):
        off, tag = a.containers[i]
        name, words = _label(tag)
        content = content or is_labelled(name, words) or _reads_as_content(tag)
        if not content:
            continue
        j = b_index.get(a.containers[i + 1][0], 0)  # a's parent among b's containers, not innermost
        if j and b.containers[j - 1][0] != off and _same_template(tag, b.containers[j - 1][1]):
            return True
    return False


@functools.lru_cache(maxsize=4096)
def _same_template(tag: bytes, other: bytes) -> bool:
    """Two opening tags of one template: the same name, and a class word in common (words with
    digits, such as a post's number, left out), or no class on either (``<article>`` alone)."""
    name, classes = _template(tag)
    other_name, other_classes = _template(other)
    if name != other_name:
        return False
    return bool(classes & other_classes) if classes or other_classes else name == "article"


def _template(tag: bytes) -> tuple[str, frozenset[str]]:
    """(tag name, class words without digits) of an opening tag."""
    words = attributes(tag).get("class", "").lower().split()
    return _label(tag)[0], frozenset(w for w in words if not any(c.isdigit() for c in w))


def _reads_as_content(tag: bytes) -> bool:
    """A container whose class/id carries one of Readability's positive words (post, story…)."""
    return reads_as_content(*_label(tag))


def join_regions(lp: LineProfile, candidates: list[Candidate], best: Candidate) -> tuple[int, int]:
    """Phase 4: extend ``best`` over neighbouring regions that read as article text (low link
    share, sentence punctuation, no boilerplate container) in the same article container.
    No distance limit: the shared container is the evidence (a limit of 400 or 1,000 lines
    measured worse on long pages, docs/algorithms.md)."""
    first, last = best.first, best.last
    i = candidates.index(best)
    for step in (-1, 1):
        j = i + step
        while 0 <= j < len(candidates):
            c = label_region(lp, candidates[j])
            if not same_article(best, c):
                break
            if (c.link_share <= JOIN_REGION_MAX_LINK_SHARE and c.punct and not own_boilerplate(lp, best, c)
                    and not c.modal):
                first, last = min(first, c.first), max(last, c.last)
            j += step  # a promo or link box inside the article is stepped over, not joined
    return first, last


def labelled_container(lp: LineProfile, c: Candidate) -> Candidate | None:
    """The lines of the innermost container around ``c`` that the page labels as its article or
    whose class/id reads as content, as one region: the safety net's last resort when no region
    passes (a short post whose paragraphs carry more markup than text has no region but a tiny
    heading, while its ``entry-content`` container holds it all)."""
    for off, tag in c.containers:
        if is_labelled(*_label(tag)) or _reads_as_content(tag):
            first = line_at(lp, off)
            end = closing_line(lp, first, int(lp.depth[min(first + 1, len(lp.depth) - 1)]))
            return label_region(lp, region_of(lp, first, len(lp.depth) - 1 if end is None else end - 1))
    return None


def own_boilerplate(lp: LineProfile, best: Candidate, c: Candidate) -> bool:
    """Whether region ``c`` lies in a boilerplate container that ``best`` is not in: one both lie
    in (a layout's "sidebar-wrapper" around the whole article) says nothing about ``c``."""
    if not c.boilerplate:
        return False
    shared = {off for off, _ in best.containers}
    return any(off not in shared and tag_labels(lp, tag)[0] for off, tag in c.containers)


_FIRST_TAG = re.compile(rb"\s*</?([A-Za-z][A-Za-z0-9]*)")
_BLOCK_NAMES = frozenset(t.encode() for t in BLOCK_TAGS)


def block_start(lp: LineProfile, first: int) -> int:
    """Move the region's start back to the line opening the block it starts inside (at most
    :data:`CLOSE_LINES` lines): a paragraph whose first line has more markup than text (an inline
    style) is not cut in half."""
    data, starts, ends = lp.lines.data, lp.lines.starts, lp.lines.ends
    stop = max(first - CLOSE_LINES, 0)
    line = first
    while line > stop:
        k = int(lp.kept[line])
        m = _FIRST_TAG.match(data, int(starts[k]), int(ends[k]))
        if m is None or m.group(1).lower() in _BLOCK_NAMES:
            break
        line -= 1
    return line if line > stop else first


def close_containers(lp: LineProfile, first: int, last: int) -> int:
    """Move the region's end to the line closing the container that holds the whole region
    (else the one its last line is in), at most :data:`CLOSE_LINES` further: a short closing
    paragraph below the axis is kept, and a box cut in half (a "most read" heading without its
    list) is parsed whole and cleaned as one."""
    depth = lp.depth
    stop = min(last + CLOSE_LINES, len(depth) - 1)
    for level in (int(depth[first:last + 1].min()), int(depth[last])):
        end = closing_line(lp, last, level, stop)
        if end is not None:
            return end
    return last


def clean_region(lp: LineProfile, first: int, last: int, article: Candidate) -> list[str]:
    """Phase 5: parse the lines ``first..last`` and keep the article's blocks.

    The region is parsed inside the opening tags of the containers around its first line, so
    that a boilerplate container it starts in (a header, a sidebar) is seen and dropped.  The
    containers around the region's middle line are exempt from cleaning — they hold the article —
    except a boilerplate one (a comment thread longer than its post) and a hidden one (a
    ``display:none`` schema.org copy of the article beside the visible one); if fewer than
    :data:`RETRY_CHARS` remain, it is cleaned again with every one of them exempt.
    """
    chain = [(off, tag) for off, tag in article.containers]
    keep = {off for off, tag in chain if not tag_labels(lp, tag)[0] and not hidden_tag(tag)}
    blocks = _parse_cleaned(lp, first, last, keep)
    if len(keep) < len(chain) and sum(map(len, blocks)) < RETRY_CHARS:
        blocks = _parse_cleaned(lp, first, last, {off for off, _ in chain})
    return blocks


def _parse_cleaned(lp: LineProfile, first: int, last: int, keep: set[int]) -> list[str]:
    """The cleaned blocks of lines ``first..last``, parsed in pieces of at most
    :data:`CLEAN_CHUNK_BYTES` cut at line starts (memory stays linear and small)."""
    lines = lp.lines
    starts = lines.starts[lp.kept]
    blocks: list[str] = []
    piece = first
    while piece <= last:
        stop = int(np.searchsorted(starts, int(starts[piece]) + CLEAN_CHUNK_BYTES, side="left")) - 1
        stop = min(max(stop, piece), last)
        blocks.extend(_parse_piece(lp, piece, stop, keep))
        piece = stop + 1
    return blocks


def _outside_tag(lines: Lines, pos: int) -> int:
    """``pos``, or the start of the tag it lies inside: a newline ends a line even inside a tag
    (``segment_lines``), so a line can start in the middle of one (``<p\\n class="lead">text``), and
    a piece cut there would read the tag's tail as text."""
    t = int(np.searchsorted(lines.tag_starts, pos, side="left")) - 1
    return int(lines.tag_starts[t]) if t >= 0 and pos <= int(lines.tag_ends[t]) else pos


def _parse_piece(lp: LineProfile, first: int, last: int, keep: set[int]) -> list[str]:
    lines, data = lp.lines, lp.lines.data
    a = _outside_tag(lines, int(lines.starts[lp.kept[first]]))
    b = _outside_tag(lines, int(lines.ends[lp.kept[last]]))
    prefix = [ARTICLE_TAG if off in keep else tag for off, tag in reversed(containers(lp, first)) if off < a]
    pieces, pos = [], a
    for off in sorted(o for o in keep if a <= o < b):  # mark the article's own containers
        pieces += [data[pos:off], ARTICLE_TAG]
        pos = int(lines.tag_ends[np.searchsorted(lines.tag_starts, off)]) + 1  # the tokenizer's end: quotes skipped
    pieces.append(data[pos:b])
    root = parse_tree(b"".join(prefix + pieces))
    del pieces
    if root is None:  # libxml2 gave up (nesting past its depth limit): strip tags, lose no text
        return parse_region(data[a:b])
    for figure in list(root.iter("figure")):  # lxml ends at once on a tree without one
        if figure.find(".//table") is not None:
            figure.tag = "div"  # a table is data, not an illustration (HTML §4.4.12): kept, its caption not
    return profile.cleaning_blocks(root)


def find_headline(lp: LineProfile) -> tuple[str | None, int | None]:
    """The page's headline and its kept line: of its ``<h1>`` elements the one sharing most words
    with og:title / ``<title>`` (not a logo ``<h1>`` holding the site name), else og:title, else
    the title (text policy: the output's first line).  The ``<h1>`` elements are read where the line
    profile found their tags (outside the head, scripts, styles, comments and attribute values: no
    search of the page, a third of a millisecond for Python's regex engine on 300 KB)."""
    data = lp.lines.data  # the page's UTF-8 bytes, which the offsets index
    h1s, titles = h1_headings(data, lp.openings(b"h1")), page_titles(data)

    def agreement(h: str) -> float:
        words = set(h.lower().split())
        return max((len(words & set(t.lower().split())) / max(len(set(t.split())), 1) for t in titles),
                   default=0.0)

    if h1s:
        offset, best = max(h1s, key=lambda h: (agreement(h[1]), -h[0]))
        return best, line_at(lp, offset)
    return (titles[0] if titles else None), None


def scored_regions(text: str | bytes, **params: Any) -> Extraction:
    """Extract the main content of a page by scoring every dense region of its line profile.

    Parameters
    ----------
    text : str or bytes
        The decoded page, or its UTF-8 bytes (read as they are: the crawl's pages are UTF-8
        already, so neither decoded nor encoded again).
    **params
        ``gap`` (lines between runs of one region, default 30), ``radius`` (smoothing
        neighbours, 1), ``headline`` (start the text with the headline, default true).

    Returns
    -------
    Extraction
        ``region`` holds the chosen kept lines and the DANAg line profile; ``reason`` names the
        safety net's choice when the best-scored region failed its sanity check.
    """
    p = common.resolve_params(NAME, DEFAULTS, CHOICES, params)
    lp = line_profile(text, radius=p["radius"])
    if not lp.content.any():
        return common.empty(NAME, p, "no text outside tags, scripts, styles and comments", text)
    candidates = candidate_regions(lp, gap=p["gap"])
    reason = ""
    if not candidates:
        # Safety net: a short page can have text but no line above the axis; its whole body
        # is the region, cleaned like any other (an empty result there would lose an article).
        reason = "safety net: no line has more content than code characters; used the whole page"
        candidates = [whole_page(lp)]
    headline, headline_line = find_headline(lp)
    score_regions(lp, candidates, headline_line)
    ranked = sorted(candidates, key=lambda c: -c.score)
    # The page's text, less the modal dialogs' found above: 5 % of a page that hides two privacy policies
    # in dialogs is no test of its product description.
    total = int(lp.content.sum() - lp.link.sum()) - sum(c.chars - c.link for c in candidates if c.modal)
    any_punct = any(c.punct for c in candidates)
    best = ranked[0]
    failed = sanity_check(best, total, any_punct)
    if failed:
        for alt in ranked[1:]:  # the next region that passes and is not in a boilerplate box
            if not sanity_check(alt, total, any_punct) and not label_region(lp, alt).boilerplate and not alt.modal:
                reason = f"safety net: best-scored region rejected ({failed}); used the next region"
                best = alt
                break
        else:
            reason = f"safety net: no region passed ({failed}); used the best-scored region"
            whole = labelled_container(lp, label_region(lp, best))
            if whole is not None:
                best = whole
                candidates = sorted([c for c in candidates if c.last < whole.first or c.first > whole.last] + [whole],
                                    key=lambda c: c.first)
                reason = f"safety net: no region passed ({failed}); used the article container of the best-scored one"
    first, last = join_regions(lp, candidates, label_region(lp, best))
    last = close_containers(lp, first, last)
    first = block_start(lp, first)
    if p["headline"] and headline_line is not None and first < headline_line <= last:
        above = int((lp.content[first:headline_line] - lp.link[first:headline_line]).sum())
        if above <= ABOVE_HEADLINE_MAX_CHARS:
            first = headline_line  # text policy: no breadcrumb or kicker above the headline
    blocks = clean_region(lp, first, last, best)
    if p["headline"] and headline:
        key = collapse(headline)
        blocks = [key] + [b for b in blocks if b != key]
    region = common.chosen_region(first, last, lp.content, lp.code, lp.smoothed)
    result = common.result(NAME, p, text, blocks, region, title=headline)
    return replace(result, reason=reason) if reason and result.ok else result
