"""URL identity and learned URL shapes of a site, for the generic news spider (no Scrapy here).

* :class:`Site`: a site is its scheme, host and port (fixture sites on 127.0.0.1 differ by port).  Its
  equivalent hosts (``www.``, ``m.``, ``mobile.``, ``amp.`` twins of the host) fold onto it, and
  :meth:`Site.canonical` gives the one URL a page is known by: percent-encoding and query order
  normalised by w3lib, tracking parameters removed, AMP/print/mobile variants folded.
* :func:`url_shapes`: a URL's path template with the variable parts abstracted (``/news/{n}``,
  ``/{yyyy}/{n}/{slug}``, ``/?p={n}``), fine (words kept) and coarse (the last word below the first
  level abstracted too: ``/category/{w}``, ``/tag/{w}``).
* :class:`ShapeLearner`: per shape, how many pages were requested, how many were articles, how
  many articles were first discovered on its pages (its *yield*), with samples.  A shape is
  admitted without limit once it has yielded an article; otherwise it gets :data:`MIN_SAMPLES`
  pages plus one per article its pages led to, so a listing that keeps finding articles keeps being
  read while a tag, author or media shape that leads nowhere stops after a few samples.  The state is
  a plain dict (JSON-able), kept in ``spider.state`` so that a ``JOBDIR`` resume keeps it.
"""
from __future__ import annotations

import re
from typing import Any, Iterable, TypedDict
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from w3lib.url import canonicalize_url

from mcecrawl.profile import TRACKING_PARAMS, param_matches

# Host prefixes of the same site: the bare/www twins and the mobile and AMP renderings
# (m.example.com, amp.example.com: common CMS conventions; Google AMP cache hosts are other sites).
EQUIVALENT_HOST_PREFIXES = ("www.", "m.", "mobile.", "amp.")
# A path segment naming another rendering of the same page, as the first or the last segment
# (/amp/123, /news/123/amp, /print/123): AMP, print and mobile variants of CMSs.
VARIANT_SEGMENTS = frozenset({"amp", "print", "mobile"})
# Query parameters that ask for such a rendering (?amp=1, ?outputType=amp, ?print=1) or that AMP
# caches append (usqp, amp_js_v).
VARIANT_PARAMS = ("amp", "outputType", "print", "printable", "usqp", "amp_js_v")
# File-name suffixes of AMP renderings (x.amp.html, x.amp).
_AMP_SUFFIX = re.compile(r"\.amp(?=\.[a-z0-9]{1,5}$|$)", re.I)
# A "%" that starts no escape (RFC 3986 section 2.1: "%" HEXDIG HEXDIG): written "%25" before w3lib reads
# the URL, else w3lib keeps it raw and decodes what follows (/%%41a -> /%Aa), which a second pass reads as
# an escape (/%AA): cleaning a cleaned URL would change it.
_STRAY_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")

# Pages a shape gets before its verdict counts: enough to see that tags, authors or a media
# section lead nowhere, few enough that they cost little (a WordPress site has ~5 such shapes:
# 15 requests).  Chosen by hand, checked on the fixture shapes of tests/spiders/test_news.py.
MIN_SAMPLES = 3
# Sample URLs kept per shape and kind for the summary.
SHAPE_SAMPLES = 3
# A literal path word (section names, "news", "tag") is at most this long; longer ones are slugs.
MAX_WORD_CHARS = 24

_WORD = re.compile(r"[A-Za-z]+")
_ALNUM = re.compile(r"[A-Za-z0-9]+")
_EXT = re.compile(r"^(.+)\.([A-Za-z0-9]{1,5})$")


def _drop_params(query: str, globs: Iterable[str]) -> str:
    """``query`` without the parameters that match ``globs``, encoded again."""
    return urlencode([(k, v) for k, v in parse_qsl(query, keep_blank_values=True) if not param_matches(k, globs)])


def _host_root(host: str) -> str:
    for prefix in EQUIVALENT_HOST_PREFIXES:
        if host.startswith(prefix) and host.count(".") >= 2:
            return host[len(prefix):]
    return host


class Site:
    """One site: ``scheme://host[:port]``, with the equivalent netlocs that fold onto it."""

    def __init__(self, url: str):
        p = urlsplit(url.strip() if "://" in url else f"https://{url.strip()}")
        if p.scheme not in ("http", "https") or not p.hostname:
            raise ValueError(f"not a site URL: {url!r}")
        self.scheme = p.scheme
        self.netloc = p.netloc.lower()
        self.host = p.hostname.lower()
        port = f":{p.port}" if p.port else ""
        root = _host_root(self.host)
        hosts = {self.host, root} | {prefix + root for prefix in EQUIVALENT_HOST_PREFIXES}
        self.netlocs = frozenset(h + port for h in hosts)
        self.url = f"{self.scheme}://{self.netloc}/"

    @property
    def key(self) -> str:
        """The site's id in items and stats: its host and port."""
        return self.netloc

    def __repr__(self) -> str:
        return f"Site({self.url!r})"

    def owns(self, url: str) -> bool:
        p = urlsplit(url)
        return p.scheme in ("http", "https") and p.netloc.lower() in self.netlocs

    def clean(self, url: str) -> str | None:
        """``url`` as it is requested: normalised by w3lib (percent-encoding, query order, no fragment),
        tracking parameters removed, on the site's own scheme and host; None when not on this site.
        Idempotent: a stray ``%`` (one that starts no escape) is escaped as ``%25`` first."""
        if not self.owns(url):
            return None
        p = urlsplit(canonicalize_url(_STRAY_PERCENT.sub("%25", url.strip())))
        return urlunsplit((self.scheme, self.netloc, p.path or "/", _drop_params(p.query, TRACKING_PARAMS), ""))

    def canonical(self, url: str) -> str | None:
        """The one URL the page at ``url`` is known by before it is fetched: :meth:`clean` with the
        AMP/print/mobile variants folded (the page's own ``rel=canonical`` decides once fetched)."""
        cleaned = self.clean(url)
        return None if cleaned is None else self.fold(cleaned)

    def fold(self, cleaned: str) -> str:
        """:meth:`canonical` of a URL that :meth:`clean` gave, ``cleaned = clean(url)``: its AMP/print/mobile
        variants folded (``canonical(url) == fold(clean(url))``; ``clean`` being idempotent,
        ``canonical(cleaned) == fold(cleaned)`` too)."""
        p = urlsplit(cleaned)
        segments = [s for s in p.path.split("/") if s]
        if segments and segments[0].lower() in VARIANT_SEGMENTS:
            segments = segments[1:]
        if segments and segments[-1].lower() in VARIANT_SEGMENTS:
            segments = segments[:-1]
        if segments:
            segments[-1] = _AMP_SUFFIX.sub("", segments[-1])
        path = "/" + "/".join(segments) + ("/" if segments and p.path.endswith("/") else "")
        return urlunsplit((p.scheme, p.netloc, path, _drop_params(p.query, VARIANT_PARAMS), ""))


def _segment_shape(segment: str) -> str:
    m = _EXT.match(segment)
    stem, ext = (m.group(1), "." + m.group(2).lower()) if m and not m.group(2).isdigit() else (segment, "")
    if stem.isdigit():
        token = "{yyyy}" if len(stem) == 4 and stem[:2] in ("19", "20") else "{n}"
    elif _WORD.fullmatch(stem) and len(stem) <= MAX_WORD_CHARS:
        token = stem.lower()
    elif _ALNUM.fullmatch(stem):
        token = "{id}"
    else:
        token = "{slug}"
    return token + ext


def url_shapes(url: str) -> tuple[str, str]:
    """``(fine, coarse)`` path templates of a canonical URL (host left out: one learner per site).

    Fine: each path segment as itself when it is a short word, else ``{n}`` (digits), ``{yyyy}``
    (a year), ``{id}`` (letters and digits), ``{slug}`` (anything else), its extension kept; query
    keys kept, values abstracted.  Coarse: the fine shape with its last word below the first level
    abstracted to ``{w}`` (``/category/sport`` and ``/category/art`` are one coarse shape)."""
    p = urlsplit(url)
    parts = [_segment_shape(s) for s in p.path.split("/") if s]
    query = sorted(parse_qsl(p.query, keep_blank_values=True))
    q = "&".join(f"{k}={{n}}" if v.isdigit() else f"{k}={{v}}" for k, v in query)
    tail = f"?{q}" if q else ""
    fine = "/" + "/".join(parts) + tail
    words = [i for i, s in enumerate(parts) if i >= 1 and _WORD.fullmatch(s)]
    if not words:
        return fine, fine
    coarse_parts = list(parts)
    coarse_parts[words[-1]] = "{w}"
    return fine, "/" + "/".join(coarse_parts) + tail


class ShapeRecord(TypedDict):
    requested: int  # pages of this shape requested
    articles: int  # of them, written as articles (status ok)
    other: int  # of them, not articles (listings, tags, errors, duplicates)
    led_to: int  # articles first discovered on pages of this shape
    article_samples: list[str]
    other_samples: list[str]


def _record() -> ShapeRecord:
    return {"requested": 0, "articles": 0, "other": 0, "led_to": 0, "article_samples": [], "other_samples": []}


def in_use(rec: ShapeRecord) -> bool:
    """Pages of the shape were requested or judged (a lookup alone makes an empty record)."""
    return bool(rec["requested"] or rec["articles"] or rec["other"])


class ShapeLearner:
    """What the pages of each URL shape of one site turned out to be (module docstring)."""

    def __init__(self, state: dict[str, Any] | None = None):
        self.shapes: dict[str, ShapeRecord] = state if state is not None else {}

    def get(self, shape: str) -> ShapeRecord:
        rec = self.shapes.get(shape)
        if rec is None:
            rec = self.shapes[shape] = _record()
        return rec

    def _deciding(self, shapes: tuple[str, str]) -> ShapeRecord:
        """The record that decides for a URL: the fine shape's, unless the fine shape is still unsampled
        and the coarse shape has been sampled without an article (then the coarse one speaks for it)."""
        fine, coarse = (self.get(s) for s in shapes)
        if fine["requested"] < MIN_SAMPLES and not coarse["articles"] and coarse["requested"] >= MIN_SAMPLES:
            return coarse
        return fine

    def kind(self, shapes: tuple[str, str]) -> str:
        """``article`` (has yielded an article), ``listing`` (led to articles), ``unknown`` (too few
        samples) or ``other`` (sampled, neither)."""
        if self.get(shapes[0])["articles"]:
            return "article"
        rec = self._deciding(shapes)
        if rec["led_to"]:
            return "listing"
        return "unknown" if rec["requested"] < MIN_SAMPLES else "other"

    def admits(self, shapes: tuple[str, str]) -> bool:
        """Request one more page of these shapes?  Always for a shape that has yielded an article."""
        if self.get(shapes[0])["articles"]:
            return True
        rec = self._deciding(shapes)
        return rec["requested"] < MIN_SAMPLES + rec["led_to"]

    def requested(self, shapes: tuple[str, str]) -> None:
        for s in set(shapes):
            self.get(s)["requested"] += 1

    def judged(self, shapes: tuple[str, str], url: str, article: bool) -> None:
        for s in set(shapes):
            rec = self.get(s)
            rec["articles" if article else "other"] += 1
            samples = rec["article_samples" if article else "other_samples"]
            if len(samples) < SHAPE_SAMPLES and url not in samples:
                samples.append(url)

    def led_to_article(self, shapes: tuple[str, str]) -> None:
        for s in set(shapes):
            self.get(s)["led_to"] += 1

    def summary(self) -> list[str]:
        """One line per fine shape that was requested, most requested first."""
        lines = []
        rows = sorted(((s, r) for s, r in self.shapes.items() if in_use(r)),
                      key=lambda kv: (-kv[1]["requested"], kv[0]))
        for shape, r in rows:
            samples = r["article_samples"] or r["other_samples"]
            lines.append(f"{shape}: {r['requested']} requested, {r['articles']} articles, {r['other']} not, "
                         f"led to {r['led_to']} articles; e.g. {', '.join(samples[:SHAPE_SAMPLES])}")
        return lines


# The regular expression of each variable part of a shape (the inverse of _segment_shape).
_TOKEN_PATTERNS = {"{n}": r"\d+", "{yyyy}": r"(?:19|20)\d\d", "{id}": r"[A-Za-z0-9]+", "{slug}": r"[^/?#]+",
                   "{w}": r"[A-Za-z]+", "{v}": r"[^&#]*"}
_TOKEN = re.compile(r"\{(?:n|yyyy|id|slug|w|v)\}")


def shape_pattern(shape: str) -> str:
    """A regular expression of the URL paths (and queries) of ``shape``, anchored at both ends, for a
    site profile's URL rules: ``/news/{n}`` -> ``/news/\\d+``; words match in any case; a trailing slash
    is optional."""
    out, pos = [], 0
    for m in _TOKEN.finditer(shape):
        out.append(re.escape(shape[pos:m.start()]))
        out.append(_TOKEN_PATTERNS[m.group()])
        pos = m.end()
    out.append(re.escape(shape[pos:]))
    path, _, query = "".join(out).partition(r"\?")
    return "(?i:" + (path.rstrip("/") or "") + "/?" + (r"\?" + query if query else "") + ")$"
