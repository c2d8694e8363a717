"""Hamshahri Online (www.hamshahrionline.ir, Nastooh CMS; docs/site_notes.md §6).

Everything is data in ``mcecrawl/profiles/hamshahri.json``: the news sitemap and RSS first, the
``/archive?pi=N`` listing to back-fill, ``/news/<id>`` identity (slugs, ``/details/``, ``/amp/``
and ``/print/`` twins folded), og:type to drop video pages, and the ArvanCloud challenge markers
that turn a challenge page into a ``blocked`` record instead of an article.  Dates: the page's
``article:published_time`` is ISO (UTC), so ``published`` is filled directly.
"""
from __future__ import annotations

from mcecrawl.spiders.base import ProfileSpider


class HamshahriSpider(ProfileSpider):
    name = "hamshahri"
