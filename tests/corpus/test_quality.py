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


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r["url"])
def test_precomputed_fingerprint_leaves_the_crawl_process_only_the_lookup(record, monkeypatch):
    """With a dedup store, the worker's pass computes the duplicate check's fingerprint too: the
    record is the same (into a fresh store each), and the crawl process computes no signature."""
    from mcecrawl.corpus import dedup

    store_here, store_there = dedup.DedupStore(), dedup.DedupStore()
    here, there = copy.deepcopy(record), copy.deepcopy(record)
    CorpusQuality(store=store_here).apply(here)
    quality = CorpusQuality(store=store_there)
    pre = _precomputed(quality, record)
    assert (pre[1].fingerprint is None) == (not record["text"])
    calls = []
    monkeypatch.setattr(dedup, "signature", lambda *a, **k: calls.append(a))
    quality.apply(there, precomputed=pre)
    assert list(there.items()) == list(here.items()) and calls == []


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


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r["url"])
def test_language_step_first_gives_the_same_record(record):
    """``from-warc``'s order, the language step alone and then the rest, writes what apply() writes."""
    quality = CorpusQuality()
    here, there = copy.deepcopy(record), copy.deepcopy(record)
    quality.apply(here, html="<html><body>x</body></html>")
    quality.identify_language(there)
    quality.apply(there, html="<html><body>x</body></html>", identified=True)
    assert list(there.items()) == list(here.items())


def test_mark_duplicates_is_the_duplicate_step_of_apply():
    """The duplicate step alone, on records whose text_norm a pass without store wrote, marks what
    apply() with the store marks (the parent of a from-warc run, datatrove's step)."""
    from mcecrawl.corpus.dedup import DedupStore

    records = [{**RECORDS[0], "url": f"http://a/{i}", "site": "a"} for i in range(3)]
    records.append({**RECORDS[4], "site": "b"})
    with DedupStore() as one, DedupStore() as other:
        applied = [CorpusQuality(store=one).apply(copy.deepcopy(r)) for r in records]
        marked = [CorpusQuality(store=other, langid=False, dates=False).mark_duplicates(CorpusQuality().apply(
            copy.deepcopy(r))) for r in records]
    assert [r["duplicate_of"] for r in marked] == [None, "http://a/0", "http://a/0", None]
    assert marked == applied
