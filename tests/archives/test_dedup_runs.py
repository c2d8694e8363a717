"""``from-warc``'s duplicates: each text once over monthly WARCs, keep or drop copies, the first copy
the same whichever worker finishes first, a persistent store (SQLite or Redis) resumed after a kill
between the store's commit and the output's."""
from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest
from test_run import _variant
from warcs import PARAS_EN, PARAS_FA, page, write_warc

from mcecrawl.archives.output import Output
from mcecrawl.archives.run import RunOptions, run
from mcecrawl.corpus.files import iter_items

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# What identifies an item's outcome; times (fetched_at, unchanged_since) differ from run to run.
OUTCOME = ("url", "warc_record_id", "content_sha1", "duplicate_of", "duplicate_kind", "previous_content_sha1")


def _items(path):
    return list(iter_items([path]))


def _outcome(items):
    return [tuple(i.get(k) for k in OUTCOME) + (bool(i.get("unchanged_since")),) for i in items]


def _monthly_warcs(tmp_path, months=6, pages=5):
    """``months`` crawls of the same ``pages`` pages (one updated in the 4th month), each a WARC."""
    warcs = []
    for m in range(months):
        recs = [(f"http://news.ir/{i}", page(_variant(PARAS_FA, f"p{i}{'-new' if i == 0 and m >= 3 else ''}")).encode())
                for i in range(pages)]
        recs.append((f"http://news.com/{m}", page(_variant(PARAS_EN, m), title="x").encode()))
        path = tmp_path / f"m{m}.warc.gz"
        write_warc(path, recs)
        warcs.append(str(path))
    return warcs



@pytest.fixture(params=["memory", "sqlite", "redis"])
def dedup_db(request, tmp_path):
    if request.param == "memory":
        return None
    if request.param == "sqlite":
        return str(tmp_path / "dedup.sqlite")
    server = request.getfixturevalue("redis_server")
    server.client.flushall()
    return server.url


def test_each_text_once_over_monthly_warcs(tmp_path, dedup_db):
    warcs = _monthly_warcs(tmp_path)
    s = run(RunOptions(warcs, str(tmp_path / "out"), workers=1, dedup_db=dedup_db))
    items = _items(tmp_path / "out")
    assert len(items) == 6 * 5 and s.kept == 30
    firsts = [i for i in items if i["status"] == "ok" and not i["duplicate_of"]]
    assert len(firsts) == len({i["content_sha1"] for i in items}) == 6  # 5 pages + one update
    repeats = [i for i in items if i["duplicate_of"]]
    assert all(i["duplicate_of"] == i["url"] and i["duplicate_kind"] == "exact" for i in repeats)
    assert all(i["unchanged_since"] for i in repeats if i["url"] != "http://news.ir/0")
    update = next(i for i in items if i["url"] == "http://news.ir/0" and i["warc_file"].endswith("m3.warc.gz"))
    assert not update["duplicate_of"] and update["previous_content_sha1"]
    assert s.duplicates == 24


def test_drop_duplicates_writes_each_text_once(tmp_path):
    from mcecrawl.cli import main

    warcs = _monthly_warcs(tmp_path, months=3)
    assert main(["from-warc", *warcs, "-o", str(tmp_path / "d.jsonl"), "--workers", "1", "--drop-duplicates",
                 "--json"]) == 0
    items = _items(tmp_path / "d.jsonl")
    assert len(items) == 5 and not any(i["duplicate_of"] for i in items)
    assert main(["from-warc", *warcs, "-o", str(tmp_path / "k.jsonl"), "--workers", "1", "--keep-duplicates"]) == 0
    assert len(_items(tmp_path / "k.jsonl")) == 15
    with pytest.raises(SystemExit):
        main(["from-warc", *warcs, "-o", str(tmp_path / "x.jsonl"), "--keep-duplicates", "--drop-duplicates"])


def test_first_copy_is_the_first_in_input_order_whichever_worker_finishes_first(tmp_path):
    """A long first WARC and a short second one holding a copy of its last page: with 2 workers the
    second finishes first; the copy in the first WARC must still be the original."""
    shared = page(_variant(PARAS_FA, "shared")).encode()
    big = [(f"http://big.ir/{i}", page(_variant(PARAS_FA, f"b{i}")).encode()) for i in range(40)]
    write_warc(tmp_path / "a.warc.gz", [*big, ("http://big.ir/shared", shared)])
    write_warc(tmp_path / "b.warc.gz", [("http://small.ir/shared", shared)])
    warcs = [str(tmp_path / "a.warc.gz"), str(tmp_path / "b.warc.gz")]
    for n in range(2):
        run(RunOptions(warcs, str(tmp_path / f"o{n}"), workers=2))
        marked = {i["url"]: i["duplicate_of"] for i in _items(tmp_path / f"o{n}") if i["duplicate_of"]}
        assert marked == {"http://small.ir/shared": "http://big.ir/shared"}


@pytest.mark.parametrize("store", ["sqlite", "redis"])
def test_resume_after_a_kill_between_the_store_and_the_state_file(tmp_path, store, request, monkeypatch):
    """The run dies after the store took the 2nd WARC's texts and the items were written, before the
    state file says the WARC is done: the re-run writes what an uninterrupted run writes."""
    warcs = _monthly_warcs(tmp_path, months=3)
    if store == "sqlite":
        db_ref, db = str(tmp_path / "ref.sqlite"), str(tmp_path / "dedup.sqlite")
    else:
        server = request.getfixturevalue("redis_server")
        server.client.flushall()
        db_ref, db = server.url + "#ref", server.url + "#run"
    run(RunOptions(warcs, str(tmp_path / "ref.jsonl"), workers=1, dedup_db=db_ref))
    expected = _outcome(_items(tmp_path / "ref.jsonl"))
    assert Counter(bool(o[3]) for o in expected) == {True: 10, False: 5}

    class Killed(BaseException):
        pass

    real_save = Output._save
    saves = []

    def dying_save(self):
        saves.append(1)
        if len(saves) == 2:  # the 2nd WARC's items are in the store and written, its state is not
            raise Killed
        real_save(self)

    monkeypatch.setattr(Output, "_save", dying_save)
    with pytest.raises(Killed):
        run(RunOptions(warcs, str(tmp_path / "out.jsonl"), workers=1, dedup_db=db))
    monkeypatch.setattr(Output, "_save", real_save)
    s = run(RunOptions(warcs, str(tmp_path / "out.jsonl"), workers=1, dedup_db=db))
    assert s.files_skipped == 1
    assert _outcome(_items(tmp_path / "out.jsonl")) == expected
