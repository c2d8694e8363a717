"""Runner: scoring records, seeded bootstrap, breakdowns, unknown algorithms, peers, report table."""
from __future__ import annotations

import importlib.util

import pytest

from eval_fixtures import GOLD_PARAGRAPHS, PARAGRAPHS, install_fake_algorithms, make_dataset
from mcecrawl.evaluation.datasets import load_dataset
from mcecrawl.evaluation.peers import available_peers, run_peer
from mcecrawl.evaluation.report import dataset_table
from mcecrawl.evaluation.runner import (
    bootstrap_ci,
    breakdown,
    evaluate_dataset,
    primary_f1,
    run_pages,
    script_of,
    summarize,
)


@pytest.fixture
def fake_algorithms(monkeypatch):
    return install_fake_algorithms(monkeypatch)


def test_script_groups_keep_hebrew_apart():
    assert {script_of(x) for x in ("ar", "fa", "ur", "ps", "fa-IR")} == {"arabic-script"}
    assert script_of("he") == "hebrew" and script_of("en") == "other" and script_of(None) == "other"


def test_bootstrap_is_seeded_and_brackets_the_mean():
    values = [0.1, 0.9, 0.5, 0.7, 0.3, 0.95, 0.2]
    lo, hi = bootstrap_ci(values)
    assert (lo, hi) == bootstrap_ci(values)  # identical on re-runs
    assert lo < sum(values) / len(values) < hi
    assert bootstrap_ci([0.4]) == (0.4, 0.4)
    assert bootstrap_ci([]) != bootstrap_ci([])  # NaNs: no interval for no data


def test_run_pages_scores_each_kind(tmp_path, fake_algorithms):
    ds = load_dataset(make_dataset(tmp_path / "mini"))
    recs = {r["id"]: r for r in run_pages(ds.scored(), "first", {"P": GOLD_PARAGRAPHS})}
    assert set(recs) == {"page-fa", "page-ar", "page-he", "page-en", "snip-fa"}
    for lang in ("fa", "ar", "he", "en"):
        r = recs[f"page-{lang}"]
        assert r["f1"] == pytest.approx(1.0) and r["char_f1"] == pytest.approx(1.0) and r["status"] == "ok"
        assert r["script"] == script_of(lang) and r["bytes"] > 0 and r["seconds"] >= 0
    snip = recs["snip-fa"]
    assert snip["snippet_accuracy"] == 1.0 and primary_f1(snip) == 1.0 and "f1" not in snip
    # P=1: one of three gold paragraphs -> precision 1, recall = its share of gold tokens
    r = run_pages(ds.filter(lang="en").scored(), "first", {"P": 1})[0]
    gold_tokens = sum(len(p.split()) for p in PARAGRAPHS["en"][:GOLD_PARAGRAPHS])
    assert r["precision"] == 1.0 and r["recall"] == pytest.approx(len(PARAGRAPHS["en"][0].split()) / gold_tokens)


def test_summarize_counts_errors_and_empties(tmp_path, fake_algorithms):
    ds = load_dataset(make_dataset(tmp_path / "mini"))
    s = summarize(run_pages(ds.scored(), "crash", {}))
    assert s["errors"] == 5 and s["f1"] == 0.0 and s["snippet_accuracy"] == 0.5  # the `without` snippet is absent
    s = summarize(run_pages(ds.scored(), "first", {"P": 0}))
    assert s["empties"] == 5 and s["errors"] == 0 and s["f1"] == 0.0
    s = summarize(run_pages(ds.scored(), "first", {"P": 5}))
    assert 0 < s["precision"] < 1 and s["recall"] == 1.0 and s["f1_ci"][0] <= s["f1"] <= s["f1_ci"][1]
    assert s["pages"] == 5 and s["full"] == 4 and s["snippets"] == 1 and s["mb_per_s"] > 0


def test_breakdowns(tmp_path, fake_algorithms):
    ds = load_dataset(make_dataset(tmp_path / "mini"))
    recs = run_pages(ds.scored(), "first", {"P": 3})
    by_script = breakdown(recs, "script")
    assert set(by_script) == {"arabic-script", "hebrew", "other"}
    assert by_script["hebrew"]["pages"] == 1 and by_script["arabic-script"]["pages"] == 3
    assert set(breakdown(recs, "site")) == {"fa.example", "ar.example", "he.example", "en.example"}


def test_unknown_algorithm_and_bad_params_are_reported(tmp_path, fake_algorithms):
    ds = load_dataset(make_dataset(tmp_path / "mini"))
    reports = evaluate_dataset(ds, ["first", "nope", "peer:nonexistent"], {"P": 3})
    assert reports[0].unavailable is None and reports[0].summary()["f1"] == pytest.approx(1.0)
    assert "unknown algorithm 'nope'" in reports[1].unavailable
    assert "not installed" in reports[2].unavailable
    bad = evaluate_dataset(ds, ["first"], {"Q": 1})[0]
    assert "bad parameters" in bad.unavailable
    table = dataset_table("mini", len(ds.scored()), reports)
    assert "nope" in table and "unavailable" in table and "by script" in table and "hebrew" in table
    d = reports[0].as_dict(["site"])
    assert set(d["by"]) == {"script", "site"} and len(d["pages"]) == 5


@pytest.mark.skipif(not available_peers(), reason="no peer extractor installed (extra 'peers')")
def test_peers_adapter(tmp_path):
    ds = load_dataset(make_dataset(tmp_path / "mini", langs=("en",), snippets=False))
    page = ds.pages[0]
    for name in available_peers():
        result = run_peer(name, page.text, page.url)
        assert result.algorithm == f"peer:{name}" and result.status in ("ok", "empty", "error")
    assert run_peer(available_peers()[0], "\x00", None).status in ("empty", "error", "ok")


@pytest.mark.skipif(importlib.util.find_spec("trafilatura") is None, reason="trafilatura not installed")
def test_peer_runs_through_evaluate(tmp_path):
    ds = load_dataset(make_dataset(tmp_path / "mini", langs=("en",), snippets=False))
    rep = evaluate_dataset(ds, ["peer:trafilatura"])[0]
    assert rep.unavailable is None and rep.summary()["pages"] == 1
