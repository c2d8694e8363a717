"""Legacy-encoding test cases shared by tests/test_encoding.py and benchmarks/bench_encoding.py.

Real legacy-encoded R2L pages are not in public test data (../shared/data/README.md), so the
cases transcode real UTF-8 pages and short hand-written paragraphs the way legacy sites
stored them: Persian yeh/keheh mapped to their Arabic forms (windows-1256 has no Persian yeh),
characters the code page lacks written as numeric character references (as browsers do
when submitting forms).  The expected text is the legacy body decoded with its true code
page, so references stay as text.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from data_root import SHARED_DATA

HERE = Path(__file__).resolve().parent
PARAGRAPHS = HERE / "data" / "encodings"

# What legacy Arabic-script pages did before Unicode: Persian yeh and keheh -> Arabic forms.
LEGACY_FOLD = str.maketrans({"\u06cc": "\u064a", "\u06a9": "\u0643"})
# Labels as sites write them, per Python codec used to build a case.
LABEL = {"cp1256": "windows-1256", "iso8859-6": "iso-8859-6", "cp1255": "windows-1255", "iso8859-8": "iso-8859-8",
         "cp1251": "windows-1251", "iso8859-7": "iso-8859-7", "iso8859-2": "iso-8859-2", "cp1252": "windows-1252"}
# Lying labels per true codec: the UTF-8 and Latin-1 defaults of servers and templates, and
# the sibling code page of the same script.
LIES = {"cp1256": ("utf-8", "iso-8859-1", "iso-8859-6"), "iso8859-6": ("utf-8", "iso-8859-1", "windows-1256"),
        "cp1255": ("utf-8", "iso-8859-1", "iso-8859-8")}
# Scripts in their own legacy code pages, with true labels (the R2L preference must not garble them).
OTHER_SCRIPTS = {"ru": "cp1251", "el": "iso8859-7", "pl": "iso8859-2", "de": "cp1252", "fr": "cp1252"}

_META_RE = re.compile(r"<meta\b[^>]*\bcharset\s*=[^>]*>", re.I)
_XML_DECL_RE = re.compile(r"<\?xml\b[^>]*\?>", re.I)


@dataclass(frozen=True)
class Case:
    name: str  # "<page>/<codec>/<scenario>[/<lie>]"
    scenario: str  # true_labels | false_header | false_header_true_meta | false_meta | no_label
    body: bytes
    content_type: str
    expected: str
    codec: str


def paragraphs(lang: str) -> list[str]:
    return (PARAGRAPHS / f"{lang}.txt").read_text(encoding="utf-8").split("\n")


def small_page(lang: str, meta: str | None = None) -> str:
    """A short news page (0.6-1.2 KB) around the hand-written paragraphs of ``lang``; "ar+fr"
    is a bilingual page (Arabic first, French after) as Maghreb and Lebanese sites publish."""
    direction = "rtl" if lang[:2] in ("fa", "ar", "ur", "ps", "he") else "ltr"
    head = f'<meta charset="{meta}">' if meta else ""
    body = "\n".join(f"<p>{p}</p>" for part in lang.split("+") for p in paragraphs(part) if p)
    return (f'<!DOCTYPE html>\n<html lang="{lang}" dir="{direction}"><head>{head}<title>News</title>\n'
            f'<link rel="stylesheet" href="/static/site.css"></head>\n<body><nav><a href="/">Home</a> '
            f'<a href="/world">World</a></nav>\n<article>{body}</article>\n<footer>(c) 2011</footer></body></html>\n')


def heavy_page(lang: str, meta: str | None = None, size: int = 300_000, sparse: bool = False) -> str:
    """A ~300 KB page whose R2L text is a small share of the bytes: inline CSS/JS, long
    English navigation, then the article (one sentence only when ``sparse``)."""
    css = "".join(f".c{i}{{margin:{i % 7}px;padding:{i % 5}px;color:#{i * 2654435761 % 0xFFFFFF:06x}}}\n"
                  for i in range(1500))
    js = "".join(f"function f{i}(a,b){{return a*{i}+b-{i % 13};}}\n" for i in range(1500))
    nav = "".join(f'<li><a href="/news/{i}/story-{i * 7 % 1000}">Story {i}</a></li>\n' for i in range(3000))
    text = paragraphs(lang)[0].split("،")[0] if sparse else "\n".join(f"<p>{p}</p>" for p in paragraphs(lang) if p)
    head = f'<meta charset="{meta}">' if meta else ""
    page = (f'<!DOCTYPE html>\n<html lang="{lang}" dir="rtl"><head>{head}<title>News</title>\n<style>{css}</style>\n'
            f"<script>{js}</script></head>\n<body><ul>{nav}</ul>\n<article>{text}</article>\n")
    filler = '<div class="ad" data-slot="{0}"></div>\n'
    i = 0
    while len(page) < size:
        page += filler.format(i)
        i += 1
    return page + "</body></html>\n"


def legacy_bytes(html: str, codec: str) -> bytes:
    """``html`` as a legacy site stored it in ``codec``."""
    if codec in ("cp1256", "iso8859-6"):
        html = html.translate(LEGACY_FOLD)
    return html.encode(codec, errors="xmlcharrefreplace")


def with_meta(html: str, label: str | None) -> str:
    """``html`` with its charset declarations replaced by ``label`` (removed when None)."""
    html = _XML_DECL_RE.sub("", html, count=1) if html.lstrip().startswith("<?xml") else html
    if label is None:
        return _META_RE.sub("", html)
    tag = f'<meta http-equiv="Content-Type" content="text/html; charset={label}">'
    if _META_RE.search(html):
        return _META_RE.sub(lambda m: tag, html, count=1)
    return re.sub(r"<head\b[^>]*>", lambda m: m.group(0) + tag, html, count=1, flags=re.I) \
        if re.search(r"<head\b", html, re.I) else tag + html


def round_trip_cases(name: str, html: str, codec: str) -> list[Case]:
    """The issue's four cases (plus a lying header next to a true meta) for one page."""
    label = LABEL[codec]
    specs = [("true_labels", label, label, None)]
    for lie in LIES.get(codec, ()):
        specs += [("false_header", lie, None, lie), ("false_header_true_meta", lie, label, lie),
                  ("false_meta", None, lie, lie)]
    specs.append(("no_label", None, None, None))
    cases = []
    for scenario, header, meta, lie in specs:
        body = legacy_bytes(with_meta(html, meta), codec)
        ctype = f"text/html; charset={header}" if header else "text/html"
        suffix = f"/{lie}" if lie else ""
        cases.append(Case(f"{name}/{codec}/{scenario}{suffix}", scenario, body, ctype, body.decode(codec), codec))
    return cases


def shared_r2l_pages(data: Path = SHARED_DATA) -> list[tuple[str, str, str]]:
    """(id, lang, UTF-8 html) of the real pages in ../shared/data/r2l."""
    out = []
    with open(data / "r2l" / "manifest.jsonl", encoding="utf-8") as f:
        for line in f:
            if line.strip():
                rec = json.loads(line)
                html = (data / "r2l" / "pages" / f"{rec['id']}.html").read_bytes().decode("utf-8")
                out.append((rec["id"], rec["lang"], html))
    return out


def real_page_cases(data: Path = SHARED_DATA) -> list[Case]:
    """Round trips of the real pages: ar/fa/ur -> windows-1256, ar -> ISO-8859-6, he -> windows-1255."""
    cases = []
    for page_id, lang, html in shared_r2l_pages(data):
        codecs_ = {"ar": ("cp1256", "iso8859-6"), "fa": ("cp1256",), "ur": ("cp1256",), "he": ("cp1255",)}[lang]
        for codec in codecs_:
            cases += round_trip_cases(page_id, html, codec)
    return cases


def synthetic_cases() -> list[Case]:
    """Round trips of the hand-written paragraphs (no shared data needed)."""
    cases = []
    for lang in ("fa", "ar", "ur", "ps"):
        cases += round_trip_cases(f"small-{lang}", small_page(lang, "utf-8"), "cp1256")
        cases += round_trip_cases(f"heavy-{lang}", heavy_page(lang, "utf-8"), "cp1256")
        cases += round_trip_cases(f"sparse-{lang}", heavy_page(lang, "utf-8", sparse=True), "cp1256")
    for page in (small_page("ar", "utf-8"), heavy_page("ar", "utf-8")):
        cases += round_trip_cases("iso-ar" + str(len(page)), page, "iso8859-6")
    cases += round_trip_cases("small-he", small_page("he", "utf-8"), "cp1255")
    cases += round_trip_cases("bilingual-ar+fr", small_page("ar+fr", "utf-8"), "cp1256")
    return cases


def other_script_cases() -> list[Case]:
    """Russian, Greek, Polish, German, French in their own code pages, truly labelled in the
    header, the meta, or both."""
    cases = []
    for lang, codec in OTHER_SCRIPTS.items():
        label = LABEL[codec]
        for scenario, header, meta in (("true_labels", label, label), ("header_only", label, None),
                                       ("meta_only", None, label)):
            body = with_meta(small_page(lang), meta).encode(codec)
            ctype = f"text/html; charset={header}" if header else "text/html"
            cases.append(Case(f"{lang}/{codec}/{scenario}", scenario, body, ctype, body.decode(codec), codec))
    for lang in ("de", "fr"):  # the commonest Latin label, resolved to its windows-1252 superset
        body = with_meta(small_page(lang), "iso-8859-1").encode("cp1252")
        cases.append(Case(f"{lang}/cp1252/latin1_label", "true_labels", body, "text/html; charset=ISO-8859-1",
                          body.decode("cp1252"), "cp1252"))
    return cases


# UTF-16/32 without a BOM (the nul_pattern step): byte orders, pages of ASCII only, of R2L text, and with
# characters outside the BMP (surrogate pairs in UTF-16; mathematical letters, emoji, old Persian).
WIDE_CODECS = ("utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be")
NON_BMP = " \U0001d400\U0001d56b \U0001f600 \U000103a0\U000103a1 \U00010000"


def wide_cases() -> list[Case]:
    """Pages in UTF-16/32 LE/BE without a BOM and without a label (as chardet's nobom files)."""
    ascii_page = "".join(c for c in small_page("fr") if ord(c) < 128)  # French without its accents
    pages = {"ascii": ascii_page, "fa": small_page("fa"), "ar": small_page("ar"),
             "ar+non-bmp": small_page("ar").replace("</p>", NON_BMP + "</p>"),
             "ascii+non-bmp": ascii_page.replace("</p>", NON_BMP + "</p>")}
    cases = []
    for name, html in pages.items():
        for codec in WIDE_CODECS:
            body = html.encode(codec)
            cases.append(Case(f"{name}/{codec}/no_bom", "no_bom", body, "text/html", html, codec))
    return cases


def corrupted_utf8_cases(data: Path = SHARED_DATA) -> list[Case]:
    """Real UTF-8 pages with one byte broken mid-page (a lead byte overwritten), labelled
    utf-8: the expected text is UTF-8 with replacement characters, not a legacy reading."""
    cases = []
    for page_id, _lang, html in shared_r2l_pages(data):
        body = html.encode("utf-8")
        at = next(i for i in range(len(body) // 2, len(body)) if body[i] >= 0xC2)
        body = body[:at] + b"\xff" + body[at + 1:]
        cases.append(Case(f"{page_id}/utf-8/corrupted", "corrupted_byte", body, "text/html; charset=utf-8",
                          body.decode("utf-8", errors="replace"), "utf-8"))
    return cases
