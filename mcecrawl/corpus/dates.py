"""Publication dates: JSON-LD and meta first, then the visible text; Jalali and Hijri to ISO-8601.

Calendars (``calendar`` field):

* ``gregorian``: ISO strings, and day-month-year with Arabic, Levantine, Persian or Urdu month names.
* ``jalali``: the solar Hijri calendar of Iran and Afghanistan (Persian, Dari and Pashto month
  names, or numeric ``۱۴۰۲/۰۸/۱۵``), converted with jdatetime (the arithmetic Iranian calendar).
* ``hijri``: the lunar Hijri calendar as the **Umm al-Qura** tables define it (Saudi Arabia's
  official calendar; hijridate, valid 1343-1500 AH = 1924-2077 CE).  Dates announced by
  moon-sighting elsewhere (Egypt, Pakistan) can differ from it by one or two days.

A bare numeric date with a year 1300-1499 is solar on fa/ps/ur pages and lunar on ar pages (the
ranges overlap: 1402 SH and 1445 AH are both 2023); explicit markers (``هـ``, ``ه.ش``, month
names) override the language.  docs/decisions.md c.9: htmldate returns None for ``۱۴۰۲/۰۸/۱۵``.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, cast

__all__ = ["PublishedDate", "parse_date", "find_date", "extract_published", "parse_page"]

_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩", "01234567890123456789")

# Month names -> (calendar, month).  Spelling variants with/without hamza and with ي/ی are listed
# through _fold_kaf_yeh() below, so each name is written once here.
_MONTHS: dict[str, tuple[str, int]] = {}
for _cal, _names in (
    # Iranian solar months (Persian)
    ("jalali", "فروردین اردیبهشت خرداد تیر مرداد شهریور مهر آبان آذر دی بهمن اسفند"),
    # Afghan solar months (Dari; zodiac names), same calendar as Iran's
    ("jalali", "حمل ثور جوزا سرطان اسد سنبله میزان عقرب قوس جدی دلو حوت"),
    # Afghan solar months (Pashto)
    ("jalali", "وری غویی غبرگولی چنګاښ زمری وږی تله لړم لیندۍ مرغومی سلواغه کب"),
    # Lunar Hijri months (Arabic); multi-word names joined with "_" here
    ("hijri", "محرم صفر ربيع_الأول ربيع_الثاني جمادى_الأولى جمادى_الآخرة رجب شعبان رمضان شوال ذو_القعدة ذو_الحجة"),
    # Gregorian: Egyptian/Gulf Arabic, Levantine/Iraqi Arabic, Persian, Urdu
    ("gregorian", "يناير فبراير مارس أبريل مايو يونيو يوليو أغسطس سبتمبر أكتوبر نوفمبر ديسمبر"),
    ("gregorian", "كانون_الثاني شباط آذار نيسان أيار حزيران تموز آب أيلول تشرين_الأول تشرين_الثاني كانون_الأول"),
    ("gregorian", "ژانویه فوریه مارس آوریل مه ژوئن ژوئیه اوت سپتامبر اکتبر نوامبر دسامبر"),
    ("gregorian", "جنوری فروری مارچ اپریل مئی جون جولائی اگست ستمبر اکتوبر نومبر دسمبر"),
):
    for _i, _name in enumerate(_names.split(), start=1):
        _MONTHS.setdefault(_name.replace("_", " "), (_cal, _i))
# Common alternative spellings
for _alt, _canon in (("ربيع الاول", "ربيع الأول"), ("ربيع الآخر", "ربيع الثاني"), ("ربيع الاخر", "ربيع الثاني"),
                     ("جمادى الاولى", "جمادى الأولى"), ("جمادى الأول", "جمادى الأولى"),
                     ("جمادى الثانية", "جمادى الآخرة"),
                     ("جمادى الاخرة", "جمادى الآخرة"), ("ذو القعده", "ذو القعدة"), ("ذو الحجه", "ذو الحجة"),
                     ("ذي القعدة", "ذو القعدة"), ("ذي الحجة", "ذو الحجة"), ("ابريل", "أبريل"), ("اغسطس", "أغسطس"),
                     ("اكتوبر", "أكتوبر"), ("ايار", "أيار"), ("ايلول", "أيلول"), ("اذار", "آذار"),
                     ("جولای", "ژوئیه"), ("غوایی", "غویی")):
    _MONTHS.setdefault(_alt, _MONTHS[_canon])


def _fold_kaf_yeh(s: str) -> str:
    """Kaf/yeh folding for month-name lookup (pages mix ي/ی and ك/ک)."""
    return s.replace("ي", "ی").replace("ى", "ی").replace("ك", "ک")


_MONTH_LOOKUP = {_fold_kaf_yeh(k): v for k, v in _MONTHS.items()}
# Longest names first so that "ربيع الأول" wins over "ربيع"-prefixed shorter matches.
_MONTH_ALT = "|".join(re.escape(k) for k in sorted(_MONTH_LOOKUP, key=len, reverse=True))

_D = r"[0-9۰-۹٠-٩]"
# "15 آبان 1402", "١٥ ربيع الأول ١٤٤٥ هـ", "13 مايو، 2024"
_NAMED = re.compile(rf"(?<!{_D})({_D}{{1,2}})(?:\s*(?:ام|م))?\s+({_MONTH_ALT})[\s،,]+({_D}{{4}})(?!{_D})")
# "1402/08/15", "۱۴۰۲-۰۸-۱۵", "13/05/2024", "2024.05.13"
_NUMERIC = re.compile(rf"(?<!{_D})({_D}{{4}})[/\-.]({_D}{{1,2}})[/\-.]({_D}{{1,2}})(?!{_D})"
                      rf"|(?<!{_D})({_D}{{1,2}})[/\-.]({_D}{{1,2}})[/\-.]({_D}{{4}})(?!{_D})")
_TIME = re.compile(rf"({_D}{{1,2}}):({_D}{{2}})(?::({_D}{{2}}))?")
# 12-hour clock markers after a time: Arabic م/مساءً (p.m.), Persian ب.ظ (بعد از ظهر), Urdu شام.
_PM = re.compile(r"^\s*(?:م\b|مساء|ب\.?\s?ظ|بعد از ظهر|شام|PM|pm)")
_HIJRI_MARK = re.compile(r"^\s*(?:هـ|ه\.?ق|ق)")
_SOLAR_MARK = re.compile(r"^\s*(?:ه\.?ش|ش)")

# Plausible publication years per calendar (older or future dates are page furniture).
YEAR_RANGES = {"gregorian": (1990, 2100), "jalali": (1370, 1480), "hijri": (1410, 1500)}


@dataclass(frozen=True)
class PublishedDate:
    """A publication date and where it came from."""

    published: str  # ISO-8601 (date, or date-time when the source had a time)
    published_raw: str  # the string as found
    calendar: str  # "gregorian" | "jalali" | "hijri"
    source: str  # "jsonld" | "meta" | "time" | "raw" | "text"


def _to_gregorian(calendar: str, y: int, m: int, d: int) -> date | None:
    lo, hi = YEAR_RANGES[calendar]
    if not lo <= y <= hi:
        return None
    try:
        if calendar == "jalali":
            import jdatetime

            return cast(date, jdatetime.date(y, m, d).togregorian())
        if calendar == "hijri":
            from hijridate import Hijri

            return date(*Hijri(y, m, d).to_gregorian().datetuple())
        return date(y, m, d)
    except (ValueError, OverflowError):
        return None


def _lunisolar_default(lang: str | None) -> str:
    """Calendar of a bare year 1300-1499: lunar on Arabic pages, solar elsewhere (fa/ps/ur)."""
    return "hijri" if (lang or "").lower().startswith("ar") else "jalali"


def _with_time(d: date, tail: str) -> str:
    t = _TIME.search(tail[:40])
    if not t:
        return d.isoformat()
    hh, mm, ss = (int(x.translate(_DIGITS)) if x else 0 for x in t.groups())
    if hh > 23 or mm > 59 or ss > 59:
        return d.isoformat()
    if hh < 12 and _PM.match(tail[t.end():t.end() + 12]):
        hh += 12
    return datetime(d.year, d.month, d.day, hh, mm, ss).isoformat()


def _parse_iso(s: str, lang: str | None) -> tuple[str, str] | None:
    """ISO-8601 strings; a Jalali/Hijri year written in ISO form (Iranian CMSs do) is converted."""
    m = re.match(r"^\s*(\d{4})-(\d{2})-(\d{2})"
                 r"(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?)?\s*$", s)
    if not m:
        return None
    y, mo, d = (int(x) for x in m.group(1, 2, 3))
    if y >= 1900:
        try:
            return datetime.fromisoformat(s.strip().replace("Z", "+00:00")).isoformat() if m.group(4) \
                else date(y, mo, d).isoformat(), "gregorian"
        except ValueError:
            return None
    cal = _lunisolar_default(lang)
    g = _to_gregorian(cal, y, mo, d)
    if g is None:
        return None
    return (_with_time(g, s[10:]) if m.group(4) else g.isoformat()), cal


def parse_date(raw: str | None, lang: str | None = None) -> tuple[str, str] | None:
    """``(iso, calendar)`` for a date string in any supported form, or None.

    Parameters
    ----------
    raw : str
        As found in JSON-LD, a meta tag or the text (Persian/Arabic-Indic digits allowed).
    lang : str, optional
        The page's language, deciding bare years 1300-1499 (see module docstring).
    """
    if not raw or not raw.strip():
        return None
    latin = raw.translate(_DIGITS)
    iso = _parse_iso(latin, lang)
    if iso:
        return iso
    try:  # RFC 822 (RSS pubDate)
        from email.utils import parsedate_to_datetime

        return parsedate_to_datetime(latin.strip()).isoformat(), "gregorian"
    except (TypeError, ValueError, IndexError):
        pass
    found = _search(raw, lang)
    return (found[0], found[1]) if found else None


def _search(text: str, lang: str | None) -> tuple[str, str, str] | None:
    """First plausible date in ``text``: ``(iso, calendar, matched string)``."""
    folded = _fold_kaf_yeh(text)
    candidates = []
    for m in _NAMED.finditer(folded):
        cal, month = _MONTH_LOOKUP[m.group(2)]
        d, y = int(m.group(1).translate(_DIGITS)), int(m.group(3).translate(_DIGITS))
        g = _to_gregorian(cal, y, month, d)
        if g:
            candidates.append((m.start(), _with_time(g, text[m.end():]), cal, text[m.start():m.end()].strip()))
            break
    for m in _NUMERIC.finditer(folded):
        if m.group(1):
            y, mo, d = (int(x.translate(_DIGITS)) for x in m.group(1, 2, 3))
        else:
            d, mo, y = (int(x.translate(_DIGITS)) for x in m.group(4, 5, 6))
        tail = folded[m.end():m.end() + 6]
        if y >= 1900:
            cal = "gregorian"
        elif _HIJRI_MARK.match(tail):
            cal = "hijri"
        elif _SOLAR_MARK.match(tail):
            cal = "jalali"
        else:
            cal = _lunisolar_default(lang)
        g = _to_gregorian(cal, y, mo, d)
        if g:
            candidates.append((m.start(), _with_time(g, text[m.end():]), cal, text[m.start():m.end()]))
            break
    if not candidates:
        return None
    _, iso, cal, raw = min(candidates)
    return iso, cal, raw


def find_date(text: str, lang: str | None = None) -> PublishedDate | None:
    """The first date written in visible ``text`` (named months or numeric)."""
    found = _search(text or "", lang)
    return PublishedDate(found[0], found[2], found[1], "text") if found else None


def _jsonld_dates(doc: Any) -> list[str]:
    out = []
    for node in doc.xpath('//script[@type="application/ld+json"]/text()'):
        try:
            data = json.loads(node)
        except ValueError:
            continue
        stack = [data]
        while stack:
            x = stack.pop()
            if isinstance(x, list):
                stack.extend(reversed(x))
            elif isinstance(x, dict):
                if isinstance(x.get("datePublished"), str):
                    out.append(x["datePublished"])
                stack.extend(v for k, v in x.items() if k in ("@graph", "mainEntity", "mainEntityOfPage"))
    return out


# Meta tags that carry the publication date, most specific first.
_META_XPATHS = (
    '//meta[@property="article:published_time" or @name="article:published_time"]/@content',
    '//meta[@itemprop="datePublished"]/@content | //*[@itemprop="datePublished"]/@datetime',
    '//meta[@property="og:published_time" or @name="pubdate" or @name="publishdate" or @name="date"'
    ' or @name="DC.date.issued" or @name="dcterms.created" or @name="parsely-pub-date"'
    ' or @name="sailthru.date" or @name="nastooh:publishDate"]/@content',  # Nastooh: Iranian news CMS
)


def parse_page(html: str | None) -> Any:
    """The lxml document of ``html`` for :func:`extract_published`'s ``doc`` (and the archive path's
    item title); None when there is no page or lxml cannot parse it.

    Read as parsel (Scrapy's selectors) reads a page: its UTF-8 bytes, stripped, NUL characters
    dropped, by lxml's HTML parser without its size limits.  A ``str`` given to lxml whole is refused
    when the page declares its encoding in an XML declaration (an XHTML page, a feed: ValueError),
    which left such pages without their JSON-LD and meta dates."""
    if not html:
        return None
    from lxml import etree
    from lxml import html as lxml_html

    body = html.strip().replace("\x00", "").encode("utf-8", "replace") or b"<html/>"
    try:
        return etree.fromstring(body, lxml_html.HTMLParser(recover=True, encoding="utf-8", huge_tree=True))
    except (ValueError, TypeError, Exception):  # lxml raises ParserError on empty documents
        return None


def extract_published(html: str | None = None, *, text: str | None = None, raw: str | None = None,
                      lang: str | None = None, visible: bool = True, doc: Any = None) -> PublishedDate | None:
    """Publication date of a page: JSON-LD, meta, ``<time>``, a given raw string, then visible text.

    Parameters
    ----------
    html : str, optional
        The decoded page.
    text : str, optional
        Extracted main text (searched before the page's whole visible text: the page header often
        shows today's date, the article body the publication date).
    raw : str, optional
        A date string already found by the spider (``published_raw``).
    visible : bool
        Search the page's visible text last (default); False: only structured sources and ``text``.
    doc : optional
        The page already parsed (:func:`parse_page`), read instead of parsing ``html`` again; it is
        only read, never changed, so one document serves several calls.
    """
    if doc is None:
        doc = parse_page(html)
    sources: list[tuple[str, str]] = []
    if doc is not None:
        sources += [("jsonld", s) for s in _jsonld_dates(doc)]
        for xp in _META_XPATHS:
            sources += [("meta", s) for s in doc.xpath(xp)]
        sources += [("time", s) for s in doc.xpath("//time/@datetime")]
    if raw:
        sources.append(("raw", raw))
    for source, s in sources:
        parsed = parse_date(s, lang)
        if parsed:
            return PublishedDate(parsed[0], s.strip(), parsed[1], source)
    for body in (text, _visible_text(doc) if doc is not None and visible else None):
        found = find_date(body or "", lang)
        if found:
            return found
    return None


# The text nodes outside scripts, styles and noscript, from the document node down in one step: as
# ``//text()[...]`` selects them, whose steps libxml2 merges in quadratic time (a page of 20,000
# formatted blocks took 40 s).
_VISIBLE_TEXT = "/descendant::text()[not(ancestor::script or ancestor::style or ancestor::noscript)]"


def _visible_text(doc: Any) -> str:
    """Text outside scripts and styles, read without changing the tree: ``drop_tree`` re-sets the
    parent's text and lxml refuses a control character there (ValueError on real pages)."""
    parts = doc.xpath(_VISIBLE_TEXT)
    return " ".join(" ".join(parts).split())
