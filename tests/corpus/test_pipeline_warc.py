"""CorpusQualityPipeline + WARC archive in a real crawl against a 127.0.0.1 server, then
``mcecrawl reextract`` and ``mcecrawl stats`` on what the crawl wrote."""
from __future__ import annotations

import gzip
import json
import textwrap
from argparse import Namespace
from pathlib import Path

import pytest
from scrapy import Request, Spider
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse
from scrapy.utils.test import get_crawler

from mcecrawl import settings as project_settings
from mcecrawl.archives.reader import Record, iter_records
from mcecrawl.downloadermiddlewares import WarcArchiveMiddleware
from pageserver import crawl_served_pages

ROOT = Path(__file__).resolve().parents[2]
ZW = "\u200c"

FA_PARAS = [
    f"وزارت امور خارجه ایران روز دوشنبه اعلام کرد که مذاکرات هسته{ZW}ای هفته آینده در وین ادامه خواهد یافت و هیئت ایرانی با پیشنهادهای تازه به میز مذاکره بازمی{ZW}گردد.",
    f"سخنگوی این وزارتخانه در نشست خبری هفتگی گفت که طرف{ZW}های مقابل باید با اراده سیاسی لازم در گفت{ZW}وگوها شرکت کنند و تحریم{ZW}های یک{ZW}جانبه را بردارند.",
    "او افزود که جمهوری اسلامی ایران همواره به تعهدات خود پایبند بوده است و اکنون نوبت کشورهای اروپایی است که گام{ZW}های عملی بردارند.".replace("{ZW}", ZW),
    f"کارشناسان روابط بین{ZW}الملل معتقدند دور تازه مذاکرات می{ZW}تواند به توافقی موقت بینجامد، هرچند اختلاف{ZW}ها بر سر سازوکار راستی{ZW}آزمایی همچنان پابرجاست.",
    f"به گزارش خبرنگار ما، نمایندگان مجلس نیز در نامه{ZW}ای به رئیس جمهور خواستار شفافیت بیشتر درباره جزئیات مذاکرات و پیامدهای اقتصادی آن شدند.",
]
AR_PARAS = [
    "أعلنت وزارة الخارجية يوم الاثنين أن المحادثات ستستأنف الأسبوع المقبل في العاصمة النمساوية بمشاركة وفود من عدة دول.",
    "وقال المتحدث باسم الوزارة في مؤتمر صحفي إن الأطراف المعنية مطالبة بإظهار الإرادة السياسية اللازمة للتوصل إلى اتفاق.",
    "وأضاف أن بلاده ملتزمة بتعهداتها وأن على الدول الأوروبية اتخاذ خطوات عملية لرفع العقوبات المفروضة منذ سنوات.",
    "ويرى محللون أن الجولة الجديدة قد تفضي إلى اتفاق مؤقت رغم استمرار الخلافات حول آليات التحقق والمراقبة الدولية.",
]


def _page(title: str, paras: list[str], head: str = "", lang: str = "fa") -> str:
    nav = "".join(f'<li><a href="/s/{i}">بخش {i}</a></li>' for i in range(12))
    body = "".join(f"<p>{p}</p>\n" for p in paras)
    return (f'<!DOCTYPE html><html lang="{lang}" dir="rtl"><head><title>{title}</title>{head}</head><body>\n'
            f'<header><ul>{nav}</ul></header>\n<div class="article"><h1>{title}</h1>\n{body}</div>\n'
            f'<footer><a href="/about">درباره ما</a> | <a href="/contact">تماس</a> © 2023</footer>\n</body></html>')


def _legacy(html: str) -> bytes:
    """What a windows-1256 Persian site serves: Arabic yeh for Persian yeh, ASCII digits (c.1 #7)."""
    return html.replace("ی", "ي").translate(str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789")).encode("cp1256")


EDITED = [p.replace("دوشنبه", "سه{}شنبه".format(ZW)) for p in FA_PARAS]
PAGES = {
    # legacy encoding + gzip: the WARC must hold these bytes, reextract must decode them again
    "/fa/1": ("text/html; charset=windows-1256",
              _legacy(_page("ادامه مذاکرات در وین", FA_PARAS, '<meta name="date" content="۱۴۰۲/۰۸/۱۵ - ۱۰:۳۰">')),
              True),
    "/other/7": ("text/html; charset=utf-8", _page("مذاکرات وین", EDITED).encode("utf-8"), False),
    "/ar/1": ("text/html; charset=utf-8",
              _page("استئناف المحادثات", ["الجمعة 15 ربيع الأول 1445 هـ"] + AR_PARAS, lang="ar").encode("utf-8"), False),
}


CRAWL_SCRIPT = textwrap.dedent("""
    import json, sys
    import scrapy
    from scrapy.crawler import CrawlerProcess
    from scrapy.settings import Settings
    from mcecrawl import settings as project
    from mcecrawl.items import ArticleItem

    base, out = sys.argv[1], sys.argv[2]
    SITES = {"/fa/1": ("site-a", "fa"), "/other/7": ("site-b", "fa"), "/ar/1": ("site-c", "fa")}

    class TinySpider(scrapy.Spider):
        name = "tiny"

        async def start(self):
            for path in SITES:
                yield scrapy.Request(base + path)

        def parse(self, response):
            site, lang = SITES[response.url[len(base):]]
            yield ArticleItem(url=response.url, canonical_url=response.url, site=site, lang=lang,
                              title=response.css("title::text").get(), authors=[],
                              published_raw=response.css('meta[name="date"]::attr(content)').get(),
                              algorithm="dana", params={}, html=response.text)

    settings = Settings()
    settings.setmodule(project)
    settings.setdict({"ROBOTSTXT_OBEY": False, "DOWNLOAD_DELAY": 0, "AUTOTHROTTLE_ENABLED": False,
                      "CONCURRENT_REQUESTS_PER_DOMAIN": 1, "TELNETCONSOLE_ENABLED": False, "LOG_LEVEL": "WARNING",
                      # one worker: items reach dedup in request order ("the first copy" is /fa/1); with two,
                      # whichever worker finishes first would decide
                      "MCE_EXTRACTION_WORKERS": 1,
                      "MCE_WARC_ENABLED": True, "MCE_WARC_DIR": out + "/warc", "MCE_DEDUP_DB": out + "/dedup.sqlite",
                      "FEEDS": {out + "/items.jsonl": {"format": "jsonlines", "encoding": "utf-8"}}})
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(TinySpider)
    process.crawl(crawler)
    process.start()
    with open(out + "/stats.json", "w") as f:
        json.dump(crawler.stats.get_stats(), f, default=str)
""")


@pytest.fixture(scope="module")
def crawl(tmp_path_factory):
    out = tmp_path_factory.mktemp("corpus_crawl")
    items, stats, base = crawl_served_pages(PAGES, CRAWL_SCRIPT, out)
    return out, base, {item["url"][len(base):]: item for item in items}, stats


def test_settings_order():
    mws, pipes = project_settings.DOWNLOADER_MIDDLEWARES, project_settings.ITEM_PIPELINES
    assert mws["mcecrawl.downloadermiddlewares.WarcArchiveMiddleware"] > 590  # before decompression (590)
    assert mws["mcecrawl.downloadermiddlewares.WarcArchiveMiddleware"] > mws["mcecrawl.downloadermiddlewares.EncodingNormalizationMiddleware"]
    assert pipes["mcecrawl.pipelines.CorpusQualityPipeline"] > pipes["mcecrawl.pipelines.ExtractionPipeline"]
    assert project_settings.MCE_WARC_ENABLED is False and project_settings.MCE_DEDUP_DROP is False


def test_warc_disabled_by_default():
    with pytest.raises(NotConfigured):
        WarcArchiveMiddleware.from_crawler(get_crawler(Spider, {}))


def test_warc_middleware_unit(tmp_path):
    crawler = get_crawler(Spider, {"MCE_WARC_ENABLED": True, "MCE_WARC_DIR": str(tmp_path / "%(name)s")})
    crawler.stats.open_spider()
    mw = WarcArchiveMiddleware.from_crawler(crawler)
    raw = "<html><body><p>سلام دنيا</p></body></html>".encode("cp1256")
    request = Request("http://127.0.0.1/a?b=1")
    response = HtmlResponse("http://127.0.0.1/a?b=1", body=gzip.compress(raw), request=request,
                            headers={"Content-Type": "text/html; charset=windows-1256", "Content-Encoding": "gzip",
                                     "Transfer-Encoding": "chunked"})
    assert mw.process_response(request, response) is response
    assert request.meta["warc_record_id"].startswith("<urn:uuid:")
    mw.close()
    files = list(tmp_path.rglob("*.warc.gz"))
    assert len(files) == 1 and not list(tmp_path.rglob("*.open"))
    [rec] = [r for f in files for r in iter_records(f) if isinstance(r, Record)]
    assert (rec.record_id, rec.url, rec.status, rec.body) == (request.meta["warc_record_id"], request.url, 200, raw)
    assert rec.content_type == "text/html; charset=windows-1256"
    assert crawler.stats.get_value("mcecrawl/warc/records") == 2


def test_crawl_items_have_quality_fields(crawl):
    _, base, items, stats = crawl
    assert set(items) == set(PAGES)
    fa = items["/fa/1"]
    assert fa["status"] == "ok" and fa["lang_detected"] == "fa" and fa["lang_confidence"] > 0.9
    assert fa["text_norm"] and ZW in fa["text"] and fa["text_norm"] != ""
    assert (fa["published"], fa["calendar"], fa["published_raw"]) == ("2023-11-06T10:30:00", "jalali", "1402/08/15 - 10:30")
    assert fa["duplicate_of"] is None
    assert fa["warc_record_id"].startswith("<urn:uuid:")
    other = items["/other/7"]
    assert other["duplicate_of"] == base + "/fa/1" and other["duplicate_kind"] == "near"
    assert other["duplicate_cross_site"] is True  # syndication across sites
    ar = items["/ar/1"]
    assert ar["lang_detected"] == "ar" and ar["lang_mismatch"] is True  # declared fa
    assert (ar["published"], ar["calendar"]) == ("2023-09-30", "hijri")
    assert stats["mcecrawl/corpus/items"] == 3
    assert stats["mcecrawl/corpus/text_steps_in_worker"] == 3  # text_norm and dates done beside the extraction
    assert stats["mcecrawl/corpus/lang_mismatch"] == 1 and stats["mcecrawl/corpus/duplicates/near"] == 1
    assert stats["mcecrawl/corpus/duplicates/cross_site"] == 1
    assert stats["mcecrawl/warc/records"] == 6


def test_zwnj_kept_through_crawl(crawl):
    _, _, items, _ = crawl
    text = items["/fa/1"]["text"].replace("ي", "ی")  # the legacy page has Arabic yeh
    assert items["/fa/1"]["text"].count(ZW) == sum(p.count(ZW) for p in FA_PARAS)
    for word in ("هسته\u200cای", "بازمی\u200cگردد", "طرف\u200cهای", "گفت\u200cوگوها", "می\u200cتواند"):
        assert word in text


def test_warc_holds_original_bytes(crawl):
    out, base, items, _ = crawl
    warcs = sorted((out / "warc").glob("*.warc.gz"))
    assert warcs and not list((out / "warc").glob("*.open"))
    recs = {r.url[len(base):]: r for w in warcs for r in iter_records(w) if isinstance(r, Record)}
    assert recs["/fa/1"].body == PAGES["/fa/1"][1]  # cp1256 bytes, not the UTF-8 the spider saw
    assert recs["/fa/1"].record_id == items["/fa/1"]["warc_record_id"]


def test_reextract_rebuilds_the_corpus(crawl, tmp_path):
    from mcecrawl.commands import reextract

    out, base, items, _ = crawl
    warcs = [str(p) for p in sorted((out / "warc").glob("*.warc.gz"))]
    target = tmp_path / "re.jsonl"
    args = Namespace(warcs=warcs, output=str(target), algorithm=None, param=None, profile=None, dedup_db=None,
                     items=str(out / "items.jsonl"), all_pages=False)
    assert reextract.run(args) == 0
    again = {json.loads(line)["url"][len(base):]: json.loads(line) for line in target.read_text("utf-8").splitlines()}
    assert set(again) == set(items)
    for path, item in items.items():
        for key in ("text", "text_norm", "status", "lang_detected", "published", "calendar", "warc_record_id",
                    "site", "duplicate_of"):
            assert again[path][key] == item[key], (path, key)
    assert again["/fa/1"]["encoding_original"] == "cp1256"  # decoded again from the archived bytes
    # a different algorithm, same archive
    args.algorithm, args.output = "danag", str(tmp_path / "re2.jsonl")
    assert reextract.run(args) == 0
    assert all(json.loads(line)["algorithm"] == "danag" for line in Path(args.output).read_text("utf-8").splitlines())


def test_reextract_bad_input(tmp_path, capsys):
    from mcecrawl.commands import reextract

    args = Namespace(warcs=[str(tmp_path / "missing.warc.gz")], output=str(tmp_path / "x.jsonl"), algorithm=None,
                     param=None, profile=None, dedup_db=None, items=None, all_pages=False)
    assert reextract.run(args) == 2
    assert "no such file" in capsys.readouterr().err


def test_items_follow_the_item_schema(crawl):
    jsonschema = pytest.importorskip("jsonschema")
    from mcecrawl.corpus.quality import QUALITY_FIELDS

    schema = json.loads((ROOT / "mcecrawl" / "schema" / "item.schema.json").read_text("utf-8"))
    ours = {k: schema["properties"][k] for k in (*QUALITY_FIELDS, "warc_record_id")}
    validator = jsonschema.Draft202012Validator({"type": "object", "properties": ours})
    _, _, items, _ = crawl
    for item in items.values():
        assert set(ours) <= set(item)
        assert not [e.message for e in validator.iter_errors(item)]


def test_warc_rotation_and_request_records(tmp_path):
    from warcio.archiveiterator import ArchiveIterator

    crawler = get_crawler(Spider, {"MCE_WARC_ENABLED": True, "MCE_WARC_DIR": str(tmp_path), "MCE_WARC_MAX_BYTES": 1})
    crawler.stats.open_spider()
    mw = WarcArchiveMiddleware.from_crawler(crawler)
    for i in range(3):
        request = Request(f"http://127.0.0.1/p{i}", headers={"User-Agent": "t"})
        mw.process_response(request, HtmlResponse(request.url, body=b"<p>x</p>", request=request))
    mw.close()
    files = sorted(tmp_path.glob("*.warc.gz"))
    assert len(files) == 3 and crawler.stats.get_value("mcecrawl/warc/files") == 3
    with open(files[0], "rb") as f:
        records = list(ArchiveIterator(f))
    assert [r.rec_type for r in records] == ["warcinfo", "response", "request"]
    assert records[2].rec_headers.get_header("WARC-Concurrent-To") == records[1].rec_headers.get_header("WARC-Record-ID")
    assert records[2].http_headers.protocol == "GET" and records[2].http_headers.get_header("Host") == "127.0.0.1"
