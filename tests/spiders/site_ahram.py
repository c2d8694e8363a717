"""Fixture site of Bawabat al-Ahram, gate.ahram.org.eg (ASP.NET WebForms; sites.md §8).  Text written
for the fixtures.

This is the windows-1256 site with lying HTTP headers: every HTML page is windows-1256 on disk
and served as ``text/html; charset=utf-8``, with no charset in ``<head>`` (the 2018 Ahram homepage
had none, sites.md §0.2a).  The encoding middleware must still produce correct Arabic.  Pages carry
a big ``__VIEWSTATE`` and ``<base href>``; the body sits in ``#ContentPlaceHolder1_divContent``
with an in-article "read also" paragraph (``.st-inarticle-paragraph``) inside it.
"""
from __future__ import annotations

import base64
import hashlib

from sitegen_common import INLINE_JS, Page, esc, paragraphs_html, robots, sitemap

HOST = "https://gate.ahram.org.eg"
NAME = "ahram"
LYING_CTYPE = "text/html; charset=utf-8"
BODY_ENCODING = "cp1256"

# (id, section id, section name, ISO published, div date text, source line, title, paragraphs)
ARTICLES = [
    (5801001, 13, "أخبار", "2026-03-02T10:15:00+02:00", "2-3-2026 | 10:15", "مطروح - محمد السيد",
     "افتتاح محطة جديدة لتحلية مياه البحر في مرسى مطروح",
     ["افتتح محافظ مطروح صباح اليوم محطة جديدة لتحلية مياه البحر بطاقة إنتاجية تبلغ خمسين ألف متر مكعب يوميا، وذلك ضمن خطة الدولة لتوفير مياه الشرب للمدن الساحلية والتجمعات البدوية في الصحراء الغربية.",
      "وقال رئيس شركة مياه الشرب بالمحافظة إن المحطة تعمل بتقنية التناضح العكسي وتعتمد جزئيا على الطاقة الشمسية، مما يخفض تكلفة إنتاج المتر المكعب بنحو الثلث مقارنة بالمحطات القديمة.",
      "وأضاف أن المحطة ستخدم نحو ثلاثمائة ألف نسمة، إلى جانب المصطافين الذين يتضاعف عددهم خلال أشهر الصيف، مشيرا إلى أن أعمال مد خطوط الشبكة إلى القرى المجاورة ستنتهي قبل نهاية العام.",
      "ومن المقرر أن تشهد المحافظة خلال العام المقبل افتتاح محطتين أخريين في مدينتي الضبعة والسلوم."]),
    (5801002, 25, "ثقافة", "2026-03-01T18:40:00+02:00", "1-3-2026 | 18:40", "كتبت - سارة عبد الحميد",
     "معرض القاهرة الدولي للكتاب يستقبل مليون زائر في أسبوعه الأول",
     ["أعلنت الهيئة المصرية العامة للكتاب أن عدد زوار معرض القاهرة الدولي للكتاب تجاوز مليون زائر خلال الأيام السبعة الأولى من دورته الحالية، وسط إقبال لافت من طلاب الجامعات والأسر على أجنحة كتب الأطفال.",
      "وقال رئيس الهيئة إن المعرض يضم هذا العام أكثر من ألف وأربعمائة دار نشر من خمس وثلاثين دولة، وإن البرنامج الثقافي يشمل ندوات يومية حول الترجمة والنشر الرقمي وحقوق المؤلف.",
      "وشهدت قاعة ضيف الشرف ازدحاما كبيرا لحضور أمسيات شعرية شارك فيها شعراء من مصر والعالم العربي، فيما خصصت إدارة المعرض حافلات مجانية لنقل الزوار من محطات المترو القريبة."]),
    (5801003, 13, "أخبار", "2026-02-28T09:05:00+02:00", "28-2-2026 | 09:05", "كتب - أحمد فؤاد",
     "ارتفاع صادرات مصر من الموالح إلى مستوى قياسي",
     ["كشفت بيانات وزارة الزراعة عن ارتفاع صادرات مصر من الموالح منذ بداية الموسم الحالي إلى أكثر من مليون وثمانمائة ألف طن، لتحافظ مصر على موقعها بين أكبر مصدري البرتقال في العالم.",
      "وأوضح رئيس الحجر الزراعي أن الشحنات وصلت إلى أكثر من مائة دولة، أبرزها السعودية وروسيا وهولندا والصين، مؤكدا أن فحص الشحنات يتم إلكترونيا لتقليل زمن الانتظار في الموانئ.",
      "ويرى مصدرون أن تحسن أسعار الشحن البحري وفتح أسواق جديدة في شرق آسيا ساعدا على زيادة الكميات المصدرة، في حين يطالب المزارعون بدعم أكبر لمواجهة ارتفاع تكاليف الأسمدة.",
      "وتستهدف الوزارة زيادة المساحات المزروعة بالأصناف المطلوبة للتصدير خلال السنوات الثلاث المقبلة."]),
    (5801004, 25, "ثقافة", "2026-02-26T13:30:00+02:00", "26-2-2026 | 13:30", "كتب - محمود الدسوقي",
     "اكتشاف مقبرة أثرية جديدة في منطقة سقارة",
     ["أعلنت وزارة السياحة والآثار عن اكتشاف مقبرة منحوتة في الصخر تعود إلى عصر الدولة الحديثة في منطقة سقارة، وتضم نقوشا ملونة في حالة جيدة من الحفظ.",
      "وقال الأمين العام للمجلس الأعلى للآثار إن البعثة الأثرية المصرية عثرت داخل المقبرة على مجموعة من التماثيل الخشبية الصغيرة والأواني الفخارية، إضافة إلى تابوت حجري لم يفتح بعد.",
      "وأضاف أن النقوش تصور صاحب المقبرة وزوجته أمام موائد القرابين، مشيرا إلى أن دراسة الكتابات الهيروغليفية ستكشف عن اسمه ووظيفته خلال الأسابيع المقبلة."]),
]
ALBUM = (5801050, "ألبوم صور | الربيع في حدائق القناطر الخيرية")

MENU = ["الرئيسية", "أخبار", "اقتصاد", "رياضة", "حوادث", "ثقافة", "تكنولوجيا", "فيديو", "ألبومات"]
MENU_IDS = [0, 13, 5, 44, 4, 25, 66, 0, 0]
FOOTER = "جميع الحقوق محفوظة لمؤسسة الأهرام"
READ_ALSO = "اقرأ أيضا"
BOILERPLATE = [FOOTER, "الأكثر قراءة"]


def url(aid) -> str:
    return f"{HOST}/News/{aid}.aspx"


def viewstate(seed: str) -> str:
    """A stand-in __VIEWSTATE: ~12 KB of base64 (the real one is >100 KB of serialized ASP.NET state)."""
    raw = b"".join(hashlib.sha256(f"{seed}{i}".encode()).digest() for i in range(280))
    return base64.b64encode(raw).decode()


def page(title, meta, main, seed) -> Page:
    menu = "\n".join(f'<li><a href="Portal/{i}/0.aspx">{esc(t)}</a></li>' if i else f'<li><a href="/">{esc(t)}</a></li>'
                     for t, i in zip(MENU, MENU_IDS))
    most = "\n".join(f'<li><a href="News/{a[0]}.aspx">{esc(a[6])}</a></li>' for a in ARTICLES[:3])
    doc = f"""<!DOCTYPE html>
<html lang="ar" dir="rtl">
<head>
<base href="{HOST}/">
<title>{esc(title)}</title>
{meta}
<link href="Content/css/site.css" rel="stylesheet">
<script>{INLINE_JS}</script>
</head>
<body>
<form method="post" action="./News/{seed}.aspx" id="form1">
<input type="hidden" name="__VIEWSTATE" id="__VIEWSTATE" value="{viewstate(seed)}">
<div class="header"><a href="/"><img src="Content/images/logo.png" alt="بوابة الأهرام"></a>
<ul class="nav">
{menu}
</ul></div>
<div class="container"><div class="row">
<div class="col-md-8">
{main}
</div>
<div class="col-md-4 sidebar"><h3>الأكثر قراءة</h3><ul>
{most}
</ul></div>
</div></div>
<div class="footer"><p>تابعونا على فيسبوك وتويتر ويوتيوب</p><p>{FOOTER} &copy; 2026</p></div>
</form>
</body></html>
"""
    return Page(doc, LYING_CTYPE, BODY_ENCODING)


def article_page(a) -> Page:
    aid, sec_id, sec, iso, divdate, source, title, paras = a
    other = ARTICLES[(ARTICLES.index(a) + 1) % len(ARTICLES)]
    content = (paragraphs_html(paras[:2])
               + f'\n<p class="st-inarticle-paragraph">{READ_ALSO}: <a href="News/{other[0]}.aspx">{esc(other[6])}</a></p>\n'
               + paragraphs_html(paras[2:]))
    meta = f"""<meta property="og:type" content="article">
<meta property="og:title" content="{esc(title)}">
<meta property="og:url" content="{url(aid)}">
<meta property="article:published_time" content="{iso}">
<meta property="article:section" content="{esc(sec)}">
<link rel="canonical" href="{url(aid)}">"""
    main = f"""<div class="breadcrumb"><a href="/">الرئيسية</a> &gt; <a href="Portal/{sec_id}/0.aspx">{esc(sec)}</a></div>
<h1>{esc(title)}</h1>
<div id="ContentPlaceHolder1_divdate"><span>{divdate}</span></div>
<span id="ContentPlaceHolder1_spnSource">{esc(source)}</span>
<div id="ContentPlaceHolder1_divContent">
{content}
</div>
<div class="share">شارك</div>"""
    return page(f"{title} - بوابة الأهرام", meta, main, str(aid))


def album_page() -> Page:
    aid, title = ALBUM
    meta = f"""<meta property="og:type" content="video.other">
<meta property="og:title" content="{esc(title)}">
<link rel="canonical" href="{url(aid)}">"""
    imgs = "\n".join(f'<img src="Media/News/2026/3/1/{aid}_{i}.jpg" alt="">' for i in range(1, 6))
    main = f"<h1>{esc(title)}</h1>\n<div class=\"album\">\n{imgs}\n</div>\n<p>تصوير: محمد مصطفى</p>"
    return page(f"{title} - بوابة الأهرام", meta, main, str(aid))


def portal(n: int, links, last: int) -> Page:
    rows = "\n".join(f'<div class="outer-news"><a href="{u}"><h3>{esc(t)}</h3></a></div>' for t, u in links)
    pager = " ".join(f'<a href="Portal/13/0.aspx?PageID={i}">{i}</a>' for i in range(1, last + 1))
    return page("أخبار - بوابة الأهرام", "", f"<h1>أخبار</h1>\n{rows}\n<div class=\"pager\">{pager}</div>", f"portal{n}")


def build():
    pages = {}
    for a in ARTICLES:
        pages[f"/News/{a[0]}.aspx"] = article_page(a)
    pages[f"/News/{ALBUM[0]}.aspx"] = album_page()
    a1, a2, a3, a4 = ARTICLES
    pages["/Portal/13/0.aspx?PageID=1"] = portal(1, [
        (a1[6], f"News/{a1[0]}.aspx"),
        (ALBUM[1], f"News/{ALBUM[0]}.aspx"),
        (a2[6], f"NewsPrint/{a2[0]}.aspx"),  # print twin: folds onto /News/<id>.aspx
    ], 2)
    pages["/Portal/13/0.aspx?PageID=2"] = portal(2, [
        (a3[6], f"{HOST}/News/{a3[0]}.aspx?utm_source=facebook&utm_medium=social"),
        (a4[6], f"NewsAmp/{a4[0]}.aspx"),  # AMP twin
    ], 2)
    pages["/Sitemap.xml"] = sitemap([(url(a1[0]), a1[3], a1[6]), (url(a3[0]), a3[3], a3[6])])
    pages["/robots.txt"] = robots(f"""
User-agent: *
Disallow: /Search/
Disallow: /Media/
Sitemap: {HOST}/Sitemap.xml
""")
    expected = {
        "spider": NAME,
        "articles": [{"path": f"/News/{a[0]}.aspx", "title": a[6], "published": a[3], "published_raw": a[3],
                      "lead": None, "body": a[7]} for a in ARTICLES],
        "not_articles": [f"/News/{ALBUM[0]}.aspx"],
        "blocked": [],
        "boilerplate": BOILERPLATE,
        "menu": MENU,
        "never_fetched": ["^/NewsPrint/", "^/NewsAmp/", "utm_", "^/Portal/13/News/"],
        "encoding": "cp1256",
    }
    return pages, expected
