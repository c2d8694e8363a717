"""Reuters Arabic (ara.reuters.com, 2011-2014 platform; docs/site_notes.md §9).

The one thing the profile cannot say: article pages of this era carry their date only as
``<meta name="REVISION_DATE" content="Wed Jul 09 08:12:34 UTC 2014">`` (Java ``Date.toString``
format, ftr-site-config's reuters.com rules), which this spider turns into ISO-8601.
"""
from __future__ import annotations

from datetime import datetime, timezone

from mcecrawl.spiders.base import ProfileSpider

# java.util.Date.toString(): "EEE MMM dd HH:mm:ss zzz yyyy"; Reuters writes the zone as UTC/GMT.
REVISION_DATE_FORMAT = "%a %b %d %H:%M:%S %Y"
UTC_ZONES = ("UTC", "GMT")


def parse_revision_date(raw: str | None) -> str | None:
    """ISO-8601 of a REVISION_DATE value, or None when it is not in the Java format with a UTC zone."""
    parts = (raw or "").split()
    if len(parts) != 6 or parts[4] not in UTC_ZONES:
        return None
    try:
        when = datetime.strptime(" ".join(parts[:4] + parts[5:]), REVISION_DATE_FORMAT)
    except ValueError:
        return None
    return when.replace(tzinfo=timezone.utc).isoformat()


class ReutersArabicSpider(ProfileSpider):
    name = "reuters_arabic"

    def page_metadata(self, selector, page):
        meta = super().page_metadata(selector, page)
        if not meta.get("published_raw"):
            raw = selector.css('meta[name="REVISION_DATE"]::attr(content)').get()
            if raw:
                meta["published_raw"] = raw.strip()
                meta["published"] = parse_revision_date(raw)
        return meta
