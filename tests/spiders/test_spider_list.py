"""Every spider ``scrapy list`` shows can run: it is built from its site profile (the generic
``profile`` spider from ``-a profile=FILE``; the ``news`` spider from ``-a site=URL``), and abstract bases
are not listed."""
from __future__ import annotations

import pytest
from scrapy.settings import Settings
from scrapy.spiderloader import SpiderLoader
from scrapy.utils.test import get_crawler

from mcecrawl import settings as project_settings
from mcecrawl.profile import PROFILES_DIR
from mcecrawl.spiders.base import ProfileSpider
from mcecrawl.spiders.bbc import BBCSpider

LOADER = SpiderLoader(Settings({"SPIDER_MODULES": project_settings.SPIDER_MODULES}))
NAMES = LOADER.list()


def test_the_list_is_the_bundled_sites_plus_the_generic_spider():
    profiles = {p.stem for p in PROFILES_DIR.glob("*.json")}
    assert set(NAMES) == profiles | {"profile", "news"}


def test_the_news_spider_is_built_from_a_site():
    cls = LOADER.load("news")
    spider = cls.from_crawler(get_crawler(cls), site="https://www.example.ir")
    assert [s.key for s in spider.site_list] == ["www.example.ir"]


@pytest.mark.parametrize("name", [n for n in NAMES if n != "news"])
def test_every_listed_spider_is_built_with_its_profile(name):
    cls = LOADER.load(name)
    kwargs = {"profile": str(PROFILES_DIR / "hamshahri.json")} if name == "profile" else {}
    spider = cls.from_crawler(get_crawler(cls), **kwargs)
    assert spider.name == name
    assert spider.profile.name == ("hamshahri" if name == "profile" else name)


def test_abstract_bases_cannot_be_built():
    assert not BBCSpider.name
    with pytest.raises(ValueError, match="must have a name"):
        BBCSpider()
    with pytest.raises(ValueError, match="no site profile"):
        ProfileSpider()  # the generic spider without -a profile=FILE
