"""Jame Jam Online (jamejamonline.ir, IranSamaneh-family CMS; docs/site_notes.md §7).

Site knowledge is in ``mcecrawl/profiles/jamejam.json`` (RSS + archive listing, no sitemap is
known; ``/fa/news/<id>`` identity with the ``www.`` alias and slugs folded; og:type drops photo
galleries; ArvanCloud markers report challenge pages as ``blocked``).

What the profile cannot say: the page's only date, ``article:published_time``, is Jalali with
Persian digits ("۱۴۰۴/۱۲/۱۱ - ۰۹:۳۰").  It is kept as ``published_raw``; ``published`` is filled
with the corpus stage's own converter (:func:`mcecrawl.corpus.dates.parse_date`, the same result
the corpus pipeline writes) so that ``-a since=`` also works on pages found through listings.
"""
from __future__ import annotations

from mcecrawl.spiders.base import ProfileSpider


class JamejamSpider(ProfileSpider):
    name = "jamejam"

    def page_metadata(self, selector, page):
        meta = super().page_metadata(selector, page)
        if meta.get("published") is None and meta.get("published_raw"):
            from mcecrawl.corpus.dates import parse_date

            parsed = parse_date(meta["published_raw"], self.profile.lang)
            if parsed:
                meta["published"] = parsed[0]
        return meta
