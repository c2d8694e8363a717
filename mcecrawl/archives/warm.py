"""Warm-up of a ``from-warc`` worker, done once in the parent's forkserver before it forks the
workers (``multiprocessing``'s ``set_forkserver_preload`` imports this module): every module the page
path imports and the language model are then in the forkserver's memory, and each worker forked
from it starts with them (copy-on-write) instead of paying ~2 s of imports and model loading
(py3langid's model alone: an xz-compressed array, ~1.4 s to load here).

Importing this module does that work; nothing else imports it.
"""
from __future__ import annotations

from mcecrawl.archives.pages import PageConfig, PageMaker
from mcecrawl.archives.reader import Record

__all__ = ["warm_up"]

# A page that goes through every phase (prefilter, decode, extraction, language, text_norm, dates).
_PAGE = ("<html><head><meta charset='utf-8'><title>خبر</title></head><body><article><h1>خبر</h1>"
         + "<p>وزارت امور خارجه روز دوشنبه اعلام کرد که گفت‌وگوها هفته آینده ادامه خواهد یافت.</p>" * 4
         + "</article></body></html>").encode("utf-8")


def warm_up() -> None:
    """Import what a page needs and load the language model by making one page."""
    maker = PageMaker(PageConfig(langs=None))
    maker.make(Record(warc="", offset=0, record_id="<urn:warm-up>", url="http://warm-up.invalid/1",
                      date="2000-01-01T00:00:00Z", status=200, content_type="text/html; charset=utf-8", body=_PAGE))


warm_up()
