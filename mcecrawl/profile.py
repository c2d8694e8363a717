"""Site profiles: everything a crawl needs to know about one site, as data.

A profile is ``mcecrawl/profiles/<spider_name>.json`` (JSON Schema:
``mcecrawl/schema/profile.schema.json``).  A new R2L news site needs a profile and, usually, a
three-line spider (``class X(ProfileSpider): name = "x"``).  Keys::

    name            spider name (= file stem)
    site            human-readable site name, written into every item ("site_name"; "site" is ``name``)
    lang            declared language (ISO 639-1: fa, ar, ur, ps)
    live_hosts      hosts of the live site; with ``-a base_url=`` they are all mapped onto the mirror,
                    and the mirror's host is mapped back to ``canonical.host`` for identity
    entry_points    {"sitemaps": [...], "news_sitemaps": [...], "feeds": [...], "listings": [...]}:
                    absolute live URLs.  Sitemap indexes are followed when a child matches
                    "sitemap_follow" (regexes; all children when absent).  News sitemaps may be
                    filtered by "news_language" (the <news:language> value).
    pagination      {"pattern": regex of listing-page URLs to follow, "max_pages": int}
    articles        [{"pattern": regex, "evidence": "required" | "veto" | "unambiguous"}]: article URL
                    rules, matched on the canonical live URL.  "required": fetch, then keep only with
                    positive page evidence (ambiguous URL shapes); "veto" (default): keep unless an
                    explicit non-article type is the page's main entity; "unambiguous": the URL shape
                    alone says article, no page evidence is read; "evidence": markup decides where the
                    page has it, else the page's own content as its extraction shows it (an article's
                    prose, not a list of teasers; ``mcecrawl.spiders.evidence.article_verdict``), for
                    sites whose articles carry no markup.
    exclude         [regex]: never fetched (media, live pages, static files)
    evidence        site-specific page-evidence rules on top of the built-in schema.org/Open Graph
                    ones (``mcecrawl.spiders.evidence.page_evidence``): {"script_json": {"selector": css,
                    "path": "a.b.c", "values": [article page types], "not_values": [non-article
                    page types]}, "jsonld_types": [...], "og_types": [...] (more article types),
                    "not_jsonld_types": [...], "not_og_types": [...] (more explicit non-article types)}
    canonical       {"scheme": "https", "host": "www.example.com", "rewrites": [[regex, repl], ...],
                     "strip_params": [glob, ...], "keep_params": [name, ...] (listing pagination)}
    extraction      {"algorithm": "scored_regions", "params": {...}}  (rewritten by ``mcecrawl tune``)
    politeness      {"download_delay": seconds, "concurrency": per-domain requests}
    terms           {"forbids": ["crawling", "dataset-building", ...], "source": url, "note": text}:
                    with a non-empty "forbids" the live host is crawled only when the operator sets
                    ``MCE_PERMISSION_GRANTED`` to the spider name or a live host's domain.
    blocked_markers [str]: substrings of anti-bot challenge pages (case-insensitive)
    encoding        optional charset forced for every response of the site (the spider's
                    ``mce_encoding``, read by the encoding middleware); detection decides otherwise
    signals_in_head true when JSON-LD/og:/meta sit in <head> (Simorgh): the spider then parses only
                    the head for evidence and metadata, and the page's signal elements (JSON-LD, meta,
                    time, h1, title anywhere) only when that finds none; false: the signal elements
    learned         written by ``mcecrawl new-site`` (schema 1.1): the URL shapes the generic news spider
                    learned on its probe, with counts and samples; informative, not read by a crawl

All URL rules are written against *live* URLs, so the same profile works unchanged on a mirror or
on the bundled fixture site.
"""
from __future__ import annotations

import fnmatch
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from mcecrawl.algorithms import DEFAULT_ALGORITHM

PROFILES_DIR = Path(__file__).resolve().parent / "profiles"
SCHEMA_PATH = Path(__file__).resolve().parent / "schema" / "profile.schema.json"

# Query parameters that only track campaigns (docs/decisions.md feature 16; BBC's RSS adds at_medium /
# at_campaign, docs/site_notes.md §1.1).  Applied on every site on top of the profile's own list.
TRACKING_PARAMS = ("utm_*", "at_*", "fbclid", "gclid", "ocid", "mc_cid", "mc_eid", "ref", "xtor", "cmpid")

# Challenge pages are small (Targoman's Arvan detector looks at short responses, docs/site_notes.md §0.4);
# their marker text sits well within the first 64 KB.
BLOCKED_SCAN_CHARS = 65_536

# Evidence outcomes.
ARTICLE, NOT_ARTICLE, NO_SIGNAL = "article", "not-article", "no-signal"
# Article rule evidence levels (see ``articles`` in the module docstring).
REQUIRED, VETO, UNAMBIGUOUS, EVIDENCE = "required", "veto", "unambiguous", "evidence"


@dataclass(frozen=True)
class ArticleRule:
    pattern: re.Pattern
    evidence: str = "veto"  # "required" | "veto" | "unambiguous" | "evidence"


@dataclass
class Profile:
    """A loaded, compiled site profile (see the module docstring for the keys)."""

    name: str
    site: str
    lang: str
    live_hosts: tuple[str, ...]
    entry_points: dict[str, list[str]]
    articles: tuple[ArticleRule, ...]
    exclude: tuple[re.Pattern, ...] = ()
    sitemap_follow: tuple[re.Pattern, ...] = ()
    news_language: str | None = None
    pagination: re.Pattern | None = None
    max_listing_pages: int = 50
    evidence: dict[str, Any] = field(default_factory=dict)
    canonical: dict[str, Any] = field(default_factory=dict)
    extraction: dict[str, Any] = field(default_factory=lambda: {"algorithm": DEFAULT_ALGORITHM, "params": {}})
    politeness: dict[str, Any] = field(default_factory=dict)
    terms: dict[str, Any] = field(default_factory=dict)
    blocked_markers: tuple[str, ...] = ()
    signals_in_head: bool = False
    raw: dict[str, Any] = field(default_factory=dict, repr=False)
    path: Path | None = None

    # -- URL identity -------------------------------------------------------------------------
    @property
    def canonical_host(self) -> str:
        return self.canonical.get("host") or self.live_hosts[0]

    def canonicalize(self, url: str) -> str:
        """The one live URL an article or listing is known by (AMP/lite variants, aliases and
        tracking parameters folded), so that each page is fetched and written once."""
        parts = urlsplit(url.strip())
        host = (parts.hostname or "").lower()
        if host in self.live_hosts:
            host = self.canonical_host
        scheme = self.canonical.get("scheme", "https") if host == self.canonical_host else parts.scheme
        netloc = host if host == self.canonical_host else parts.netloc.lower()
        strip = tuple(self.canonical.get("strip_params", ())) + TRACKING_PARAMS
        keep = set(self.canonical.get("keep_params", ()))
        query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
                 if (k in keep or not keep and not param_matches(k, strip))]
        path = parts.path or "/"
        if len(path) > 1:
            path = path.rstrip("/")
        url = urlunsplit((scheme, netloc, path, urlencode(sorted(query)), ""))
        for pattern, repl in self._rewrites:
            url = pattern.sub(repl, url)
        return url

    @property
    def _rewrites(self) -> list[tuple[re.Pattern, str]]:
        cached = self.__dict__.get("_rewrites_cache")
        if cached is None:
            cached = [(re.compile(p), r) for p, r in self.canonical.get("rewrites", ())]
            self.__dict__["_rewrites_cache"] = cached
        return cached

    def is_live(self, url: str) -> bool:
        return (urlsplit(url).hostname or "").lower() in self.live_hosts

    # -- classification ------------------------------------------------------------------------
    def article_rule(self, canonical_url: str) -> ArticleRule | None:
        """The article rule matching a canonical live URL, or None."""
        if any(p.search(canonical_url) for p in self.exclude):
            return None
        for rule in self.articles:
            if rule.pattern.search(canonical_url):
                return rule
        return None

    def is_pagination(self, canonical_url: str) -> bool:
        return bool(self.pagination and self.pagination.search(canonical_url))

    def is_blocked_page(self, text: str) -> str | None:
        """The anti-bot marker found in the first :data:`BLOCKED_SCAN_CHARS` of ``text``
        (case-insensitive), or None."""
        if not self.blocked_markers:
            return None
        pattern = self.__dict__.get("_blocked_re")
        if pattern is None:
            pattern = re.compile("|".join(re.escape(m) for m in self.blocked_markers), re.I)
            self.__dict__["_blocked_re"] = pattern
        m = pattern.search(text, 0, BLOCKED_SCAN_CHARS)
        if not m:
            return None
        found = m.group().lower()
        return next(x for x in self.blocked_markers if x.lower() == found)

    def forbids(self) -> tuple[str, ...]:
        return tuple(self.terms.get("forbids", ()))

    def permission_granted(self, granted: Iterable[str]) -> bool:
        """True when one of the operator's ``MCE_PERMISSION_GRANTED`` entries names this spider or
        the registrable tail of a live host (``bbc.com`` grants ``www.bbc.com``)."""
        for g in (x.strip().lower() for x in granted):
            if not g:
                continue
            if g == self.name or any(h == g or h.endswith("." + g) for h in self.live_hosts):
                return True
        return False


def param_matches(name: str, globs: Iterable[str]) -> bool:
    """Query parameter ``name`` matches one of the fnmatch patterns ``globs`` (case-sensitive)."""
    return any(fnmatch.fnmatchcase(name, g) for g in globs)


def _compile_all(patterns: Iterable[str]) -> tuple[re.Pattern, ...]:
    return tuple(re.compile(p) for p in patterns)


def profile_path(name_or_path: str | Path) -> Path:
    p = Path(name_or_path)
    if p.suffix == ".json" and p.exists():
        return p
    return PROFILES_DIR / f"{name_or_path}.json"


def load_profile(name_or_path: str | Path) -> Profile:
    """Load and validate ``mcecrawl/profiles/<name>.json`` (or a path to a profile file)."""
    path = profile_path(name_or_path)
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    validate_profile(data)
    return profile_from_dict(data, path=path)


def validate_profile(data: dict) -> None:
    """Raise ``ValueError`` with every problem when ``data`` does not follow the profile schema."""
    try:
        import jsonschema
    except ImportError:  # optional: the loader below still checks the required keys
        missing = [k for k in ("name", "site", "lang", "live_hosts", "entry_points", "articles") if k not in data]
        if missing:
            raise ValueError(f"profile lacks {missing}") from None
        return
    with open(SCHEMA_PATH, encoding="utf-8") as f:
        schema = json.load(f)
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(data), key=lambda e: list(e.path))
    if errors:
        msg = "; ".join(f"{'/'.join(map(str, e.path)) or '<root>'}: {e.message}" for e in errors)
        raise ValueError(f"invalid profile {data.get('name', '?')}: {msg}")


def profile_from_dict(data: dict, path: Path | None = None) -> Profile:
    pagination = data.get("pagination") or {}
    return Profile(
        name=data["name"],
        site=data["site"],
        lang=data["lang"],
        live_hosts=tuple(h.lower() for h in data["live_hosts"]),
        entry_points={k: list(v) for k, v in data["entry_points"].items()},
        articles=tuple(ArticleRule(re.compile(a["pattern"]), a.get("evidence", "veto")) for a in data["articles"]),
        exclude=_compile_all(data.get("exclude", ())),
        sitemap_follow=_compile_all(data.get("sitemap_follow", ())),
        news_language=data.get("news_language"),
        pagination=re.compile(pagination["pattern"]) if pagination.get("pattern") else None,
        max_listing_pages=int(pagination.get("max_pages", 50)),
        evidence=dict(data.get("evidence", {})),
        canonical=dict(data.get("canonical", {})),
        extraction=dict(data.get("extraction", {"algorithm": DEFAULT_ALGORITHM, "params": {}})),
        politeness=dict(data.get("politeness", {})),
        terms=dict(data.get("terms", {})),
        blocked_markers=tuple(data.get("blocked_markers", ())),
        signals_in_head=bool(data.get("signals_in_head", False)),
        raw=data,
        path=path,
    )
