"""Fixture site of Persian Wikipedia, fa.wikipedia.org (MediaWiki; sites.md §10).  Encyclopedic text
written for the fixtures (not copied from Wikipedia).

Quirks reproduced: percent-encoded titles; category pages as listings whose "next page" link goes
through ``/w/index.php?title=…&pagefrom=…`` (under ``Disallow: /w/`` in robots.txt, so the spider
must fold it onto ``/wiki/<category>?pagefrom=…``); printable/oldid twins; namespace pages (Talk,
Special) linked from every page; a disambiguation page at a plain article URL whose JSON-LD still
says ``Article``; JSON-LD ``headline`` holding the Wikidata description, not the title.
"""
from __future__ import annotations

from urllib.parse import quote

from sitegen_common import Page, esc, robots

HOST = "https://fa.wikipedia.org"
NAME = "fawiki"
CATEGORY = "رده:جاذبه‌های_گردشگری_اصفهان"

# MediaWiki's wfUrlencode leaves these unescaped in /wiki/ paths.
_MW_SAFE = ";:@$!*(),/~"


def wiki(title: str) -> str:
    return f"{HOST}/wiki/{quote(title.replace(' ', '_'), safe=_MW_SAFE)}"


def wpath(title: str) -> str:
    return "/wiki/" + quote(title.replace(" ", "_"), safe=_MW_SAFE)


# (title, Wikidata description (JSON-LD headline), created, modified, paragraphs)
ARTICLES = [
    ("سی‌وسه‌پل", "پلی تاریخی بر زاینده‌رود در اصفهان", "2004-11-17T09:21:04Z", "2026-02-20T11:02:13Z",
     ["سی‌وسه‌پل یا پل الله‌وردی‌خان یکی از پل‌های تاریخی اصفهان است که در دوره صفوی بر روی زاینده‌رود ساخته شد. این پل به فرمان شاه عباس یکم و با سرپرستی الله‌وردی‌خان، سردار گرجی‌تبار او، در آغاز سده یازدهم هجری قمری بنا شد.",
      "طول پل نزدیک به سیصد متر است و نام آن از شمار دهانه‌های طبقه پایین گرفته شده است. پل دو طبقه دارد: گذرگاه اصلی در طبقه بالا قرار دارد و راهروهای طبقه پایین در فصل کم‌آبی محل گذر و نشستن مردم است.",
      "سی‌وسه‌پل علاوه بر کارکرد گذرگاهی، در دوره صفوی محل برگزاری جشن آب‌پاشان بود. در سال‌های اخیر خشک شدن زاینده‌رود در بیشتر ماه‌های سال نگرانی‌هایی درباره نشست پایه‌های پل پدید آورده است."]),
    ("زاینده‌رود", "رودی در مرکز ایران", "2004-06-02T17:44:51Z", "2026-01-11T08:15:40Z",
     ["زاینده‌رود بزرگ‌ترین رود فلات مرکزی ایران است که از دامنه‌های زردکوه در رشته‌کوه زاگرس سرچشمه می‌گیرد و پس از گذشتن از شهر اصفهان به تالاب گاوخونی می‌ریزد. درازای این رود نزدیک به چهارصد کیلومتر است.",
      "سد زاینده‌رود که در دهه چهل خورشیدی ساخته شد، بخش بزرگی از آب کشاورزی، صنعتی و آشامیدنی استان اصفهان را تأمین می‌کند. انتقال آب از سرشاخه‌های کارون به حوضه زاینده‌رود نیز از دهه‌های گذشته انجام شده است.",
      "کاهش بارش‌ها و برداشت بیش از اندازه آب سبب شده که بستر رود در شهر اصفهان بیشتر روزهای سال خشک بماند و تالاب گاوخونی با خطر نابودی روبه‌رو شود."]),
    ("میدان نقش جهان", "میدانی تاریخی در اصفهان", "2004-08-09T12:00:31Z", "2026-02-27T19:45:22Z",
     ["میدان نقش جهان یا میدان امام، میدان مرکزی شهر اصفهان است که در دوره صفوی و هم‌زمان با پایتختی اصفهان ساخته شد. این میدان در سال ۱۹۷۹ میلادی در فهرست میراث جهانی یونسکو ثبت شد.",
      "چهار بنای اصلی در چهار سوی میدان قرار دارند: مسجد شاه در جنوب، مسجد شیخ لطف‌الله در شرق، کاخ عالی‌قاپو در غرب و سردر بازار قیصریه در شمال. حجره‌های دوطبقه‌ای که گرداگرد میدان ساخته شده‌اند، امروز بیشتر محل فروش صنایع دستی‌اند.",
      "در دوره صفوی این میدان محل برگزاری بازی چوگان، رژه سپاهیان و جشن‌های عمومی بود و دروازه‌های سنگی چوگان هنوز در دو سر میدان دیده می‌شوند."]),
    ("کاخ چهلستون", "کاخی تاریخی در اصفهان", "2005-03-14T08:10:10Z", "2026-02-02T06:30:00Z",
     ["کاخ چهلستون کاخی از دوره صفوی در اصفهان است که در میان باغی بزرگ قرار دارد و برای پذیرایی از سفیران و برگزاری مراسم رسمی به کار می‌رفت. ساخت آن در زمان شاه عباس یکم آغاز شد و در دوره شاه عباس دوم به پایان رسید.",
      "ایوان کاخ بیست ستون چوبی بلند دارد که بازتاب آن‌ها در حوض بزرگ روبه‌روی ایوان، شمار ستون‌ها را چهل نشان می‌دهد و نام کاخ را از همین رو دانسته‌اند.",
      "دیوارهای تالار اصلی با نقاشی‌های بزرگی از جنگ‌ها و مهمانی‌های دربار صفوی پوشیده شده است. باغ چهلستون از جمله باغ‌های ایرانی است که در فهرست میراث جهانی یونسکو قرار گرفته‌اند."]),
]
DISAMBIG = ("چهلستون", ["کاخ چهلستون، کاخی از دوره صفوی در اصفهان", "چهلستون قزوین، عمارتی صفوی در قزوین",
                        "مسجد چهلستون، مسجدی در تهران"])
TALK = "بحث:سی‌وسه‌پل"

SIDEBAR = ["صفحهٔ اصلی", "فهرست", "مقالهٔ برگزیده", "مقالهٔ تصادفی", "رویدادهای کنونی", "تغییرات اخیر", "تماس با ویکی‌پدیا"]
FOOTER = "این صفحه آخرین‌بار در ۸ اسفند ۱۴۰۴ ساعت ۲۳:۱۵ ویرایش شده است."
LICENSE = "همهٔ نوشته‌ها تحت مجوز کریتیو کامنز اِسناد-اشتراک‌همسان در دسترس است؛ ممکن است شرایط دیگری نیز اعمال شود."
NAVBOX = "جاذبه‌های گردشگری اصفهان"
BOILERPLATE = [FOOTER, LICENSE, "تغییرات اخیر", "مقالهٔ تصادفی"]


def frame(title, jsonld, content, page_id) -> str:
    side = "\n".join(f'<li><a href="{wiki("ویکی‌پدیا:" + t)}">{esc(t)}</a></li>' for t in SIDEBAR[1:])
    return f"""<!DOCTYPE html>
<html class="client-nojs" lang="fa" dir="rtl">
<head>
<meta charset="UTF-8">
<title>{esc(title)} - ویکی‌پدیا، دانشنامهٔ آزاد</title>
<script>document.documentElement.className="client-js";RLCONF={{"wgPageName":"{esc(title.replace(' ', '_'))}","wgArticleId":{page_id},"wgNamespaceNumber":0,"wgAction":"view","wgUserLanguage":"fa","wgContentLanguage":"fa"}};RLSTATE={{"site.styles":"ready","skins.vector.styles":"ready"}};RLPAGEMODULES=["site","mediawiki.page.ready","skins.vector.js"];</script>
<link rel="stylesheet" href="/w/load.php?lang=fa&amp;modules=skins.vector.styles&amp;only=styles&amp;skin=vector-2022">
<link rel="canonical" href="{wiki(title)}">
{jsonld}
</head>
<body class="skin-vector mediawiki rtl sitedir-rtl ns-0 ns-subject page-{esc(title.replace(' ', '_'))}">
<div class="vector-header-container"><header class="vector-header mw-header">
<a href="{wiki('صفحهٔ اصلی')}" class="mw-logo"><span class="mw-logo-wordmark">ویکی‌پدیا</span></a>
<div id="p-search"><form action="/w/index.php" id="searchform"><input name="search" placeholder="جستجو در ویکی‌پدیا"></form></div>
</header></div>
<div class="mw-page-container"><div class="mw-page-container-inner">
<div class="vector-main-menu-container"><nav id="mw-panel" class="vector-main-menu"><div id="p-navigation"><ul>
<li><a href="{wiki('صفحهٔ اصلی')}">{SIDEBAR[0]}</a></li>
{side}
<li><a href="{HOST}/wiki/%D9%88%DB%8C%DA%98%D9%87:%D8%AA%D8%BA%DB%8C%DB%8C%D8%B1%D8%A7%D8%AA_%D8%A7%D8%AE%DB%8C%D8%B1">ویژه: تغییرات اخیر</a></li>
</ul></div></nav></div>
<div class="mw-content-container"><main id="content" class="mw-body">
<header class="mw-body-header vector-page-titlebar"><h1 id="firstHeading" class="firstHeading mw-first-heading"><span class="mw-page-title-main">{esc(title)}</span></h1></header>
<div class="vector-page-toolbar"><ul><li><a href="{wiki(title)}">مقاله</a></li><li><a href="{wiki('بحث:' + title)}">بحث</a></li>
<li><a href="{HOST}/w/index.php?title={quote(title.replace(' ', '_'))}&amp;action=history">نمایش تاریخچه</a></li>
<li><a href="{HOST}/w/index.php?title={quote(title.replace(' ', '_'))}&amp;printable=yes">نسخهٔ قابل چاپ</a></li></ul></div>
<div id="bodyContent" class="vector-body">
<div id="siteSub">از ویکی‌پدیا، دانشنامهٔ آزاد</div>
<div id="mw-content-text" class="mw-body-content"><div class="mw-content-rtl mw-parser-output" lang="fa" dir="rtl">
{content}
</div></div>
<div id="catlinks" class="catlinks"><div id="mw-normal-catlinks" class="mw-normal-catlinks"><a href="{wiki('ویژه:رده‌ها')}">رده‌ها</a>: <ul><li><a href="{wiki(CATEGORY)}">{NAVBOX}</a></li><li><a href="{wiki('رده:بناهای دوره صفوی')}">بناهای دوره صفوی</a></li></ul></div></div>
</div></main></div></div></div>
<footer id="footer" class="mw-footer"><ul id="footer-info"><li id="footer-info-lastmod">{FOOTER}</li>
<li id="footer-info-copyright">{LICENSE}</li></ul>
<ul id="footer-places"><li><a href="{wiki('ویکی‌پدیا:حریم خصوصی')}">سیاست حفظ حریم خصوصی</a></li><li><a href="{wiki('ویکی‌پدیا:درباره')}">درباره ویکی‌پدیا</a></li></ul></footer>
</body></html>
"""


def jsonld(title, headline, created, modified) -> str:
    return ('<script type="application/ld+json">{"@context":"https:\\/\\/schema.org","@type":"Article",'
            f'"name":"{title}","url":"{wiki(title)}","sameAs":"http:\\/\\/www.wikidata.org\\/entity\\/Q1",'
            '"author":{"@type":"Organization","name":"Contributors to Wikimedia projects"},'
            '"publisher":{"@type":"Organization","name":"Wikimedia Foundation, Inc."},'
            f'"datePublished":"{created}","dateModified":"{modified}","headline":"{headline}"}}</script>')


def article_page(a, page_id) -> Page:
    title, headline, created, modified, paras = a
    others = [x for x in ARTICLES if x is not a]
    navbox = " · ".join(f'<a href="{wiki(x[0])}">{esc(x[0])}</a>' for x in others)
    content = f"""<table class="infobox"><tr><th colspan="2">{esc(title)}</th></tr><tr><td>کشور</td><td>ایران</td></tr><tr><td>استان</td><td>اصفهان</td></tr></table>
{"".join(f"<p>{esc(p)}</p>" + chr(10) for p in paras[:1])}<div id="toc" class="toc"><div class="toctitle"><h2 id="mw-toc-heading">فهرست</h2></div><ul><li><a href="#تاریخچه">۱ تاریخچه</a></li><li><a href="#منابع">۲ منابع</a></li></ul></div>
<h2><span class="mw-headline" id="تاریخچه">تاریخچه</span><span class="mw-editsection">[<a href="{HOST}/w/index.php?title={quote(title)}&amp;action=edit&amp;section=1">ویرایش</a>]</span></h2>
{"".join(f"<p>{esc(p)}</p>" + chr(10) for p in paras[1:])}<h2><span class="mw-headline" id="منابع">منابع</span></h2>
<ol class="references"><li>دانشنامه ایرانیکا، مدخل اصفهان.</li></ol>
<table class="navbox"><tr><th>{NAVBOX}</th></tr><tr><td>{navbox}</td></tr></table>"""
    return Page(frame(title, jsonld(title, headline, created, modified), content, page_id))


def disambig_page() -> Page:
    title, lines = DISAMBIG
    items = "\n".join(f"<li>{esc(x)}</li>" for x in lines)
    content = f"""<p><b>{esc(title)}</b> ممکن است به یکی از موارد زیر اشاره داشته باشد:</p>
<ul>
{items}
</ul>
<div id="disambigbox" class="metadata plainlinks dmbox dmbox-disambig" role="note">این صفحهٔ ابهام‌زدایی فهرستی از مقاله‌های مرتبط با عنوان {esc(title)} است.</div>"""
    doc = frame(title, jsonld(title, "صفحهٔ ابهام‌زدایی ویکی‌مدیا", "2006-01-01T00:00:00Z", "2025-05-05T00:00:00Z"),
                content, 99)
    doc = doc.replace('<li><a href="' + wiki(CATEGORY) + f'">{NAVBOX}</a></li>',
                      f'<li><a href="{wiki("رده:صفحه‌های ابهام‌زدایی")}">صفحه‌های ابهام‌زدایی</a></li>')
    return Page(doc)


def talk_page() -> Page:
    return Page(frame(TALK, "", "<p>این صفحه برای بحث دربارهٔ بهبود مقالهٔ سی‌وسه‌پل است.</p>", 100))


def category_page(members, next_from: str | None, prev: bool) -> Page:
    rows = "\n".join(f'<li><a href="{wiki(t)}" title="{esc(t)}">{esc(t)}</a></li>' for t in members)
    qtitle = quote(CATEGORY)
    nav = []
    if prev:
        nav.append(f'<a href="/w/index.php?title={qtitle}&amp;pageuntil={quote(members[0])}#mw-pages">صفحهٔ قبل</a>')
    if next_from:
        nav.append(f'<a href="/w/index.php?title={qtitle}&amp;pagefrom={quote(next_from)}#mw-pages">صفحهٔ بعد</a>')
    content = f"""<p>این رده مقاله‌های مربوط به جاذبه‌های گردشگری شهر اصفهان را در بر می‌گیرد.</p>
<div id="mw-pages"><h2>صفحه‌های موجود در ردهٔ «جاذبه‌های گردشگری اصفهان»</h2>
({" | ".join(nav)})
<div class="mw-category"><ul>
{rows}
</ul></div>
({" | ".join(nav)})
</div>"""
    return Page(frame(CATEGORY, "", content, 1000))


def build():
    pages = {}
    for i, a in enumerate(ARTICLES):
        pages[wpath(a[0])] = article_page(a, 1000 + i)
    pages[wpath(DISAMBIG[0])] = disambig_page()
    pages[wpath(TALK)] = talk_page()
    a1, a2, a3, a4 = ARTICLES
    # Page 1 lists the first three members (one of them the disambiguation page); page 2 the rest.
    pages[wpath(CATEGORY)] = category_page([a1[0], DISAMBIG[0], a2[0]], next_from=a3[0], prev=False)
    # What the spider requests for "next page": /wiki/<category>?pagefrom=<title> (robots-allowed).
    pages[wpath(CATEGORY) + "?pagefrom=" + quote(a3[0]).replace("%20", "+")] = category_page(
        [a3[0], a4[0], TALK], next_from=None, prev=True)
    pages["/robots.txt"] = robots("""
# Wikipedia-style robots.txt (abridged): dynamic pages and special pages are off limits.
User-agent: *
Allow: /w/api.php?action=mobileview&
Allow: /w/load.php?
Disallow: /w/
Disallow: /api/
Disallow: /trap/
Disallow: /wiki/%D9%88%DB%8C%DA%98%D9%87:
Disallow: /wiki/ویژه:
Disallow: /wiki/Special:
""")
    expected = {
        "spider": NAME,
        "articles": [{"path": wpath(a[0]), "title": a[0], "published": a[2].replace("Z", "+00:00"),
                      "published_raw": a[2], "lead": None, "body": a[4]} for a in ARTICLES],
        "not_articles": [wpath(DISAMBIG[0]), wpath(TALK)],
        "blocked": [],
        "boilerplate": BOILERPLATE,
        "menu": SIDEBAR,
        "never_fetched": ["^/w/", "printable", "^/wiki/%D8%A8%D8%AD%D8%AB:", "^/wiki/%D9%88%DB%8C%DA%98%D9%87:"],
        "encoding": "utf-8",
    }
    return pages, expected
