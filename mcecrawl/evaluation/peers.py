"""Optional comparison with peer extractors on the same pages (extra ``peers`` in pyproject).

trafilatura (default and ``favor_precision``), readability-lxml, resiliparse and jusText are
never imported by the runtime package; each
adapter imports its library when first called, and :func:`available_peers` lists only those
installed, so ``mcecrawl evaluate --peers`` shows whatever the machine has.
"""
from __future__ import annotations

import importlib.util
from typing import Callable

from mcecrawl.algorithms.result import Extraction

PEER_PREFIX = "peer:"


def _trafilatura(html: str, url: str | None, lang: str | None = None) -> str:
    import trafilatura

    # Defaults except no comments section: the gold of every dataset here excludes comments.
    return trafilatura.extract(html, url=url, include_comments=False) or ""


def _trafilatura_precision(html: str, url: str | None, lang: str | None = None) -> str:
    import trafilatura

    return trafilatura.extract(html, url=url, include_comments=False, favor_precision=True) or ""


# Elements after which readability's HTML gets a line break, so that the text has one block per
# line like the gold files (HTML block-level elements that carry text).
_BLOCKS = frozenset({"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "pre", "blockquote", "tr", "br",
                     "table", "ul", "ol", "section", "article", "figcaption", "dd", "dt"})


def _readability(html: str, url: str | None, lang: str | None = None) -> str:
    import lxml.html
    from readability import Document

    summary = Document(html, url=url).summary(html_partial=True)
    if not summary.strip():
        return ""
    root = lxml.html.fromstring(summary)
    for el in root.iter():
        if isinstance(el.tag, str) and el.tag in _BLOCKS:
            el.tail = "\n" + (el.tail or "")
    lines = (" ".join(line.split()) for line in root.text_content().splitlines())
    return "\n".join(line for line in lines if line)


def _resiliparse(html: str, url: str | None, lang: str | None = None) -> str:
    from resiliparse.extract.html2text import extract_plain_text

    return extract_plain_text(html, main_content=True)


# jusText needs a stop-word list; ISO code -> its list name (jusText ships 100 lists).  A page
# whose language has no list is run language-independently (empty list, jusText's own advice).
_JUSTEXT_LISTS = {"ar": "Arabic", "fa": "Persian", "ur": "Urdu", "he": "Hebrew", "en": "English", "de": "German",
                  "fr": "French", "es": "Spanish", "it": "Italian", "pt": "Portuguese", "ru": "Russian",
                  "pl": "Polish", "el": "Greek", "id": "Indonesian", "ko": "Korean"}


def _justext(html: str, url: str | None, lang: str | None = None) -> str:
    import justext

    name = _JUSTEXT_LISTS.get((lang or "").split("-")[0].lower())
    stoplist = justext.get_stoplist(name) if name else frozenset()
    paragraphs = justext.justext(html, stoplist, **({} if name else {"stopwords_low": 0, "stopwords_high": 0}))
    return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)


# name -> (importable module that must exist, adapter)
PEERS: dict[str, tuple[str, Callable[..., str]]] = {
    "trafilatura": ("trafilatura", _trafilatura),
    "trafilatura_precision": ("trafilatura", _trafilatura_precision),
    "readability": ("readability", _readability),
    "resiliparse": ("resiliparse", _resiliparse),
    "justext": ("justext", _justext),
}


def available_peers() -> list[str]:
    """Peer names whose library is installed."""
    return [name for name, (module, _) in PEERS.items() if importlib.util.find_spec(module) is not None]


def run_peer(name: str, html: str, url: str | None = None, lang: str | None = None) -> Extraction:
    """Run peer ``name`` on decoded ``html`` (``lang``: the page's ISO code, for jusText's stop
    words); never raises (status "error" with the reason)."""
    label = PEER_PREFIX + name
    try:
        text = PEERS[name][1](html, url, lang)
    except Exception as exc:  # a peer crashing on one page is a result, not a reason to stop
        return Extraction("", (), label, status="error", reason=f"{type(exc).__name__}: {exc}")
    paragraphs = tuple(line.strip() for line in text.splitlines() if line.strip())
    if not paragraphs:
        return Extraction("", (), label, status="empty", reason="peer returned no text")
    return Extraction("\n".join(paragraphs), paragraphs, label)


__all__ = ["PEERS", "PEER_PREFIX", "available_peers", "run_peer"]
