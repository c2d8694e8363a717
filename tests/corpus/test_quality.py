"""CorpusQuality: the text steps done elsewhere (an extraction worker) give the very record the
crawl process would have written, and are ignored when anything they were computed from changed."""
from __future__ import annotations

import copy
import pickle

import pytest

from mcecrawl.corpus.quality import CorpusQuality, TextQuality

TEXT = ("وزارت امور خارجه ایران روز دوشنبه ۱۵ آبان ۱۴۰۲ اعلام کرد که مذاکرات هسته\u200cای هفته آینده در وین ادامه "
        "خواهد یافت.\nسخنگوی این وزارتخانه گفت كه هیئت ایرانی با پیشنهادهای تازه به مذاکرات بازمی\u200cگردد.")

RECORDS = [
    {"url": "http://a/1", "lang": "fa", "title": "t", "text": TEXT, "published_raw": None},
    {"url": "http://a/2", "lang": "fa", "title": "t", "text": TEXT, "published_raw": "2024-05-13T10:00:00Z",
     "published": "2024-05-13T10:00:00+00:00"},
    {"url": "http://a/3", "lang": "fa", "title": "t", "text": TEXT, "published_raw": "نامعلوم", "published": "x"},
    {"url": "http://a/4", "lang": "ar", "title": "", "text": "", "published_raw": "nothing"},
    {"url": "http://a/5", "lang": "ur", "title": "t", "text": TEXT.replace("۱۵ آبان ۱۴۰۲", "")},
]
CONFIGS = [{}, {"langid": False}, {"dates": False}, {"normalize_params": {"digits": "keep", "zwnj": "space"}}]


def _precomputed(quality: CorpusQuality, record: dict) -> tuple[str, TextQuality]:
    """What an extraction worker sends back: computed by a store-less pass built from settings_key()."""
    worker = CorpusQuality.from_settings_key(quality.settings_key())
    tq = worker.analyse(record["text"], record["lang"], quality.text_inputs(record))
    return record["text"], pickle.loads(pickle.dumps(tq))


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r["url"])
def test_precomputed_text_steps_give_the_same_record(record, config):
    quality = CorpusQuality(**config)
    here, there = copy.deepcopy(record), copy.deepcopy(record)
    quality.apply(here)
    quality.apply(there, precomputed=_precomputed(quality, record))
    assert list(there.items()) == list(here.items())  # values and field order


@pytest.mark.parametrize("change", ["text", "lang", "published_raw", "published", "settings"])
def test_precomputed_is_ignored_when_its_inputs_changed(change):
    quality = CorpusQuality()
    record = dict(RECORDS[0])
    pre = _precomputed(quality, record)
    if change == "text":
        record["text"] = TEXT.replace("۱۵ آبان ۱۴۰۲", "۲۰ آذر ۱۴۰۲")
    elif change == "lang":
        record["lang"] = "ar"
    elif change == "published_raw":
        record["published_raw"] = "2020-01-02"
    elif change == "published":
        record["published"] = "2020-01-02"
    else:
        quality = CorpusQuality(normalize_params={"digits": "native"})
    expected = quality.apply(dict(record))
    assert quality.apply(dict(record), precomputed=pre) == expected
