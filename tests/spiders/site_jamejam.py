"""Fixture site of Jame Jam Online (IranSamaneh-family CMS; sites.md §7).  Text written for the fixtures.

Quirks reproduced: the bare host is canonical (``www.`` links fold onto it), the HTTP
Content-Type carries no charset (a JameJam scraper forces UTF-8, sites.md §0.2b),
``article:published_time`` is Jalali with Persian digits (kept as ``published_raw``), body in
``section.body`` with an ``inline-news-box`` of related links inside it, photo galleries under the
same ``/fa/news/<id>`` shape, and an ArvanCloud challenge served as HTTP 403.
"""
from __future__ import annotations

from sitegen_common import INLINE_JS, Page, arvan_challenge, esc, paragraphs_html, robots, rss

HOST = "https://jamejamonline.ir"
NAME = "jamejam"
CTYPE = "text/html"  # no charset: the decoder must find UTF-8 itself

# (id, slug, service, Jalali meta value, span.news-pdate, title, lead, paragraphs)
ARTICLES = [
    (1568701, "کتابخانه-های-عمومی-تا-نیمه-شب-باز-می-مانند", "فرهنگی", "۱۴۰۴/۱۲/۱۱ - ۰۹:۳۰", "۱۱ اسفند ۱۴۰۴ | ۰۹:۳۰",
     "کتابخانه‌های عمومی کشور تا نیمه‌شب باز می‌مانند",
     "نهاد کتابخانه‌های عمومی کشور از اجرای طرح «شب‌های کتاب» در صد و بیست کتابخانه خبر داد؛ طرحی که ساعت کار این کتابخانه‌ها را در ماه‌های پایانی سال تا نیمه‌شب افزایش می‌دهد.",
     ["به گزارش جام جم آنلاین، این طرح از هفته آینده در مراکز استان‌ها و شهرهای بزرگ آغاز می‌شود و دانش‌آموزان و دانشجویانی که برای آزمون‌های پایان سال آماده می‌شوند، مخاطبان اصلی آن هستند. کتابخانه‌های منتخب بر اساس میزان مراجعه و دسترسی به حمل‌ونقل عمومی انتخاب شده‌اند.",
      "معاون توسعه کتابخوانی نهاد کتابخانه‌ها گفت: «در سال‌های گذشته بیشترین درخواست اعضا افزایش ساعت کار سالن‌های مطالعه بوده است و اکنون با همکاری شهرداری‌ها هزینه‌های روشنایی و نگهبانی شبانه تأمین شده است.»",
      "در کنار سالن‌های مطالعه، بخش کودک برخی کتابخانه‌ها نیز در شب‌های پنجشنبه برنامه‌های قصه‌گویی و نمایش عروسکی برگزار می‌کند. عضویت در کتابخانه‌های عمومی برای دانش‌آموزان مقطع ابتدایی در این طرح رایگان است.",
      "فهرست کتابخانه‌های مشارکت‌کننده و ساعت کار هر یک در سامانه نهاد کتابخانه‌های عمومی منتشر شده است."]),
    (1568702, "صادرات-توت-فرنگی-گلخانه-ای-کردستان", "اقتصادی", "۱۴۰۴/۱۲/۱۰ - ۱۴:۱۵", "۱۰ اسفند ۱۴۰۴ | ۱۴:۱۵",
     "صادرات توت‌فرنگی گلخانه‌ای کردستان به کشورهای همسایه آغاز شد",
     "نخستین محموله توت‌فرنگی گلخانه‌ای کردستان با وزن هجده تن از مرز باشماق به عراق صادر شد.",
     ["به گزارش جام جم آنلاین، کشت گلخانه‌ای توت‌فرنگی در شهرستان‌های سنندج و مریوان طی سه سال گذشته دو برابر شده و اکنون بیش از چهارصد واحد گلخانه‌ای در استان فعال است. کشاورزان می‌گویند گلخانه‌ها امکان برداشت در فصل سرما را فراهم کرده‌اند که قیمت محصول در آن بالاتر است.",
      "مدیر باغبانی سازمان جهاد کشاورزی کردستان گفت: «با استفاده از سامانه‌های آبیاری قطره‌ای، مصرف آب در این گلخانه‌ها نسبت به کشت فضای باز تا شصت درصد کمتر است.» او افزود که بسته‌بندی محصول در سردخانه‌های استاندارد، ماندگاری آن را در مسیر صادرات افزایش داده است.",
      "به گفته فعالان این بخش، کمبود نهال سالم و گرانی کودهای وارداتی مهم‌ترین مشکل تولیدکنندگان است و بسیاری از آن‌ها خواستار تسهیلات بانکی کم‌بهره برای نوسازی گلخانه‌ها هستند."]),
    (1568703, "رصدخانه-ملی-ایران-نخستین-تصاویر-علمی", "دانش", "۱۴۰۴/۱۲/۰۹ - ۱۱:۰۰", "۹ اسفند ۱۴۰۴ | ۱۱:۰۰",
     "رصدخانه ملی ایران نخستین تصاویر علمی خود را منتشر کرد",
     "پژوهشگران رصدخانه ملی ایران در قله گرگش تصاویری از یک کهکشان مارپیچی دوردست منتشر کردند که با دوربین ساخت داخل ثبت شده است.",
     ["به گزارش جام جم آنلاین، این تصاویر در چند شب صاف زمستانی با تلسکوپ سه متر و چهل سانتی‌متری رصدخانه ثبت شده‌اند. قله گرگش در نزدیکی کاشان به دلیل هوای خشک و آلودگی نوری اندک، یکی از بهترین مکان‌های رصدی منطقه به شمار می‌رود.",
      "مدیر این طرح گفت: «کیفیت تصویر به دست آمده نشان می‌دهد که آینه اصلی تلسکوپ و سامانه اپتیک تطبیقی به درستی تنظیم شده‌اند و می‌توانیم برنامه رصدهای علمی را از بهار آغاز کنیم.»",
      "قرار است بخشی از زمان رصد تلسکوپ در اختیار دانشگاه‌های کشور قرار گیرد و پژوهشگران بتوانند با ارسال طرح پژوهشی، برای استفاده از آن درخواست دهند.",
      "این رصدخانه پس از نزدیک به دو دهه طراحی و ساخت، بزرگ‌ترین تلسکوپ نوری کشور را در اختیار دارد."]),
    (1568704, "جشنواره-غذاهای-محلی-گیلان", "گردشگری", "۱۴۰۴/۱۲/۰۷ - ۱۸:۴۰", "۷ اسفند ۱۴۰۴ | ۱۸:۴۰",
     "جشنواره غذاهای محلی گیلان در رشت برگزار می‌شود",
     "نخستین جشنواره غذاهای محلی گیلان با حضور آشپزهای روستایی از بیست شهرستان استان در میدان شهرداری رشت برپا می‌شود.",
     ["به گزارش جام جم آنلاین، در این جشنواره که سه روز ادامه دارد، غذاهایی مانند میرزاقاسمی، باقلاقاتق، ترش‌تره و فسنجان گیلانی به روش سنتی پخته و عرضه می‌شوند. رشت از سال‌ها پیش عنوان شهر خلاق خوراک یونسکو را دارد.",
      "دبیر جشنواره گفت: «هدف ما این است که دستور پخت غذاهای فراموش‌شده روستاها ثبت شود و زنان آشپز روستایی بتوانند از راه فروش محصولات خود درآمد پایدار داشته باشند.»",
      "در حاشیه جشنواره، کارگاه‌هایی برای آموزش نگهداری و فرآوری سبزی‌های محلی و نشست‌هایی درباره گردشگری خوراک برگزار خواهد شد."]),
]
# The Gregorian (Tehran local) equivalents of the Jalali dates above, worked out by hand; the crawl
# keeps the Jalali string as published_raw and the corpus stage fills published from it.
GREGORIAN = {"۱۴۰۴/۱۲/۱۱ - ۰۹:۳۰": "2026-03-02T09:30", "۱۴۰۴/۱۲/۱۰ - ۱۴:۱۵": "2026-03-01T14:15",
             "۱۴۰۴/۱۲/۰۹ - ۱۱:۰۰": "2026-02-28T11:00", "۱۴۰۴/۱۲/۰۷ - ۱۸:۴۰": "2026-02-26T18:40"}


def gregorian(jalali: str) -> str:
    return GREGORIAN[jalali]


GALLERY = (1568750, "تصاویر | بارش برف در ارتفاعات البرز")
BLOCKED = 1568760

MENU = ["صفحه نخست", "سیاسی", "اجتماعی", "اقتصادی", "فرهنگی", "ورزشی", "بین‌الملل", "دانش", "عکس", "روزنامه جام جم"]
FOOTER = "تمامی حقوق مادی و معنوی این سایت متعلق به جام جم آنلاین است."
INLINE_BOX = "بیشتر بخوانید"
BOILERPLATE = [FOOTER, "آخرین اخبار", "پربیننده‌ترین", INLINE_BOX]


def url(aid, slug=None) -> str:
    return f"{HOST}/fa/news/{aid}" + (f"/{slug}" if slug else "")


def head(title, extra="") -> str:
    return f"""<!DOCTYPE html>
<html lang="fa" dir="rtl">
<head>
<meta charset="utf-8">
<title>{esc(title)}</title>
{extra}
<link rel="stylesheet" href="/client/themes/fa/main/css/news.css">
<script>{INLINE_JS}</script>
</head>"""


def chrome_top() -> str:
    items = "\n".join(f'<li><a href="{HOST}/fa/service/{i}">{esc(t)}</a></li>' for i, t in enumerate(MENU))
    return f"""<body>
<div class="header"><a href="{HOST}/"><img src="/client/themes/fa/main/img/logo.png" alt="جام جم آنلاین"></a>
<ul class="main-menu">
{items}
</ul></div>"""


def chrome_side() -> str:
    rows = "\n".join(f'<li><a href="{url(a[0], a[1])}">{esc(a[5])}</a></li>' for a in ARTICLES)
    return f"""<div class="col-md-4 left-side">
<div class="box"><div class="box-title">آخرین اخبار</div><ul class="last-news">
{rows}
</ul></div>
<div class="box"><div class="box-title">پربیننده‌ترین</div><ul><li><a href="{url(ARTICLES[2][0])}">{esc(ARTICLES[2][5])}</a></li></ul></div>
</div>"""


def chrome_bottom() -> str:
    return f"""<div class="footer"><div class="footer-menu"><a href="{HOST}/fa/about">درباره ما</a> | <a href="{HOST}/fa/contact">تماس با ما</a> | <a href="{HOST}/fa/rss">آر اس اس</a></div>
<div class="copyright">{FOOTER}</div></div>
<script src="/client/themes/fa/main/js/news.js"></script>
</body></html>
"""


def article_page(a) -> Page:
    aid, slug, service, jmeta, pdate, title, lead, paras = a
    related = ARTICLES[(ARTICLES.index(a) + 1) % len(ARTICLES)]
    body_paras = paragraphs_html(paras[:2]) + f"""
<div class="inline-news-box"><span>{INLINE_BOX}</span><a href="{url(related[0], related[1])}">{esc(related[5])}</a></div>
""" + paragraphs_html(paras[2:])
    meta = f"""<meta itemprop="name" content="{esc(title)}">
<meta itemprop="description" content="{esc(lead)}">
<meta property="og:type" content="article">
<meta property="og:title" content="{esc(title)}">
<meta property="og:url" content="{url(aid)}">
<meta property="article:published_time" content="{jmeta}">
<link rel="canonical" href="{url(aid)}">"""
    page = f"""{chrome_top()}
<div class="container"><div class="row">
<div class="col-md-8 bg-shadow-news"><div class="row">
<section class="padd-breadcrumb"><div><a href="{HOST}/">صفحه نخست</a> <a href="{HOST}/fa/service/{esc(service)}">{esc(service)}</a></div></section>
<div class="news-info"><a class="service-name-news" href="{HOST}/fa/service/{esc(service)}">{esc(service)}</a>
<span class="news-pdate">{pdate}</span> <span class="news-code">کد خبر: {aid}</span></div>
<h1>{esc(title)}</h1>
<div class="subtitle">{esc(lead)}</div>
<section class="body">
{body_paras}
</section>
<div class="tags"><a class="tag-item" href="{HOST}/fa/tag/1/{esc(service)}">{esc(service)}</a></div>
</div></div>
{chrome_side()}
</div></div>
{chrome_bottom()}"""
    return Page(head(f"{title} - جام جم آنلاین", meta) + "\n" + page, CTYPE)


def gallery_page() -> Page:
    gid, title = GALLERY
    imgs = "\n".join(f'<li><a href="/files/fa/news/1404/12/11/{gid}_{i}.jpg"><img src="/files/fa/news/1404/12/11/{gid}_{i}_t.jpg" alt=""></a></li>'
                     for i in range(1, 7))
    meta = f"""<meta property="og:type" content="gallery">
<meta property="og:title" content="{esc(title)}">
<link rel="canonical" href="{url(gid)}">"""
    page = f"""{chrome_top()}
<div class="container"><div class="row"><div class="col-md-8 bg-shadow-news">
<h1>{esc(title)}</h1>
<ul class="gallery_attach_list">
{imgs}
</ul>
<p>عکس: خبرنگار جام جم</p>
</div>{chrome_side()}</div></div>
{chrome_bottom()}"""
    return Page(head(f"{title} - جام جم آنلاین", meta) + "\n" + page, CTYPE)


def archive(n: int, links, last: int) -> Page:
    rows = "\n".join(f'<li class="news"><a href="{u}">{esc(t)}</a></li>' for t, u in links)
    pager = " ".join(f'<a href="{HOST}/fa/archive?page={i}">{i}</a>' for i in range(1, last + 1))
    page = f"""{chrome_top()}
<div class="container"><div class="row"><div class="col-md-8"><h1>آرشیو</h1>
<ul class="archive">
{rows}
</ul>
<div class="pagination">{pager}</div>
</div>{chrome_side()}</div></div>
{chrome_bottom()}"""
    return Page(head("آرشیو - جام جم آنلاین") + "\n" + page, CTYPE)


def build():
    pages = {}
    for a in ARTICLES:
        pages[f"/fa/news/{a[0]}"] = article_page(a)
    pages[f"/fa/news/{GALLERY[0]}"] = gallery_page()
    challenge = arvan_challenge()
    challenge.status = 403
    pages[f"/fa/news/{BLOCKED}"] = challenge
    a1, a2, a3, a4 = ARTICLES
    pages["/fa/archive?page=1"] = archive(1, [
        (a1[5], url(a1[0], a1[1])),
        (GALLERY[1], url(GALLERY[0])),
        # the www. alias of the 2018 IIS redirect (sites.md §7) must fold onto the bare host
        (a2[5], f"https://www.jamejamonline.ir/fa/news/{a2[0]}/{a2[1]}"),
    ], 2)
    pages["/fa/archive?page=2"] = archive(2, [
        (a3[5], url(a3[0], a3[1])),
        (a4[5], url(a4[0], a4[1])),
        ("قیمت بلیت قطارهای نوروزی", url(BLOCKED)),
    ], 2)
    pages["/fa/rss/1"] = rss("جام جم آنلاین", HOST, [(a[5], url(a[0], a[1]), "Mon, 02 Mar 2026 06:00:00 GMT") for a in (a1, a3)], "fa")
    pages["/robots.txt"] = robots("""
User-agent: *
Disallow: /fa/ajax/
Disallow: /fa/search
""")
    expected = {
        "spider": NAME,
        "articles": [{"path": f"/fa/news/{a[0]}", "title": a[5], "published": gregorian(a[3]), "published_raw": a[3],
                      "lead": a[6], "body": a[7]} for a in ARTICLES],
        "not_articles": [f"/fa/news/{GALLERY[0]}"],
        "blocked": [f"/fa/news/{BLOCKED}"],
        "boilerplate": BOILERPLATE,
        "menu": MENU,
        "never_fetched": ["^/fa/news/\\d+/"],
        "encoding": "utf-8",
    }
    return pages, expected
