"""Fixture site of Reuters Arabic, ara.reuters.com, in its 2014 shape (sites.md §9).  Text written for
the fixtures; the site itself no longer exists in this form.

Quirks reproduced: ids ``id<ARA…><YYYYMMDD>``, RSS links carrying ``feedType``/``feedName``
tracking parameters, the ``?sp=true`` single-page twin, the date only in ``meta[name=REVISION_DATE]``
("Wed Jul 09 08:12:34 UTC 2014", not ISO: the spider converts it), body in ``span#article-text``,
and a video page under the same ``/article/<section>/id…`` shape.
"""
from __future__ import annotations

from sitegen_common import INLINE_JS, Page, esc, paragraphs_html, robots, rss

HOST = "http://ara.reuters.com"
NAME = "reuters_arabic"

# (section, id, REVISION_DATE, ISO equivalent, timestamp text, title, paragraphs)
ARTICLES = [
    ("businessNews", "idARAKBN0FE2AL20140709", "Wed Jul 09 08:12:34 UTC 2014", "2014-07-09T08:12:34+00:00", "Wed Jul 9, 2014 8:12am GMT",
     "أسعار النفط تتراجع مع زيادة المخزونات الأمريكية",
     ["لندن (رويترز) - تراجعت أسعار النفط يوم الأربعاء بعد أن أظهرت بيانات قطاع الصناعة زيادة غير متوقعة في مخزونات الخام الأمريكية، مما طغى على المخاوف بشأن الإمدادات من منطقة الشرق الأوسط.",
      "وانخفض سعر خام برنت في العقود الآجلة تسليم أغسطس آب ثلاثين سنتا إلى مئة وثمانية دولارات للبرميل بحلول الساعة الثامنة بتوقيت جرينتش، بينما نزل الخام الأمريكي أربعين سنتا.",
      "وقال محللون إن السوق تترقب بيانات الحكومة الأمريكية الرسمية في وقت لاحق اليوم لتأكيد حجم الزيادة، مشيرين إلى أن الطلب على البنزين خلال موسم القيادة الصيفي جاء أضعف من المتوقع.",
      "(إعداد عماد الدين للنشرة العربية - تحرير سامح الخطيب)"]),
    ("sportsNews", "idARAKBN0FE27O20140709", "Wed Jul 09 15:40:02 UTC 2014", "2014-07-09T15:40:02+00:00", "Wed Jul 9, 2014 3:40pm GMT",
     "نادي الزمالك يتعاقد مع مدرب برتغالي لقيادة الفريق الأول",
     ["القاهرة (رويترز) - أعلن نادي الزمالك المصري يوم الأربعاء التعاقد مع مدرب برتغالي لمدة موسمين لقيادة فريقه الأول لكرة القدم، خلفا للمدرب السابق الذي رحل بعد نهاية الموسم.",
      "وقال رئيس النادي في مؤتمر صحفي إن المدرب الجديد سيصل إلى القاهرة الأسبوع المقبل للإشراف على معسكر الإعداد الذي يقام في مدينة الإسكندرية استعدادا لانطلاق الدوري.",
      "ويأمل الزمالك في استعادة لقب الدوري الممتاز الذي غاب عن خزائنه منذ عدة مواسم، إلى جانب المنافسة على لقب كأس الاتحاد الأفريقي."]),
    ("topNews", "idARAKBN0FE31B20140710", "Thu Jul 10 06:05:51 UTC 2014", "2014-07-10T06:05:51+00:00", "Thu Jul 10, 2014 6:05am GMT",
     "الأمم المتحدة تدعو إلى زيادة المساعدات الغذائية لمنطقة الساحل",
     ["جنيف (رويترز) - دعت وكالات تابعة للأمم المتحدة يوم الخميس المانحين الدوليين إلى زيادة مساعداتهم الغذائية لدول منطقة الساحل الأفريقي، محذرة من أن ملايين الأشخاص قد يواجهون نقصا حادا في الغذاء خلال موسم الجفاف.",
      "وقال متحدث باسم برنامج الأغذية العالمي إن البرنامج لم يتلق سوى ثلث التمويل المطلوب لهذا العام، وإنه قد يضطر إلى خفض الحصص الغذائية المقدمة للأسر في مخيمات النازحين.",
      "وأضاف أن ارتفاع أسعار الحبوب في الأسواق المحلية وتراجع المحاصيل بسبب ضعف الأمطار يزيدان من صعوبة الوضع، خاصة بالنسبة للأطفال دون سن الخامسة.",
      "(إعداد أحمد حسن للنشرة العربية - تحرير منير البويطي)"]),
    ("businessNews", "idARAKBN0FF0QX20140710", "Thu Jul 10 12:47:19 UTC 2014", "2014-07-10T12:47:19+00:00", "Thu Jul 10, 2014 12:47pm GMT",
     "ارتفاع مؤشر البورصة السعودية بدعم من أسهم البنوك",
     ["دبي (رويترز) - ارتفع المؤشر الرئيسي للبورصة السعودية يوم الخميس بدعم من مكاسب أسهم البنوك الكبرى بعد إعلان نتائج فصلية فاقت توقعات المحللين.",
      "وصعد المؤشر بنسبة واحد بالمئة في التعاملات الصباحية، وقاد سهم أكبر بنك في المملكة من حيث الأصول المكاسب بعد أن أعلن زيادة أرباحه الصافية بنسبة اثني عشر بالمئة.",
      "وقال مدير استثمار في شركة وساطة بالرياض إن المستثمرين يترقبون أيضا قرار فتح السوق أمام المؤسسات الأجنبية، وهو ما قد يجذب تدفقات كبيرة خلال الأشهر المقبلة."]),
]
VIDEO = ("videoNews", "idARAKBN0FE40V20140710", "فيديو: مشاهد من احتفالات عيد الفطر في القاهرة")

MENU = ["الرئيسية", "أهم الأنباء", "أعمال", "أسواق", "رياضة", "تكنولوجيا", "صحة", "فيديو"]
FOOTER = "رويترز مصدر للأخبار وليست مسؤولة عن محتوى المواقع الخارجية. جميع الحقوق محفوظة لتومسون رويترز 2014."
BOILERPLATE = [FOOTER, "الأكثر قراءة", "أخبار ذات صلة"]


def url(a) -> str:
    return f"{HOST}/article/{a[0]}/{a[1]}"


def frame(title, meta, main) -> str:
    menu = "\n".join(f'<li><a href="{HOST}/news/archive/topNews">{esc(t)}</a></li>' for t in MENU)
    most = "\n".join(f'<li><a href="{url(a)}">{esc(a[5])}</a></li>' for a in ARTICLES[1:])
    return f"""<!DOCTYPE html>
<html lang="ar" dir="rtl">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=utf-8">
<title>{esc(title)} | رويترز</title>
{meta}
<link rel="stylesheet" href="/resources_v2/css/rcom-main.css">
<script>{INLINE_JS}</script>
</head>
<body>
<div id="header"><a href="{HOST}/"><img src="/resources_v2/images/reuters-logo.png" alt="رويترز"></a>
<ul id="nav">
{menu}
</ul></div>
<div id="content"><div class="column1 gridPanel">
{main}
</div>
<div class="column2 gridPanel"><div class="module"><h3>الأكثر قراءة</h3><ul>
{most}
</ul></div></div></div>
<div id="footer"><p>{FOOTER}</p></div>
</body></html>
"""


def article_page(a) -> Page:
    sec, aid, rev, iso, stamp, title, paras = a
    meta = f"""<meta name="REVISION_DATE" content="{rev}">
<meta property="og:type" content="article">
<meta property="og:title" content="{esc(title)}">
<meta property="og:url" content="{url(a)}">
<link rel="canonical" href="{url(a)}">"""
    main = f"""<div class="module"><div class="sectionName">{esc(sec)}</div>
<h1 class="article-headline">{esc(title)}</h1>
<div class="article-info"><span class="timestamp">{stamp}</span></div>
<span id="article-text">
{paragraphs_html(paras)}
</span>
<div class="related"><h3>أخبار ذات صلة</h3><ul><li><a href="{url(ARTICLES[0])}">{esc(ARTICLES[0][5])}</a></li></ul></div>
</div>"""
    return Page(frame(title, meta, main), "text/html;charset=UTF-8")


def video_page() -> Page:
    sec, vid, title = VIDEO
    meta = f"""<meta property="og:type" content="video">
<meta property="og:title" content="{esc(title)}">"""
    main = f"""<div class="module"><h1>{esc(title)}</h1><div class="video-player" data-id="{vid}"></div></div>"""
    return Page(frame(title, meta, main), "text/html;charset=UTF-8")


def archive(section: str, n: int, links, last: int) -> Page:
    rows = "\n".join(f'<div class="headlineMed"><a href="{u}">{esc(t)}</a><span class="timestamp">{d}</span></div>'
                     for t, u, d in links)
    pager = " ".join(f'<a href="/news/archive/{section}?view=page&amp;page={i}&amp;pageSize=10">{i}</a>'
                     for i in range(1, last + 1))
    main = f'<div class="module"><h1>أهم الأنباء</h1>\n{rows}\n<div class="pageNavigation">{pager}</div></div>'
    return Page(frame("أهم الأنباء", "", main), "text/html;charset=UTF-8")


def build():
    pages = {}
    for a in ARTICLES:
        pages[f"/article/{a[0]}/{a[1]}"] = article_page(a)
    pages[f"/article/{VIDEO[0]}/{VIDEO[1]}"] = video_page()
    a1, a2, a3, a4 = ARTICLES
    pages["/news/archive/topNews?page=1&pageSize=10&view=page"] = archive("topNews", 1, [
        (a3[5], url(a3), a3[4]),
        (VIDEO[2], f"{HOST}/article/{VIDEO[0]}/{VIDEO[1]}", "Thu Jul 10, 2014"),
        (a2[5], url(a2) + "?sp=true", a2[4]),
    ], 2)
    pages["/news/archive/topNews?page=2&pageSize=10&view=page"] = archive("topNews", 2, [
        (a4[5], url(a4), a4[4]),
        (a1[5], url(a1), a1[4]),
    ], 2)
    pages["/rss/top_news"] = rss("رويترز: أهم الأنباء", HOST, [
        (a[5], url(a) + "?feedType=RSS&feedName=topNews", "Thu, 10 Jul 2014 06:05:51 GMT") for a in (a1, a3)], "ar")
    pages["/robots.txt"] = robots("""
User-agent: *
Disallow: /search/
Disallow: /assets/
""")
    expected = {
        "spider": NAME,
        "articles": [{"path": f"/article/{a[0]}/{a[1]}", "title": a[5], "published": a[3], "published_raw": a[2],
                      "lead": None, "body": a[6]} for a in ARTICLES],
        "not_articles": [f"/article/{VIDEO[0]}/{VIDEO[1]}"],
        "blocked": [],
        "boilerplate": BOILERPLATE,
        "menu": MENU,
        "never_fetched": ["sp=true", "feedType=", "feedName="],
        "encoding": "utf-8",
    }
    return pages, expected
