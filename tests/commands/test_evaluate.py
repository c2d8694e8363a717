"""``mcecrawl evaluate``: tables, JSON, identical accuracy on re-runs, missing algorithms, gate flags."""
from __future__ import annotations

import json

import pytest

from eval_fixtures import install_fake_algorithms, make_dataset, run_command
from mcecrawl import cli
from mcecrawl.commands import parse_params


@pytest.fixture
def fake_algorithms(monkeypatch):
    return install_fake_algorithms(monkeypatch)


def test_registered():
    assert {"evaluate", "tune", "plot"} <= set(cli.COMMANDS)


def test_parse_params():
    assert (parse_params(["P=8", "w=0.5", "mode=lines", "flag=true"])
            == {"P": 8, "w": 0.5, "mode": "lines", "flag": True})
    with pytest.raises(Exception):
        parse_params(["P"])


def test_table_and_json(tmp_path, fake_algorithms, capsys):
    root = make_dataset(tmp_path / "mini")
    out = tmp_path / "out.json"
    assert run_command("evaluate", root, "--algorithm", "first,crash,nope", "--param", "P=3", "--by", "site",
                       "--by", "lang", "--json", out) == 0
    text = capsys.readouterr().out
    assert "== mini: 5 scored pages" in text
    assert "first" in text and "crash" in text and "unavailable: unknown algorithm 'nope'" in text
    assert "by script" in text and "by site" in text and "by lang" in text
    data = json.loads(out.read_text(encoding="utf-8"))
    results = {r["algorithm"]: r for r in data["datasets"]["mini"]["results"]}
    assert results["first"]["summary"]["f1"] == pytest.approx(1.0)
    assert results["crash"]["summary"]["errors"] == 5
    assert "unavailable" in results["nope"]
    assert set(results["first"]["by"]) == {"script", "site", "lang"}
    assert results["first"]["by"]["script"]["hebrew"]["pages"] == 1


def _accuracy(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    for ds in data["datasets"].values():
        ds.pop("seconds")
        for r in ds["results"]:
            r.get("summary", {}).pop("mb_per_s", None)
            for group in r.get("by", {}).values():
                for s in group.values():
                    s.pop("mb_per_s", None)
            for page in r.get("pages", []):
                page.pop("seconds")
    return data


def test_reruns_give_identical_accuracy(tmp_path, fake_algorithms, capsys):
    root = make_dataset(tmp_path / "mini")
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for out in (a, b):
        assert run_command("evaluate", root, "-a", "first", "--param", "P=2", "--json", out) == 0
    assert _accuracy(a) == _accuracy(b)


def test_usage_errors(tmp_path, fake_algorithms, capsys):
    assert run_command("evaluate") == 2
    assert run_command("evaluate", tmp_path) == 2  # no manifest
    root = make_dataset(tmp_path / "mini")
    assert run_command("evaluate", root, "-a", "nope") == 2  # nothing could run
    assert run_command("evaluate", root, "--param", "oops") == 2
    assert "no manifest.jsonl" in capsys.readouterr().err


def test_default_runs_every_registered_algorithm(tmp_path, fake_algorithms, capsys):
    root = make_dataset(tmp_path / "mini")
    assert run_command("evaluate", root) == 0
    text = capsys.readouterr().out
    assert "first" in text and "crash" in text


def test_gate_flags(tmp_path, fake_algorithms, capsys):
    data_root = tmp_path / "data"
    make_dataset(data_root / "mini")
    baseline = tmp_path / "baseline.json"
    assert run_command("evaluate", "mini", "--update-baseline", "-a", "first", "--baseline", baseline,
                       "--data-root", data_root) == 0
    assert run_command("evaluate", "--gate", "--baseline", baseline, "--data-root", data_root) == 0
    assert "quality gate: passed" in capsys.readouterr().out


def test_markdown_summary(tmp_path, fake_algorithms, capsys):
    root = make_dataset(tmp_path / "mini")
    assert run_command("evaluate", root, "-a", "first,nope", "--param", "P=3", "--markdown") == 0
    text = capsys.readouterr().out
    assert "| dataset | group | algorithm |" in text
    assert "| mini | hebrew | first | 1 |" in text and "| mini | arabic-script | first | 3 |" in text
    assert "| mini | all | nope | – | unavailable" in text


def test_predictions_file_and_worst(tmp_path, fake_algorithms, capsys):
    from eval_fixtures import GOLD_PARAGRAPHS, PARAGRAPHS

    root = make_dataset(tmp_path / "mini")
    preds = tmp_path / "tool.jsonl"
    lines = [{"id": "page-fa", "text": "\n".join(PARAGRAPHS["fa"][:GOLD_PARAGRAPHS])},
             {"id": "page-ar", "text": ""},
             {"id": "page-en", "text": PARAGRAPHS["en"][0]}]
    preds.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    out = tmp_path / "out.json"
    assert run_command("evaluate", root, "-a", "first", "--predictions", preds, "--worst", "2", "--json", out) == 0
    text = capsys.readouterr().out
    assert f"file:{preds}" in text and "2 worst pages" in text
    res = {r["algorithm"]: r for r in json.loads(out.read_text())["datasets"]["mini"]["results"]}
    pages = {p["id"]: p for p in res[f"file:{preds}"]["pages"]}
    assert pages["page-fa"]["f1"] == pytest.approx(1.0)
    assert pages["page-ar"]["status"] == "empty" and pages["page-ar"]["f1"] == 0.0
    assert pages["page-he"]["status"] == "error" and pages["page-he"]["reason"] == "no prediction for this page"
    assert run_command("evaluate", root, "--predictions", tmp_path / "missing.jsonl", "-a", "first") == 0
    assert "cannot read predictions" in capsys.readouterr().out


def test_through_the_cli(tmp_path, fake_algorithms, capsys):
    root = make_dataset(tmp_path / "mini")
    assert cli.main(["evaluate", str(root), "-a", "first", "--param", "P=3"]) == 0
    assert "== mini: 5 scored pages" in capsys.readouterr().out
