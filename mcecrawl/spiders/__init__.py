"""Spiders: one per site, all on :class:`mcecrawl.spiders.base.ProfileSpider`."""
