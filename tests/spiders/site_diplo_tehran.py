"""Fixture site of the German Embassy Tehran, Persian pages (teheran.diplo.de/ir-fa; Auswärtiges Amt
CMS; sites.md §11).  Text written for the fixtures.

Quirks reproduced: content pages end in ``/-/<id>``; the same shape also serves link-list hubs
(``/ir-fa/service/-/2211286``) that have no text body; the page carries the CMS's generic German
H1s ("Navigation und Service", "Willkommen auf den Seiten des Auswärtigen Amts") before the real
``h1.heading__title``; ``<title>`` ends with " - Auswärtiges Amt"; dates only as "DD.MM.YYYY - type"
in ``span.heading__meta``; accordion state in ``?openAccordionId=`` (UI state, dropped).
"""
from __future__ import annotations

from sitegen_common import Page, esc, paragraphs_html, robots, sitemap

HOST = "https://teheran.diplo.de"
NAME = "diplo_tehran"

# (path, meta line or None, ISO date or None, title, intro, paragraphs)
ARTICLES = [
    ("/ir-fa/service/visa-einreise/-/2074660", None, None,
     "ویزای شینگن برای سفرهای کوتاه‌مدت",
     "برای اقامت‌های تا نود روز در هر دوره صدوهشتاد روزه، مانند سفر توریستی، دیدار خانوادگی یا سفر کاری، ویزای شینگن لازم است.",
     ["درخواست ویزای شینگن باید حداکثر شش ماه و حداقل پانزده روز پیش از تاریخ سفر ثبت شود. وقت ملاقات فقط از طریق سامانه رزرو اینترنتی داده می‌شود و سفارت هیچ واسطه‌ای را برای گرفتن وقت به رسمیت نمی‌شناسد.",
      "متقاضیان باید گذرنامه‌ای با دست‌کم سه ماه اعتبار پس از پایان سفر، فرم تکمیل‌شده درخواست، بیمه‌نامه مسافرتی معتبر در همه کشورهای شینگن و مدارک مربوط به هدف سفر و توان مالی را همراه داشته باشند.",
      "هزینه رسیدگی به درخواست ویزا هنگام تحویل مدارک دریافت می‌شود و در صورت رد درخواست بازگردانده نمی‌شود. مدت رسیدگی معمولاً دو تا سه هفته است، اما در فصل‌های پرسفر ممکن است طولانی‌تر شود."]),
    ("/ir-fa/service/visa-einreise/-/2074702", None, None,
     "ویزای ملی برای تحصیل در آلمان",
     "دانشجویانی که برای تحصیل دانشگاهی یا دوره آمادگی زبان به آلمان می‌روند، به ویزای ملی نیاز دارند.",
     ["برای درخواست ویزای تحصیلی، پذیرش قطعی یا مشروط از یک دانشگاه آلمانی، مدرک زبان متناسب با زبان دوره تحصیلی و اثبات تأمین هزینه‌های زندگی برای یک سال لازم است. تأمین مالی معمولاً با افتتاح حساب مسدودی در یک بانک آلمانی اثبات می‌شود.",
      "مدارک تحصیلی ایرانی باید پیش از وقت ملاقات از سوی مرجع بررسی مدارک دانشگاهی تأیید شده باشند. گواهی این بررسی جزو مدارک ضروری پرونده است و بدون آن درخواست پذیرفته نمی‌شود.",
      "رسیدگی به درخواست ویزای ملی به دلیل مشارکت اداره اتباع خارجی در شهر محل تحصیل ممکن است چند ماه طول بکشد. بنابراین توصیه می‌شود متقاضیان بلافاصله پس از دریافت پذیرش برای گرفتن وقت اقدام کنند."]),
    ("/ir-fa/service/konsularisches/-/2074815", None, None,
     "تأیید اسناد ایرانی برای استفاده در آلمان",
     "اسناد رسمی ایرانی، مانند شناسنامه، سند ازدواج یا مدارک تحصیلی، برای استفاده نزد ادارات آلمانی باید قانونی‌سازی شوند.",
     ["پیش از مراجعه به سفارت، سند باید به تأیید وزارت امور خارجه جمهوری اسلامی ایران رسیده باشد. ترجمه سند به زبان آلمانی باید توسط یکی از دارالترجمه‌های رسمی انجام شود که امضای مترجم آن نزد سفارت ثبت شده است.",
      "سفارت در صورت تردید درباره درستی سند می‌تواند بررسی بیشتری انجام دهد که ممکن است چند هفته طول بکشد و هزینه جداگانه‌ای داشته باشد. در این مدت اصل سند نزد سفارت باقی می‌ماند.",
      "برای قانونی‌سازی هر سند یک وقت ملاقات جداگانه لازم نیست؛ می‌توان چند سند را در یک نوبت ارائه کرد، به شرط آنکه همه آن‌ها به نام یک نفر باشند."]),
    ("/ir-fa/aktuelles/-/2711040", "10.03.2026 - خبر", "2026-03-10",
     "ساعات کاری بخش کنسولی در تعطیلات نوروز",
     "بخش کنسولی سفارت جمهوری فدرال آلمان در تهران در روزهای تعطیل نوروز بسته است.",
     ["بخش کنسولی سفارت از ۲۸ اسفند ۱۴۰۴ تا ۴ فروردین ۱۴۰۵ برای مراجعه حضوری بسته خواهد بود. وقت‌های ملاقاتی که پیش‌تر برای این روزها داده شده بود، به طور خودکار به روزهای پس از تعطیلات منتقل شده و متقاضیان از طریق ایمیل مطلع می‌شوند.",
      "در موارد اضطراری کنسولی برای شهروندان آلمانی، سفارت از طریق شماره تلفن اضطراری در دسترس است. درخواست‌های ویزا در این مدت رسیدگی نمی‌شوند.",
      "سفارت آلمان فرا رسیدن نوروز را به همه هموطنان ایرانی تبریک می‌گوید."]),
]
HUB = ("/ir-fa/service/-/2211286", "خدمات کنسولی")

GENERIC_H1 = ["Navigation und Service", "Willkommen auf den Seiten des Auswärtigen Amts"]
MENU = ["سفارت", "خدمات کنسولی", "ویزا و ورود به آلمان", "تحصیل و کار در آلمان", "اخبار", "تماس"]
FOOTER = "© وزارت امور خارجه فدرال آلمان"
BOILERPLATE = [FOOTER, "Willkommen auf den Seiten", "اطلاعات حقوقی", "حفاظت از داده‌ها"]


def frame(title, main, seed="") -> Page:
    menu = "\n".join(f'<li class="c-nav__item"><a href="{HOST}/ir-fa/service">{esc(t)}</a></li>' for t in MENU)
    return Page(f"""<!DOCTYPE html>
<html lang="fa" dir="rtl">
<head>
<meta charset="UTF-8">
<title>{esc(title)} - Auswärtiges Amt</title>
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="/resource/themes/aa/css/main.css">
</head>
<body class="l-page">
<h1 class="u-sr-only">{GENERIC_H1[0]}</h1>
<ul class="skiplinks"><li><a href="#main">Zum Inhalt</a></li></ul>
<header class="c-header"><a class="c-logo" href="{HOST}/ir-fa"><img src="/resource/themes/aa/img/logo.svg" alt="Auswärtiges Amt"></a>
<h1 class="u-sr-only">{GENERIC_H1[1]}</h1>
<nav class="c-nav"><ul>
{menu}
</ul></nav>
<a class="c-lang" href="{HOST}/ir-de">Deutsch</a>
</header>
<main id="main" class="l-main">
{main}
</main>
<footer class="c-footer"><ul><li><a href="{HOST}/ir-fa/impressum">اطلاعات حقوقی</a></li><li><a href="{HOST}/ir-fa/datenschutz">حفاظت از داده‌ها</a></li>
<li><a href="{HOST}/ir-fa/kontaktformular">تماس</a></li></ul><p>{FOOTER}</p></footer>
</body></html>
""")


def article_page(a) -> Page:
    path, metaline, iso, title, intro, paras = a
    meta = f'<span class="heading__meta">{esc(metaline)}</span>\n' if metaline else ""
    main = f"""<header class="heading">
{meta}<h1 class="heading__title">{esc(title)}</h1>
<p class="heading__intro">{esc(intro)}</p>
</header>
<div class="c-rte--default">
{paragraphs_html(paras)}
<p><a class="rte__anchor i-pdf" href="/blob/2074660/merkblatt.pdf">برگه راهنما (PDF)</a></p>
</div>
<div class="c-teaser-list"><h2>مطالب مرتبط</h2><ul><li><a href="{HOST}{HUB[0]}">{esc(HUB[1])}</a></li></ul></div>"""
    return frame(title, main)


def hub_page() -> Page:
    rows = "\n".join(f'<li class="c-teaser"><a href="{HOST}{a[0]}"><h3 class="c-teaser__title">{esc(a[3])}</h3></a></li>'
                     for a in ARTICLES[:3])
    main = f"""<header class="heading"><h1 class="heading__title">{esc(HUB[1])}</h1></header>
<ul class="c-teaser-list">
{rows}
</ul>"""
    return frame(HUB[1], main)


def listing(title, links, more=None) -> Page:
    rows = "\n".join(f'<li class="c-teaser"><a href="{u}"><h3 class="c-teaser__title">{esc(t)}</h3></a></li>' for t, u in links)
    nav = f'<a class="c-pagination__next" href="{more}">بیشتر</a>' if more else ""
    main = f"""<header class="heading"><h1 class="heading__title">{esc(title)}</h1></header>
<ul class="c-teaser-list">
{rows}
</ul>
{nav}"""
    return frame(title, main)


def build():
    pages = {a[0]: article_page(a) for a in ARTICLES}
    pages[HUB[0]] = hub_page()
    d1, d2, d3, d4 = ARTICLES
    pages["/ir-fa/service"] = listing("خدمات کنسولی", [
        (HUB[1], f"{HOST}{HUB[0]}"),
        (d1[3], f"{HOST}{d1[0]}?openAccordionId=item-2074664-0-panel"),
        (d3[3], f"{HOST}{d3[0]}"),
        ("فرم تماس", f"{HOST}/ir-fa/kontaktformular"),
        ("نسخه آلمانی", f"{HOST}/ir-de/service/visa-einreise/-/2074660"),
    ], more=f"{HOST}/ir-fa/service?offset=10")
    pages["/ir-fa/service?offset=10"] = listing("خدمات کنسولی", [(d2[3], f"{HOST}{d2[0]}")])
    pages["/sitemap.xml"] = sitemap([(f"{HOST}{d4[0]}", d4[2], d4[3]), (f"{HOST}{d1[0]}", "2026-01-20", d1[3])])
    pages["/robots.txt"] = robots(f"""
User-agent: *
Disallow: /ir-fa/suche
Disallow: /ir-de/suche
Sitemap: {HOST}/sitemap.xml
""")
    expected = {
        "spider": NAME,
        "articles": [{"path": a[0], "title": a[3], "published": a[2],
                      "published_raw": a[1].split(" - ")[0] if a[1] else None, "lead": a[4], "body": a[5]}
                     for a in ARTICLES],
        "not_articles": [HUB[0], "/ir-de/service/visa-einreise/-/2074660", "/ir-fa/kontaktformular"],
        "blocked": [],
        "boilerplate": BOILERPLATE,
        "menu": MENU,
        "never_fetched": ["openAccordionId", "^/ir-de/", "kontaktformular"],
        "encoding": "utf-8",
    }
    return pages, expected
