"""BBC World Service spiders (Persian, Arabic, Urdu, Pashto): one Simorgh platform, one base.

Everything site-specific is data in ``mcecrawl/profiles/bbc_<service>.json`` (docs/site_notes.md §1): the
news sitemap shared by all services is filtered by ``<news:language>``, CPS-shaped URLs are kept
only when the page type says "story", and the live host is crawled only with the operator's
explicit permission because BBC's terms forbid building datasets from its content.
"""
from __future__ import annotations

from mcecrawl.spiders.base import ProfileSpider


class BBCSpider(ProfileSpider):
    """Shared base of the four BBC services (all behaviour comes from the profile)."""

    # Abstract: no name, so ``scrapy list`` leaves it out (Scrapy's SpiderLoader lists only classes
    # with a true ``name``, and Spider() refuses to build one without); there is no bbc.json
    # profile.  The four services below are the spiders.
    name = ""

    def page_metadata(self, selector, page):
        meta = super().page_metadata(selector, page)
        # Simorgh titles are "<headline> - <brand>"; JSON-LD headline has no brand, <title> has.
        suffix = f" - {self.profile.site}"
        if meta.get("title") and meta["title"].endswith(suffix):
            meta["title"] = meta["title"][: -len(suffix)].strip()
        return meta


class BBCPersianSpider(BBCSpider):
    name = "bbc_persian"


class BBCArabicSpider(BBCSpider):
    name = "bbc_arabic"


class BBCUrduSpider(BBCSpider):
    name = "bbc_urdu"


class BBCPashtoSpider(BBCSpider):
    name = "bbc_pashto"
