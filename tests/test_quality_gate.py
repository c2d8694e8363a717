"""The CI quality gate: pinned floors hold on the pinned data; the gate's own rules are tested too."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval_fixtures import install_fake_algorithms, make_dataset
from mcecrawl.evaluation import gate
from mcecrawl.evaluation.datasets import dataset_sha256


@pytest.fixture
def fake_algorithms(monkeypatch):
    return install_fake_algorithms(monkeypatch)


def test_pinned_floors_hold(shared_data):
    """Fails when any algorithm's mean F1 on a pinned dataset drops below its floor - epsilon,
    when the pinned data changed (SHA-256), or when a pinned algorithm disappeared."""
    assert gate.DEFAULT_BASELINE.is_file(), "mcecrawl/evaluation/baseline.json is missing"
    baseline = gate.load_baseline(gate.DEFAULT_BASELINE)
    assert {"r2l", "scrapinghub_aeb"} <= set(baseline["datasets"])
    assert all(baseline["floors"].get(name) for name in ("r2l", "scrapinghub_aeb"))
    findings = gate.check(baseline, shared_data)
    failed = [f for f in findings if not f.ok]
    assert findings and not failed, "\n".join([f.line() for f in failed] + [gate.repin_hint(failed)])


@pytest.fixture
def pinned(tmp_path, fake_algorithms):
    root = tmp_path / "data"
    make_dataset(root / "mini")
    baseline, refusals = gate.repin(None, root, ["mini"], ["first"])
    assert not refusals
    return root, baseline


def test_repin_records_sha_and_floors(pinned):
    root, baseline = pinned
    assert baseline["datasets"]["mini"]["sha256"] == dataset_sha256(root / "mini")
    floors = baseline["floors"]["mini"]["first"]
    # default P=2 of the fake: the first two of three gold paragraphs; the snippet page passes
    assert 0 < floors["f1"] < 1 and floors["snippet_accuracy"] == 1.0
    assert all(f.ok for f in gate.check(baseline, root))


def test_gate_fails_when_a_floor_drops(pinned):
    root, baseline = pinned
    raised = json.loads(json.dumps(baseline))
    raised["floors"]["mini"]["first"]["f1"] += 0.05  # as if the algorithm got worse by 0.05
    findings = gate.check(raised, root)
    assert [f.figure for f in findings if not f.ok] == ["f1"]
    within = json.loads(json.dumps(baseline))
    within["floors"]["mini"]["first"]["f1"] += within["epsilon"] / 2  # noise below epsilon passes
    assert all(f.ok for f in gate.check(within, root))


def test_gate_fails_on_changed_data_or_missing_algorithm(pinned):
    root, baseline = pinned
    missing = json.loads(json.dumps(baseline))
    missing["floors"]["mini"]["gone"] = {"f1": 0.1}
    assert [f.algorithm for f in gate.check(missing, root) if not f.ok] == ["gone"]
    (root / "mini" / "gold" / "page-fa.txt").write_text("edited gold", encoding="utf-8")
    findings = gate.check(baseline, root)
    assert len(findings) == 1 and not findings[0].ok and "re-pin" in findings[0].note


def test_update_refuses_to_lower_a_floor(pinned, tmp_path, capsys):
    root, baseline = pinned
    higher = json.loads(json.dumps(baseline))
    higher["floors"]["mini"]["first"]["f1"] = 0.99
    kept, refusals = gate.repin(higher, root, ["mini"], ["first"])
    assert refusals and kept == higher
    lowered, refusals = gate.repin(higher, root, ["mini"], ["first"], allow_lower=True)
    assert not refusals and lowered["floors"]["mini"]["first"]["f1"] < 0.99
    # through the CLI entry: exit 1 and the file unchanged, then --allow-lower writes
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps(higher), encoding="utf-8")
    assert gate.main(baseline=str(path), data_root=str(root), update=True) == 1
    assert json.loads(path.read_text()) == higher
    assert "refusing to lower" in capsys.readouterr().err
    assert gate.main(baseline=str(path), data_root=str(root), update=True, allow_lower=True) == 0
    assert gate.main(baseline=str(path), data_root=str(root)) == 0
    # raising is always allowed: repin on an unchanged algorithm keeps the floor
    assert gate.repin(json.loads(path.read_text()), root, ["mini"], ["first"])[1] == []


def test_whole_page_misses_are_a_ceiling(pinned):
    """misses = pages of ``peer_ok`` scoring below MISS_F1; the pinned count may not grow."""
    root, baseline = pinned
    gated = json.loads(json.dumps(baseline))
    gated["peer_ok"] = {"mini": ["page-fa", "page-ar"]}
    gated["floors"]["mini"]["first"]["misses"] = 0
    assert all(f.ok for f in gate.check(gated, root))  # two of three gold paragraphs: F1 > 0.5
    gated["floors"]["mini"]["crash"] = {"misses": 1}
    failed = [f for f in gate.check(gated, root) if not f.ok]
    assert [(f.algorithm, f.figure, f.measured) for f in failed] == [("crash", "misses", 2)]
    assert "misses" in failed[0].note
    _, refusals = gate.repin(gated, root, ["mini"], ["crash"])
    assert refusals == ["mini/crash/misses: 1.0000 -> 2.0000"]


def test_baseline_is_package_data_and_an_installed_copy_is_not_rewritten(pinned, tmp_path, monkeypatch, capsys):
    """The default baseline sits in the package; --update-baseline writes it only in a source checkout."""
    root, _ = pinned
    assert gate.DEFAULT_BASELINE.parent == Path(gate.__file__).resolve().parent
    assert gate.in_source_checkout()  # the tests run from the checkout
    monkeypatch.setattr(gate, "in_source_checkout", lambda: False)  # as installed from the wheel
    before = gate.DEFAULT_BASELINE.read_bytes()
    assert gate.main(data_root=str(root), update=True, datasets=["mini"], algorithms=["first"]) == 2
    assert "--baseline PATH" in capsys.readouterr().err
    assert gate.DEFAULT_BASELINE.read_bytes() == before
    path = tmp_path / "mine.json"
    assert gate.main(baseline=str(path), data_root=str(root), update=True, datasets=["mini"],
                     algorithms=["first"]) == 0
    assert json.loads(path.read_text())["floors"]["mini"]["first"]
