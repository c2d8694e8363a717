"""What kind of page is this: article, listing, forum, product, collection, documentation, service or other.

The judgement is made from the page itself, language-agnostically and cheaply: one regular-expression
pass over the HTML collects the tags that carry structure (paragraphs, links, headlines, list items,
tables, code, forms, time stamps) with their attributes and the text that follows them, and a few
literal searches read the page's own markup (JSON-LD ``@type``, ``og:type``, microdata ``itemtype``).
From these, a fixed vector of features — structure first (paragraph text, links with headline-length
text, linked headlines, repeated class templates, post/reply and price/spec vocabulary of the class
attributes, code blocks), the markup as evidence where present, the URL's shape (``/tag/``,
``/forum/``, ``/docs/``, a dated slug) — goes into a small multinomial logistic regression whose
weights ship as package data (``pagetype.json``, trained by ``benchmarks/train_pagetype.py`` on
WCXB's development split and checked held out by domain). No parse, no rule keyed to a site.
"""
from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np

from mcecrawl.algorithms.result import PAGE_TYPES


@dataclass(frozen=True)
class Judgement:
    page_type: str  # one of mcecrawl.algorithms.result.PAGE_TYPES
    reason: str  # short, human-readable: the evidence that decided
    confidence: float  # 0..1

    def __post_init__(self) -> None:
        if self.page_type not in PAGE_TYPES:
            raise ValueError(f"page_type must be one of {PAGE_TYPES}, not {self.page_type!r}")


MODEL_PATH = Path(__file__).with_name("pagetype.json")

# The one structural rule above the model: a page of at least LISTING_HEADLINES linked headlines
# (<h2-4><a> or <a><h2-4>) and at most LISTING_LONG_RUNS text runs of 200+ characters is a list of
# teasers, whatever the model makes of its size or vocabulary; a grid of products keeps the model's
# collection/product. Measured on the dev sets (feature counts of benchmarks/train_pagetype.py): it fires on 28
# wcxb_dev pages (27 not articles) and on 5 of 578 pages of our article sets; 10 headlines / 2 runs
# fired on 12 article-set pages, 20 / 5 on 18.
LISTING_HEADLINES = 20
LISTING_LONG_RUNS = 2

# The structural tags, each with the attributes and up to TEXT_AFTER characters of text that follow
# it; one pass of this pattern is the judgement's main cost (~250 MB/s, a few % of an extraction).
TEXT_AFTER = 300
_TAGS = ("a", "p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "pre", "code", "table", "tr", "td", "th", "dt",
         "form", "input", "button", "textarea", "select", "img", "article", "time", "blockquote", "nav", "aside")
# Tags whose mere presence is telling (one h1, a form, a code block, a table, time stamps).
COUNTED_TAGS = ("h1", "pre", "code", "table", "form", "textarea", "time", "article", "blockquote")
_TAG = re.compile(r"<(%s)(?=[\s>/])([^>]*)>([^<]{0,%d})" % ("|".join(_TAGS), TEXT_AFTER))
_JSONLD_TYPE = re.compile(r'"@type"\s*:\s*(\[[^\]]{0,200}\]|"[^"]{0,60}")')
_ITEMTYPE = re.compile(r'itemtype=["\']?https?://schema\.org/(\w+)')
_OG_TYPE = re.compile(r'og:type["\']?\s+content=["\']?([\w.:-]*)'
                      r'|content=["\']?([\w.:-]*)["\']?\s+(?:property|name)=["\']?og:type')
_CLASS = re.compile(r'class=["\']([^"\']*)')
_WORD = re.compile(r"[a-z]+")
_PRICE = re.compile(r"[$€£¥₹₽]\s?\d|\d\s?(?:€|₽|zł|kr|USD|EUR|GBP)\b")
# Text runs of at least RUN_CHARS characters between two tags (paragraphs, teasers, posts; script and
# style bodies dropped by their braces), and the markup between two runs that still keeps them in one
# region (RUN_GAP, chars): the best region's share of the page's text is what sets an article apart.
RUN_CHARS = 80
RUN_GAP = 2000
_RUN = re.compile(r">([^<]{%d,})" % RUN_CHARS)
# Literal marks of a dated, authored piece (schema.org, Open Graph, HTML ``<time>``, hAtom).
DATED = ("datePublished", "article:published_time", "<time", "author", "byline")
# The page is read up to its BODY_WINDOW-th character, a bound for pathological pages. A window of the
# first screens was measured and refused: 60,000 characters past <body> cut the judgement's cost from
# ~50 % to ~25 % of an extraction on wcxb_dev but its held-out macro-F1 from 0.726 to 0.667 and the r2l
# articles judged article from 17 to 12 of 18 (measured with the window starting at <body>; compare
# windows from the page start with benchmarks/train_pagetype.py --window N).
BODY_WINDOW = 4_000_000
# Room around an ``og:type`` mention for its ``content`` attribute, before or after it.
OG_WINDOW = 200
_URL_DATE = re.compile(r"/(?:19|20)\d\d/(?:[01]?\d/)?")

# Words of the class/id attributes that are evidence of a page type (class names are written in
# English on most sites whatever their language): posts and replies, prices and carts, teaser cards,
# code highlighting. Counted once per attribute.
CLASS_WORDS = (
    "comment", "comments", "reply", "replies", "post", "posts", "thread", "topic", "message", "author", "avatar",
    "user", "username", "vote", "votes", "answer", "question", "quote", "signature", "price", "product", "products",
    "cart", "sku", "variant", "swatch", "quantity", "qty", "rating", "review", "reviews", "stock", "buy", "card",
    "cards", "item", "items", "teaser", "excerpt", "summary", "grid", "tile", "list", "listing", "archive", "feed",
    "pagination", "pager", "highlight", "hljs", "code", "syntax", "docs", "doc", "toc", "sidebar", "breadcrumb",
    "hero", "cta", "btn", "button", "feature", "features", "pricing", "plan", "testimonial", "service", "services",
    "entry", "article", "story", "news", "byline", "date", "meta", "tag", "tags", "category", "forum", "spec",
    "specs", "specification", "collection", "filter", "sort", "wishlist", "body", "content", "prose", "markdown",
)
_CLASS_INDEX = {w: i for i, w in enumerate(CLASS_WORDS)}

# schema.org types (JSON-LD @type, microdata itemtype) grouped by the page type they are evidence of.
MARKUP_GROUPS: dict[str, tuple[str, ...]] = {
    "article": ("Article", "NewsArticle", "BlogPosting", "ReportageNewsArticle", "OpinionNewsArticle",
                "AnalysisNewsArticle", "LiveBlogPosting", "ScholarlyArticle", "Report", "Recipe",
                "BackgroundNewsArticle"),
    "product": ("Product", "ProductGroup", "IndividualProduct", "Offer", "AggregateOffer", "ProductModel"),
    "review": ("Review", "AggregateRating", "Rating"),
    "forum": ("DiscussionForumPosting", "SocialMediaPosting", "Comment", "QAPage", "InteractionCounter"),
    "qa": ("Question", "Answer"),
    "listing": ("CollectionPage", "ItemList", "SearchResultsPage", "Movie", "Event"),
    "documentation": ("TechArticle", "APIReference", "SoftwareSourceCode", "HowTo"),
    "service": ("Service", "FAQPage", "LocalBusiness", "ProfessionalService", "Course", "ContactPage", "AboutPage",
                "WebApplication", "SoftwareApplication", "Organization"),
    "webpage": ("WebPage",),
    "person": ("Person",),
}
_MARKUP_OF = {t: g for g, types in MARKUP_GROUPS.items() for t in types}
OG_TYPES = ("article", "product", "website")

# Path segments that say what a page is in any language's site (the URL shape, never a site's name).
URL_WORDS: dict[str, tuple[str, ...]] = {
    "listing": ("tag", "tags", "category", "categories", "topics", "section", "archive", "archives", "search",
                "page", "author", "authors", "news", "blog", "events", "latest", "press", "articles"),
    "forum": ("forum", "forums", "thread", "threads", "t", "questions", "q", "discussion", "discussions",
              "community", "board", "boards", "showthread", "viewtopic", "topic", "comments", "answers"),
    "product": ("product", "products", "p", "dp", "item", "shop", "store", "buy"),
    "collection": ("collections", "collection", "c", "catalog", "shop-all", "all-products", "department"),
    "documentation": ("docs", "doc", "documentation", "api", "reference", "manual", "guide", "guides", "wiki",
                      "learn", "tutorial", "tutorials", "handbook", "help", "kb", "knowledge-base", "en-us", "latest"),
    "service": ("services", "service", "solutions", "pricing", "plans", "about", "contact", "features", "programs",
                "courses", "admissions", "tuition"),
}


def _log(x: float) -> float:
    return math.log1p(x)


def _markup(html: str) -> Counter[str]:
    """Counts of the page's schema.org types by group, and its og:type."""
    groups: Counter[str] = Counter()
    if '"@type"' in html:
        for value in _JSONLD_TYPE.findall(html):
            for t in re.findall(r"\w+", value):
                if t in _MARKUP_OF:
                    groups[_MARKUP_OF[t]] += 1
    if "itemtype" in html:
        for t in _ITEMTYPE.findall(html):
            if t in _MARKUP_OF:
                groups[_MARKUP_OF[t]] += 1
    at = html.find("og:type")
    if at >= 0:
        m = _OG_TYPE.search(html[max(0, at - OG_WINDOW):at + OG_WINDOW])
        if m:
            og = (m.group(1) or m.group(2) or "").lower().split(".")[0].split(":")[0]
            groups["og:" + (og if og in OG_TYPES else "other")] += 1
    return groups


def _url_features(url: str | None) -> list[float]:
    try:
        parts = urlsplit(url or "")
    except ValueError:  # a malformed URL ("http://[bad") tells nothing: judged as if absent
        parts = urlsplit("")
    if not parts.path and not parts.hostname:
        return [0.0] * (len(URL_WORDS) + 6)
    segments = [s for s in parts.path.lower().split("/") if s]
    words = set(segments) | {s.rsplit(".", 1)[0] for s in segments}
    host_words = set(parts.hostname.split(".")[:-1]) if parts.hostname else set()
    out = [float(bool(words & set(v)) or bool(host_words & set(v))) for v in URL_WORDS.values()]
    last = segments[-1] if segments else ""
    out += [
        float(len(segments)),
        float(not segments),  # a site's home page
        float(last.count("-") + last.count("_")),  # a slug of many words: an article, a thread, a product
        float(bool(_URL_DATE.search(parts.path))),
        float(any(ch.isdigit() for ch in last) and sum(ch.isdigit() for ch in last) >= 4),  # a numeric id
        float(bool(parts.query)),
    ]
    return out


def features(html: str, url: str | None = None) -> np.ndarray:
    """The page's feature vector (see FEATURE_NAMES)."""
    tags: Counter[str] = Counter()
    class_words = [0] * len(CLASS_WORDS)
    class_values: Counter[str] = Counter()
    p_text = long_p = a_text = headline_links = short_links = 0
    linked_headlines = 0
    code_text = 0
    prev = ""
    prev_empty = False
    texts = []
    body = html[:BODY_WINDOW]
    for tag, attrs, text in _TAG.findall(body):
        tags[tag] += 1
        n = len(text.strip()) if text else 0
        if tag == "p":
            p_text += n
            long_p += n >= 80
        elif tag == "a":
            a_text += n
            if 25 <= n <= 150:
                headline_links += 1
            elif 0 < n < 25:
                short_links += 1
            if prev in ("h2", "h3", "h4") and prev_empty:
                linked_headlines += 1
        elif tag in ("h2", "h3", "h4") and prev == "a" and prev_empty:
            linked_headlines += 1
        elif tag in ("pre", "code"):
            code_text += n
        if "class=" in attrs:
            m = _CLASS.search(attrs)
            if m and m.group(1):
                class_values[m.group(1)] += 1
        if n:
            texts.append(text)
        prev, prev_empty = tag, n == 0
    # Words of each distinct class value, counted as often as the value occurs (the same counts as
    # reading every attribute, for a fraction of the work: templates repeat their class values).
    for value, count in class_values.items():
        for w in set(_WORD.findall(value.lower())):
            i = _CLASS_INDEX.get(w)
            if i is not None:
                class_words[i] += count
    markup = _markup(body)
    runs = [(m.start(), len(t)) for m in _RUN.finditer(body)
            if "{" not in (t := m.group(1)) and '":' not in t]
    run_chars = sum(n for _, n in runs)
    best = cur = clusters = 0
    end = -RUN_GAP - 1
    for start, n in runs:
        if start - end > RUN_GAP:
            clusters += 1
            cur = 0
        cur += n
        best = max(best, cur)
        end = start + n
    repeats = sorted(class_values.values(), reverse=True)
    total_tags = sum(tags.values()) or 1
    text = p_text + a_text + 1
    # Tag mixes as shares, not counts: a page's size says more about its site than its type.
    out = [tags[t] / total_tags for t in _TAGS]
    out += [float(tags[t] > 0) for t in COUNTED_TAGS]
    out += [_log(p_text), _log(long_p), _log(a_text), a_text / text, _log(headline_links), _log(short_links),
            _log(linked_headlines), _log(code_text), code_text / text,
            _log(len(_PRICE.findall(" ".join(texts))))]
    out += [_log(repeats[0] if repeats else 0), _log(repeats[4] if len(repeats) > 4 else 0),
            _log(sum(1 for c in repeats if c >= 8)), float(tags["h1"] == 1)]
    out += [_log(len(runs)), _log(sum(1 for _, n in runs if n >= 200)), _log(run_chars),
            _log(max((n for _, n in runs), default=0)), _log(best), best / (run_chars or 1), _log(clusters)]
    out += [_log(body.count(d)) for d in DATED]
    out += [_log(c) for c in class_words]
    out += [_log(markup[g]) for g in MARKUP_GROUPS] + [float(markup["og:" + o] > 0) for o in (*OG_TYPES, "other")]
    out += _url_features(url)
    return np.asarray(out, dtype=np.float64)


FEATURE_NAMES: tuple[str, ...] = (
    *(f"share_{t}" for t in _TAGS), *(f"has_{t}" for t in COUNTED_TAGS),
    "log_p_text", "log_long_p", "log_a_text", "link_text_share", "log_headline_links", "log_short_links",
    "log_linked_headlines", "log_code_text", "code_text_share", "log_prices",
    "log_top_class_repeat", "log_fifth_class_repeat", "log_classes_repeated_8", "one_h1",
    "log_runs", "log_runs_200", "log_run_chars", "log_longest_run", "log_best_region", "best_region_share",
    "log_regions", *(f"log_dated_{d.strip('<:')}" for d in DATED),
    *(f"class_{w}" for w in CLASS_WORDS),
    *(f"markup_{g}" for g in MARKUP_GROUPS), *(f"og_{o}" for o in (*OG_TYPES, "other")),
    *(f"url_{t}" for t in URL_WORDS), "url_depth", "url_home", "url_slug_words", "url_date", "url_numeric_id",
    "url_query",
)


_LINKED = FEATURE_NAMES.index("log_linked_headlines")
_RUNS_200 = FEATURE_NAMES.index("log_runs_200")


@lru_cache(maxsize=1)
def _model() -> dict[str, Any]:
    with MODEL_PATH.open(encoding="utf-8") as f:
        model = json.load(f)
    if tuple(model["features"]) != FEATURE_NAMES:
        raise RuntimeError(f"{MODEL_PATH.name} was trained on other features; rerun benchmarks/train_pagetype.py")
    return {"classes": tuple(model["classes"]), "mean": np.asarray(model["mean"]), "scale": np.asarray(model["scale"]),
            "coef": np.asarray(model["coef"]), "intercept": np.asarray(model["intercept"])}


def probabilities(x: np.ndarray) -> dict[str, float]:
    """The model's probability of each page type for the feature vector ``x``."""
    m = _model()
    z = m["coef"] @ ((x - m["mean"]) / m["scale"]) + m["intercept"]
    z = np.exp(z - z.max())
    p = z / z.sum()
    return dict(zip(m["classes"], p.tolist()))


def _evidence(x: np.ndarray, page_type: str) -> str:
    """The features that pushed hardest toward ``page_type``, for people."""
    m = _model()
    k = m["classes"].index(page_type)
    contrib = m["coef"][k] * ((x - m["mean"]) / m["scale"])
    top = np.argsort(-contrib)[:3]
    return ", ".join(f"{FEATURE_NAMES[i]}={x[i]:.3g}" for i in top if contrib[i] > 0)


def decide(x: np.ndarray, probs: dict[str, float]) -> tuple[str, str]:
    """The page type and its evidence, from the feature vector and the model's probabilities."""
    page_type = max(probs, key=probs.__getitem__)
    linked = round(math.expm1(x[_LINKED]))
    long_runs = round(math.expm1(x[_RUNS_200]))
    if linked >= LISTING_HEADLINES and long_runs <= LISTING_LONG_RUNS and page_type not in ("collection", "product"):
        return "listing", f"{linked} linked headlines, {long_runs} text runs of 200+ characters"
    return page_type, f"model p={probs[page_type]:.2f}: {_evidence(x, page_type)}"


def judge(html: str | bytes, url: str | None = None, *, tree: Any = None) -> Judgement:
    """The page type of ``html`` (fetched from ``url`` when given), with the evidence that decided.

    ``html`` may also be UTF-8 bytes. ``tree`` (an lxml root of the page) is accepted so callers
    holding one can pass it; the byte-level features do not need it.
    """
    if isinstance(html, bytes):  # a crawl's UTF-8 page, as the byte-reading extractions take it
        html = html.decode("utf-8", "replace")
    if not html or not html.strip():
        return Judgement("other", "empty page", 1.0)
    x = features(html, url)
    probs = probabilities(x)
    page_type, reason = decide(x, probs)
    # The listing rule's confidence is the model's that the page is not an article.
    confidence = probs[page_type] if reason.startswith("model") else 1.0 - probs.get("article", 0.0)
    return Judgement(page_type, reason, round(confidence, 3))
