"""Write the four BBC fixture sites ``mcecrawl/demo/sites/bbc_<service>/`` (+ ``expected.json``).

Run ``python tests/spiders/build_bbc_sites.py`` after changing ``bbc_texts.py`` or the templates.
The pages imitate Simorgh's server-rendered output (sites.md §1.3): ``<html lang dir=rtl>``,
``meta name="article:*"``, og:, one JSON-LD ``@graph``, hashed emotion CSS classes, header
navigation, a most-read block, footer and a ``__NEXT_DATA__`` script carrying the page data
(including the article blocks, as the real pages do).  Discovery mirrors the real entry points:
robots.txt ``Sitemap:`` lines, the mixed-language Google news sitemap index, the per-service
sitemap, the RSS feed (with the ``at_medium`` tracking parameters of real RSS links), the front
page (with an AMP link) and a topic listing whose page 2 holds an article found nowhere else.
Non-articles with article-shaped URLs: a media page (MAP) and a photo gallery (PGL, JSON-LD
``Article``).
"""
from __future__ import annotations

import html
import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bbc_texts import SERVICES  # noqa: E402

SITES_DIR = HERE.parents[1] / "mcecrawl" / "demo" / "sites"
LIVE = "https://www.bbc.com"
CSS = "\n".join(f".bbc-{h}{{{rule}}}" for h, rule in [
    ("1ka88fa", "font-family:ReithSans,Helvetica,Arial,sans-serif;font-size:1rem;line-height:1.5"),
    ("14gqcmb", "font-size:1.75rem;font-weight:700;color:#141414;margin:0 0 1rem"),
    ("hhl7in", "padding-bottom:1.5rem;font-size:1.125rem;line-height:1.75"),
    ("19j92fr", "max-width:46.4rem;margin:0 auto"),
    ("1n11bte", "display:flex;flex-wrap:wrap;list-style:none;background:#b80000"),
    ("v8pjob", "color:#fff;padding:0.75rem;text-decoration:none"),
    ("13n06ky", "border-top:0.0625rem solid #e6e8ea;padding:1rem 0"),
    ("fa0wmp", "padding:0 1rem"), ("1cvxiy9", "color:#545658;font-size:0.875rem")])


def esc(s: str) -> str:
    return html.escape(s, quote=True)


def article_path(svc: str, a: dict) -> str:
    return f"/{svc}/articles/{a['id']}" if a["kind"] == "optimo" else f"/{svc}/{a['id']}"


def chrome_top(svc: str, cfg: dict) -> str:
    nav = "".join(f'<li><a class="bbc-v8pjob" href="/{svc}{"" if i == 0 else "/topics/" + cfg["topic"] if i == 1 else ""}">{esc(n)}</a></li>'
                  for i, n in enumerate(cfg["nav"]))
    return (f'<header role="banner"><div class="bbc-1cvxiy9"><a href="/{svc}">{esc(cfg["brand"])}</a></div>'
            f'<nav role="navigation"><ul class="bbc-1n11bte">{nav}</ul></nav></header>')


def chrome_bottom(svc: str, cfg: dict, teasers: list[dict]) -> str:
    items = "".join(f'<li><span>{i + 1}</span><a href="{article_path(svc, a)}">{esc(a["headline"])}</a></li>'
                    for i, a in enumerate(teasers))
    links = "".join(f'<li><a href="/{svc}/institutional-49283091#{i}">{esc(t)}</a></li>'
                    for i, t in enumerate(cfg["footer_links"]))
    return (f'<section data-e2e="most-read" class="bbc-13n06ky"><h2>{esc(cfg["most_read"])}</h2><ol>{items}</ol></section>'
            f'<footer role="contentinfo" class="bbc-13n06ky"><ul>{links}</ul><p>{esc(cfg["footer"])}</p></footer>')


def page(svc: str, cfg: dict, *, title: str, head: str, main: str, teasers: list[dict], next_data: dict) -> str:
    return f"""<!DOCTYPE html>
<html lang="{cfg['lang']}" dir="rtl" class="no-js">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, minimum-scale=1">
<title>{esc(title)}</title>
{head}
<style>{CSS}</style>
</head>
<body>
<div id="__next"><div class="bbc-1ka88fa">
<a href="#content" class="bbc-1cvxiy9">{esc(cfg['nav'][0])}</a>
{chrome_top(svc, cfg)}
<main role="main" class="bbc-fa0wmp">
{main}
</main>
{chrome_bottom(svc, cfg, teasers)}
</div></div>
<script id="__NEXT_DATA__" type="application/json">{json.dumps(next_data, ensure_ascii=False)}</script>
<script>window.dataLayer=window.dataLayer||[];function gtag(){{dataLayer.push(arguments);}}gtag('js',new Date());gtag('config','G-BBCWS0000',{{'anonymize_ip':true,'page_type':'{next_data['props']['pageProps']['pageData']['metadata']['type']}'}});</script>
</body>
</html>
"""


def article_page(svc: str, cfg: dict, a: dict, others: list[dict], amp: bool = False) -> str:
    url = LIVE + article_path(svc, a)
    date = a["date"][:10]
    author = ({"@type": "Person", "name": a["author"]} if a["author"]
              else {"@type": "NewsMediaOrganization", "name": cfg["brand"]})
    ld = {"@context": "http://schema.org", "@graph": [{
        "@type": "ReportageNewsArticle" if a["kind"] == "optimo" else "NewsArticle",
        "url": url, "headline": a["headline"], "description": a["summary"], "datePublished": a["date"],
        "dateModified": a["date"], "inLanguage": {"@type": "Language", "name": cfg["brand"], "alternateName": cfg["lang"]},
        "mainEntityOfPage": {"@type": "WebPage", "@id": url, "name": a["headline"]},
        "author": author, "publisher": {"@type": "NewsMediaOrganization", "name": cfg["brand"]},
        "image": {"@type": "ImageObject", "url": "https://ichef.bbci.co.uk/ace/ws/640/placeholder.jpg"}}]}
    head = (f'<meta name="description" content="{esc(a["summary"])}">\n'
            f'<link rel="canonical" href="{url}">\n'
            + ("" if amp or a["kind"] != "optimo" else f'<link rel="amphtml" href="{url}.amp">\n')
            + f'<meta property="og:title" content="{esc(a["headline"])}">\n'
            f'<meta property="og:type" content="article">\n<meta property="og:url" content="{url}">\n'
            f'<meta property="og:locale" content="{cfg["locale"]}">\n'
            f'<meta name="article:published_time" content="{a["date"]}">\n'
            f'<meta name="article:modified_time" content="{a["date"]}">\n'
            f'<meta name="article:section" content="{esc(a["section"])}">\n'
            f'<meta name="article:author" content="https://www.facebook.com/bbc{svc}">\n'
            f'<script type="application/ld+json">{json.dumps(ld, ensure_ascii=False)}</script>')
    byline = (f'<div class="bbc-1cvxiy9"><span>{esc(a["author"])}</span><span>{esc(cfg["brand"])}</span></div>'
              if a["author"] else "")
    paras = "\n".join(f'<div class="bbc-19j92fr"><p dir="rtl" class="bbc-hhl7in">{esc(p)}</p></div>' for p in a["paragraphs"])
    related = "".join(f'<li><a href="{article_path(svc, o)}">{esc(o["headline"])}</a></li>' for o in others[:2])
    main = (f'<div class="bbc-fa0wmp"><h1 id="content" tabindex="-1" class="bbc-14gqcmb">{esc(a["headline"])}</h1></div>\n'
            f'{byline}<time datetime="{date}" class="bbc-1cvxiy9">{date}</time>\n{paras}\n'
            f'<section aria-labelledby="related-content-heading" class="bbc-13n06ky"><h2 id="related-content-heading">{esc(cfg["related"])}</h2><ul>{related}</ul></section>')
    blocks = [{"type": "text", "model": {"blocks": [{"type": "paragraph", "model": {"text": p}}]}} for p in a["paragraphs"]]
    nd = {"props": {"pageProps": {"pageData": {"metadata": {
        "type": "article" if a["kind"] == "optimo" else "STY", "id": a["id"], "language": cfg["lang"],
        "firstPublished": a["date"]}, "content": {"model": {"blocks": blocks}}}, "service": svc}},
        "page": "/[service]/articles/[id]" if a["kind"] == "optimo" else "/[service]/[id]"}
    return page(svc, cfg, title=f'{a["headline"]} - {cfg["brand"]}', head=head, main=main, teasers=others, next_data=nd)


def non_article_page(svc: str, cfg: dict, path: str, kind: str, title: str, teasers: list[dict]) -> str:
    url = LIVE + path
    ld_type = "Article" if kind == "PGL" else "WebPage"  # Simorgh: "Article" for photo galleries
    ld = {"@context": "http://schema.org", "@graph": [{"@type": ld_type, "url": url, "headline": title,
                                                       "datePublished": "2026-03-01T10:00:00Z"}]}
    head = (f'<link rel="canonical" href="{url}">\n<meta property="og:title" content="{esc(title)}">\n'
            f'<meta property="og:type" content="article">\n'
            f'<script type="application/ld+json">{json.dumps(ld, ensure_ascii=False)}</script>')
    figs = "".join(f'<figure><img src="https://ichef.bbci.co.uk/ace/ws/640/{kind.lower()}-{i}.jpg" alt=""><figcaption>{esc(title)} {i}</figcaption></figure>'
                   for i in range(1, 5))
    main = f'<h1 id="content" class="bbc-14gqcmb">{esc(title)}</h1>{figs}'
    nd = {"props": {"pageProps": {"pageData": {"metadata": {"type": kind, "language": cfg["lang"]}}}}, "page": "/[service]/[id]"}
    return page(svc, cfg, title=f"{title} - {cfg['brand']}", head=head, main=main, teasers=teasers, next_data=nd)


def listing_page(svc: str, cfg: dict, title: str, links: list[tuple[str, str]], teasers: list[dict],
                 pager: str = "") -> str:
    items = "\n".join(f'<li class="bbc-13n06ky"><h3><a href="{esc(h)}">{esc(t)}</a></h3></li>' for h, t in links)
    main = f'<h1 id="content" class="bbc-14gqcmb">{esc(title)}</h1><ul>{items}</ul>{pager}'
    nd = {"props": {"pageProps": {"pageData": {"metadata": {"type": "IDX", "language": cfg["lang"]}}}}, "page": "/[service]"}
    return page(svc, cfg, title=f"{title} - {cfg['brand']}", head="", main=main, teasers=teasers, next_data=nd)


def urlset(entries: list[dict], news: bool) -> str:
    out = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
           '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">']
    for e in entries:
        out.append(f"    <url>\n        <loc>{esc(e['loc'])}</loc>\n        <lastmod>{e['date']}</lastmod>")
        if news:
            out.append(f"        <news:news>\n            <news:publication>\n                <news:name>{esc(e['name'])}</news:name>\n"
                       f"                <news:language>{e['lang']}</news:language>\n            </news:publication>\n"
                       f"            <news:publication_date>{e['date']}</news:publication_date>\n"
                       f"            <news:title>{esc(e['title'])}</news:title>\n        </news:news>")
        out.append("    </url>")
    out.append("</urlset>\n")
    return "\n".join(out)


def rfc822(iso: str) -> str:
    from datetime import datetime
    from email.utils import format_datetime

    return format_datetime(datetime.fromisoformat(iso.replace("Z", "+00:00")))


def build(svc: str, cfg: dict) -> dict:
    root = SITES_DIR / f"bbc_{svc}"
    if root.exists():
        shutil.rmtree(root)
    files: dict[str, str] = {}
    arts = cfg["articles"]
    optimo = [a for a in arts if a["kind"] == "optimo"]
    cps = [a for a in arts if a["kind"] == "cps"]
    o_first, o_amp, o_paged = optimo[0], optimo[1], optimo[-1]
    o_rest = optimo[2:-1]
    media = (f"/{svc}/media-{49522521}", "MAP", cfg["media_title"])
    gallery = (f"/{svc}/in-pictures-{55130012}", "PGL", cfg["gallery_title"])
    for a in arts:
        others = [o for o in arts if o is not a]
        files[article_path(svc, a).lstrip("/") + ".html"] = article_page(svc, cfg, a, others)
        if a["kind"] == "optimo":
            files[article_path(svc, a).lstrip("/") + ".amp.html"] = article_page(svc, cfg, a, others, amp=True)
    for path, kind, title in (media, gallery):
        files[path.lstrip("/") + ".html"] = non_article_page(svc, cfg, path, kind, title, arts)
    institutional = f"/{svc}/institutional-49283091"  # an index page (IDX) of CPS shape
    files[institutional.lstrip("/") + ".html"] = listing_page(
        svc, cfg, cfg["footer_links"][2], [(f"/{svc}", cfg["brand"])], arts[:3])
    # bbc.com's own also has "User-agent: Scrapy / Disallow: /", which mcecrawl obeys
    # (MCE_ROBOTSTXT_ALSO_OBEY); the fixture leaves it out so the offline demo can run.
    files["robots.txt"] = (f"# Fixture robots.txt in the shape of bbc.com's (sites.md §0.1), minus its\n"
                           f"# \"User-agent: Scrapy / Disallow: /\" block: mcecrawl obeys that rule (it is\n"
                           f"# Scrapy-based), so a copy would refuse the offline demo; tests/test_crawl_robots.py\n"
                           f"# checks the refusal.\n"
                           f"User-agent: *\nDisallow: /{svc}/send/\n"
                           f"Disallow: /{svc}/private/\n\n"
                           f"Sitemap: {LIVE}/{svc}/sitemap.xml\nSitemap: {LIVE}/sitemaps/https-index-com-news.xml\n")
    files["sitemaps/https-index-com-news.xml"] = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"  <sitemap><loc>{LIVE}/sitemaps/https-sitemap-com-news-2.xml</loc><lastmod>2026-03-14T10:00:00Z</lastmod></sitemap>\n"
        "</sitemapindex>\n")
    other_lang = {"fa": ("urdu", "ur", "BBC Urdu"), }.get(cfg["lang"], ("persian", "fa", "BBC Persian"))
    news = [dict(loc=LIVE + article_path(svc, a), date=a["date"], name=cfg["brand"], lang=cfg["lang"], title=a["headline"])
            for a in [o_first] + cps]
    news.append(dict(loc=LIVE + media[0], date="2026-03-01T10:00:00Z", name=cfg["brand"], lang=cfg["lang"], title=media[2]))
    news.append(dict(loc=f"{LIVE}/{other_lang[0]}/articles/c0ther1ang0o", date="2026-03-02T10:00:00Z",
                     name=other_lang[2], lang=other_lang[1], title="other service"))
    files["sitemaps/https-sitemap-com-news-2.xml"] = urlset(news, news=True)
    files[f"{svc}/sitemap.xml"] = urlset([dict(loc=LIVE + article_path(svc, a), date=a["date"]) for a in (o_amp, o_first)], news=False)
    rss_items = "\n".join(
        f"<item><title>{esc(a['headline'])}</title><description>{esc(a['summary'])}</description>"
        f"<link>{LIVE}{article_path(svc, a)}?at_medium=RSS&amp;at_campaign=rss</link>"
        f"<guid isPermaLink=\"false\">{LIVE}{article_path(svc, a)}</guid><pubDate>{rfc822(a['date'])}</pubDate></item>"
        for a in [o_first] + o_rest)
    files[f"{svc}/rss.xml"] = (f'<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>{esc(cfg["brand"])}</title>'
                               f"<link>{LIVE}/{svc}</link><language>{cfg['lang']}</language>\n{rss_items}\n</channel></rss>\n")
    front_links = [(article_path(svc, o_first), o_first["headline"]),
                   (article_path(svc, o_amp) + ".amp", o_amp["headline"]),
                   (gallery[0], gallery[2]), (media[0], media[2]),
                   (f"/{svc}/topics/{cfg['topic']}", cfg["topic_name"]),
                   (f"/{svc}/send/u50853489", "send"), ("https://www.bbc.co.uk/ws/languages", "BBC World Service")]
    files[f"{svc}/index.html"] = listing_page(svc, cfg, cfg["brand"], front_links, arts[:3])
    page1 = [(article_path(svc, a), a["headline"]) for a in o_rest] + [(article_path(svc, o_first), o_first["headline"])]
    pager = ('<nav data-testid="topic-pagination" aria-label="Page"><ul><li><span aria-current="page">1</span></li>'
             '<li><a href="?page=2">2</a></li></ul></nav>')
    files[f"{svc}/topics/{cfg['topic']}.html"] = listing_page(svc, cfg, cfg["topic_name"], page1, arts[:3], pager)
    pager2 = ('<nav data-testid="topic-pagination" aria-label="Page"><ul><li><a href="?page=1">1</a></li>'
              '<li><span aria-current="page">2</span></li></ul></nav>')
    files[f"{svc}/topics/{cfg['topic']}@page=2.html"] = listing_page(
        svc, cfg, cfg["topic_name"], [(article_path(svc, o_paged), o_paged["headline"])], arts[:3], pager2)
    files[f"{svc}/topics/{cfg['topic']}@page=1.html"] = files[f"{svc}/topics/{cfg['topic']}.html"]
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    expected = {
        "spider": f"bbc_{svc}", "lang": cfg["lang"], "site": cfg["brand"],
        "articles": [{"canonical_url": LIVE + article_path(svc, a), "title": a["headline"],
                      "published": a["date"].replace("Z", "+00:00"), "authors": [a["author"]] if a["author"] else [],
                      "paragraphs": a["paragraphs"]} for a in arts],
        "non_articles": [LIVE + media[0], LIVE + gallery[0], LIVE + institutional],
        "boilerplate": [cfg["footer"], cfg["most_read"], cfg["related"]],
    }
    (root / "expected.json").write_text(json.dumps(expected, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return expected


def main() -> None:
    for svc, cfg in SERVICES.items():
        exp = build(svc, cfg)
        print(f"bbc_{svc}: {len(exp['articles'])} articles, {len(exp['non_articles'])} non-articles")


if __name__ == "__main__":
    main()
