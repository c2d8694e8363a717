"""What kind of page is this: article, listing, forum, product, collection, documentation, service or other.

The judgement is made from the page itself, language-agnostically and cheaply: one pass over the
page's UTF-8 bytes (:func:`mcecrawl.algorithms.pagescan.scan`, compiled when built) counts the tags
that carry structure (paragraphs, links, headlines, list items, tables, code, forms, time stamps),
the text that follows them and the words of their class attributes, and a few literal searches read
the page's own markup (JSON-LD ``@type``, ``og:type``, microdata ``itemtype``).
From these, a fixed vector of features — structure first (paragraph text, links with headline-length
text, linked headlines, repeated class templates, post/reply and price/spec vocabulary of the class
attributes, code blocks), the markup as evidence where present, the URL's shape (``/tag/``,
``/forum/``, ``/docs/``, a dated slug) — goes into a small multinomial logistic regression whose
weights ship as package data (``pagetype.json``, trained by ``benchmarks/train_pagetype.py`` on
WCXB's development split and checked held out by domain). A page whose ``<head>`` declares it an
article twice over (og:type and a JSON-LD article type) is taken at its word before the model
(:func:`declared_article`). No parse, no rule keyed to a site.
"""
from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import takewhile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np

from mcecrawl.algorithms.cleaning import is_blank
from mcecrawl.algorithms.pagescan import CLASS_WORDS, MARKS, TAGS, PageScan
from mcecrawl.algorithms.parse import matches_at
from mcecrawl.algorithms.profile_impl import page_scan
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

# Tags whose mere presence is telling (one h1, a form, a code block, a table, time stamps).
COUNTED_TAGS = ("h1", "pre", "code", "table", "form", "textarea", "time", "article", "blockquote")
_TAG_INDEX = {t: i for i, t in enumerate(TAGS)}
_JSONLD_TYPE = re.compile(rb'"@type"\s*:\s*(\[[^\]]{0,200}\]|"[^"]{0,60}")')
_ITEMTYPE = re.compile(rb"""itemtype=["']?https?://schema\.org/(\w+)""")
_OG_TYPE = re.compile(rb"""og:type["']?\s+content=["']?([\w.:-]*)"""
                      rb"""|content=["']?([\w.:-]*)["']?\s+(?:property|name)=["']?og:type""")
_NAME = re.compile(rb"\w+")
# _JSONLD_TYPE and _ITEMTYPE start with pagescan.ANCHORS' first two literals: each is matched at the offsets
# where the page scan found its literal (_markup, parse.matches_at).

# The page is read up to its BODY_WINDOW-th byte, a bound for pathological pages. A window of the
# first screens was measured and refused: 60,000 characters past <body> cut the judgement's cost from
# ~50 % to ~25 % of an extraction on wcxb_dev but its held-out macro-F1 from 0.726 to 0.667 and the r2l
# articles judged article from 17 to 12 of 18 (measured with the window starting at <body>; compare
# windows from the page start with benchmarks/train_pagetype.py --window N).
BODY_WINDOW = 4_000_000
# Room around an ``og:type`` mention for its ``content`` attribute, before or after it.
OG_WINDOW = 200
_URL_DATE = re.compile(r"/(?:19|20)\d\d/(?:[01]?\d/)?")

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
_MARKUP_OF = {t.encode(): g for g, types in MARKUP_GROUPS.items() for t in types}
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


_log = math.log1p
# URL_WORDS' groups as sets, built once.
_URL_WORD_SETS = tuple(frozenset(v) for v in URL_WORDS.values())


def _og_type(html: bytes, at: int) -> str | None:
    """The ``og:type`` declared around its mention at ``at`` (one of :data:`OG_TYPES`, else "other"), or
    None when no ``content`` attribute goes with it."""
    m = _OG_TYPE.search(html[max(0, at - OG_WINDOW):at + OG_WINDOW])
    if not m:
        return None
    og_type = (m.group(1) or m.group(2) or b"").lower().split(b".")[0].split(b":")[0].decode("ascii")
    return og_type if og_type in OG_TYPES else "other"


def _markup(html: bytes, anchors: tuple[tuple[int, ...], ...]) -> Counter[str]:
    """Counts of the page's schema.org types by group, and its og:type; ``anchors``: the offsets of
    each of :data:`mcecrawl.algorithms.pagescan.ANCHORS` in ``html``."""
    jsonld, itemtype, og = anchors
    groups: Counter[str] = Counter()
    for m in matches_at(_JSONLD_TYPE, html, jsonld):
        for t in _NAME.findall(m.group(1)):
            if t in _MARKUP_OF:
                groups[_MARKUP_OF[t]] += 1
    for m in matches_at(_ITEMTYPE, html, itemtype):
        if m.group(1) in _MARKUP_OF:
            groups[_MARKUP_OF[m.group(1)]] += 1
    og_type = _og_type(html, og[0]) if og else None
    if og_type:
        groups["og:" + og_type] += 1
    return groups


def declared_article(html: bytes, anchors: tuple[tuple[int, ...], ...]) -> str | None:
    """Why the page's ``<head>`` declares it an article twice over, or None: its og:type is "article"
    (:func:`_og_type` of its first mention, as the features read it) and its JSON-LD there names one
    of the schema.org article types (:data:`MARKUP_GROUPS`); ``anchors`` as :func:`_markup`'s.

    Both in the head: there they describe the page itself, while markup in the body describes what
    the page holds -- a forum's posts as an ``ItemList`` of ``Article``, related-news cards as
    ``NewsArticle`` microdata -- and Open Graph is read from the head (its protocol puts ``og:type``
    in a ``<meta>`` there): before the page's first ``</head`` (lower case, as the scan's literals are).  wcxb_dev
    (docs/history.md, "A page that declares itself an article"): 171 pages declare so, 169 of them
    articles and 2 service pages, neither of which its typed reading served better.
    """
    jsonld, _, og = anchors
    if not og or _og_type(html, og[0]) != "article":
        return None
    in_head = _HeadBound(html)
    if not in_head(og[0]):
        return None
    for m in matches_at(_JSONLD_TYPE, html, takewhile(in_head, jsonld)):
        for t in _NAME.findall(m.group(1)):
            if _MARKUP_OF.get(t) == "article":
                return f"declared in its head: og:type article, JSON-LD {t.decode('ascii')}"
    return None


class _HeadBound:
    """``in_head(at)``: whether offset ``at`` of the page (ascending offsets) lies before its first
    ``</head``, searched only as far as asked: a head of inline scripts can be a megabyte long, and the
    marks of a page that declares itself are near its start."""

    def __init__(self, html: bytes) -> None:
        self.html, self.searched, self.end = html, 0, -1

    def __call__(self, at: int) -> bool:
        if self.end < 0 and at > self.searched:
            self.end, self.searched = self.html.find(b"</head", self.searched, at), at
        return self.end < 0 or at < self.end


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
    out = [float(bool(words & v) or bool(host_words & v)) for v in _URL_WORD_SETS]
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


def declaration(html: str | bytes) -> str | None:
    """:func:`declared_article` of a page (``str``, or its UTF-8 bytes), as :func:`judge` reads it."""
    body = _window(html)
    return declared_article(body, page_scan(body).anchors)


def _window(html: str | bytes) -> bytes:
    """The UTF-8 bytes of the page up to :data:`BODY_WINDOW`: what the judgement reads."""
    return bytes((html.encode("utf-8", "surrogatepass") if isinstance(html, str) else html)[:BODY_WINDOW])


def features(html: str | bytes, url: str | None = None) -> np.ndarray:
    """The page's feature vector (see FEATURE_NAMES); ``html`` is the page or its UTF-8 bytes."""
    body = _window(html)
    return _features(body, page_scan(body), url)


def _features(body: bytes, s: PageScan, url: str | None) -> np.ndarray:
    markup = _markup(body, s.anchors)
    total_tags = sum(s.tags) or 1
    text = s.p_text + s.a_text + 1
    # Tag mixes as shares, not counts: a page's size says more about its site than its type.
    out = [n / total_tags for n in s.tags]
    out += [float(s.tags[_TAG_INDEX[t]] > 0) for t in COUNTED_TAGS]
    out += [_log(s.p_text), _log(s.long_p), _log(s.a_text), s.a_text / text, _log(s.headline_links),
            _log(s.short_links), _log(s.linked_headlines), _log(s.code_text), s.code_text / text, _log(s.prices)]
    out += [_log(s.top_class_repeat), _log(s.fifth_class_repeat), _log(s.classes_repeated),
            float(s.tags[_TAG_INDEX["h1"]] == 1)]
    out += [_log(s.runs), _log(s.long_runs), _log(s.run_chars), _log(s.longest_run), _log(s.best_region),
            s.best_region / (s.run_chars or 1), _log(s.regions)]
    out += map(_log, s.marks)
    out += map(_log, s.class_words)
    out += [_log(markup[g]) for g in MARKUP_GROUPS] + [float(markup["og:" + o] > 0) for o in (*OG_TYPES, "other")]
    out += _url_features(url)
    return np.asarray(out, dtype=np.float64)


FEATURE_NAMES: tuple[str, ...] = (
    *(f"share_{t}" for t in TAGS), *(f"has_{t}" for t in COUNTED_TAGS),
    "log_p_text", "log_long_p", "log_a_text", "link_text_share", "log_headline_links", "log_short_links",
    "log_linked_headlines", "log_code_text", "code_text_share", "log_prices",
    "log_top_class_repeat", "log_fifth_class_repeat", "log_classes_repeated_8", "one_h1",
    "log_runs", "log_runs_200", "log_run_chars", "log_longest_run", "log_best_region", "best_region_share",
    "log_regions", *(f"log_dated_{d.strip('<:')}" for d in MARKS),
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
        raise RuntimeError(f"{MODEL_PATH.name} was trained on other features: "
                           "rerun benchmarks/train_pagetype.py --write")
    return as_arrays(model)


def as_arrays(model: dict[str, Any]) -> dict[str, Any]:
    """A model as ``pagetype.json`` stores it (lists), with numpy arrays for its weights."""
    return {"classes": tuple(model["classes"]), "mean": np.asarray(model["mean"]), "scale": np.asarray(model["scale"]),
            "coef": np.asarray(model["coef"]), "intercept": np.asarray(model["intercept"])}


def probabilities(x: np.ndarray) -> dict[str, float]:
    """The model's probability of each page type for the feature vector ``x``."""
    m = _model()
    z = m["coef"] @ ((x - m["mean"]) / m["scale"]) + m["intercept"]
    z = np.exp(z - z.max())
    p = z / z.sum()
    return dict(zip(m["classes"], p.tolist()))


def _evidence(x: np.ndarray, page_type: str, model: dict[str, Any] | None = None) -> str:
    """The features that pushed hardest toward ``page_type`` in ``model`` (:func:`as_arrays`; the
    shipped one by default), for people."""
    m = model or _model()
    k = m["classes"].index(page_type)
    contrib = m["coef"][k] * ((x - m["mean"]) / m["scale"])
    top = np.argsort(-contrib)[:3]
    return ", ".join(f"{FEATURE_NAMES[i]}={x[i]:.3g}" for i in top if contrib[i] > 0)


def decide(x: np.ndarray, probs: dict[str, float], model: dict[str, Any] | None = None) -> tuple[str, str]:
    """The page type and its evidence, from the feature vector and the probabilities of ``model``
    (:func:`as_arrays`; the shipped one by default: a model being trained is read as itself)."""
    page_type = max(probs, key=probs.__getitem__)
    linked = round(math.expm1(x[_LINKED]))
    long_runs = round(math.expm1(x[_RUNS_200]))
    if linked >= LISTING_HEADLINES and long_runs <= LISTING_LONG_RUNS and page_type not in ("collection", "product"):
        return "listing", f"{linked} linked headlines, {long_runs} text runs of 200+ characters"
    return page_type, f"model p={probs[page_type]:.2f}: {_evidence(x, page_type, model)}"


def judge(html: str | bytes, url: str | None = None, *, tree: Any = None) -> Judgement:
    """The page type of ``html`` (fetched from ``url`` when given), with the evidence that decided.

    ``html`` may also be UTF-8 bytes (a crawl's page, read as it is). ``tree`` (an lxml root of the
    page) is accepted so callers holding one can pass it; the byte-level features do not need it.
    A page whose head declares it an article (:func:`declared_article`) is one, with confidence 1;
    the model judges the others.
    """
    if is_blank(html):
        return Judgement("other", "empty page", 1.0)
    body = _window(html)
    s = page_scan(body)
    declared = declared_article(body, s.anchors)
    if declared:  # the page's own word, twice over: no model needed
        return Judgement("article", declared, 1.0)
    x = _features(body, s, url)
    probs = probabilities(x)
    page_type, reason = decide(x, probs)
    return Judgement(page_type, reason, confidence(page_type, reason, probs))


def confidence(page_type: str, reason: str, probs: dict[str, float]) -> float:
    """A decision's confidence (:func:`decide`), to three decimals: the model's probability of the type;
    the listing rule's is the model's that the page is not an article."""
    return round(probs[page_type] if reason.startswith("model") else 1.0 - probs.get("article", 0.0), 3)
