"""German Embassy Tehran, Persian pages (teheran.diplo.de/ir-fa; docs/site_notes.md §11).

What the Auswärtiges Amt CMS needs beyond the profile:

* Title: pages carry screen-reader H1s ("Navigation und Service", "Willkommen auf den Seiten des
  Auswärtigen Amts") before the real ``h1.heading__title``, and ``<title>`` ends with
  " - Auswärtiges Amt"; the heading is taken.
* Date: only as "DD.MM.YYYY - <type>" in ``span.heading__meta`` (on news pages; service pages have
  none).  The date part is ``published_raw``, its ISO form ``published``.
* Page evidence: ``/-/<id>`` is also the shape of link-list hubs; a page without text in the
  rich-text body (``.c-rte--default``) is not an article.
"""
from __future__ import annotations

import re
from datetime import date

from mcecrawl.spiders.base import ProfileSpider

HEADING = "h1.heading__title ::text"
META_LINE = "span.heading__meta::text"
BODY_TEXT = ".c-rte--default ::text"
# "10.03.2026 - خبر": German day.month.year first, then the page type.
META_DATE = re.compile(r"^\s*(\d{1,2})\.(\d{1,2})\.(\d{4})\b")


def parse_meta_date(raw: str | None) -> tuple[str | None, str | None]:
    """(published_raw, ISO date) from a ``heading__meta`` line, (None, None) without a date."""
    m = META_DATE.match(raw or "")
    if not m:
        return None, None
    day, month, year = (int(x) for x in m.groups())
    try:
        iso = date(year, month, day).isoformat()
    except ValueError:
        iso = None
    return m.group(0).strip(), iso


class DiploTehranSpider(ProfileSpider):
    name = "diplo_tehran"

    def page_metadata(self, selector, page):
        meta = super().page_metadata(selector, page)
        # The heading and the date line are in the page's body, outside the signal elements.
        heading = " ".join(t.strip() for t in page().css(HEADING).getall() if t.strip())
        if heading:
            meta["title"] = heading
        raw, iso = parse_meta_date(page().css(META_LINE).get())
        if raw:
            meta["published_raw"], meta["published"] = raw, iso
        return meta

    def not_article_reason(self, page):
        if not "".join(page().css(BODY_TEXT).getall()).strip():
            return "no text body (.c-rte--default): a link-list hub or form page"
        return None
