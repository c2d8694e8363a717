"""Spiders: one per site on :class:`mcecrawl.spiders.base.ProfileSpider`, and the generic
:class:`mcecrawl.spiders.news.NewsSpider` for any site without a profile."""
