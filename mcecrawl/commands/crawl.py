"""``mcecrawl crawl SPIDER [scrapy crawl options]``: ``scrapy crawl`` with mcecrawl's settings, from any directory.

The same as ``SCRAPY_SETTINGS_MODULE=mcecrawl.settings scrapy crawl SPIDER ...``: an installed package has no
``scrapy.cfg``, so Scrapy finds the project's settings through that variable (a value already set is kept).
Everything after SPIDER goes to Scrapy unchanged (``-a NAME=VALUE``, ``-s NAME=VALUE``, ``-O FILE``, ...).
Scrapy runs in this process, so Ctrl-C and SIGTERM behave exactly as with ``scrapy crawl``.
"""
from __future__ import annotations

import argparse

HELP = "scrapy crawl SPIDER with mcecrawl's settings from any directory; options after SPIDER go to Scrapy"

SETTINGS_MODULE = "mcecrawl.settings"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("spider", metavar="SPIDER",
                        help="bbc_persian, hamshahri, ..., profile (-a profile=FILE.json) or news (-a site=URL); "
                             "see README, Crawling")
    parser.add_argument("scrapy_args", nargs=argparse.REMAINDER, metavar="...",
                        help="options of scrapy crawl: -a NAME=VALUE, -s NAME=VALUE, -O FILE, -L LEVEL, ...")


def scrapy_argv(args: argparse.Namespace) -> list[str]:
    """``["scrapy", "crawl", SPIDER, ...]`` for :func:`scrapy.cmdline.execute`."""
    return ["scrapy", "crawl", args.spider, *args.scrapy_args]


def run(args: argparse.Namespace) -> int:
    import os

    os.environ.setdefault("SCRAPY_SETTINGS_MODULE", SETTINGS_MODULE)
    from scrapy.cmdline import execute

    try:
        execute(scrapy_argv(args))
    except SystemExit as exc:  # execute() always ends with sys.exit(exit code)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return 0
