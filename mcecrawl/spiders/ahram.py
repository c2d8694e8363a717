"""Bawabat al-Ahram (gate.ahram.org.eg, ASP.NET WebForms; docs/site_notes.md §8).

Site knowledge is in ``mcecrawl/profiles/ahram.json``.  Two quirks are handled generically:
pages resolve relative links against ``<base href>`` (the base spider joins listing links with
the page's base URL), and pages may carry no charset at all or a wrong one in the HTTP header
(the encoding middleware decodes them; the item records how).
"""
from __future__ import annotations

from mcecrawl.spiders.base import ProfileSpider


class AhramSpider(ProfileSpider):
    name = "ahram"
