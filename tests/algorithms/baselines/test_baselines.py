"""The baselines as a family: registered by name, out of the default sets, safe on every dev page."""
import json
from pathlib import Path

import pytest

import mcecrawl
from mcecrawl.algorithms import ALGORITHM_NAMES, ALGORITHMS, BASELINE_NAMES, BASELINES, ParamError, extract

ROOT = Path(__file__).resolve().parents[3]
# The seeds' table rows, each a baseline name (variants are parameters).
TABLE_ROWS = {"Plain": "plain", "BTE": "bte", "DSC": "dsc", "FE": "fe", "KFE": "kfe", "LQF-25": "lqf",
              "Crunch": "crunch", "CCB": "ccb", "ACCB-40": "accb", "TCCB-18": "tccb", "Density": "density"}


def test_every_table_row_is_a_baseline_outside_the_product_set():
    assert set(TABLE_ROWS.values()) == set(BASELINE_NAMES) == set(BASELINES)
    assert not set(BASELINE_NAMES) & set(ALGORITHMS)
    assert mcecrawl.ALGORITHMS is ALGORITHMS and list(ALGORITHMS) == list(ALGORITHM_NAMES)


def test_schemas_list_every_name():
    names = list(ALGORITHM_NAMES) + list(BASELINE_NAMES)
    item = json.loads((ROOT / "mcecrawl/schema/item.schema.json").read_text("utf-8"))
    profile = json.loads((ROOT / "mcecrawl/schema/profile.schema.json").read_text("utf-8"))
    assert sorted(item["properties"]["algorithm"]["enum"]) == sorted(names)
    assert sorted(json.dumps(profile).split('"algorithm": {"enum": ')[1].split("]")[0].strip("[").replace('"', "")
                  .split(", ")) == sorted(names)


@pytest.mark.parametrize("name", BASELINE_NAMES)
def test_bad_input_gives_a_status(name):
    assert extract(b"", algorithm=name).status == "empty"
    assert extract(b"   \n", algorithm=name).status == "empty"
    assert extract(b"\x89PNG\r\n\x1a\n" + bytes(64), algorithm=name).status == "error"
    assert extract(b"<html><body></body></html>", algorithm=name).status in ("empty", "error")
    assert extract("<p>" + "x " * 10 + "\ud800</p>", algorithm=name).status in ("ok", "empty")
    # An XML declaration (lxml refuses it in a str) and a stray "<" in the text are still a page.
    words = " ".join(["word"] * 40)
    xml = f'<?xml version="1.0" encoding="windows-1255"?><html><body><p>{words} 1 < 2</p></body></html>'
    assert extract(xml, algorithm=name).status == "ok"
    with pytest.raises(ParamError):
        extract("<p>a</p>", algorithm=name, no_such_param=1)


def test_variants_are_parameters():
    page = "<p>" + "word " * 50 + "</p>"
    assert extract(page, algorithm="tccb", K="25").params["K"] == 25
    assert extract(page, algorithm="lqf", q="75").params["q"] == 75


def test_cli_and_evaluate_take_baselines_but_default_to_the_product(tmp_path, capsys):
    from mcecrawl.cli import main

    page = tmp_path / "p.html"
    page.write_text("<html><body><p>" + "word " * 40 + "</p></body></html>", encoding="utf-8")
    assert main(["extract", "-a", "tccb", "-p", "K=25", "-f", "jsonl", str(page)]) == 0
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    assert record["algorithm"] == "tccb" and record["params"]["K"] == 25
    from mcecrawl.evaluation.runner import resolve

    resolve("bte")  # known to evaluate


# Dev sets run whole by the test (the R2L pages and the legacy-encoded ones); of the others every
# SAMPLE_EVERY-th page, to keep the test within seconds.  benchmarks/paper_tables.py runs every
# method on every page and counts the statuses (BENCHMARKS.md).
WHOLE_SETS = ("r2l", "encodings")
SAMPLE_EVERY = 10


def test_every_baseline_runs_on_the_dev_pages(shared_data):
    """Dev pages through every baseline: a status, never an exception; "error" only for markup nested
    past libxml2's depth limit (the DOM-based methods, as xpath_blocks)."""
    from mcecrawl.evaluation import load_dataset

    pages = []
    for d in sorted(shared_data.iterdir()):
        if (d / "manifest.jsonl").is_file():
            every = 1 if d.name in WHOLE_SETS else SAMPLE_EVERY
            pages += list(load_dataset(d))[::every]
    assert len(pages) > 70
    for page in pages:
        for name in BASELINE_NAMES:
            ex = extract(page.text, algorithm=name)
            assert ex.status in ("ok", "empty", "error"), (name, page.id)
            assert ex.status != "error" or "depth limit" in ex.reason, (name, page.id, ex.reason)
