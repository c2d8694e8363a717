"""Jame Jam Online (jamejamonline.ir, IranSamaneh-family CMS; ../shared/notes/sites.md §7).

All site knowledge is in ``mcecrawl/profiles/jamejam.json`` (RSS + archive listing, no sitemap
is known; ``/fa/news/<id>`` identity with the ``www.`` alias and slugs folded; og:type drops photo
galleries; ArvanCloud markers report challenge pages as ``blocked``).  The page's
``article:published_time`` is Jalali with Persian digits ("۱۴۰۴/۱۲/۱۱ - ۰۹:۳۰"): it is kept as
``published_raw`` and ``published`` stays empty until the corpus stage converts Jalali dates.
"""
from __future__ import annotations

from mcecrawl.spiders.base import ProfileSpider


class JamejamSpider(ProfileSpider):
    name = "jamejam"
