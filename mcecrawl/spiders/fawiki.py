"""Persian Wikipedia (fa.wikipedia.org, MediaWiki; docs/site_notes.md §10).

For a full corpus prefer the dumps (dumps.wikimedia.org/fawiki); this spider walks category
listings politely.  What MediaWiki needs beyond the profile:

* URL identity: one page has many URLs (``/w/index.php?title=T``, ``&printable=yes``,
  ``&oldid=N``, the mobile host, titles with spaces or differently escaped).  They are folded onto
  ``/wiki/<Title>`` escaped as MediaWiki escapes it.  Category "next page" links go through
  ``/w/index.php?title=<Category>&pagefrom=<title>``, which robots.txt disallows; MediaWiki
  serves the same listing at ``/wiki/<Category>?pagefrom=<title>``, so that is what is requested.
* Page evidence: every main-namespace page has JSON-LD ``Article``, including disambiguation
  pages; those are recognised by their disambiguation box or category.
* Title: JSON-LD ``headline`` is the Wikidata description, not the title; ``h1#firstHeading`` is.
"""
from __future__ import annotations

from urllib.parse import parse_qsl, quote, unquote, urlencode, urljoin, urlsplit, urlunsplit

from mcecrawl.spiders.base import ProfileSpider

# Characters MediaWiki leaves unescaped in /wiki/ paths (wfUrlencode in GlobalFunctions.php).
MW_SAFE = ";:@$!*(),/~"
# index.php actions that render the page itself (anything else — edit, history, raw — is not).
VIEW_ACTIONS = ("", "view")
# Query parameters that select a listing page (category and Special:AllPages continuation).
LISTING_PARAMS = ("pagefrom", "from")
# Disambiguation pages: the {{ابهام‌زدایی}} box (Disambiguator/dmbox markup) or its category.
DISAMBIGUATION = ("#disambigbox", ".dmbox-disambig",
                  "#mw-normal-catlinks a[href*='%D8%B5%D9%81%D8%AD%D9%87%E2%80%8C%D9%87%D8%A7%DB%8C_"
                  "%D8%A7%D8%A8%D9%87%D8%A7%D9%85%E2%80%8C%D8%B2%D8%AF%D8%A7%DB%8C%DB%8C']")


def mediawiki_url(url: str) -> str:
    """``url`` with MediaWiki's aliases of the same page folded onto ``/wiki/<Title>``.

    URLs that are not page views (edit, history, diffs, load.php, ...) are returned unchanged and
    left to the profile's exclude rules.
    """
    p = urlsplit(url)
    query = parse_qsl(p.query, keep_blank_values=True)
    params = dict(query)
    if p.path in ("/w/index.php", "/index.php") and params.get("title"):
        if params.get("action", "") not in VIEW_ACTIONS or "diff" in params:
            return url
        title = params["title"]
    elif p.path.startswith("/wiki/") and len(p.path) > len("/wiki/"):
        title = unquote(p.path[len("/wiki/"):])
    else:
        return url
    path = "/wiki/" + quote(title.replace(" ", "_"), safe=MW_SAFE)
    keep = [(k, v) for k, v in query if k in LISTING_PARAMS]
    return urlunsplit((p.scheme, p.netloc, path, urlencode(keep), ""))


class FawikiSpider(ProfileSpider):
    name = "fawiki"

    def consider(self, url, base=None, listed_date=None, from_listing=False):
        if url and not url.startswith(("javascript:", "mailto:", "#")):
            url, base = mediawiki_url(urljoin(base, url) if base else url), None
        yield from super().consider(url, base, listed_date=listed_date, from_listing=from_listing)

    def not_article_reason(self, page):
        selector = page()
        for css in DISAMBIGUATION:
            if selector.css(css):
                return f"MediaWiki disambiguation page ({css.split('[')[0]})"
        return None

    def page_metadata(self, selector, page):
        meta = super().page_metadata(selector, page)
        heading = " ".join(t.strip() for t in selector.css("h1#firstHeading ::text").getall() if t.strip())
        if heading:
            meta["title"] = heading
        return meta
