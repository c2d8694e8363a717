"""Fixture site of Hamshahri Online (Nastooh CMS; sites.md §6).  Article text written for the fixtures."""
from __future__ import annotations

from sitegen_common import INLINE_JS, Page, arvan_challenge, esc, paragraphs_html, robots, rss, sitemap

HOST = "https://www.hamshahrionline.ir"
NAME = "hamshahri"

# (id, slug, service path, section label, ISO UTC, Jalali text as in div.item-date, kicker, title, lead, paragraphs)
ARTICLES = [
    (1074101, "خط-هفت-مترو-تهران", "/service/City", "شهری", "2026-03-02T06:40:00Z", "دوشنبه ۱۱ اسفند ۱۴۰۴ - ۱۰:۱۰",
     "حمل‌ونقل عمومی",
     "خط هفت مترو تهران تا پایان سال به ایستگاه بسیج می‌رسد",
     "مدیرعامل شرکت راه‌آهن شهری تهران از بهره‌برداری دو ایستگاه تازه در خط هفت مترو تا پایان اسفند خبر داد و گفت با ورود قطارهای جدید، فاصله حرکت قطارها در ساعت اوج به پنج دقیقه کاهش می‌یابد.",
     ["به گزارش همشهری، عملیات ریل‌گذاری و نصب تجهیزات برقی در دو ایستگاه پایانی خط هفت مترو تهران وارد مرحله آخر شده است. بر اساس برنامه اعلام‌شده، این دو ایستگاه پیش از تعطیلات نوروز به روی مسافران باز می‌شوند و ساکنان محله‌های جنوب شرقی پایتخت می‌توانند بدون تعویض خط به مرکز شهر برسند.",
      "مدیرعامل شرکت راه‌آهن شهری تهران و حومه در بازدید از کارگاه ایستگاه بسیج گفت: «بیش از نود درصد کارهای عمرانی انجام شده و آزمایش‌های گرم سامانه علائم از هفته آینده آغاز می‌شود.» او افزود که تهویه تونل‌ها و پله‌های برقی نیز پیش از افتتاح به طور کامل آزمایش خواهند شد.",
      "به گفته مسئولان، ناوگان این خط با ورود دوازده رام قطار تازه تقویت می‌شود و فاصله حرکت قطارها در ساعت اوج صبح از هشت دقیقه به پنج دقیقه کاهش می‌یابد. این قطارها در کارخانه‌های داخلی مونتاژ شده‌اند و پیش از ورود به خط، هزار کیلومتر حرکت آزمایشی را پشت سر گذاشته‌اند.",
      "کارشناسان حمل‌ونقل شهری می‌گویند تکمیل خط هفت می‌تواند بار ترافیکی بزرگراه امام علی را کاهش دهد، اما به شرط آنکه پارکینگ‌های حاشیه‌ای در کنار ایستگاه‌ها ساخته شود تا شهروندان خودروی شخصی خود را در ورودی شهر بگذارند."]),
    (1074102, "کیفیت-هوای-تهران-قابل-قبول-شد", "/service/Society", "جامعه", "2026-03-01T05:15:00Z", "یکشنبه ۱۰ اسفند ۱۴۰۴ - ۰۸:۴۵",
     "محیط زیست",
     "کیفیت هوای تهران در آستانه نوروز قابل قبول شد",
     "با وزش باد غربی و بارش‌های پراکنده، شاخص کیفیت هوای تهران پس از دو هفته به محدوده قابل قبول بازگشت و مدارس ابتدایی از شنبه حضوری می‌شوند.",
     ["به گزارش همشهری، میانگین شاخص کیفیت هوای پایتخت در بیست و چهار ساعت گذشته به عدد هشتاد و دو رسید که در وضعیت قابل قبول قرار دارد. این در حالی است که هفته گذشته شاخص در بیشتر ایستگاه‌های سنجش جنوب تهران از مرز صد و پنجاه گذشته بود.",
      "کارشناس اداره کل هواشناسی استان تهران گفت سامانه بارشی تازه‌ای از غرب کشور وارد می‌شود و تا پایان هفته باران و برف پراکنده در ارتفاعات پیش‌بینی می‌شود. به گفته او، تردد در جاده‌های کوهستانی شمال استان تنها با زنجیر چرخ مجاز خواهد بود.",
      "کمیته اضطرار آلودگی هوا نیز اعلام کرد محدودیت طرح زوج و فرد از روز شنبه برداشته می‌شود و مدارس ابتدایی و پیش‌دبستانی‌ها دوباره به صورت حضوری برگزار می‌شوند. اعضای این کمیته از شهروندان خواستند در روزهای پایانی سال از حمل‌ونقل عمومی بیشتر استفاده کنند.",
      "پژوهشگران دانشگاه تهران در گزارشی تازه نوشته‌اند که سهم خودروهای فرسوده و موتورسیکلت‌های کاربراتوری در انتشار ذرات معلق همچنان بیش از نیمی از کل آلاینده‌های منابع متحرک است."]),
    (1074103, "نمایشگاه-نگارگری-در-نگارستان", "/service/Culture", "فرهنگی", "2026-02-28T14:20:00Z", "شنبه ۹ اسفند ۱۴۰۴ - ۱۷:۵۰",
     "هنرهای تجسمی",
     "نمایشگاه نگارگری ایرانی در باغ موزه نگارستان گشایش یافت",
     "نمایشگاهی از هشتاد اثر نگارگری معاصر و نسخه‌های مصور قدیمی در باغ موزه نگارستان برپا شده و تا پایان فروردین برای بازدید عموم باز است.",
     ["به گزارش همشهری، در این نمایشگاه آثار سی و دو نگارگر از نسل‌های مختلف کنار برگ‌هایی از شاهنامه و خمسه نظامی به نمایش درآمده است. برگزارکنندگان می‌گویند هدف نمایشگاه نشان دادن پیوند میان مکتب‌های کهن هرات و تبریز با نگارگری امروز ایران است.",
      "مدیر باغ موزه نگارستان در آیین گشایش گفت: «بسیاری از این آثار برای نخستین بار از مجموعه‌های خصوصی بیرون آمده‌اند و بازدیدکنندگان فرصت کمیابی برای دیدن آن‌ها از نزدیک دارند.» او از برگزاری کارگاه‌های آموزشی رایگان برای دانش‌آموزان در روزهای پنجشنبه خبر داد.",
      "بخش ویژه نمایشگاه به ابزار و مواد نگارگری اختصاص دارد؛ از قلم‌موهای ساخته‌شده از موی گربه تا رنگدانه‌های معدنی لاجورد و شنگرف که هنرمندان هنوز آن‌ها را به روش سنتی می‌سایند.",
      "بازدید از نمایشگاه برای دانشجویان هنر با ارائه کارت دانشجویی رایگان است و باغ موزه همه روزه به جز دوشنبه‌ها از ساعت نه صبح تا هفت عصر پذیرای علاقه‌مندان است."]),
    (1074104, "اردوی-تیم-ملی-والیبال", "/service/Sport", "ورزشی", "2026-02-26T19:05:00Z", "پنجشنبه ۷ اسفند ۱۴۰۴ - ۲۲:۳۵",
     "والیبال",
     "تیم ملی والیبال ایران با دو بازیکن جوان به اردوی آماده‌سازی رفت",
     "سرمربی تیم ملی والیبال فهرست بیست نفره اردوی آماده‌سازی برای لیگ ملت‌ها را اعلام کرد؛ فهرستی که دو بازیکن زیر بیست سال در آن دیده می‌شوند.",
     ["به گزارش همشهری، نخستین مرحله اردوی تیم ملی والیبال از اول فروردین در خانه والیبال تهران آغاز می‌شود و دو هفته ادامه دارد. کادر فنی پس از این مرحله شش بازیکن را کنار می‌گذارد و چهارده بازیکن راهی تورنمنت‌های تدارکاتی خارج از کشور می‌شوند.",
      "حضور دو بازیکن جوان که در قهرمانی جوانان آسیا درخشیده بودند، مهم‌ترین خبر این فهرست است. سرمربی تیم ملی در نشست خبری گفت: «آینده والیبال ایران به این نسل گره خورده و باید از همین حالا در کنار بازیکنان باتجربه محک بخورند.»",
      "فدراسیون والیبال نیز اعلام کرد برای نخستین بار یک متخصص تغذیه و یک روان‌شناس ورزشی به صورت تمام‌وقت در کادر تیم حضور خواهند داشت تا بازیکنان فشار مسابقات فشرده تابستان را بهتر تحمل کنند.",
      "تیم ملی ایران در هفته نخست لیگ ملت‌ها در شهر ریو دو ژانیرو با تیم‌های برزیل، لهستان، آرژانتین و کانادا دیدار خواهد کرد."]),
]
VIDEO = (1074150, "حال-و-هوای-بازار-تجریش", "ویدئو | حال و هوای بازار تجریش در روزهای پایانی سال")
BLOCKED = (1074160, "قیمت-آجیل-شب-عید")

MENU = ["صفحه نخست", "سیاسی", "اقتصادی", "شهری", "جامعه", "فرهنگی", "ورزشی", "جهان", "دانش و فناوری", "چندرسانه‌ای"]
MENU_LINKS = ["/", "/service/Iran", "/service/Economy", "/service/City", "/service/Society", "/service/Culture",
              "/service/Sport", "/service/World", "/service/Science", "/multimedia"]
FOOTER = "کلیه حقوق این سایت متعلق به مؤسسه همشهری است و استفاده از مطالب با ذکر منبع بلامانع است."
MOST_READ = "پربازدیدترین‌ها"
BOILERPLATE = [FOOTER, MOST_READ, "خبرنامه همشهری", "نظر شما"]


def art_url(a) -> str:
    return f"{HOST}/news/{a[0]}/{a[1]}"


def head(title, extra="") -> str:
    return f"""<!DOCTYPE html>
<html lang="fa" dir="rtl">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="www.nastooh.ir">
<title>{esc(title)}</title>
{extra}
<link rel="stylesheet" href="/resources/theme/hamshahri/css/style.css">
<script>{INLINE_JS}</script>
</head>"""


def header() -> str:
    items = "\n".join(f'<li class="nav-item"><a class="nav-link" href="{HOST}{u}">{esc(t)}</a></li>'
                      for t, u in zip(MENU, MENU_LINKS))
    return f"""<body class="rtl">
<header class="header"><div class="container">
<a class="logo" href="{HOST}/"><img src="/resources/theme/hamshahri/img/logo.png" alt="همشهری آنلاین"></a>
<div class="date-today">دوشنبه ۱۱ اسفند ۱۴۰۴</div>
<nav class="navbar"><ul class="navbar-nav">
{items}
</ul></nav>
<form class="search" action="/search" method="get"><input name="q" placeholder="جستجو"></form>
</div></header>"""


def sidebar(exclude_id=None) -> str:
    rows = "\n".join(f'<li class="news"><div class="desc"><h3><a href="{art_url(a)}">{esc(a[7])}</a></h3></div></li>'
                     for a in ARTICLES if a[0] != exclude_id)
    return f"""<aside class="col-lg-4 sidebar">
<section class="box most-visited"><header><h2>{MOST_READ}</h2></header><ul>
{rows}
</ul></section>
<section class="box newsletter"><h2>خبرنامه همشهری</h2><p>برای دریافت خبرهای مهم روز نشانی ایمیل خود را وارد کنید.</p></section>
</aside>"""


def footer() -> str:
    return f"""<footer class="footer"><div class="container">
<ul class="footer-links"><li><a href="{HOST}/page/about">درباره ما</a></li><li><a href="{HOST}/page/contact">تماس با ما</a></li>
<li><a href="{HOST}/rss-help">آر اس اس</a></li><li><a href="{HOST}/page/ads">تبلیغات</a></li></ul>
<p class="copyright">{FOOTER}</p>
</div></footer>
<script src="/resources/theme/hamshahri/js/main.js"></script>
</body></html>
"""


def article_page(a) -> Page:
    aid, slug, service, section, iso, jalali, kicker, title, lead, paras = a
    url = art_url(a)
    meta = f"""<meta name="nastooh:pageType" content="news">
<meta name="nastooh:nid" content="{aid}">
<meta name="nastooh:publishDate" content="{iso[:10]}">
<meta itemprop="datePublished" property="article:published_time" content="{iso}">
<meta property="article:section" content="{esc(section)}">
<meta property="og:type" content="article">
<meta property="og:title" content="{esc(title)}">
<meta property="og:description" content="{esc(lead)}">
<meta property="og:url" content="{url}">
<meta property="og:site_name" content="همشهری آنلاین">
<link rel="canonical" href="{url}">
<link rel="amphtml" href="{HOST}/amp/{aid}/">"""
    body = f"""{header()}
<main class="main"><div class="container"><div class="row">
<div class="col-lg-8 main-content">
<ol class="breadcrumb"><li class="breadcrumb-item"><a href="{HOST}/">صفحه نخست</a></li>
<li class="breadcrumb-item"><a href="{HOST}{service}">{esc(section)}</a></li></ol>
<article itemscope itemtype="http://schema.org/NewsArticle">
<div class="item-header">
<div class="rutitr">{esc(kicker)}</div>
<h1 class="title"><a itemprop="headline" href="{url}">{esc(title)}</a></h1>
<div class="item-date"><span>{jalali}</span></div>
</div>
<div class="item-summary"><p class="introtext" itemprop="description">{esc(lead)}</p></div>
<div class="item-body">
<figure class="item-img"><img src="/d/2026/03/02/4/{aid}.jpg" alt="{esc(title)}"></figure>
<div class="item-text" itemprop="articleBody">
{paragraphs_html(paras)}
</div></div>
<section class="box tags"><header><h2>کلید واژه ها</h2></header><ul><li><a href="{HOST}/tags/{esc(section)}">{esc(section)}</a></li><li><a href="{HOST}/tags/تهران">تهران</a></li></ul></section>
<section class="box comments"><header><h2>نظر شما</h2></header><p>شما در حال پاسخ به نظر «» هستید.</p></section>
</article>
</div>
{sidebar(aid)}
</div></div></main>
{footer()}"""
    return Page(head(f"{title} | همشهری آنلاین", meta) + "\n" + body)


def amp_page(a) -> Page:
    """AMP twin of an article (Nastooh's /amp/<id>/): must fold onto /news/<id>, never be written twice."""
    title, paras = a[7], a[9]
    return Page(f"""<!doctype html><html amp lang="fa" dir="rtl"><head><meta charset="utf-8">
<title>{esc(title)}</title><link rel="canonical" href="{art_url(a)}">
<meta property="og:type" content="article"></head><body><h1>{esc(title)}</h1>
{paragraphs_html(paras)}</body></html>""")


def video_page() -> Page:
    vid, slug, title = VIDEO
    url = f"{HOST}/news/{vid}/{slug}"
    meta = f"""<meta name="nastooh:pageType" content="video">
<meta property="og:type" content="video.other">
<meta property="og:title" content="{esc(title)}">
<link rel="canonical" href="{url}">"""
    body = f"""{header()}
<main class="main"><div class="container"><div class="row"><div class="col-lg-8 main-content">
<h1 class="title">{esc(title)}</h1>
<div class="video-player"><video src="/d/2026/03/01/video/{vid}.mp4" controls></video></div>
<p class="introtext">تصاویری از خرید شب عید در بازار قدیمی تجریش.</p>
</div>
{sidebar()}
</div></div></main>
{footer()}"""
    return Page(head(f"{title} | همشهری آنلاین", meta) + "\n" + body)


def page_query(n: int) -> str:
    return f"?pi={n}" if n > 1 else ""


def listing(page_no: int, items, last: int) -> Page:
    """Archive page (``/archive``, then ``/archive?pi=N``) with ``li.news div.desc a`` items and ``ul.pagination``."""
    rows = "\n".join(f'<li class="news"><div class="desc"><h3><a href="{u}">{esc(t)}</a></h3>'
                     f'<p>{esc(lead)}</p></div></li>' for t, u, lead in items)
    pager = "\n".join(
        f'<li class="page-item{" active" if n == page_no else ""}"><a class="page-link" href="{HOST}/archive{page_query(n)}">{n}</a></li>'
        for n in range(1, last + 1))
    body = f"""{header()}
<main class="main"><div class="container"><div class="row"><div class="col-lg-8">
<h1>آرشیو اخبار</h1>
<ul class="archive-list">
{rows}
</ul>
<ul class="pagination">
{pager}
</ul>
</div>{sidebar()}</div></div></main>
{footer()}"""
    return Page(head("آرشیو | همشهری آنلاین", '<meta name="nastooh:pageType" content="archive">') + "\n" + body)


def build():
    pages = {}
    for a in ARTICLES:
        pages[f"/news/{a[0]}"] = article_page(a)  # served at the canonical URL the spider requests
        pages[f"/amp/{a[0]}/"] = amp_page(a)
    pages[f"/news/{VIDEO[0]}"] = video_page()
    pages[f"/news/{BLOCKED[0]}"] = arvan_challenge()
    a1, a2, a3, a4 = ARTICLES
    # Page 1 of the archive: newest items, an AMP link (as aggregators copy them) and the video.
    pages["/archive"] = listing(1, [
        (a1[7], art_url(a1), a1[8]),
        (VIDEO[2], f"{HOST}/news/{VIDEO[0]}/{VIDEO[1]}", "ویدئو"),
        (a2[7], f"{HOST}/amp/{a2[0]}/", a2[8]),
    ], 2)
    pages["/archive?pi=2"] = listing(2, [
        (a3[7], art_url(a3), a3[8]),
        (a4[7], art_url(a4) + "?utm_source=telegram&utm_medium=social", a4[8]),
        ("قیمت آجیل شب عید", f"{HOST}/news/{BLOCKED[0]}/{BLOCKED[1]}", "بازار"),
    ], 2)
    pages["/sitemap/news/sitemap.xml"] = sitemap(
        [(art_url(a1), a1[4], a1[7]), (art_url(a2), a2[4], a2[7])], news_name="همشهری آنلاین", lang="fa")
    pages["/rss"] = rss("همشهری آنلاین", HOST, [(a[7], f"{HOST}/news/{a[0]}", "Mon, 02 Mar 2026 06:40:00 GMT") for a in (a1, a3)], "fa")
    pages["/robots.txt"] = robots(f"""
User-agent: *
Disallow: /search
Disallow: /print/
Disallow: /d/
Sitemap: {HOST}/sitemap/news/sitemap.xml
""")
    expected = {
        "spider": NAME,
        "articles": [{"path": f"/news/{a[0]}", "title": a[7], "published": a[4], "published_raw": a[4],
                      "lead": a[8], "body": a[9]} for a in ARTICLES],
        "not_articles": [f"/news/{VIDEO[0]}"],
        "blocked": [f"/news/{BLOCKED[0]}"],
        "boilerplate": BOILERPLATE,
        "menu": MENU,
        # request paths that canonicalisation must prevent (AMP twins, slugs, tracking parameters)
        "never_fetched": ["^/amp/", "^/news/\\d+/", "utm_"],
        "encoding": "utf-8",
    }
    return pages, expected
