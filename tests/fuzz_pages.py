"""Fuzz inputs for the compiled extraction core, and the outputs both cores must agree on.

Shared by ``tests/algorithms/test_profile_impl.py`` (a bounded run in every test run) and
``benchmarks/fuzz_core.py`` (the full run).  Inputs are deterministic for a seed: random bytes,
random strings over an alphabet of the markup the segmentation reacts to (tag openings, comment
and script bodies, escaped script data, ``<template>``/``<textarea>``, ``</head>``, attribute quotes and
values, truncated UTF-8 sequences, NUL bytes, BOMs; the page-type scan's tags, class words, prices and
marks), and
real pages mutated at random (bytes flipped, spans cut or repeated, markup tokens inserted,
truncated).  A crash of the compiled code ends the process; the caller's job is to leave the
input that did it where a person can find it.
"""
from __future__ import annotations

import contextlib
import math
import random
from pathlib import Path
from typing import Any, Iterator

import numpy as np
from lxml import etree

import mcecrawl
from mcecrawl.algorithms import chrome, cleaning, parse, profile_impl
from mcecrawl.algorithms.cleaning_words import (
    BLOCK_TAGS,
    CLUTTER_ATTRIBUTES,
    LINK_BOX_TAGS,
    SKIPPED_TAGS,
)
from mcecrawl.algorithms.danag import remove_scripts_styles_comments
from mcecrawl.algorithms.threads import POST_WORDS as _POSTS

# Markup the segmentation and the walk react to, and bytes that break UTF-8.
TOKENS = (
    b"<", b">", b"</", b"/>", b"<!--", b"-->", b"--", b"<!", b"<!DOCTYPE html>", b"<script>", b"</script>",
    b"<script type='x'>", b"</script >", b"<SCRIPT", b"<style>", b"</style>", b"<head>", b"</head>", b"</HEAD >",
    b"<head", b"<html>", b"<body>", b"</body>", b"<p>", b"</p>", b"<br/>", b"<div>", b"</div>",
    b'<div class="related">', b'<div id="comments" class="footer">', b'<div role="navigation">',
    b'<div style="display:none">', b"<section>", b"</section>", b"<article>", b"</article>",
    b'<div itemprop="articleBody">', b'<span itemprop="author">', b"<a href='/x'>", b'<a href="javascript:x()">',
    b"</a>", b"<ul><li><a href=/a>", b"</li></ul>", b"<h1>", b"</h1>", b"<title>", b"</title>",
    b'<meta property="og:title" content="', b'"', b"'", b"=", b"\n", b"\r\n", b" ", b"\t", b"\x00", b"\x0b",
    b"&amp;", b"&#x627;", b"<![CDATA[", b"]]>", b"<?php ?>", b"<figure>", b"<figcaption>", b"<nav>", b"<table>",
    b"<td>", "\u0645\u062a\u0646 \u062e\u0628\u0631".encode(), "\u200c".encode(), "\ufeff".encode(),
    "\u060c".encode(), "\u061f".encode(), "\u3002".encode(), "\uff0c".encode(), b".", b",", b"!", b"?",
    "\u05e9\u05dc\u05d5\u05dd".encode(), "\U0001f600".encode(), b"\xd8", b"\xe2\x80", b"\xef\xbb", b"\xff",
    b"\xc0\xaf", b"word", b"Prose, with commas. ",
    # the tokenizer's states the segmentation reads (attribute values, escaped script data, template, textarea)
    b"<script><!--", b"<script/>", b"</SCRIPT/", b"<template>", b"</template>", b"<TEXTAREA name=t>",
    b"</textarea>", b"<div data-x='{\"a\": \"<p>x<\\/p>\"}'>", b'<a title="a>b" ', b" =", b"='",
    # the cleaning walk's rules and odd nodes: marks, hidden, bylines, metadata, captions, namespaces, entities
    b"<div data-mce-article>", b"<div hidden>", b'<div aria-hidden="true">', b'<p class="byline">',
    b'<span itemprop="keywords">', b'<div class="caption">', b'<div class="post-content">', b'<div class="ad">',
    b'<div class="share-tools">', b'<ul class="x"><li><a href=/b>', b'<div data-role="navigation">',
    b'<svg:g xmlns:svg="http://www.w3.org/2000/svg">', b"<o:p>", b"&nbsp;", b"&unknown;", b"&#0;", b"<time>",
    # code, where no class word is clutter (a highlighter's "token comment"); a streamed segment
    b"<pre>", b"</pre>", b'<code class="related">', b"</code>", b'<span class="token comment">', b"</span>",
    b'<div hidden id="S:1f">', b'<a class="comment-link related" rel="sponsored" href="/s">',
    # the chrome walk's tags, roles and landmarks (the typed readings)
    b"<header>", b"</header>", b"<footer>", b"<aside>", b"<main>", b"</main>", b"<form>", b'<div role="main">',
    b'<div role="tabpanel" hidden>', b'<div class="sidebar">', b"<noscript>",
    # overlays: chrome at any size (modal dialogs, closed <dialog>s), and dialogs that are not
    b'<div role="dialog" aria-modal="true">', b"<div role='alertdialog dialog' aria-modal=' TRUE'>",
    b'<div role="dialog" aria-modal="false">', b"<dialog>", b"</dialog>", b"<dialog open>", b'<dialog open="">',
    # chains of nested chrome (layout wrappers, one per level)
    b"<nav><nav><nav><nav><nav><nav><nav><nav>", b"</nav></nav></nav></nav>", b'<div class="sidebar"><aside><nav>',
    # the page-type scan's tags, class words, prices, marks and markup anchors
    b"<h2>", b"<h3><a href=/t>", b"<pre><code>", b"<li class='post reply'>", b'<a class="card item">',
    b"class=", b"class='", b"<form>", b"<input ", b"<button>", b"<blockquote>", b"<dt>", b"<img ",
    b"$", b"9", b" 19,99", "€".encode(), "₽".encode(), b"kr", b"USD", b"zl", "zł".encode(),
    b"datePublished", b"datePublishedatePublished", b"article:published_time", b"author", b"byline",
    b'"@type": "Product"', b'"@type":["NewsArticle","X"]', b"itemtype=https://schema.org/Offer",
    b'<meta property="og:type" content="article">', b"{", b'":',
    # where the title search starts: a <meta> holding og:title / twitter:title in any case before its '>'
    b"<META", b"<meta", b"<meta-x ", b"og:TITLE", b"Twitter:Title", b":title", b"og:", b"<meta name=twitter:title>",
)
ALGORITHMS = ("scored_regions", "danag", "dana", "r2l")


def _random_markup(rng: random.Random, size: int) -> bytes:
    return b"".join(rng.choice(TOKENS) for _ in range(size))


def _mutate(rng: random.Random, page: bytes) -> bytes:
    data = bytearray(page)
    for _ in range(rng.randint(1, 8)):
        if not data:
            break
        at = rng.randrange(len(data))
        kind = rng.randrange(6)
        if kind == 0:  # flip a byte
            data[at] = rng.randrange(256)
        elif kind == 1:  # cut a span
            del data[at:at + rng.randint(1, 2000)]
        elif kind == 2:  # repeat a span
            data[at:at] = data[at:at + rng.randint(1, 500)] * rng.randint(1, 5)
        elif kind == 3:  # insert markup
            data[at:at] = _random_markup(rng, rng.randint(1, 6))
        elif kind == 4:  # truncate
            del data[at:]
        else:  # insert random bytes
            data[at:at] = rng.randbytes(rng.randint(1, 16))
    return bytes(data)


def fuzz_inputs(seed: int, count: int, pages: list[bytes]) -> Iterator[bytes]:
    """``count`` inputs: a third random bytes, a third random markup, a third mutated ``pages``."""
    rng = random.Random(seed)
    for i in range(count):
        kind = i % 3 if pages else i % 2
        if kind == 0:
            yield rng.randbytes(rng.randint(0, 3000))
        elif kind == 1:
            yield _random_markup(rng, rng.randint(0, 400))
        else:
            yield _mutate(rng, rng.choice(pages))


# The containers read around a line: a small bound and the extraction's own; lines read per page.
ENCLOSING_LIMIT = 3
ENCLOSED_LINES = 2000


def profile_arrays(data: bytes) -> dict[str, np.ndarray]:
    """Every array of the line profile the current implementation computes for ``data``."""
    out: dict[str, np.ndarray] = {}
    for split in ("tag", "block"):
        for merge in (True, False):
            lines = profile_impl.segment_lines(data, split=split, merge_blank=merge)
            for name in ("starts", "ends", "protected", "tag_starts", "tag_ends"):
                out[f"{split}/{merge}/{name}"] = getattr(lines, name)
    lines = profile_impl.segment_lines(data)
    for weight in ("chars", "bytes"):
        out[f"content/{weight}"], out[f"code/{weight}"] = profile_impl.count_content_code(lines, weight=weight)
        out[f"ascii/{weight}"] = profile_impl.count_ascii(lines, weight=weight)
        out[f"non_ascii/{weight}"] = profile_impl.count_non_ascii(lines, weight=weight)
        for hebrew in (False, True):
            out[f"r2l/{weight}/{hebrew}"] = profile_impl.count_r2l(lines, hebrew=hebrew, weight=weight)
    out["keys"], out["closing"] = profile_impl.tag_keys(lines)
    kept = remove_scripts_styles_comments(lines)
    content = profile_impl.count_content_code(lines)[0][kept]
    out["link"], out["depth"], out["opens"] = profile_impl.links_and_depth(lines, kept, content)
    out["punct"] = profile_impl.count_punctuation(lines, kept, content)
    out["utf8_error_at"] = np.array([profile_impl.utf8_error_at(data)])  # the decoding's validity check
    out["title_meta_at"] = np.array([profile_impl.title_meta_at(data)])  # where the title search starts
    starts = lines.starts[kept]
    for limit in (ENCLOSING_LIMIT, 64):  # the containers around each kept line (its first ENCLOSED_LINES)
        out[f"enclosing/{limit}"] = np.array([
            (line, start, end) for line in range(min(len(starts), ENCLOSED_LINES))
            for start, end in profile_impl.enclosing_tags(lines, out["opens"], int(out["depth"][line]),
                                                          int(starts[line]), limit)], dtype=np.int64)
    return out


def extractions(data: bytes) -> dict[str, tuple[Any, ...]]:
    """What each line-based algorithm returns for ``data`` read as UTF-8 bytes, invalid or not, as a
    crawl's pages are (status, text, title, reason)."""
    out = {}
    for algorithm in ALGORITHMS:
        r = mcecrawl.extract(data, algorithm=algorithm, utf8=True)  # the crawl's path: bytes as they are
        out[algorithm] = (r.status, r.text, r.title, r.reason)
    return out


def differences(data: bytes) -> list[str]:
    """Where the compiled and the reference core disagree on ``data`` (names of arrays/algorithms)."""
    previous = profile_impl.current()
    got = {}
    try:
        for impl in profile_impl.IMPLEMENTATIONS:
            profile_impl.use(impl)
            got[impl] = (profile_arrays(data), extractions(data), profile_impl.page_scan(data))
    finally:
        profile_impl.use(previous)
    (ca, ce, cs), (ra, re_, rs) = got[profile_impl.COMPILED], got[profile_impl.REFERENCE]
    diff = [k for k in ra if ra[k].dtype != ca[k].dtype or not np.array_equal(ra[k], ca[k])]
    return diff + [k for k in re_ if re_[k] != ce[k]] + [f"pagescan/{f}" for f in rs._fields
                                                          if getattr(rs, f) != getattr(cs, f)]


def langid_differences(data: bytes) -> list[str]:
    """Where language ID's compiled feature walk (:mod:`mcecrawl.corpus._langid`) and py3langid's own
    disagree on ``data`` (its counts, as bytes; its guess, read as UTF-8 with replacements); [] where
    the walk is not built."""
    from py3langid.langid import visit_counts

    from mcecrawl.corpus import langid

    if langid.compiled is None:
        return []
    ref = langid._identifier(langid.LANGUAGES, langid.REFERENCE)
    want = visit_counts(ref.tk_nextmove, ref._rowbase, ref.tk_output, data)
    got = langid.compiled.visit_counts(*langid._identifier(langid.LANGUAGES, langid.COMPILED).walk_tables, data)
    diff = [] if (want is None and got is None) or (want and got and list(want.items()) == list(got.items())) else [
        "langid/visit_counts"]
    text = data.decode("utf-8", "replace")
    if langid.detect(text, implementation=langid.COMPILED) != langid.detect(text, implementation=langid.REFERENCE):
        diff.append("langid/detect")
    return diff


# Trees as the extraction never parses them: comments and processing instructions kept (the
# compiled walk hands such a tree back to the reference; it must not crash on it).
_KEEP_ODD_NODES = etree.HTMLParser(remove_comments=False, remove_pis=False, recover=True, huge_tree=True,
                                   no_network=True)
# Subtrees of each tree walked besides the root (a region's tree is walked from its root, the
# baselines' pruned trees from theirs).
WALKED_SUBTREES = 3


def _compiled_is_clutter(el: Any, tag: str) -> bool:
    """The rules with the compiled link counts, whichever core is in use."""
    return cleaning.is_clutter(el, tag, lambda e: profile_impl.cleaning.link_stats(e) or cleaning.link_stats(e))


def _trees(data: bytes, name: str, parser: Any) -> list[tuple[str, Any]]:
    """(name, root) of the trees of ``data`` a walk is compared on: the algorithms' own ``parser``'s
    and one that keeps comments and processing instructions ("odd"), those built."""
    trees = [(name, parser(data))]
    try:
        trees.append(("odd", etree.fromstring(data, _KEEP_ODD_NODES)))
    except (etree.ParserError, ValueError):
        pass
    return [(n, root) for n, root in trees if root is not None]


def walk_differences(data: bytes) -> list[str]:
    """The compiled walk (``_cleaning.blocks``) against the reference walks (``cleaning.blocks``,
    ``cleaning.paragraphs``) directly on whole trees of ``data``: the region parser's tree and one
    that keeps comments and processing instructions, from the root and from a few subtrees."""
    compiled = profile_impl.cleaning
    if compiled is None:
        return []
    diff = []
    for name, root in _trees(data, "region", parse.parse_tree):
        for el in root.iter():
            if isinstance(el.tag, str):
                got = compiled.link_stats(el)
                if got is not None and got != cleaning.link_stats(el):
                    diff.append(f"link_stats ({name} tree)")
                    break
        walked = [root] + [el for el in root.iter() if len(el)][1:WALKED_SUBTREES + 1]
        for el in walked:
            want = cleaning.blocks(el)
            for decide in (False, True):  # every element asked; the walk's own answers where it has them
                got = compiled.blocks(el, _compiled_is_clutter, CLUTTER_ATTRIBUTES, BLOCK_TAGS, SKIPPED_TAGS,
                                      LINK_BOX_TAGS, cleaning.TEXT_BLOCK_MAX_LINK_SHARE, decide)
                if got is not None and got != want:
                    diff.append(f"cleaning walk ({name} tree{', decided' if decide else ''})")
            got = compiled.blocks(el, None, (), BLOCK_TAGS, frozenset(), frozenset(), math.inf)
            if got is not None and got != cleaning.paragraphs(el):
                diff.append(f"plain walk ({name} tree)")
    return diff + chrome_differences(data)


def chrome_differences(data: bytes) -> list[str]:
    """The compiled chrome walk and word count (``_cleaning.chrome_walk``, ``_cleaning.text_words``)
    against their references (``chrome.chrome_walk``, ``cleaning.words``) on the typed readings' page
    tree of ``data`` and on one that keeps comments and processing instructions."""
    compiled = profile_impl.cleaning
    if compiled is None:
        return []
    diff = []
    for name, body in _trees(data, "page", chrome.page_tree):
        elements = [el for el in body.iter() if isinstance(el.tag, str)]
        if any(compiled.text_words(el) not in (None, cleaning.words(el)) for el in elements):
            diff.append(f"words ({name} tree)")
        limit = chrome.CHROME_MAX_SHARE * max(cleaning.words(body), 1)
        for keep, item_parts in ((None, False), (None, True), (_POSTS, False)):
            def judge(el: Any, in_content: bool) -> bool:
                return chrome.is_chrome(el, keep, in_content=in_content)

            for layout_counts in (chrome.LAYOUT_COUNTS, 1):  # and every element's words counted at once
                with layout_counts_at(layout_counts):
                    got = compiled.chrome_walk(body, judge, limit, item_parts)
                    if got is not None and got != chrome.chrome_walk(body, judge, limit, item_parts):
                        diff.append(f"chrome walk ({name} tree{', item parts' if item_parts else ''}, "
                                    f"words table after {layout_counts})")
    return diff


@contextlib.contextmanager
def layout_counts_at(n: int) -> Iterator[None]:
    """Both chrome walks (the reference and, where built, ``_cleaning``'s) switch to counting every
    element's words after ``n`` kept layout wrappers (``chrome.LAYOUT_COUNTS``)."""
    walks = [m for m in (chrome, profile_impl.cleaning) if m is not None]
    before = [m.LAYOUT_COUNTS for m in walks]
    for m in walks:
        m.LAYOUT_COUNTS = n
    try:
        yield
    finally:
        for m, value in zip(walks, before):
            m.LAYOUT_COUNTS = value


def seed_pages(data_root: Path | None) -> list[bytes]:
    """Real pages to mutate: the project's own fixture page, and dev pages when the data is there."""
    here = Path(__file__).parent
    pages = [(here / "algorithms" / "data" / "fa_article.html").read_bytes()]
    if data_root is not None and data_root.is_dir():
        for name in ("r2l", "scrapinghub_aeb", "chinese_wce"):
            folder = data_root / name / "pages"
            if folder.is_dir():
                pages += [p.read_bytes() for p in sorted(folder.iterdir())[:20] if p.is_file()]
    return pages
